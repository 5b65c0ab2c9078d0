package keys

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/bits"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/huffman"
	"github.com/chessbook/chessbook/multitable"
)

// MaxLen is an upper bound on the length in bytes of any key (of any
// position that passes board's Validate). A [MaxLen]byte buffer always
// suffices for Append. Keys of real games are much shorter: about 12 bytes
// on average, rarely above 20.
const MaxLen = 49

// FormatVersion is the version of the key format this package codes (see
// FORMAT.md): frozen, so that keys stay comparable across builds. A store
// records it (store.Meta.KeyFormat).
const FormatVersion = 1

// ErrVariant is wrapped by Check's error for a position of a chess variant
// the key format cannot code: the castling rights of a Chess960 position
// (the format's castling category assumes rooks on a / h and kings on e).
var ErrVariant = errors.New("keys: castling rights of a Chess960 position are not in key format 1")

// Check returns nil when the key format codes p's castling, or an error
// wrapping ErrVariant naming p: a Chess960 position (board.CastlingChess960)
// that keeps a castling right. A Chess960 position without castling
// rights is coded as the standard position with the same pieces, which it
// is. Append leaves dst unchanged, and Encode returns nil, whenever Check
// fails.
func Check(p *board.Position) error {
	if p.CastlingMode() != board.CastlingStandard && p.Castling() != 0 {
		return fmt.Errorf("%w: %s", ErrVariant, p.FEN())
	}
	return nil
}

// ErrInvalidKey is wrapped by every error Decode and ParseCode return for
// input that is not a key.
var ErrInvalidKey = errors.New("keys: invalid key")

// The frozen codes, flattened for the encoder's hot loop: word<<4 | length,
// 0 for a symbol without code. Built once at init, never written after.
var (
	squareEnc  [64][SquareSymbols]uint32
	landingEnc [64][PieceSymbols]uint32
	kingEnc    [2][64]uint32
	skipOf     [multitable.Count]board.Bitboard
	kingOf     [multitable.Count][2]board.Square
)

func init() {
	for s := 0; s < 64; s++ {
		for sym := range squareEnc[s] {
			squareEnc[s][sym] = squareCode(s).Packed(sym)
		}
		for sym := range landingEnc[s] {
			landingEnc[s][sym] = landingCode(s).Packed(sym)
		}
	}
	for c := 0; c < 2; c++ {
		for s := 0; s < 64; s++ {
			kingEnc[c][s] = kingCode(c).Packed(s)
		}
	}
	for cat := 0; cat < multitable.Count; cat++ {
		im := multitable.Implies(uint8(cat))
		skipOf[cat] = im.Skip
		kingOf[cat] = im.Kings
	}
}

// Encode returns the key of p (see Append), or nil if p cannot be
// represented.
func Encode(p *board.Position) []byte {
	var buf [MaxLen]byte
	k := Append(buf[:0], p)
	if len(k) == 0 {
		return nil
	}
	return append([]byte(nil), k...)
}

// Append appends the key of p to dst and returns the extended slice. It
// allocates nothing when dst has MaxLen bytes of spare capacity.
//
// The key depends only on the placement of the pieces, the side to move,
// the castling rights and the en-passant square when an en-passant capture
// is legal (p.LegalEPSquare); the move clocks and an en-passant square
// without a legal capture do not count. p must be a valid position (board's
// Validate). Positions the format cannot represent (not exactly one king
// per side, a pawn on the first or eighth rank, a bad piece value, and
// the castling rights of a Chess960 position: see Check) leave dst
// unchanged; for other invalid positions the result is unspecified.
func Append(dst []byte, p *board.Position) []byte {
	wks, bks := p.Pieces(board.White, board.King), p.Pieces(board.Black, board.King)
	if wks == 0 || bks == 0 || wks.Several() || bks.Several() {
		return dst
	}
	if p.CastlingMode() != board.CastlingStandard && p.Castling() != 0 {
		return dst // see Check
	}
	wk, bk := wks.LSB(), bks.LSB()
	cat := multitable.Category(p)
	n0 := len(dst)
	// The bit writer's state lives in locals (registers) in this hot loop:
	// acc holds nb pending bits (nb < 32 between codes), buf the output.
	buf := append(dst, cat)
	acc, nb := uint64(p.SideToMove()&1), uint(1)
	// miss becomes 1 if a symbol has no code (e == 0): e-1 has its top bit
	// set only then, as code words take at most 19 bits packed.
	var miss uint32
	implied := kingOf[cat]
	if implied[board.White] == board.NoSquare {
		e := kingEnc[board.White][wk]
		miss |= (e - 1) >> 31
		buf, acc, nb = put(buf, acc, nb, uint64(e>>4), uint(e&15))
	}
	if implied[board.Black] == board.NoSquare {
		e := kingEnc[board.Black][bk]
		miss |= (e - 1) >> 31
		buf, acc, nb = put(buf, acc, nb, uint64(e>>4), uint(e&15))
	}

	skip := uint64(skipOf[cat] | wk.Bitboard() | bk.Bitboard())
	rest := ^skip                       // scan squares not yet coded
	occ := uint64(p.Occupied()) &^ skip // pieces to code
	for occ != 0 {
		s := bits.TrailingZeros64(occ)
		occ &= occ - 1
		start := bits.TrailingZeros64(rest)
		pc := p.PieceAt(board.Square(s)) & 15
		if start == s {
			e := squareEnc[s][pc]
			miss |= (e - 1) >> 31
			buf, acc, nb = put(buf, acc, nb, uint64(e>>4), uint(e&15))
		} else {
			g := bits.OnesCount64(rest & (1<<uint(s) - 1))
			e1, e2 := squareEnc[start][RunBase+g], landingEnc[s][pc]
			miss |= (e1-1)>>31 | (e2-1)>>31
			// Both code words at once (at most 30 bits).
			buf, acc, nb = put(buf, acc, nb, uint64(e1>>4)<<(e2&15)|uint64(e2>>4), uint(e1&15+e2&15))
		}
		rest &^= 1<<uint(s)<<1 - 1
	}
	if rest != 0 {
		e := squareEnc[bits.TrailingZeros64(rest)][RunBase+bits.OnesCount64(rest)]
		miss |= (e - 1) >> 31
		buf, acc, nb = put(buf, acc, nb, uint64(e>>4), uint(e&15))
	}
	if miss != 0 {
		return dst[:n0]
	}
	w := huffman.NewBitWriter(buf)
	w.WriteBits(acc, nb)

	if c := epCandidates(p); c != 0 {
		// The position's en-passant square counts when it is one of the
		// legal ones (legalEP checks exactly what LegalEPSquare does).
		legal, n := legalEP(p, c)
		v := 0
		for i := 0; i < n; i++ {
			if legal[i] == p.EPSquare() {
				v = i + 1
			}
		}
		if n > 0 {
			w.WriteBits(uint64(v), uint(bits.Len(uint(n))))
		}
	}
	return w.Bytes()
}

// put writes the n-bit code v (n <= 32) into the accumulator acc of nb
// pending bits, moving whole 32-bit words to buf.
func put(buf []byte, acc uint64, nb uint, v uint64, n uint) ([]byte, uint64, uint) {
	acc = acc<<n | v
	nb += n
	if nb >= 32 {
		nb -= 32
		buf = binary.BigEndian.AppendUint32(buf, uint32(acc>>nb))
	}
	return buf, acc, nb
}

// epCandidates returns the pawns of the side not to move that may just have
// double-stepped next to a pawn of the side to move: on their fourth rank,
// with the squares they skipped over and came from empty.
func epCandidates(p *board.Position) board.Bitboard {
	occ := p.Occupied()
	if p.SideToMove() == board.White {
		ours := p.Pieces(board.White, board.Pawn) & board.Rank5
		c := p.Pieces(board.Black, board.Pawn) & board.Rank5
		c &= (ours<<1)&^board.FileA | (ours>>1)&^board.FileH
		return c &^ (occ>>8 | occ>>16)
	}
	ours := p.Pieces(board.Black, board.Pawn) & board.Rank4
	c := p.Pieces(board.White, board.Pawn) & board.Rank4
	c &= (ours<<1)&^board.FileA | (ours>>1)&^board.FileH
	return c &^ (occ<<8 | occ<<16)
}

// legalEP returns, in file order, the en-passant squares behind the
// candidate pawns c on which an en-passant capture would be legal.
func legalEP(p *board.Position, c board.Bitboard) (sq [8]board.Square, n int) {
	q := *p
	for c != 0 {
		s := c.PopLSB()
		ep := s + 8
		if p.SideToMove() == board.Black {
			ep = s - 8
		}
		q.SetEPSquare(ep)
		if q.LegalEPSquare() == ep {
			sq[n] = ep
			n++
		}
	}
	return sq, n
}
