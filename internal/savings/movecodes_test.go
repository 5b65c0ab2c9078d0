package savings

import (
	"bytes"
	"fmt"
	"math/big"

	"github.com/chessbook/chessbook/board"
)

// Real codes of the move formats whose sizes the report counts (moves.go):
// the tests write games with them and read them back, so that each size
// is one a working code reaches.

// sanBits returns the size of move m in p as SAN text with one separator
// (or terminating) byte: 8 * (len(SAN) + 1).
func sanBits(p *board.Position, m board.Move, buf []byte) int {
	return 8 * (len(p.AppendSAN(buf[:0], m)) + 1)
}

// appendSANText appends the moves of a game from start as SAN, each
// followed by a space.
func appendSANText(dst []byte, start *board.Position, moves []board.Move) []byte {
	p := *start
	for _, m := range moves {
		dst = p.AppendSAN(dst, m)
		dst = append(dst, ' ')
		p.Play(m)
	}
	return dst
}

// encodeSANText writes the moves as SAN text (appendSANText).
func encodeSANText(start *board.Position, moves []board.Move) (code, error) {
	if err := checkMoves(start, moves); err != nil {
		return code{}, err
	}
	return padded(appendSANText(nil, start, moves)), nil
}

// decodeSANText reads SAN text written by encodeSANText back into moves.
func decodeSANText(start *board.Position, c code) ([]board.Move, error) {
	if err := wholeBytes("san", c); err != nil {
		return nil, err
	}
	p := *start
	var moves []board.Move
	for _, tok := range bytes.Fields(c.Bytes) {
		m, err := p.ParseSAN(tok)
		if err != nil {
			return nil, fmt.Errorf("san: %w: %v", errCorrupt, err)
		}
		moves = append(moves, m)
		p.Play(m)
	}
	return moves, nil
}

// checkMoves checks that every move is legal where it is played.
func checkMoves(start *board.Position, moves []board.Move) error {
	p := *start
	for i, m := range moves {
		if !p.IsLegal(m) {
			return fmt.Errorf("ply %d: move %v is not legal in %s", i+1, m, p.FEN())
		}
		p.Play(m)
	}
	return nil
}

// encodeFromTo writes each move as its from and to squares (6 bits each;
// castling as the king's move) and, when it is a promotion (a pawn reaching
// the last rank, which the decoder sees on its board), 2 bits for the
// piece (knight, bishop, rook, queen) - seed 002's "12 bits per move".
func encodeFromTo(start *board.Position, moves []board.Move) (code, error) {
	if err := checkMoves(start, moves); err != nil {
		return code{}, err
	}
	var w bitWriter
	for _, m := range moves {
		w.write(uint64(m.From()), 6)
		w.write(uint64(m.To()), 6)
		if m.Kind() == board.MovePromotion {
			w.write(uint64(m.Promotion()-board.Knight), 2)
		}
	}
	return w.result(), nil
}

// decodeFromTo reads a code written by encodeFromTo; it ends exactly at
// the last move.
func decodeFromTo(start *board.Position, c code) ([]board.Move, error) {
	const format = "fromto"
	r, err := newBitReader(format, c)
	if err != nil {
		return nil, err
	}
	p := *start
	var moves []board.Move
	var legal [board.MaxMoves]board.Move
	for r.left() > 0 {
		v, err := r.read(12)
		if err != nil {
			return nil, err
		}
		from, to := board.Square(v>>6), board.Square(v&63)
		var promo board.PieceType
		if pc := p.PieceAt(from); pc.Type() == board.Pawn && (to.Rank() == 0 || to.Rank() == 7) {
			k, err := r.read(2)
			if err != nil {
				return nil, err
			}
			promo = board.Knight + board.PieceType(k)
		}
		found := false
		for _, m := range p.LegalMoves(legal[:0]) {
			if m.From() == from && m.To() == to && m.Promotion() == promo {
				moves = append(moves, m)
				p.Play(m)
				found = true
				break
			}
		}
		if !found {
			return nil, corrupt(format, "no legal move %v%v in %s", from, to, p.FEN())
		}
	}
	return moves, nil
}

// indexOf returns m's index in the legal moves of p (board's generation
// order) and their number.
func indexOf(p *board.Position, m board.Move, buf []board.Move) (idx, n int) {
	legal := p.LegalMoves(buf[:0])
	for i, lm := range legal {
		if lm == m {
			return i, len(legal)
		}
	}
	return -1, len(legal)
}

// encodeLegalIndex writes each move as its index among the legal moves in
// board's generation order, in ceil(log2 n) bits. The number of plies is
// not part of the code (a forced move takes no bit).
func encodeLegalIndex(start *board.Position, moves []board.Move) (code, error) {
	p := *start
	var w bitWriter
	var buf [board.MaxMoves]board.Move
	for i, m := range moves {
		idx, n := indexOf(&p, m, buf[:])
		if idx < 0 {
			return code{}, fmt.Errorf("legalindex: ply %d: move %v is not legal in %s", i+1, m, p.FEN())
		}
		w.write(uint64(idx), legalIndexBits(n))
		p.Play(m)
	}
	return w.result(), nil
}

// decodeLegalIndex reads plies moves written by encodeLegalIndex.
func decodeLegalIndex(start *board.Position, c code, plies int) ([]board.Move, error) {
	const format = "legalindex"
	r, err := newBitReader(format, c)
	if err != nil {
		return nil, err
	}
	p := *start
	var buf [board.MaxMoves]board.Move
	moves := make([]board.Move, 0, plies)
	for i := 0; i < plies; i++ {
		legal := p.LegalMoves(buf[:0])
		if len(legal) == 0 {
			return nil, corrupt(format, "no legal move at ply %d", i+1)
		}
		v, err := r.read(legalIndexBits(len(legal)))
		if err != nil {
			return nil, err
		}
		if v >= uint64(len(legal)) {
			return nil, corrupt(format, "index %d of %d moves", v, len(legal))
		}
		moves = append(moves, legal[v])
		p.Play(legal[v])
	}
	return moves, r.done()
}

// encodeLegalRadix writes the game as one variable-base number (seed 002:
// "this then goes back to the variable base encoding"): the first move's
// index is the least significant digit, each digit in the base of the
// number of legal moves where it is played; the number takes
// ceil(log2(prod n_i)) bits. The number of plies is not part of the code.
func encodeLegalRadix(start *board.Position, moves []board.Move) (code, error) {
	p := *start
	var buf [board.MaxMoves]board.Move
	idx := make([]int, len(moves))
	ns := make([]int, len(moves))
	max := big.NewInt(1)
	for i, m := range moves {
		idx[i], ns[i] = indexOf(&p, m, buf[:])
		if idx[i] < 0 {
			return code{}, fmt.Errorf("legalradix: ply %d: move %v is not legal in %s", i+1, m, p.FEN())
		}
		max.Mul(max, big.NewInt(int64(ns[i])))
		p.Play(m)
	}
	v := new(big.Int)
	for i := len(moves) - 1; i >= 0; i-- {
		v.Mul(v, big.NewInt(int64(ns[i])))
		v.Add(v, big.NewInt(int64(idx[i])))
	}
	width := max.Sub(max, big.NewInt(1)).BitLen()
	var w bitWriter
	for i := width - 1; i >= 0; i-- {
		w.write(uint64(v.Bit(i)), 1)
	}
	return w.result(), nil
}

// decodeLegalRadix reads plies moves written by encodeLegalRadix.
func decodeLegalRadix(start *board.Position, c code, plies int) ([]board.Move, error) {
	const format = "legalradix"
	r, err := newBitReader(format, c)
	if err != nil {
		return nil, err
	}
	v := new(big.Int)
	for r.left() > 0 {
		b, _ := r.bit()
		v.Lsh(v, 1)
		v.Or(v, big.NewInt(int64(b)))
	}
	p := *start
	var buf [board.MaxMoves]board.Move
	moves := make([]board.Move, 0, plies)
	max := big.NewInt(1)
	mod := new(big.Int)
	for i := 0; i < plies; i++ {
		legal := p.LegalMoves(buf[:0])
		if len(legal) == 0 {
			return nil, corrupt(format, "no legal move at ply %d", i+1)
		}
		n := big.NewInt(int64(len(legal)))
		max.Mul(max, n)
		v.DivMod(v, n, mod)
		m := legal[mod.Int64()]
		moves = append(moves, m)
		p.Play(m)
	}
	if v.Sign() != 0 || c.Bits != max.Sub(max, big.NewInt(1)).BitLen() {
		return nil, corrupt(format, "number out of range or of the wrong width")
	}
	return moves, nil
}

// powInt returns b^e as a big.Int.
func powInt(b, e int64) *big.Int { return new(big.Int).Exp(big.NewInt(b), big.NewInt(e), nil) }
