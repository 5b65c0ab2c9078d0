package gamecode

import (
	"math/bits"

	"github.com/chessbook/chessbook/board"
)

// The indexed coding (Version 3) numbers the legal moves of a position in
// a fixed order and codes the number of the move played as one of n
// equiprobable symbols. The order comes from board.MoveSets, in groups:
//
//  1. the king's moves, by destination square (castling is the king's
//     move two squares sideways);
//  2. each knight's moves, then each bishop's, rook's and queen's, the
//     pieces of a kind by square, each piece's moves by destination;
//  3. the moves of the pawns that are not pinned, by kind (pushes, double
//     pushes, captures toward file a, captures toward file h), each kind
//     by destination;
//  4. the moves of pinned pawns, by square, then by destination;
//  5. en passant captures, by the capturing pawn's square.
//
// Squares are in board order (a1, b1, ... h8). A pawn move to the last
// rank stands for four moves, the promotions to queen, rook, bishop and
// knight in that order.

// Kinds of move groups.
const (
	groupKing       = iota // the king's moves, from is its square
	groupPiece             // a knight's, bishop's, rook's or queen's moves
	groupPawns             // the unpinned pawns' moves of one kind (step)
	groupPinnedPawn        // a pinned pawn's moves, from is its square
	groupEnPassant         // en passant: dests holds the capturing pawns
)

// maxGroups bounds the groups of a position: a king, at most 63 other
// pieces, four kinds of pawn moves and en passant.
const maxGroups = 72

// moveGroup is a run of consecutive move numbers: the moves of one piece,
// or of one kind of pawn move, or en passant.
type moveGroup struct {
	dests board.Bitboard // destinations (en passant: origins)
	promo board.Bitboard // destinations that stand for four promotions
	base  int32          // the number of the group's first move
	from  board.Square   // the moving piece's square (groupKing, groupPiece, groupPinnedPawn)
	step  int8           // groupPawns: destination minus origin
	kind  uint8          // groupKing ... groupEnPassant
}

// size returns the number of moves of the group.
func (g *moveGroup) size() int32 {
	return int32(count(g.dests) + 3*count(g.dests&g.promo))
}

// indexer numbers the legal moves of a position: number maps a move to
// its number, set and move a number to its move. It allocates nothing.
type indexer struct {
	ms     board.MoveSets
	groups [maxGroups]moveGroup
	ng     int
	n      int32
	ep     board.Square
}

// set numbers the legal moves of p and returns how many there are.
func (ix *indexer) set(p *board.Position) int {
	ms := &ix.ms
	p.MoveSets(ms)
	ix.ng, ix.n, ix.ep = 0, 0, p.EPSquare()
	if ms.King >= board.NoSquare {
		return 0
	}
	us := p.SideToMove()
	ix.add(moveGroup{dests: ms.KingDests, from: ms.King, kind: groupKing})
	if ms.Target != 0 {
		occ := p.Occupied()
		for _, pt := range pieceTypes {
			for b := p.Pieces(us, pt); b != 0; b &= b - 1 {
				s := b.LSB()
				ix.add(moveGroup{dests: ms.Dests(s, pieceAttacks(pt, s, occ)), from: s, kind: groupPiece})
			}
		}
		last := promoRank(us)
		for kind := range ms.Pawns {
			ix.add(moveGroup{dests: ms.Pawns[kind], promo: last, step: int8(board.PawnStep(us, kind)), kind: groupPawns})
		}
		for b := p.Pieces(us, board.Pawn) & ms.Pinned; b != 0; b &= b - 1 {
			s := b.LSB()
			ix.add(moveGroup{dests: ms.PawnDests(s), promo: last, from: s, kind: groupPinnedPawn})
		}
	}
	ix.add(moveGroup{dests: ms.EPFrom, kind: groupEnPassant})
	return int(ix.n)
}

// pieceTypes are the types of the pieces other than king and pawns, in
// the order their moves are numbered.
var pieceTypes = [...]board.PieceType{board.Knight, board.Bishop, board.Rook, board.Queen}

// pieceAttacks returns the squares a piece of type pt (one of pieceTypes)
// on s attacks, given the occupied squares occ.
func pieceAttacks(pt board.PieceType, s board.Square, occ board.Bitboard) board.Bitboard {
	switch pt {
	case board.Knight:
		return board.KnightAttacks(s)
	case board.Bishop:
		return board.BishopAttacks(s, occ)
	case board.Rook:
		return board.RookAttacks(s, occ)
	}
	return board.QueenAttacks(s, occ)
}

// promoRank returns the rank where the pawns of colour c promote.
func promoRank(c board.Color) board.Bitboard {
	if c == board.White {
		return board.Rank8
	}
	return board.Rank1
}

// kingMove returns the king's move from one square to another: castling
// when it goes two squares sideways.
func kingMove(from, to board.Square) board.Move {
	if board.KingAttacks(from).Has(to) {
		return board.NewMove(from, to)
	}
	return board.NewMove(from, to) | board.MoveCastling
}

// add appends g, unless it has no moves.
func (ix *indexer) add(g moveGroup) {
	if g.dests == 0 || ix.ng == maxGroups {
		return
	}
	g.base = ix.n
	ix.n += g.size()
	ix.groups[ix.ng] = g
	ix.ng++
}

// number returns the number of m among the legal moves of p, in the order
// set gives them, or -1 when m is not legal in p, and how many legal moves
// p has. It stores no groups: it is the encoder's path, set and move the
// decoder's.
func (ix *indexer) number(p *board.Position, m board.Move) (i, n int) {
	ms := &ix.ms
	p.MoveSets(ms)
	if ms.King >= board.NoSquare {
		return -1, 0
	}
	from, to := m.From(), m.To()
	plain := m == board.NewMove(from, to) // no flag, no promotion piece
	i = -1
	if d := ms.KingDests; from == ms.King && d.Has(to) && m == kingMove(from, to) {
		i = countBelow(d, to)
	}
	n = count(ms.KingDests)
	if ms.Target != 0 {
		us, occ := p.SideToMove(), p.Occupied()
		for _, pt := range pieceTypes {
			for b := p.Pieces(us, pt); b != 0; b &= b - 1 {
				s := b.LSB()
				d := ms.Dests(s, pieceAttacks(pt, s, occ))
				if s == from && plain && d.Has(to) {
					i = n + countBelow(d, to)
				}
				n += count(d)
			}
		}
		last := promoRank(us)
		step := int(to) - int(from)
		for k, d := range ms.Pawns {
			if step == board.PawnStep(us, k) && d.Has(to) {
				i = pawnNumber(n, d, last, m)
			}
			n += count(d) + 3*count(d&last)
		}
		for b := p.Pieces(us, board.Pawn) & ms.Pinned; b != 0; b &= b - 1 {
			s := b.LSB()
			d := ms.PawnDests(s)
			if s == from && d.Has(to) {
				i = pawnNumber(n, d, last, m)
			}
			n += count(d) + 3*count(d&last)
		}
	}
	if d := ms.EPFrom; d.Has(from) && m == board.NewMove(from, p.EPSquare())|board.MoveEnPassant {
		i = n + countBelow(d, from)
	}
	n += count(ms.EPFrom)
	return i, n
}

// count returns the number of squares of b.
func count(b board.Bitboard) int { return bits.OnesCount64(uint64(b)) }

// countBelow returns the number of squares of b before s.
func countBelow(b board.Bitboard, s board.Square) int {
	return bits.OnesCount64(uint64(b & (s.Bitboard() - 1)))
}

// pawnNumber returns the number of pawn move m, whose destination is in d,
// the destinations of a group of pawn moves numbered from base, whose
// destinations in last stand for four promotions each; -1 when m's kind
// does not match (a promotion to the last rank, a normal move elsewhere).
func pawnNumber(base int, d, last board.Bitboard, m board.Move) int {
	to := m.To()
	k := base + countBelow(d, to) + 3*countBelow(d&last, to)
	if !last.Has(to) {
		if m != board.NewMove(m.From(), to) {
			return -1
		}
		return k
	}
	if m.Kind() != board.MovePromotion {
		return -1
	}
	return k + int(board.Queen-m.Promotion())
}

// move returns the move numbered i (0 <= i < the count set returned).
func (ix *indexer) move(i int) board.Move {
	j := 0
	for j+1 < ix.ng && int(ix.groups[j+1].base) <= i {
		j++
	}
	g := &ix.groups[j]
	return ix.moveIn(g, i-int(g.base))
}

// moveIn returns the k-th move of group g.
func (ix *indexer) moveIn(g *moveGroup, k int) board.Move {
	if g.kind == groupEnPassant {
		return board.NewMove(nthSquare(g.dests, k), ix.ep) | board.MoveEnPassant
	}
	var to board.Square
	promo := -1
	if g.dests&g.promo == 0 {
		to = nthSquare(g.dests, k)
	} else {
		for b := g.dests; b != 0; b &= b - 1 {
			s := b.LSB()
			if !g.promo.Has(s) {
				if k == 0 {
					to = s
					break
				}
				k--
				continue
			}
			if k < 4 {
				to, promo = s, k
				break
			}
			k -= 4
		}
	}
	from := g.from
	switch g.kind {
	case groupKing:
		return kingMove(from, to)
	case groupPawns:
		from = board.Square(int(to) - int(g.step))
	}
	if promo >= 0 {
		return board.NewPromotion(from, to, board.Queen-board.PieceType(promo))
	}
	return board.NewMove(from, to)
}

// nthSquare returns the k-th square (from 0, in board order) of b; b has
// more than k squares.
func nthSquare(b board.Bitboard, k int) board.Square {
	for ; k > 0; k-- {
		b &= b - 1
	}
	return b.LSB()
}
