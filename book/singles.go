package book

import (
	"bytes"
	"fmt"
	"github.com/chessbook/chessbook/book/counting"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/gamecode"
	"github.com/chessbook/chessbook/keys"
	"github.com/chessbook/chessbook/stats"
	"github.com/chessbook/chessbook/store"
)

// A store keeps a position reached by a single game as a single reference
// to that game rather than as a statistics record (see
// store.SSTWriter.MergeSingles): the position's statistics are what the
// game adds to it, which the functions here rebuild by replaying the game
// under the counting rule (package book/counting). Every reader of
// positions goes through Lookup, Select or Positions.

// Lookup returns the statistics of the position with key pos: its
// statistics record merged with the contribution of every game kept as a
// single reference to it. found is false when the store knows nothing of
// the position.
func Lookup(st *store.Store, pos []byte) (e stats.Entry, found bool, err error) {
	found, err = LookupInto(st, &e, pos)
	return e, found, err
}

// LookupInto is Lookup into e, whose memory it reuses.
func LookupInto(st *store.Store, e *stats.Entry, pos []byte) (bool, error) {
	found, err := st.StatsRecordInto(e, pos)
	if err != nil {
		return false, err
	}
	single, err := addSingles(st, e, pos)
	return found || single, err
}

// addSingles adds to e the contribution of every game kept as a single
// reference to position pos, and returns whether there was one.
func addSingles(st *store.Store, e *stats.Entry, pos []byte) (found bool, err error) {
	return eachSingle(st, pos, func(mv board.Move, occ *stats.Occurrence) { e.AddOccurrence(mv, occ) })
}

// eachSingle calls fn with the move played and what is counted for each
// game kept as a single reference to position pos (games referenced under
// its hash for another position are passed over), and reports whether
// there was one.
func eachSingle(st *store.Store, pos []byte, fn func(mv board.Move, occ *stats.Occurrence)) (found bool, err error) {
	var v visitor
	m := st.Meta()
	// The first ply at which a game reaches pos is counted in either
	// count mode (it is pos's first visit), and visit looks for no other:
	// it need not tell first visits from repetitions, so it counts every
	// visit (the rule of store.CountOccurrence) under the store's max-ply.
	v.SetRule(m.MaxPly, store.CountOccurrence)
	p, err := keys.Decode(pos)
	if err != nil {
		return false, nil // not a position: no game reaches it
	}
	target := keys.Hash(&p)
	err = st.SinglesOf(store.SingleHashOf(target), func(num uint64) error {
		id, stamp, err := st.GameByNumber(num)
		if err != nil {
			return fmt.Errorf("single reference of position %x: %w", pos, err)
		}
		rec, err := st.Game(id)
		if err != nil {
			return fmt.Errorf("single reference of position %x: %w", pos, err)
		}
		mv, occ, err := v.visit(rec, id, stamp, pos, target)
		if err != nil {
			return fmt.Errorf("single reference of position %x: game %s: %w", pos, id, err)
		}
		if occ.Game.ID != 0 {
			found = true
			fn(mv, &occ)
		}
		return nil
	})
	return found, err
}

// visitor finds what a game adds to one position, from its record.
type visitor struct {
	counting.Counter
	key []byte // scratch
}

// visit looks for the position with key pos (whose keys.Hash is hash)
// among the positions the game whose record is rec (stored as id, with
// first-seen stamp stamp) counts, under v's rule, and returns the move the
// game played there and what it adds; a zero occurrence if the game never
// counts pos. It decodes the record only as far as it needs, and keys only
// the positions with the hash.
func (v *visitor) visit(rec []byte, id store.GameID, stamp uint64, pos []byte, hash uint64) (board.Move, stats.Occurrence, error) {
	var (
		hit         bool
		ply, absPly int
		side        board.Color
		mv          board.Move
	)
	g, err := gamecode.DecodeGameUntil(rec, func(n int, p *board.Position, m board.Move) bool {
		if n == 0 {
			v.Start(p)
		}
		counted, over := v.Take(n, p, m)
		if over {
			return true
		}
		if !counted || v.Hash != hash {
			return false
		}
		v.key = keys.Append(v.key[:0], p)
		if bytes.Equal(v.key, pos) {
			hit, ply, absPly, side, mv = true, n, counting.PlyOf(p), p.SideToMove(), m
			return true
		}
		return false
	})
	if err != nil || !hit {
		return 0, stats.Occurrence{}, err
	}
	count := counting.CountOf(&g, id, stamp)
	return mv, *count.At(ply, absPly, side), nil
}
