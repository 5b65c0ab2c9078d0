package book

import (
	"bytes"
	"context"
	"fmt"

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
// lowest id of those games (0: none).
func addSingles(st *store.Store, e *stats.Entry, pos []byte) (found bool, first store.GameID, err error) {
	m := st.Meta()
	if !m.CountMode.HasSingles() {
		return false, 0, nil
	}
	var key []byte
	err = st.Singles(pos, func(id store.GameID) error {
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
		key, mv, occ, found = visit(&g, id, pos, m.MaxPly, key, found)
		if occ.Game.ID != 0 {
			e.AddOccurrence(mv, &occ)
			if first == 0 {
				first = id // Singles gives ids in order
			}
		}
		return nil
	})
	return found, first, err
}

// visit looks for the first visit of the position with key pos in game g
// (stored as id) within maxPly plies (0: all), and returns the move g
// played there and what it adds, as the builder counts it (a zero
// occurrence if g never reaches pos); found is set when it does and
// otherwise returned as given. key is scratch space, returned for reuse.
func visit(g *pgn.Game, id store.GameID, pos []byte, maxPly int, key []byte, found bool) ([]byte, board.Move, stats.Occurrence, bool) {
	p := g.Start
	for ply, mv := range g.Moves {
		if maxPly > 0 && ply >= maxPly {
			break
		}
		key = keys.Append(key[:0], &p)
		if bytes.Equal(key, pos) {
			white, black, date := gameRatings(g)
			occ := newOccurrence(g, id, white, black, date)
			occ.Ply = ply
			occ.MoverRating = white
			if p.SideToMove() == board.Black {
				occ.MoverRating = black
			}
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
	if !singles || !st.Meta().CountMode.HasSingles() {
		return nil
	}
	return singlePositions(ctx, st, func(pos []byte, e *stats.Entry) error { return fn(pos, e) })
}

// singlePositions calls fn with every position that only single
// references reach, once each: it replays every stored game and, at each
// position the game counted and holds a single reference for, reports the
// position unless it has a statistics record (Positions reported it) or a
// game of lower id holds another reference to it.
func singlePositions(ctx context.Context, st *store.Store, fn func(pos []byte, e *stats.Entry) error) error {
	maxPly := st.Meta().MaxPly
	var (
		key, seen []byte
		offs      []seenRec
		e         stats.Entry
		n         int
	)
	return st.Games(func(id store.GameID, rec []byte) (bool, error) {
		if n++; n%1024 == 0 && ctx.Err() != nil {
			return false, ctx.Err()
		}
		g, err := gamecode.DecodeGame(rec)
		if err != nil {
			return false, fmt.Errorf("game %s: %w", id, err)
		}
		p := g.Start
		seen, offs = seen[:0], offs[:0]
		for ply, mv := range g.Moves {
			if maxPly > 0 && ply >= maxPly {
				break
			}
			key = keys.Append(key[:0], &p)
			if p.HalfMoveClock() == 0 {
				seen, offs = seen[:0], offs[:0]
			}
			again := false
			for _, r := range offs {
				if bytes.Equal(seen[r.off:r.end], key) {
					again = true
					break
				}
			}
			p.Play(mv)
			if again {
				continue
			}
			offs = append(offs, seenRec{off: int32(len(seen)), end: int32(len(seen) + len(key))})
			seen = append(seen, key...)
			has, err := st.HasSingle(store.SingleHash(key), id)
			if err != nil {
				return false, err
			}
			if !has {
				continue
			}
			found, err := st.GetInto(&e, key)
			if err != nil {
				return false, err
			}
			if found {
				continue // reported with the statistics records
			}
			_, first, err := addSingles(st, &e, key)
			if err != nil {
				return false, err
			}
			if first == id {
				if err := fn(key, &e); err != nil {
					return false, err
				}
			}
		}
		return true, nil
	})
}
