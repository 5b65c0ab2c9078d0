package savings

import (
	"github.com/chessbook/chessbook/board"
)

// Fixed widths of the two seed 002 "number" codes of the board:
// ceil(log2(13^64)) and ceil(log2(11^16 * 13^48)). A test checks them
// against math/big.
const (
	base13BoardBits  = 237
	varBaseBoardBits = 233
)

// bigNat is a small natural number in 32-bit limbs, least significant first.
type bigNat []uint32

// mulAdd sets n = n*m + a.
func (n *bigNat) mulAdd(m, a uint32) {
	carry := uint64(a)
	for i, l := range *n {
		v := uint64(l)*uint64(m) + carry
		(*n)[i] = uint32(v)
		carry = v >> 32
	}
	if carry != 0 {
		*n = append(*n, uint32(carry))
	}
}

// divMod sets n = n / d and returns n % d.
func (n bigNat) divMod(d uint32) uint32 {
	var rem uint64
	for i := len(n) - 1; i >= 0; i-- {
		v := rem<<32 | uint64(n[i])
		n[i] = uint32(v / uint64(d))
		rem = v % uint64(d)
	}
	return uint32(rem)
}

// bit returns bit i.
func (n bigNat) bit(i int) uint64 {
	if i/32 >= len(n) {
		return 0
	}
	return uint64(n[i/32] >> uint(i%32) & 1)
}

// isZero reports whether n is 0.
func (n bigNat) isZero() bool {
	for _, l := range n {
		if l != 0 {
			return false
		}
	}
	return true
}

// writeNat writes the low width bits of n, most significant first.
func (w *bitWriter) writeNat(n bigNat, width int) {
	for i := width - 1; i >= 0; i-- {
		w.write(n.bit(i), 1)
	}
}

// readNat reads a width-bit number.
func (r *bitReader) readNat(width int) (bigNat, error) {
	n := make(bigNat, (width+31)/32)
	for i := width - 1; i >= 0; i-- {
		b, err := r.bit()
		if err != nil {
			return nil, err
		}
		n[i/32] |= uint32(b) << uint(i%32)
	}
	return n, nil
}

// radixDigit returns the digit of square s and its radix. In base 13 every
// square is 0 (empty) or 1 + pieceIndex. In the variable base, the squares
// of ranks 1 and 8, where no pawn can stand, take 11 values: empty, then
// White N B R Q K, then Black n b r q k.
func radixDigit(p *board.Position, s board.Square, variable bool) (digit, radix uint32) {
	pc := p.PieceAt(s)
	if variable && (s.Rank() == 0 || s.Rank() == 7) {
		if pc == board.NoPiece {
			return 0, 11
		}
		return uint32(1 + int(pc.Color())*5 + int(pc.Type()) - 2), 11
	}
	if pc == board.NoPiece {
		return 0, 13
	}
	return uint32(1 + pieceIndex(pc)), 13
}

// radixPiece is the inverse of radixDigit (digit > 0).
func radixPiece(s board.Square, digit uint32, variable bool) board.Piece {
	if variable && (s.Rank() == 0 || s.Rank() == 7) {
		d := int(digit) - 1
		return board.MakePiece(board.Color(d/5), board.PieceType(d%5+2))
	}
	return pieceOf(int(digit) - 1)
}

// encodeRadix writes the board as the number sum(d_s * prod of the radices
// of the squares after s), square a1 the most significant digit, in a
// fixed width, then the common state suffix (see writeState000).
func encodeRadix(p *board.Position, variable bool) code {
	n := make(bigNat, 1, 8)
	width := base13BoardBits
	if variable {
		width = varBaseBoardBits
	}
	for s := board.Square(0); s < 64; s++ {
		d, r := radixDigit(p, s, variable)
		n.mulAdd(r, d)
	}
	var w bitWriter
	w.writeNat(n, width)
	writeState000(&w, p)
	return w.result()
}

// decodeRadix reads what encodeRadix wrote.
func decodeRadix(format string, c code, variable bool) (board.Position, error) {
	r, err := newBitReader(format, c)
	if err != nil {
		return board.Position{}, err
	}
	width := base13BoardBits
	if variable {
		width = varBaseBoardBits
	}
	n, err := r.readNat(width)
	if err != nil {
		return board.Position{}, err
	}
	p := emptyPosition()
	for s := 63; s >= 0; s-- {
		radix := uint32(13)
		if variable && (s < 8 || s >= 56) {
			radix = 11
		}
		if d := n.divMod(radix); d != 0 {
			p.Put(board.Square(s), radixPiece(board.Square(s), d, variable))
		}
	}
	if !n.isZero() {
		return board.Position{}, corrupt(format, "number out of range")
	}
	if err := readState000(r, &p); err != nil {
		return board.Position{}, err
	}
	if err := r.done(); err != nil {
		return board.Position{}, err
	}
	return finish(format, &p)
}

// encodeBase13 writes the board as a 64-digit base-13 number (seed 002),
// 237 bits, followed by the common state suffix (side to move, castling
// bits, en-passant field; see the package documentation).
func encodeBase13(p *board.Position) (code, error) {
	if err := validated("base13", p); err != nil {
		return code{}, err
	}
	return encodeRadix(p, false), nil
}

// decodeBase13 reads a code written by encodeBase13.
func decodeBase13(c code) (board.Position, error) { return decodeRadix("base13", c, false) }

// encodeVarBase writes the board as a variable-base number (seed 002): 11
// values on ranks 1 and 8 (no pawns there), 13 elsewhere, 233 bits,
// followed by the common state suffix.
func encodeVarBase(p *board.Position) (code, error) {
	if err := validated("varbase", p); err != nil {
		return code{}, err
	}
	return encodeRadix(p, true), nil
}

// decodeVarBase reads a code written by encodeVarBase.
func decodeVarBase(c code) (board.Position, error) { return decodeRadix("varbase", c, true) }
