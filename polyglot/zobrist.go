// Package polyglot implements the Polyglot opening-book format's position
// key: the 64-bit Zobrist hash that Polyglot .bin books are sorted by.
package polyglot

import "github.com/chessbook/chessbook/board"

// Offsets into the 781 Zobrist numbers.
const (
	castleOffset = 768 // + 0 White O-O, 1 White O-O-O, 2 Black O-O, 3 Black O-O-O
	epOffset     = 772 // + file of the en-passant square
	turnOffset   = 780 // White to move
)

// Key returns the Polyglot key of p: the XOR of the Zobrist numbers of each
// piece on its square (index 64*kind + square, kind = 2*(type-1) + 1 for
// White, + 0 for Black, types pawn 1 .. king 6), of each castling right held
// (768 + 0 White O-O, 1 White O-O-O, 2 Black O-O, 3 Black O-O-O), of the
// en-passant file (772 + file) when the side to move has a pawn beside the
// pawn that just double-stepped (board's PolyglotEPFile: legality of the
// capture does not matter), and of number 780 when White is to move. The
// clocks are not part of the key.
func Key(p *board.Position) uint64 {
	var k uint64
	for t := board.Pawn; t <= board.King; t++ {
		for c := board.White; c <= board.Black; c++ {
			z := random64[64*(2*int(t-board.Pawn)+int(c^1)):][:64]
			for bb := p.Pieces(c, t); bb != 0; {
				k ^= z[bb.PopLSB()&63]
			}
		}
	}
	cr := p.Castling()
	for i := 0; i < 4; i++ {
		if cr&(1<<i) != 0 {
			k ^= random64[castleOffset+i]
		}
	}
	if f := p.PolyglotEPFile(); f >= 0 {
		k ^= random64[epOffset+f&7]
	}
	if p.SideToMove() == board.White {
		k ^= random64[turnOffset]
	}
	return k
}
