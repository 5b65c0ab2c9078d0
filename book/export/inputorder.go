package export

import (
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

// replayEvent is one occurrence of a replayed position: the Polyglot
// key, the move and make-book's score for the mover (2 win, 1 draw or
// unknown, 0 loss).
type replayEvent struct {
	key   uint64
	move  board.Move
	score uint8
}

// orderComplete reports whether the store's game order index lists as
// many games as the store holds: then the replay in input order can count
// every game.
func orderComplete(st *store.Store) (bool, error) {
	var n uint64
	err := st.GameOrder(func(uint64, store.GameID) (bool, error) {
		n++
		return true, nil
	})
	if err != nil {
		return false, err
	}
	return n > 0 && n == st.Meta().Games, nil
}

// orderBatch is a run of consecutive games of the input order, replayed
// by one worker: their ids, then the events they add, in order.
type orderBatch struct {
	ids    []store.GameID
	events []replayEvent
	pos    map[uint64]board.Position // the position of each key of events
	err    error
	done   chan struct{}
}

// orderBatchGames is the number of games in an orderBatch; orderAhead
// bounds the batches read but not yet counted.
const (
	orderBatchGames = 1024
	orderAhead      = 8
)

// countInInputOrder replays the games of st in input order (the game
// order index) and counts the moves played from the positions whose keys
// are cands (ply below maxPly; 0: all), as make-book counts them, under
// their Polyglot keys. A game is replayed only while it can still reach
// one of them (board.Reach): they are opening positions, and most games
// leave them within a few moves. Two goroutines read and replay batches
// of games; the counting, which depends on the order, takes the batches
// in input order, so memory holds a few batches whatever the store's
// size.
func countInInputOrder(ctx context.Context, st *store.Store, cands [][]byte, maxPly int) (map[uint64]*simPos, error) {
	want := make(map[string]bool, len(cands))
	occ := map[board.Bitboard]bool{}
	reaches := make([]board.Reach, 0, len(cands))
	for _, k := range cands {
		p, err := keys.Decode(k)
		if err != nil {
			return nil, fmt.Errorf("position key %x: %w (corrupt store?)", k, err)
		}
		want[string(k)] = true
		occ[p.Occupied()] = true
		reaches = append(reaches, board.NewReach(&p))
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	const workers = 2
	jobs := make(chan *orderBatch)
	queue := make(chan *orderBatch, orderAhead)
	var readErr error
	go func() {
		defer close(queue)
		defer close(jobs)
		b := &orderBatch{done: make(chan struct{})}
		send := func() bool {
			select {
			case queue <- b:
			case <-ctx.Done():
				return false
			}
			select {
			case jobs <- b:
			case <-ctx.Done():
				return false
			}
			b = &orderBatch{done: make(chan struct{})}
			return true
		}
		readErr = st.GameOrder(func(_ uint64, id store.GameID) (bool, error) {
			b.ids = append(b.ids, id)
			if len(b.ids) == orderBatchGames && !send() {
				return false, ctx.Err()
			}
			return true, nil
		})
		if readErr == nil && len(b.ids) > 0 {
			send()
		}
	}()
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var key []byte
			for b := range jobs {
				for _, id := range b.ids {
					if ctx.Err() != nil {
						b.err = ctx.Err()
						break
					}
					rec, err := st.Game(id)
					if err != nil {
						b.err = err
						break
					}
					start := len(b.events)
					g, err := gamecode.DecodeGameUntil(rec, func(ply int, pos *board.Position, m board.Move) bool {
						if maxPly > 0 && ply >= maxPly {
							return true
						}
						if occ[pos.Occupied()] {
							key = keys.Append(key[:0], pos)
							if want[string(key)] {
								k := polyglot.Key(pos)
								if _, ok := b.pos[k]; !ok {
									if b.pos == nil {
										b.pos = map[uint64]board.Position{}
									}
									b.pos[k] = *pos
								}
								b.events = append(b.events, replayEvent{key: k, move: m, score: uint8(pos.SideToMove())})
							}
						}
						for i := range reaches {
							if reaches[i].ReachableFrom(pos) {
								return false
							}
						}
						return true // no wanted position can follow
					})
					if err != nil {
						b.err = fmt.Errorf("game %s: %w", id, err)
						break
					}
					// The result is known once the game is decoded: the
					// events kept the mover's colour until now.
					for i := start; i < len(b.events); i++ {
						b.events[i].score = moverScore(g.Result, board.Color(b.events[i].score))
					}
				}
				close(b.done)
			}
		}()
	}
	defer wg.Wait()
	defer cancel()
	sims := map[uint64]*simPos{}
	var seen uint64
	for b := range queue {
		select {
		case <-b.done:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		if b.err != nil {
			return nil, fmt.Errorf("replaying the games: %w", b.err)
		}
		for _, e := range b.events {
			seen++
			s := sims[e.key]
			if s == nil {
				s = &simPos{key: e.key, pos: b.pos[e.key]}
				sims[e.key] = s
			}
			j := slices.IndexFunc(s.moves, func(m simMove) bool { return m.move == e.move })
			if j < 0 {
				j = len(s.moves)
				s.moves = append(s.moves, simMove{move: e.move, seen: seen})
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
	}
	if readErr != nil {
		return nil, fmt.Errorf("reading the game order: %w", readErr)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
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
