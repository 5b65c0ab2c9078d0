package stats

import (
	"fmt"
	"slices"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/pgn"
)

// MoveEntry is one move of an [Entry] with its statistics.
type MoveEntry struct {
	Move board.Move
	MoveStats
}

// Entry is everything known about one position: the moves played from it,
// sorted by Move with no duplicates, each with its [MoveStats].
//
// The zero Entry is empty and ready to use. Entries built with [Entry.Add],
// [Entry.Merge] and [Decode] are always sorted; code that fills Moves by
// hand must keep them sorted (see [Entry.Validate]).
type Entry struct {
	Moves []MoveEntry
}

// Add adds one game's contribution to move m: the game's result, the rating
// of the player making the move (0 or less: unknown) and the date of the
// game (zero: unknown). See [MoveStats.Add].
func (e *Entry) Add(m board.Move, r pgn.Result, moverRating int, d Date) {
	i, found := e.search(m)
	if !found {
		e.Moves = slices.Insert(e.Moves, i, MoveEntry{Move: m})
	}
	e.Moves[i].Add(r, moverRating, d)
}

// AddOccurrence adds one game's contribution o to move m (see
// [MoveStats.AddOccurrence]).
func (e *Entry) AddOccurrence(m board.Move, o *Occurrence) {
	i, found := e.search(m)
	if !found {
		e.Moves = slices.Insert(e.Moves, i, MoveEntry{Move: m})
	}
	e.Moves[i].AddOccurrence(o)
}

// Merge adds o to e, move by move (see [MoveStats.Merge]). Merge is
// associative and commutative: merging the same entries in any grouping and
// any order gives the same result. o is not modified and may be e itself.
func (e *Entry) Merge(o Entry) {
	if len(o.Moves) == 0 {
		return
	}
	// Common case: o adds no new move; merge in place.
	fresh := 0
	for _, om := range o.Moves {
		if _, found := e.search(om.Move); !found {
			fresh++
		}
	}
	if fresh == 0 {
		for _, om := range o.Moves {
			i, _ := e.search(om.Move)
			e.Moves[i].Merge(om.MoveStats)
		}
		return
	}
	merged := make([]MoveEntry, 0, len(e.Moves)+fresh)
	i, j := 0, 0
	for i < len(e.Moves) || j < len(o.Moves) {
		switch {
		case j == len(o.Moves) || (i < len(e.Moves) && e.Moves[i].Move < o.Moves[j].Move):
			merged = append(merged, e.Moves[i])
			i++
		case i == len(e.Moves) || o.Moves[j].Move < e.Moves[i].Move:
			merged = append(merged, o.Moves[j])
			j++
		default:
			m := e.Moves[i]
			m.Merge(o.Moves[j].MoveStats)
			merged = append(merged, m)
			i++
			j++
		}
	}
	e.Moves = merged
}

// Lookup returns the statistics of move m, and whether m was played.
func (e Entry) Lookup(m board.Move) (MoveStats, bool) {
	if i, found := e.search(m); found {
		return e.Moves[i].MoveStats, true
	}
	return MoveStats{}, false
}

// Total returns the statistics of all moves together: the position's games,
// results, ratings and dates.
func (e Entry) Total() MoveStats {
	var t MoveStats
	for _, m := range e.Moves {
		t.Merge(m.MoveStats)
	}
	return t
}

// Games returns the number of games that went on from the position with a
// recorded move.
func (e Entry) Games() uint64 {
	var n uint64
	for _, m := range e.Moves {
		n = addSat(n, m.Games())
	}
	return n
}

// Clone returns a copy of e that shares no memory with it.
func (e Entry) Clone() Entry {
	return Entry{Moves: slices.Clone(e.Moves)}
}

// Reset empties e, keeping the capacity of its Moves for reuse.
func (e *Entry) Reset() { e.Moves = e.Moves[:0] }

// Equal reports whether e and o hold the same moves with the same
// statistics. A nil and an empty Moves are equal.
func (e Entry) Equal(o Entry) bool { return slices.Equal(e.Moves, o.Moves) }

// Validate reports an error if the moves of e are not strictly increasing.
func (e Entry) Validate() error {
	for i := 1; i < len(e.Moves); i++ {
		if e.Moves[i].Move <= e.Moves[i-1].Move {
			return fmt.Errorf("stats: entry moves not strictly increasing: %#04x after %#04x",
				uint16(e.Moves[i].Move), uint16(e.Moves[i-1].Move))
		}
	}
	return nil
}

// search returns the index of m in e.Moves, or where it would be inserted.
func (e Entry) search(m board.Move) (int, bool) {
	// Entries are small (a few moves, rarely more than 30): a linear scan
	// beats a binary search on them.
	for i, x := range e.Moves {
		if x.Move >= m {
			return i, x.Move == m
		}
	}
	return len(e.Moves), false
}
