package savings

import (
	"math/bits"

	"github.com/chessbook/chessbook/board"
)

// pawnBits[n] is the width of n pawn squares written as one base-48
// number (48 squares a2..h7): ceil(log2(48^n)); 45 bits for 8 pawns.
var pawnBits = func() [9]int {
	var t [9]int
	v := uint64(1)
	for n := 1; n <= 8; n++ {
		v *= 48
		t[n] = bits.Len64(v - 1)
	}
	return t
}()

// pieceTypeCode is the 2-bit type of a non-pawn, non-king man in seed
// 002's piece positions (queen, rook, knight, bishop), by board.PieceType.
var pieceTypeCode = [7]uint64{board.Queen: 0, board.Rook: 1, board.Knight: 2, board.Bishop: 3}

// pieceTypeOf is the inverse of pieceTypeCode.
var pieceTypeOf = [4]board.PieceType{board.Queen, board.Rook, board.Knight, board.Bishop}

// piecesSideBits is the length of one side's part of the piece-position
// code.
func piecesSideBits(p *board.Position, c board.Color) int {
	n := 6 + 1 + 4
	if k := p.Pieces(c, board.Pawn).Count(); k > 0 {
		n += 3 + pawnBits[k]
	}
	others := p.ByColor(c) &^ p.ByType(board.Pawn) &^ p.ByType(board.King)
	return n + 8*others.Count()
}

// piecesBoardBits returns the length of the board part of
// encodePieces's code of p (without the state suffix).
func piecesBoardBits(p *board.Position) int {
	return piecesSideBits(p, board.White) + piecesSideBits(p, board.Black)
}

// encodePieces writes seed 002's piece positions: for White then Black,
// the king's square (6 bits), a has-pawns bit, when set the number of
// pawns minus one (3 bits) and their squares as one base-48 number
// (ceil(log2 48^n) bits, 45 for eight), the number of other men (4 bits),
// and for each a 2-bit type (queen, rook, knight, bishop) and its square
// (6 bits); squares in increasing order. Then the common state suffix.
func encodePieces(p *board.Position) (code, error) {
	if err := validated("pieces", p); err != nil {
		return code{}, err
	}
	var w bitWriter
	for c := board.White; c <= board.Black; c++ {
		w.write(uint64(p.KingSquare(c)), 6)
		pawns := p.Pieces(c, board.Pawn)
		if k := pawns.Count(); k == 0 {
			w.write(0, 1)
		} else {
			w.write(1, 1)
			w.write(uint64(k-1), 3)
			var v uint64
			for b := pawns; b != 0; {
				v = v*48 + uint64(b.PopLSB()-8)
			}
			w.write(v, pawnBits[k])
		}
		others := p.ByColor(c) &^ p.ByType(board.Pawn) &^ p.ByType(board.King)
		w.write(uint64(others.Count()), 4)
		for b := others; b != 0; {
			s := b.PopLSB()
			w.write(pieceTypeCode[p.PieceAt(s).Type()], 2)
			w.write(uint64(s), 6)
		}
	}
	writeState000(&w, p)
	return w.result(), nil
}

// decodePieces reads a code written by encodePieces.
func decodePieces(c code) (board.Position, error) {
	const format = "pieces"
	r, err := newBitReader(format, c)
	if err != nil {
		return board.Position{}, err
	}
	p := emptyPosition()
	put := func(s board.Square, pc board.Piece) error {
		if p.PieceAt(s) != board.NoPiece {
			return corrupt(format, "two men on %v", s)
		}
		p.Put(s, pc)
		return nil
	}
	for col := board.White; col <= board.Black; col++ {
		k, err := r.read(6)
		if err != nil {
			return board.Position{}, err
		}
		if err := put(board.Square(k), board.MakePiece(col, board.King)); err != nil {
			return board.Position{}, err
		}
		has, err := r.bit()
		if err != nil {
			return board.Position{}, err
		}
		if has == 1 {
			n, err := r.read(3)
			if err != nil {
				return board.Position{}, err
			}
			n++
			v, err := r.read(pawnBits[n])
			if err != nil {
				return board.Position{}, err
			}
			var sq [8]board.Square
			for i := int(n) - 1; i >= 0; i-- {
				sq[i] = board.Square(v%48 + 8)
				v /= 48
			}
			if v != 0 {
				return board.Position{}, corrupt(format, "pawn number out of range")
			}
			for i := 0; i < int(n); i++ {
				if i > 0 && sq[i] <= sq[i-1] {
					return board.Position{}, corrupt(format, "pawn squares not increasing")
				}
				if err := put(sq[i], board.MakePiece(col, board.Pawn)); err != nil {
					return board.Position{}, err
				}
			}
		}
		m, err := r.read(4)
		if err != nil {
			return board.Position{}, err
		}
		for i := 0; i < int(m); i++ {
			t, err := r.read(2)
			if err != nil {
				return board.Position{}, err
			}
			s, err := r.read(6)
			if err != nil {
				return board.Position{}, err
			}
			if err := put(board.Square(s), board.MakePiece(col, pieceTypeOf[t])); err != nil {
				return board.Position{}, err
			}
		}
	}
	if err := readState000(r, &p); err != nil {
		return board.Position{}, err
	}
	if err := r.done(); err != nil {
		return board.Position{}, err
	}
	return finish(format, &p)
}
