package gamedb

import (
	"fmt"
	"math/bits"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/gamecode"
	"github.com/chessbook/chessbook/keys"
)

// target is a position looked for in games, transpositions included: a
// game reaches it when one of its positions has the same key (placement,
// side to move, castling rights, legal en-passant square).
type target struct {
	pos      board.Position
	occ      board.Bitboard
	pieces   [2]int            // pieces of each color
	pawns    [2]int            // pawns of each color
	home     [2]board.Bitboard // pawns on their starting rank, by color
	castling board.CastlingRights
}

func newTarget(p *board.Position) *target {
	t := &target{pos: *p, occ: p.Occupied(), castling: p.Castling()}
	for c := board.White; c <= board.Black; c++ {
		t.pieces[c] = bits.OnesCount64(uint64(p.ByColor(c)))
		t.pawns[c] = bits.OnesCount64(uint64(p.Pieces(c, board.Pawn)))
	}
	t.home[board.White] = p.Pieces(board.White, board.Pawn) & board.Rank2
	t.home[board.Black] = p.Pieces(board.Black, board.Pawn) & board.Rank7
	return t
}

// is reports whether q is the target.
func (t *target) is(q *board.Position) bool {
	return q.Occupied() == t.occ && keys.Equal(q, &t.pos)
}

// reachableFrom reports whether the target might be reached from q: false
// means no sequence of moves leads from q to it (moves never add pieces,
// never bring a pawn back to its starting rank, never give back a
// castling right).
func (t *target) reachableFrom(q *board.Position) bool {
	if q.Castling()&t.castling != t.castling {
		return false
	}
	wp, bp := q.Pieces(board.White, board.Pawn), q.Pieces(board.Black, board.Pawn)
	if wp&t.home[board.White] != t.home[board.White] || bp&t.home[board.Black] != t.home[board.Black] {
		return false
	}
	return bits.OnesCount64(uint64(wp)) >= t.pawns[board.White] && bits.OnesCount64(uint64(bp)) >= t.pawns[board.Black] &&
		bits.OnesCount64(uint64(q.ByColor(board.White))) >= t.pieces[board.White] &&
		bits.OnesCount64(uint64(q.ByColor(board.Black))) >= t.pieces[board.Black]
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
		lost = !t.reachableFrom(pos)
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
		lost = !t.reachableFrom(q)
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
