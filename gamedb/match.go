package gamedb

import (
	"fmt"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/gamecode"
	"github.com/chessbook/chessbook/keys"
)

// target is a position looked for in games, transpositions included: a
// game reaches it when one of its positions has the same key (placement,
// side to move, castling rights, legal en-passant square).
type target struct {
	pos   board.Position
	occ   board.Bitboard
	reach board.Reach // what the target needs of the positions before it
}

func newTarget(p *board.Position) *target {
	return &target{pos: *p, occ: p.Occupied(), reach: board.NewReach(p)}
}

// is reports whether q is the target.
func (t *target) is(q *board.Position) bool {
	return q.Occupied() == t.occ && keys.Equal(q, &t.pos)
}

// What a summary tells of a game and the target.
type reachState uint8

const (
	notReached reachState = iota // the game never reaches the target
	reached                      // it does, first at ply, playing next (0: the game ends there)
	unknown                      // the summary cannot tell: read the game record
)

// inSummary tells from summary s whether its game reaches the target: at
// which ply first, and the move it plays there.
func (t *target) inSummary(ix *gamecode.MoveIndexer, s *Summary) (ply int, next board.Move, st reachState, err error) {
	if s.FromFEN {
		return 0, 0, unknown, nil
	}
	st = notReached
	lost := false
	err = s.Walk(ix, func(p int, pos *board.Position, m board.Move) bool {
		if t.is(pos) {
			ply, next, st = p, m, reached
			if m == 0 && s.Plies > s.Coded {
				st = unknown // the move played there is past the summary
			}
			return false
		}
		lost = !t.reach.ReachableFrom(pos)
		return !lost
	})
	if err != nil {
		return 0, 0, unknown, err
	}
	if st == notReached && !lost && s.Plies > s.Coded {
		st = unknown
	}
	return ply, next, st, nil
}

// inRecord tells from game record rec whether the game reaches the
// target: at which ply first (-1: never), and the move it plays there (0:
// the game ends there).
func (t *target) inRecord(rec []byte) (ply int, next board.Move, err error) {
	ply = -1
	lost := false
	g, err := gamecode.DecodeGameUntil(rec, func(p int, q *board.Position, m board.Move) bool {
		if t.is(q) {
			ply, next = p, m
			return true
		}
		lost = !t.reach.ReachableFrom(q)
		return lost
	})
	if err != nil {
		return -1, 0, fmt.Errorf("decoding the game record: %w", err)
	}
	if ply >= 0 || lost {
		return ply, next, nil
	}
	// The last position is not given to the callback: the game may end
	// on the target.
	q := g.Start
	for _, m := range g.Moves {
		q.Play(m)
	}
	if t.is(&q) {
		return len(g.Moves), 0, nil
	}
	return -1, 0, nil
}
