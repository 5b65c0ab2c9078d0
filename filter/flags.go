package filter

import (
	"flag"
	"strconv"

	"github.com/chessbook/chessbook/stats"
)

// Field is a set of a filter's criteria, as a command takes them as
// flags (AddFlags).
type Field uint16

// The criteria, each with its flags.
const (
	Speeds        Field = 1 << iota // -speeds
	Ratings                         // -ratings
	Modes                           // -modes
	Dates                           // -since and -until
	MinRating                       // -min-rating
	MaxRating                       // -max-rating
	Plies                           // -min-plies and -max-plies
	StandardStart                   // -standard-start-only
)

// Flags are a command's filter flags, declared by AddFlags.
type Flags struct {
	kind                                     Kind
	v                                        Values
	minRating, maxRating, minPlies, maxPlies int
}

// AddFlags declares on fs the flags of the criteria fields of a filter
// of kind k, each with its help text (one per flag and kind, so that
// every command words a flag alike): lead starts the text ("keep only
// games" for a build, "count only games" for a query, "games" for a
// search), as in "keep only games of these SPEEDS". Flags.Filter parses
// them. The numbers are int flags (the flag package refuses what is not
// a number), the rest strings.
func AddFlags(fs *flag.FlagSet, k Kind, fields Field, lead string) *Flags {
	fl := &Flags{kind: k}
	if fields&Speeds != 0 {
		fs.StringVar(&fl.v.Speeds, "speeds", "", lead+" of these `SPEEDS`, from TimeControl with lichess's bounds: some of "+stats.SpeedList)
	}
	if fields&Ratings != 0 {
		help := lead + " whose players' mean rating is in these `BANDS`: some of " + stats.RatingBandList
		if k == Build {
			help += " (as bookquery -ratings counts them)"
		}
		fs.StringVar(&fl.v.Ratings, "ratings", "", help)
	}
	if fields&Modes != 0 {
		fs.StringVar(&fl.v.Modes, "modes", "", lead+" of these `MODES`: rated, casual (a game whose Event starts with \"Casual\", as lichess names them, is casual; every other rated)")
	}
	if fields&Dates != 0 {
		var since, until string
		switch k {
		case Build:
			since = " dated on or after this `DATE`: " + DateForms
			until = " dated on or before this `DATE` (a year or month: to its end)"
		case History:
			since = " played in or after this `MONTH`: YYYY-MM (or YYYY.MM) or a year YYYY (the store counts games by month)"
			until = " played in or before this `MONTH` (a year: to its December)"
		default:
			since = " played on or after DATE: " + DateForms
			until = " played on or before DATE (a year or a month: to its end)"
		}
		fs.StringVar(&fl.v.Since, "since", "", lead+since)
		fs.StringVar(&fl.v.Until, "until", "", lead+until)
	}
	if fields&MinRating != 0 {
		help := " whose players are both rated N or more"
		if k == Build {
			help = " where both players are rated at least this"
		}
		fs.IntVar(&fl.minRating, "min-rating", 0, lead+help)
	}
	if fields&MaxRating != 0 {
		fs.IntVar(&fl.maxRating, "max-rating", 0, lead+" whose players are both rated N or less (games with an unrated player are left out)")
	}
	if fields&Plies != 0 {
		fs.IntVar(&fl.minPlies, "min-plies", 0, lead+" of N plies (half-moves) or more")
		fs.IntVar(&fl.maxPlies, "max-plies", 0, lead+" of N plies or fewer")
	}
	if fields&StandardStart != 0 {
		fs.BoolVar(&fl.v.StandardStartOnly, "standard-start-only", false, "skip games that start from a FEN")
	}
	return fl
}

// Values returns the flags' values, as Parse reads them.
func (fl *Flags) Values() Values {
	v := fl.v
	v.MinRating, v.MaxRating = strconv.Itoa(fl.minRating), strconv.Itoa(fl.maxRating)
	v.MinPlies, v.MaxPlies = strconv.Itoa(fl.minPlies), strconv.Itoa(fl.maxPlies)
	return v
}

// Filter parses the flags (Parse). Errors match ErrBadInput and name the
// flag.
func (fl *Flags) Filter() (Filter, error) { return Parse(fl.Values(), fl.kind, FromFlags) }
