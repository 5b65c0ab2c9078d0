package book

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/pgn"
	"github.com/chessbook/chessbook/stats"
	"github.com/chessbook/chessbook/store"
)

// Query-time filters select games by speed, rating band and month. The
// store keeps, for each position with a statistics record, its games by
// (month, move, cell), a cell being a speed and a rating band (see
// stats.History); a position kept as single references is filtered by its
// games' tags. Both go through gameCell (see tagsOf), and the months through
// stats.PeriodOf of the game's date.

// bandFloors are the lower bounds of lichess's rating bands (the last,
// 2500, has none above it).
var bandFloors = [...]int{0, 1000, 1200, 1400, 1600, 1800, 2000, 2200, 2500}

// NumBands is the number of rating bands.
const NumBands = len(bandFloors)

// noCellPart is a cell's speed or band when the game has none.
const noCellPart = 15

// BandOf returns the rating band (an index into 0, 1000, 1200, 1400,
// 1600, 1800, 2000, 2200, 2500) of a game between players rated white and
// black: that of the mean of both ratings, rounded down; ok is false when
// a rating is unknown (0 or less), as lichess counts such a game only
// when no rating filter is given.
func BandOf(white, black int) (band int, ok bool) {
	if white <= 0 || black <= 0 {
		return 0, false
	}
	mean := (white + black) / 2
	for band+1 < NumBands && mean >= bandFloors[band+1] {
		band++
	}
	return band, true
}

// BandFloor returns the lowest mean rating of band b.
func BandFloor(b int) int { return bandFloors[b] }

// BandList names the rating bands, for messages and help.
const BandList = "0, 1000, 1200, 1400, 1600, 1800, 2000, 2200, 2500"

// ParseBands parses a comma-separated list of lichess rating band floors
// (BandList) into a set of bands (bit b for BandOf's band b), as the
// lichess explorer's ratings parameter; "" is no filter.
func ParseBands(list string) (uint16, error) {
	var bands uint16
	for _, v := range strings.Split(list, ",") {
		v = strings.TrimSpace(v)
		if v == "" {
			continue
		}
		n, err := strconv.Atoi(v)
		found := false
		for b := 0; err == nil && b < NumBands; b++ {
			if bandFloors[b] == n {
				bands |= 1 << b
				found = true
			}
		}
		if !found {
			return 0, fmt.Errorf("unknown rating band %q (want some of %s)", v, BandList)
		}
	}
	return bands, nil
}

// gameCell returns the cell of game g, whose players are rated white and
// black: its speed (from TimeControl) and rating band, each noCellPart
// when unknown.
func gameCell(g *pgn.Game, white, black int) stats.Cell {
	speed, band := noCellPart, noCellPart
	if s, ok := SpeedOf(g.Tag("TimeControl")); ok {
		speed = int(s)
	}
	if b, ok := BandOf(white, black); ok {
		band = b
	}
	return stats.NewCell(speed, band)
}

// Selection selects games for a filtered query by speed, rating band and
// month, as the lichess explorer's speeds, ratings, since and until do.
// The zero Selection selects every game.
type Selection struct {
	// Speeds keeps games of these speeds (games without a usable
	// TimeControl have none); 0: every game.
	Speeds SpeedSet
	// Bands keeps games of these rating bands (bit b for band b, see
	// BandOf; games without both ratings have none); 0: every game.
	Bands uint16
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
	t := tagsOf(g)
	return s.keeps(t.cell, stats.PeriodOf(t.date))
}

// keeps reports whether s selects games of cell c played in period p.
func (s Selection) keeps(c stats.Cell, p stats.Period) bool {
	if s.Speeds != 0 && (c.Speed() >= int(numSpeeds) || !s.Speeds.Has(Speed(c.Speed()))) {
		return false
	}
	if s.Bands != 0 && (c.Band() >= NumBands || s.Bands&(1<<c.Band()) == 0) {
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

// Selected returns what the games that sel keeps played from the position
// with key pos: by move, in move order, and by month, in month order (the
// lichess explorer's history). It reads the position's history (see
// stats.History) and the tags of the games kept as single references to
// it. found is false when the store knows nothing of the position.
func Selected(st *store.Store, pos []byte, sel Selection) (moves []SelectedMove, months []PeriodGames, found bool, err error) {
	byMove := map[board.Move]*stats.CellStats{}
	byPeriod := map[stats.Period]*stats.CellStats{}
	add := func(m board.Move, p stats.Period, s *stats.CellStats) {
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
		return nil, nil, false, err
	}
	for i := range h {
		if r := &h[i]; sel.keeps(r.Cell, r.Period) {
			add(r.Move, r.Period, &r.CellStats)
		}
	}
	single, err := eachSingle(st, pos, func(mv board.Move, occ *stats.Occurrence) {
		if p := stats.PeriodOf(occ.Date); sel.keeps(occ.Cell, p) {
			var s stats.CellStats
			s.Add(occ.Result, occ.MoverRating)
			add(mv, p, &s)
		}
	})
	if err != nil {
		return nil, nil, false, err
	}
	for _, mv := range slices.Sorted(maps.Keys(byMove)) {
		moves = append(moves, SelectedMove{Move: mv, CellStats: *byMove[mv]})
	}
	for _, p := range slices.Sorted(maps.Keys(byPeriod)) {
		months = append(months, PeriodGames{Period: p, CellStats: *byPeriod[p]})
	}
	return moves, months, found || single, nil
}
