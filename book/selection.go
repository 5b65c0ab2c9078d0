package book

import (
	"github.com/chessbook/chessbook/book/counting"
	"maps"
	"slices"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/pgn"
	"github.com/chessbook/chessbook/stats"
	"github.com/chessbook/chessbook/store"
)

// Query-time filters select games by speed, rating band and month. The
// store keeps, for each position with a statistics record, its games by
// (month, move, cell), a cell being a speed and a rating band (see
// stats.History); a position kept as single references is filtered by its
// games' tags. Both go through counting.CellOf (see counting.TagsOf), and the months through
// stats.PeriodOf of the game's date.

// Selection selects games for a filtered query by speed, rating band and
// month, as the lichess explorer's speeds, ratings, since and until do.
// The zero Selection selects every game.
type Selection struct {
	// Speeds keeps games of these speeds (games without a usable
	// TimeControl have none); 0: every game.
	Speeds stats.SpeedSet
	// Bands keeps games of these rating bands (games without both
	// ratings have none); 0: every game.
	Bands stats.RatingBandSet
	// Since and Until keep games of these months, both included (0: no
	// bound); with a bound, undated games are left out. A game dated to a
	// year only counts as that year's month 0: before its January, as
	// its Date sorts before every date of the year (so -until 2020.06
	// keeps it and -since 2020.06 does not, as the build-time filters do).
	Since, Until stats.Period
}

// IsZero reports whether s selects every game.
func (s Selection) IsZero() bool { return s == Selection{} }

// KeepsGame reports whether s selects game g, by its tags (TimeControl,
// WhiteElo, BlackElo, Date), as the builder files it in histories.
func (s Selection) KeepsGame(g *pgn.Game) bool {
	if s.IsZero() {
		return true
	}
	t := counting.TagsOf(g)
	return s.keeps(t.Cell, stats.PeriodOf(t.Date))
}

// keeps reports whether s selects games of cell c played in period p.
func (s Selection) keeps(c stats.Cell, p stats.Period) bool {
	if s.Speeds != 0 && !s.Speeds.Has(c.Speed()) {
		return false
	}
	if s.Bands != 0 && !s.Bands.Has(c.RatingBand()) {
		return false
	}
	if s.Since != 0 || s.Until != 0 {
		if p == 0 || (s.Since != 0 && p < s.Since) || (s.Until != 0 && p > s.Until) {
			return false
		}
	}
	return true
}

// SelectedMove is what the games a Selection keeps played from a position:
// one move's results and movers' ratings.
type SelectedMove struct {
	Move board.Move
	stats.CellStats
}

// PeriodGames is the games of one month a Selection keeps.
type PeriodGames struct {
	Period stats.Period
	stats.CellStats
}

// Selection's answer at one position: what the games it keeps played from
// it, and what it could not select.
type Selected struct {
	// Moves are the games kept by move, in move order.
	Moves []SelectedMove
	// Months are the games kept by month, in month order (the lichess
	// explorer's history).
	Months []PeriodGames
	// Unselectable counts the games the speed or rating filter could not
	// select for want of their tag.
	Unselectable Unselectable
	// Found is false when the store knows nothing of the position.
	Found bool
}

// Select returns what the games that sel keeps played from the position
// with key pos, in one pass over the position's history (see
// stats.History) and the tags of the games kept as single references to
// it.
func Select(st *store.Store, pos []byte, sel Selection) (*Selected, error) {
	out := &Selected{}
	byMove := map[board.Move]*stats.CellStats{}
	byPeriod := map[stats.Period]*stats.CellStats{}
	rest := sel // sel without its speed and band: what Unselectable counts
	rest.Speeds, rest.Bands = 0, 0
	add := func(m board.Move, c stats.Cell, p stats.Period, s *stats.CellStats) {
		if !sel.keeps(c, p) {
			if rest.keeps(c, p) {
				out.Unselectable.add(sel, c, s.Games())
			}
			return
		}
		if byMove[m] == nil {
			byMove[m] = new(stats.CellStats)
		}
		byMove[m].Merge(*s)
		if byPeriod[p] == nil {
			byPeriod[p] = new(stats.CellStats)
		}
		byPeriod[p].Merge(*s)
	}
	h, found, err := st.HistoryInto(nil, pos)
	if err != nil {
		return nil, err
	}
	for i := range h {
		r := &h[i]
		add(r.Move, r.Cell, r.Period, &r.CellStats)
	}
	single, err := eachSingle(st, pos, func(mv board.Move, occ *stats.Occurrence) {
		var s stats.CellStats
		s.Add(occ.Result, occ.MoverRating)
		add(mv, occ.Cell, stats.PeriodOf(occ.Date), &s)
	})
	if err != nil {
		return nil, err
	}
	for _, mv := range slices.Sorted(maps.Keys(byMove)) {
		out.Moves = append(out.Moves, SelectedMove{Move: mv, CellStats: *byMove[mv]})
	}
	for _, p := range slices.Sorted(maps.Keys(byPeriod)) {
		out.Months = append(out.Months, PeriodGames{Period: p, CellStats: *byPeriod[p]})
	}
	out.Found = found || single
	return out, nil
}

// Unselectable counts the games through a position that a Selection's
// speed or rating filter cannot select for want of the tag it reads: with
// speeds asked, the games without a usable TimeControl (NoSpeed); with
// rating bands asked, those without both ratings (NoRatingBand). Only the
// games its other criteria (months) keep are counted.
type Unselectable struct {
	NoSpeed  uint64 // games with no speed while sel asks for speeds
	NoRating uint64 // games with no rating band while sel asks for bands
}

// add counts n games of cell c that sel could not select, when for want
// of their speed or band.
func (u *Unselectable) add(sel Selection, c stats.Cell, n uint64) {
	if sel.Speeds != 0 && c.Speed() == stats.NoSpeed {
		u.NoSpeed += n
	}
	if sel.Bands != 0 && c.RatingBand() == stats.NoRatingBand {
		u.NoRating += n
	}
}
