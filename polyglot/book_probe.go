package polyglot

import (
	"fmt"
	"slices"
	"strings"

	"github.com/chessbook/chessbook/board"
)

// ProbeMove is one book move of a position, as Probe returns it.
type ProbeMove struct {
	Move    board.Move // the move, legal in the probed position (castling as the king's move)
	Weight  uint16     // the entry's weight, > 0
	Percent float64    // Weight as a percentage of the position's total weight (0..100]
	Entry   Entry      // the book entry
}

// Probe returns the book moves of position p, heaviest first (entries of
// equal weight in book order), with each move's share of the position's
// total weight.
//
// Weight-0 entries (deleted) are skipped. When a move has several entries
// (a duplicate, as in books with an unsorted tail), the first one in file
// order is used and the others are ignored; Check reports them.
//
// Entries whose move is not legal in p (or is not a move at all) are left
// out of the result and out of the percentages. Probe then still returns
// the legal moves, together with a *BadMovesError that lists the bad
// entries: a caller that only wants the playable moves may use the moves
// and log the error. A book is never wrong enough to make Probe fail
// outright; err is nil or a *BadMovesError.
func (b *Book) Probe(p *board.Position) ([]ProbeMove, error) {
	moves, _, bad := b.probe(p, false)
	if bad != nil {
		return moves, bad
	}
	return moves, nil
}

// IgnoredEntry is an entry of a probed position's key that Probe does not
// list, and why.
type IgnoredEntry struct {
	Entry  Entry
	Reason string
}

// Reasons of an IgnoredEntry, but for a move not legal in the position,
// whose reason says why (as in BadMovesError).
const (
	ReasonDeleted   = "weight 0 (deleted)"
	ReasonDuplicate = "a second entry of the same move (the first one counts)"
)

// ProbeEntries is Probe with every entry of p's key accounted for: the
// moves Probe returns, and the entries it leaves out, in file order, each
// with the reason: ReasonDeleted, why its move is not legal in p, or
// ReasonDuplicate.
func (b *Book) ProbeEntries(p *board.Position) ([]ProbeMove, []IgnoredEntry) {
	moves, ignored, _ := b.probe(p, true)
	return moves, ignored
}

// probe is Probe's walk over the entries of p's key: the moves, the
// entries left out (when withIgnored), and the error for the moves not
// legal in p (nil when there are none).
func (b *Book) probe(p *board.Position, withIgnored bool) (moves []ProbeMove, ignored []IgnoredEntry, bad *BadMovesError) {
	key := Key(p)
	entries := b.Lookup(key)
	if len(entries) == 0 {
		return nil, nil, nil
	}
	moves = make([]ProbeMove, 0, len(entries))
	ignore := func(e Entry, reason string) {
		if withIgnored {
			ignored = append(ignored, IgnoredEntry{Entry: e, Reason: reason})
		}
	}
	var total uint64
	for _, e := range entries {
		if e.Weight == 0 {
			ignore(e, ReasonDeleted)
			continue
		}
		m, reason := decodeMove(p, e.Move)
		if reason != "" {
			if bad == nil {
				bad = &BadMovesError{Key: key, FEN: p.FEN()}
			}
			bad.Entries = append(bad.Entries, BadMove{Entry: e, Reason: reason})
			ignore(e, reason)
			continue
		}
		if slices.ContainsFunc(moves, func(pm ProbeMove) bool { return pm.Move == m }) {
			ignore(e, ReasonDuplicate)
			continue
		}
		moves = append(moves, ProbeMove{Move: m, Weight: e.Weight, Entry: e})
		total += uint64(e.Weight)
	}
	for i := range moves {
		moves[i].Percent = 100 * float64(moves[i].Weight) / float64(total)
	}
	slices.SortStableFunc(moves, func(x, y ProbeMove) int { return int(y.Weight) - int(x.Weight) })
	if len(moves) == 0 {
		moves = nil
	}
	return moves, ignored, bad
}

// BadMove is a book entry whose move is not legal in the probed position.
type BadMove struct {
	Entry  Entry
	Reason string // for example "is not legal"
}

// BadMovesError reports the entries of a position whose moves are not legal
// there: a broken book, or a key collision with another position.
type BadMovesError struct {
	Key     uint64 // the position's key
	FEN     string // the position
	Entries []BadMove
}

// Error implements the error interface.
func (e *BadMovesError) Error() string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "polyglot: %d book entr", len(e.Entries))
	if len(e.Entries) == 1 {
		sb.WriteString("y")
	} else {
		sb.WriteString("ies")
	}
	fmt.Fprintf(&sb, " of key %016x (%s) not legal there:", e.Key, e.FEN)
	for i, b := range e.Entries {
		if i == 8 {
			fmt.Fprintf(&sb, " and %d more", len(e.Entries)-i)
			break
		}
		if i > 0 {
			sb.WriteByte(',')
		}
		fmt.Fprintf(&sb, " %s (weight %d) %s", MoveString(b.Entry.Move), b.Entry.Weight, b.Reason)
	}
	return sb.String()
}
