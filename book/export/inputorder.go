package export

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"sync"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/gamecode"
	"github.com/chessbook/chessbook/keys"
	"github.com/chessbook/chessbook/pgn"
	"github.com/chessbook/chessbook/polyglot"
	"github.com/chessbook/chessbook/store"
)

// PolyGlot's make-book counts as the games come: each time a move of a
// position reaches halvingLimit, it halves every move of the position, so
// its counts there depend on the order of the games; and it breaks weight
// ties in the order the moves were first seen under each Polyglot key. A
// store's totals can not tell either at a few positions: those where a
// move was played halvingLimit times or more, and those split by
// PolyGlot's en-passant rule whose first occurrence under one of the keys
// is unknown. For those, the export replays the stored games in input
// order (the game order index of -count occurrence builds) and counts as
// make-book does.

// simMove is one move of a replayed Polyglot position, counted as
// make-book counts it.
type simMove struct {
	move   board.Move
	n, sum uint64
	seen   uint64 // order of first occurrence, from 1
}

// simPos is a replayed Polyglot position: one Polyglot key of a position
// of the store.
type simPos struct {
	key    uint64
	pos    board.Position
	moves  []simMove
	halved int // times the moves were halved
}

// replayEvent is one occurrence of a replayed position: the game's rank in
// input order, the ply, the Polyglot key, the move and make-book's score
// for the mover (2 win, 1 draw or unknown, 0 loss).
type replayEvent struct {
	rank  uint32
	ply   uint32
	key   uint64
	move  board.Move
	score uint8
}

// gameOrder returns the rank of every game of the store's game order
// index, in input order, and whether the index covers every stored game.
func gameOrder(st *store.Store) (map[store.GameID]uint32, bool, error) {
	rank := map[store.GameID]uint32{}
	err := st.GameOrder(func(_ uint64, id store.GameID) (bool, error) {
		rank[id] = uint32(len(rank))
		return true, nil
	})
	if err != nil {
		return nil, false, err
	}
	return rank, len(rank) > 0 && uint64(len(rank)) == st.Meta().Games, nil
}

// countInInputOrder replays every game of st, in the input order given by rank, and
// counts the moves played from the positions whose keys are cands (ply
// below maxPly; 0: all), as make-book counts them, under their Polyglot
// keys. Two goroutines read and replay the games; the counting, which
// depends on the order, runs after.
func countInInputOrder(ctx context.Context, st *store.Store, rank map[store.GameID]uint32, cands [][]byte, maxPly int) (map[uint64]*simPos, error) {
	want := make(map[string]bool, len(cands))
	occ := map[board.Bitboard]bool{}
	for _, k := range cands {
		p, err := keys.Decode(k)
		if err != nil {
			return nil, fmt.Errorf("position key %x: %w (corrupt store?)", k, err)
		}
		want[string(k)] = true
		occ[p.Occupied()] = true
	}
	const half = store.GameID(1 << 63)
	bounds := [][2]store.GameID{{0, half}, {half, 0}}
	events := make([][]replayEvent, len(bounds))
	positions := make([]map[uint64]board.Position, len(bounds))
	errs := make([]error, len(bounds))
	var wg sync.WaitGroup
	for i, b := range bounds {
		wg.Add(1)
		go func() {
			defer wg.Done()
			positions[i] = map[uint64]board.Position{}
			var key []byte
			n := 0
			errs[i] = st.GamesBetween(b[0], b[1], func(id store.GameID, rec []byte) (bool, error) {
				if n++; n&1023 == 0 {
					if err := ctx.Err(); err != nil {
						return false, err
					}
				}
				r, ok := rank[id]
				if !ok {
					return false, fmt.Errorf("game %s is not in the game order index", id)
				}
				g, err := gamecode.DecodeGame(rec)
				if err != nil {
					return false, fmt.Errorf("game %s: %w", id, err)
				}
				pos := g.Start
				for ply, m := range g.Moves {
					if maxPly > 0 && ply >= maxPly {
						break
					}
					if occ[pos.Occupied()] {
						key = keys.Append(key[:0], &pos)
						if want[string(key)] {
							k := polyglot.Key(&pos)
							if _, ok := positions[i][k]; !ok {
								positions[i][k] = pos
							}
							events[i] = append(events[i], replayEvent{rank: r, ply: uint32(ply), key: k, move: m, score: moverScore(g.Result, pos.SideToMove())})
						}
					}
					pos.Play(m)
				}
				return true, nil
			})
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("replaying the games: %w", err)
		}
	}
	all := slices.Concat(events...)
	events = nil
	slices.SortFunc(all, func(a, b replayEvent) int {
		if c := cmp.Compare(a.rank, b.rank); c != 0 {
			return c
		}
		return cmp.Compare(a.ply, b.ply)
	})
	sims := map[uint64]*simPos{}
	for i, e := range all {
		s := sims[e.key]
		if s == nil {
			pos, ok := positions[0][e.key]
			if !ok {
				pos = positions[1][e.key]
			}
			s = &simPos{key: e.key, pos: pos}
			sims[e.key] = s
		}
		j := slices.IndexFunc(s.moves, func(m simMove) bool { return m.move == e.move })
		if j < 0 {
			j = len(s.moves)
			s.moves = append(s.moves, simMove{move: e.move, seen: uint64(i) + 1})
		}
		s.moves[j].n++
		s.moves[j].sum += uint64(e.score)
		if s.moves[j].n >= halvingLimit {
			for k := range s.moves {
				s.moves[k].n = (s.moves[k].n + 1) / 2
				s.moves[k].sum = (s.moves[k].sum + 1) / 2
			}
			s.halved++
		}
	}
	return sims, nil
}

// moverScore returns make-book's score of a game's result for the side
// to move: 2 for a win, 0 for a loss, 1 for a draw or an unknown result.
func moverScore(r pgn.Result, mover board.Color) uint8 {
	switch {
	case r == pgn.WhiteWins && mover == board.White, r == pgn.BlackWins && mover == board.Black:
		return 2
	case r == pgn.WhiteWins, r == pgn.BlackWins:
		return 0
	}
	return 1
}
