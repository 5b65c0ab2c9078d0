package book

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"slices"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/gamecode"
	"github.com/chessbook/chessbook/keys"
	"github.com/chessbook/chessbook/pgn"
	"github.com/chessbook/chessbook/stats"
	"github.com/chessbook/chessbook/store"
)

// A store keeps a position reached by a single game as a single reference
// to that game rather than as a statistics record (see store.SetSingle):
// the position's statistics are what the game adds to it, which the
// functions here rebuild by replaying the game with the builder's rules.
// Every reader of positions goes through Entry or Positions.

// newOccurrence returns what game g, stored as id, adds to each position
// it counts, but for the ply and the mover's rating: white and black are
// the players' ratings and date the game's date.
func newOccurrence(g *pgn.Game, id store.GameID, white, black int, date stats.Date) stats.Occurrence {
	return stats.Occurrence{Result: g.Result, Date: date,
		Game: stats.GameRef{ID: uint64(id), Rating: averageRating(white, black), Date: date}}
}

// setPly completes occ, what a game adds to the positions it counts, for
// the move played at ply ply by side: the ply, the mover's rating (white
// and black are the players') and the first-seen stamp from the game's
// stamp (0: none).
func setPly(occ *stats.Occurrence, ply int, side board.Color, white, black int, stamp uint64) {
	occ.Ply = ply
	occ.MoverRating = white
	if side == board.Black {
		occ.MoverRating = black
	}
	if stamp != 0 {
		occ.Seen = stamp | uint64(min(ply, 1<<12-1))
	}
}

// gameRatings returns the players' ratings and the date of g, as the
// builder reads them.
func gameRatings(g *pgn.Game) (white, black int, date stats.Date) {
	return rating(g.Tag("WhiteElo")), rating(g.Tag("BlackElo")), stats.ParseDate(string(g.Tag("Date")))
}

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
	single, _, err := addSingles(st, e, pos)
	return found || single, err
}

// addSingles adds to e the contribution of every game kept as a single
// reference to position pos, and returns whether there was one and the
// lowest number of those games (0: none).
func addSingles(st *store.Store, e *stats.Entry, pos []byte) (found bool, first uint64, err error) {
	m := st.Meta()
	var key []byte
	err = st.Singles(pos, func(num uint64) error {
		id, stamp, err := st.GameByNumber(num)
		if err != nil {
			return fmt.Errorf("single reference of position %x: %w", pos, err)
		}
		rec, err := st.Game(id)
		if err != nil {
			return fmt.Errorf("single reference of position %x: %w", pos, err)
		}
		g, err := gamecode.DecodeGame(rec)
		if err != nil {
			return fmt.Errorf("single reference of position %x: game %s: %w", pos, id, err)
		}
		var occ stats.Occurrence
		var mv board.Move
		key, mv, occ, found = visit(&g, id, stamp, pos, m.MaxPly, key, found)
		if occ.Game.ID != 0 {
			e.AddOccurrence(mv, &occ)
			if first == 0 {
				first = num // Singles gives numbers in order
			}
		}
		return nil
	})
	return found, first, err
}

// visit looks for the first visit of the position with key pos in game g
// (stored as id, with first-seen stamp stamp) within maxPly plies (0: all), and returns the move g
// played there and what it adds, as the builder counts it (a zero
// occurrence if g never reaches pos); found is set when it does and
// otherwise returned as given. key is scratch space, returned for reuse.
func visit(g *pgn.Game, id store.GameID, stamp uint64, pos []byte, maxPly int, key []byte, found bool) ([]byte, board.Move, stats.Occurrence, bool) {
	p := g.Start
	for ply, mv := range g.Moves {
		if maxPly > 0 && ply >= maxPly {
			break
		}
		key = keys.Append(key[:0], &p)
		if bytes.Equal(key, pos) {
			white, black, date := gameRatings(g)
			occ := newOccurrence(g, id, white, black, date)
			setPly(&occ, ply, p.SideToMove(), white, black, stamp)
			return key, mv, occ, true
		}
		p.Play(mv)
	}
	return key, 0, stats.Occurrence{}, found
}

// Positions calls fn with every position of the store that has a
// statistics record, with its statistics (see Entry), in the byte order of
// position keys; then, when singles is set, with every position reached by
// a single game only, in the order of the games' ids. pos and e are only
// valid during the call. Positions reached by a single game are typically
// most of a store: a caller that wants only positions of at least two
// games leaves singles unset and skips replaying every stored game.
func Positions(ctx context.Context, st *store.Store, singles bool, fn func(pos []byte, e *stats.Entry) error) error {
	it, err := st.NewIter()
	if err != nil {
		return err
	}
	var e stats.Entry
	n := 0
	for ok := it.First(); ok; ok = it.Next() {
		if n++; n%4096 == 0 && ctx.Err() != nil {
			_ = it.Close()
			return ctx.Err()
		}
		if err := it.EntryInto(&e); err != nil {
			_ = it.Close()
			return err
		}
		if _, _, err := addSingles(st, &e, it.Key()); err != nil {
			_ = it.Close()
			return err
		}
		if err := fn(it.Key(), &e); err != nil {
			_ = it.Close()
			return err
		}
	}
	if err := it.Close(); err != nil {
		return err
	}
	if !singles {
		return nil
	}
	return singlePositions(ctx, st, func(pos []byte, e *stats.Entry) error { return fn(pos, e) })
}

// singleChunk is the most single references singlePositions holds in
// memory at once (8 bytes each); a store with more is listed in several
// passes over its games.
const singleChunk = 32 << 20

// singlePositions calls fn with every position that only single
// references reach, once each. It replays every numbered game and, at each
// position the game counted and holds a single reference for, reports the
// position unless it has a statistics record (Positions reported it) or a
// game of lower number holds another reference to it. The references are
// read into memory, a range of game numbers at a time.
func singlePositions(ctx context.Context, st *store.Store, fn func(pos []byte, e *stats.Entry) error) error {
	// The hashes of positions with statistics records, and those with
	// references from several games: the positions found under them take
	// the slow path (reading the store); the others are reported from
	// their game alone.
	slow := map[uint32]bool{}
	it, err := st.NewIter()
	if err != nil {
		return err
	}
	for ok := it.First(); ok; ok = it.Next() {
		slow[store.SingleHash(it.Key())] = true
	}
	if err := it.Close(); err != nil {
		return err
	}
	var total int
	var last store.SingleRef
	err = st.AllSingles(func(r store.SingleRef) (bool, error) {
		if total > 0 && r.Hash == last.Hash {
			slow[r.Hash] = true
		}
		total++
		last = r
		return true, nil
	})
	if err != nil {
		return err
	}
	m := st.Meta()
	end := max(m.NextGame, 1)
	passes := uint64(total/singleChunk + 1)
	step := (end-1)/passes + 1
	for lo := uint64(1); lo < end; lo += step {
		hi := min(lo+step, end)
		refs := make([]uint64, 0, min(total, singleChunk+singleChunk/4))
		err := st.AllSingles(func(r store.SingleRef) (bool, error) {
			if r.Game >= lo && r.Game < hi {
				refs = append(refs, (r.Game-lo)<<32|uint64(r.Hash))
			}
			return true, nil
		})
		if err != nil {
			return err
		}
		slices.Sort(refs)
		r := singleReplayer{st: st, maxPly: m.MaxPly, slow: slow, fn: fn}
		err = st.GameNumbers(lo, hi, func(num uint64, id store.GameID, stamp uint64) (bool, error) {
			if ctx.Err() != nil {
				return false, ctx.Err()
			}
			i, _ := slices.BinarySearch(refs, (num-lo)<<32)
			j, _ := slices.BinarySearch(refs, (num-lo+1)<<32)
			if i == j {
				return true, nil // no single reference to this game
			}
			return true, r.game(num, id, stamp, refs[i:j])
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// singleReplayer replays games for singlePositions.
type singleReplayer struct {
	st        *store.Store
	maxPly    int
	slow      map[uint32]bool
	fn        func(pos []byte, e *stats.Entry) error
	key, seen []byte
	offs      []seenRec
	e         stats.Entry
}

// game replays game num (id), whose single references are refs (low 32
// bits: the hashes, in order), and reports the positions only single
// references reach that it is the lowest-numbered game of.
func (r *singleReplayer) game(num uint64, id store.GameID, stamp uint64, refs []uint64) error {
	rec, err := r.st.Game(id)
	if err != nil {
		return fmt.Errorf("game number %d: %w", num, err)
	}
	g, err := gamecode.DecodeGame(rec)
	if err != nil {
		return fmt.Errorf("game %s: %w", id, err)
	}
	white, black, date := gameRatings(&g)
	occ := newOccurrence(&g, id, white, black, date)
	p := g.Start
	r.seen, r.offs = r.seen[:0], r.offs[:0]
	for ply, mv := range g.Moves {
		if r.maxPly > 0 && ply >= r.maxPly {
			break
		}
		r.key = keys.Append(r.key[:0], &p)
		if p.HalfMoveClock() == 0 {
			r.seen, r.offs = r.seen[:0], r.offs[:0]
		}
		again := false
		for _, o := range r.offs {
			if bytes.Equal(r.seen[o.off:o.end], r.key) {
				again = true
				break
			}
		}
		side := p.SideToMove()
		p.Play(mv)
		if again {
			continue
		}
		r.offs = append(r.offs, seenRec{off: int32(len(r.seen)), end: int32(len(r.seen) + len(r.key))})
		r.seen = append(r.seen, r.key...)
		h := store.SingleHash(r.key)
		if _, ok := slices.BinarySearchFunc(refs, h, func(v uint64, h uint32) int { return cmp.Compare(uint32(v), h) }); !ok {
			continue
		}
		if r.slow[h] {
			// Other references under the hash, or a statistics record
			// with it: read the position from the store.
			found, err := r.st.GetInto(&r.e, r.key)
			if err != nil {
				return err
			}
			if found {
				continue // reported with the statistics records
			}
			_, first, err := addSingles(r.st, &r.e, r.key)
			if err != nil {
				return err
			}
			if first != num {
				continue
			}
		} else {
			setPly(&occ, ply, side, white, black, stamp)
			r.e.Reset()
			r.e.AddOccurrence(mv, &occ)
		}
		if err := r.fn(r.key, &r.e); err != nil {
			return err
		}
	}
	return nil
}
