package filter

import "github.com/chessbook/chessbook/stats"

// Unit is what a filter's dates compare: a build and a search compare
// days, a store's histories count games by month.
type Unit uint8

// The units of a filter's dates.
const (
	Days   Unit = iota // the games' dates as given
	Months             // the games' months (stats.Period): bounds are months or years
)

// ModeSet is a set of game modes; the zero ModeSet keeps both.
type ModeSet uint8

// The game modes.
const (
	Rated  ModeSet = 1 << iota // every game but casual ones
	Casual                     // games whose Event starts with "Casual" (lichess's casual games)
)

// Filter selects games by speed, rating band, mode, date, ratings, length
// and start. The zero Filter keeps every game; each criterion left at its
// zero value keeps every game too.
type Filter struct {
	// Speeds keeps games of these speeds (from the TimeControl tag,
	// lichess's bounds); games without a usable TimeControl have none.
	Speeds stats.SpeedSet
	// Bands keeps games whose players' mean rating is in these rating
	// bands; games without both ratings have none.
	Bands stats.RatingBandSet
	// Modes keeps Rated or Casual games.
	Modes ModeSet
	// Since and Until keep the games dated within [Since, Until], both
	// included (0: that end open); with a bound, undated games are left
	// out. A date known to its month or year only is its month's or
	// year's day 0: it sorts before every day of it (so that -since 2024
	// keeps the games dated 2024.??.??). Parse gives an end known to its
	// year or month as the last day of it. With Unit Months, they compare
	// as the months of the dates (a year-only date is its year's month 0).
	Since, Until stats.Date
	// Unit says how the dates compare: by day or by month.
	Unit Unit
	// MinRating keeps the games whose players are both rated at least
	// this (0 or less: no bound; with a bound, games with an unrated
	// player are left out). MaxRating keeps those whose players are both
	// rated at most this (0: no bound; with a bound, games with an
	// unrated player are left out).
	MinRating, MaxRating int
	// MinPlies and MaxPlies bound the games' length in plies (0: no
	// bound).
	MinPlies, MaxPlies int
	// StandardStartOnly leaves out the games that start from a FEN.
	StandardStartOnly bool
}

// Game is what a filter reads of a game.
type Game struct {
	Cell               stats.Cell // speed and rating band (stats.CellOf)
	Date               stats.Date // 0: unknown
	WhiteElo, BlackElo int        // 0: unknown
	Plies              int
	Casual             bool // the Event says so (lichess: "Casual ...")
	FromFEN            bool // the game starts from a FEN
}

// Reason is the criterion of a Filter that leaves a game out.
type Reason uint8

// The reasons, in the order Leaves checks them. The first four are those
// of a build (ByStart to BySpeed: build.FilterReasons), in the order of
// its summary.
const (
	ByStart  Reason = iota // StandardStartOnly: the game starts from a FEN
	ByRating               // MinRating, MaxRating or Bands (or a rating unknown)
	ByDate                 // Since and Until (or the date unknown)
	BySpeed                // Speeds (or no usable TimeControl)
	ByMode                 // Modes
	ByLength               // MinPlies and MaxPlies
	numReasons
)

// reasonNames are the Reasons as bookbuild's summary and -json report
// (its FilteredBy keys) and bookbeam's summary say them.
var reasonNames = [numReasons]string{"starts from a FEN", "rating", "date", "speed", "mode", "length"}

// String names the reason.
func (r Reason) String() string {
	if r < numReasons {
		return reasonNames[r]
	}
	return "unknown"
}

// IsZero reports whether f keeps every game.
func (f *Filter) IsZero() bool {
	g := *f
	g.Unit = 0
	return g == Filter{}
}

// DatesOnly reports whether f filters by date alone (or keeps every
// game): what the game index's postings, which hold the games' dates,
// can tell without the games' summaries.
func (f *Filter) DatesOnly() bool {
	g := *f
	g.Since, g.Until, g.Unit = 0, 0, 0
	return g == Filter{}
}

// Keeps reports whether f keeps game g.
func (f *Filter) Keeps(g *Game) bool {
	_, left := f.Leaves(g)
	return !left
}

// Leaves reports whether f leaves game g out, and by which criterion
// first, in the order of the Reasons.
func (f *Filter) Leaves(g *Game) (Reason, bool) {
	switch {
	case f.StandardStartOnly && g.FromFEN:
		return ByStart, true
	case f.MinRating > 0 && (g.WhiteElo < f.MinRating || g.BlackElo < f.MinRating):
		return ByRating, true
	case f.MaxRating != 0 && (g.WhiteElo == 0 || g.BlackElo == 0 || g.WhiteElo > f.MaxRating || g.BlackElo > f.MaxRating):
		return ByRating, true
	case f.Bands != 0 && !f.Bands.Has(g.Cell.RatingBand()):
		return ByRating, true
	case !f.KeepsDate(g.Date):
		return ByDate, true
	case f.Speeds != 0 && !f.Speeds.Has(g.Cell.Speed()):
		return BySpeed, true
	case f.Modes != 0 && f.Modes&modeOf(g.Casual) == 0:
		return ByMode, true
	case (f.MinPlies != 0 && g.Plies < f.MinPlies) || (f.MaxPlies != 0 && g.Plies > f.MaxPlies):
		return ByLength, true
	}
	return 0, false
}

// modeOf returns the mode of a game, casual or not.
func modeOf(casual bool) ModeSet {
	if casual {
		return Casual
	}
	return Rated
}

// KeepsDate reports whether f's Since and Until keep a game dated d (0:
// unknown), by day or by month as f.Unit says.
func (f *Filter) KeepsDate(d stats.Date) bool {
	if f.Since == 0 && f.Until == 0 {
		return true
	}
	if f.Unit == Months {
		return f.keepsPeriod(stats.PeriodOf(d))
	}
	return d != 0 && (f.Since == 0 || d >= f.Since) && (f.Until == 0 || d <= f.Until)
}

// KeepsCell reports whether f keeps the games of history cell c (speed
// and rating band) played in month p, as a store's histories count them:
// by Speeds, Bands and the months of Since and Until, whatever f.Unit.
// Its other criteria are not asked (a history does not know them).
func (f *Filter) KeepsCell(c stats.Cell, p stats.Period) bool {
	if f.Speeds != 0 && !f.Speeds.Has(c.Speed()) {
		return false
	}
	if f.Bands != 0 && !f.Bands.Has(c.RatingBand()) {
		return false
	}
	return f.Since == 0 && f.Until == 0 || f.keepsPeriod(p)
}

// keepsPeriod reports whether month p (0: unknown) is within the months
// of f's bounds, one of which at least is set.
func (f *Filter) keepsPeriod(p stats.Period) bool {
	return p != 0 && (f.Since == 0 || int(p) >= month(f.Since)) && (f.Until == 0 || int(p) <= month(f.Until))
}

// month returns the month of date d as stats.Period numbers it (year<<4 |
// month), with no bound on the year (a bound past stats.Period's years
// keeps none before it).
func month(d stats.Date) int { return d.Year()<<4 | d.Month() }
