package book

import (
	"bytes"
	"fmt"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/gamecode"
	"github.com/chessbook/chessbook/keys"
	"github.com/chessbook/chessbook/stats"
	"github.com/chessbook/chessbook/store"
)

// A store keeps a position reached by a single game as a single reference
// to that game rather than as a statistics record (see
// store.SSTWriter.MergeSingles):
// the position's statistics are what the game adds to it, which the
// functions here rebuild by replaying the game with the builder's rules.
// Every reader of positions goes through Entry or Positions.

// Entry returns the statistics of the position with key pos: its
// statistics record merged with the contribution of every game kept as a
// single reference to it. found is false when the store knows nothing of
// the position.
func Entry(st *store.Store, pos []byte) (e stats.Entry, found bool, err error) {
	found, err = EntryInto(st, &e, pos)
	return e, found, err
}

// EntryInto is Entry into e, whose memory it reuses.
func EntryInto(st *store.Store, e *stats.Entry, pos []byte) (bool, error) {
	found, err := st.GetInto(e, pos)
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
	m := st.Meta()
	var key []byte
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
		var occ stats.Occurrence
		var mv board.Move
		key, mv, occ, err = visit(rec, id, stamp, pos, target, m.MaxPly, key)
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

// visit looks for the first visit of the position with key pos (whose
// keys.Hash is hash) in the game whose record is rec (stored as id, with
// first-seen stamp stamp) within maxPly plies (0: all), and returns the
// move the game played there and what it adds, as the builder counts it;
// a zero occurrence if the game never reaches pos. It decodes the record
// only as far as it needs, and keys only the positions with the hash. key
// is scratch space, returned for reuse.
func visit(rec []byte, id store.GameID, stamp uint64, pos []byte, hash uint64, maxPly int, key []byte) ([]byte, board.Move, stats.Occurrence, error) {
	var (
		hit         bool
		ply, absPly int
		side        board.Color
		mv          board.Move
	)
	g, err := gamecode.DecodeGameUntil(rec, func(n int, p *board.Position, m board.Move) bool {
		if maxPly > 0 && n >= maxPly {
			return true
		}
		if keys.Hash(p) != hash {
			return false
		}
		key = keys.Append(key[:0], p)
		if bytes.Equal(key, pos) {
			hit, ply, absPly, side, mv = true, n, plyOf(p), p.SideToMove(), m
			return true
		}
		return false
	})
	if err != nil || !hit {
		return key, 0, stats.Occurrence{}, err
	}
	white, black, date := gameRatings(&g)
	occ := newOccurrence(&g, id, white, black, date)
	setPly(&occ, ply, absPly, side, white, black, stamp)
	return key, mv, occ, nil
}
