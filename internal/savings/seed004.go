package savings

import (
	"fmt"

	"github.com/chessbook/chessbook/board"
)

// kinds004 is seed 004's order of the piece kinds; within a kind White's
// men come first, each colour's men in increasing square order.
var kinds004 = [6]board.PieceType{board.Pawn, board.Rook, board.Bishop, board.Knight, board.Queen, board.King}

// slots004 is the static method's number of 6-bit chunks per kind and
// colour, and alive004 the dynamic method's Alive Bits per kind and
// colour, both in kinds004 order.
var (
	slots004 = [6]int{8, 2, 2, 2, 1, 1}
	alive004 = [6]int{4, 2, 2, 2, 1, 1}
)

// state004Bits is the length of seed 004's state fields for p: en passant
// (1 bit, plus the 6-bit square when a capture is possible), castling (4)
// and the side to move (1).
func state004Bits(p *board.Position) int {
	if p.LegalEPSquare() != board.NoSquare {
		return 12
	}
	return 6
}

func writeState004(w *bitWriter, p *board.Position) {
	if ep := p.LegalEPSquare(); ep != board.NoSquare {
		w.write(1, 1)
		w.write(uint64(ep), 6)
	} else {
		w.write(0, 1)
	}
	for _, c := range corners {
		var v uint64
		if p.Castling()&c.right != 0 {
			v = 1
		}
		w.write(v, 1)
	}
	w.write(uint64(p.SideToMove()), 1)
}

func readState004(r *bitReader, p *board.Position) error {
	flag, err := r.bit()
	if err != nil {
		return err
	}
	ep := board.NoSquare
	if flag == 1 {
		v, err := r.read(6)
		if err != nil {
			return err
		}
		ep = board.Square(v)
	}
	var cr board.CastlingRights
	for _, c := range corners {
		v, err := r.bit()
		if err != nil {
			return err
		}
		if v == 1 {
			cr |= c.right
		}
	}
	side, err := r.bit()
	if err != nil {
		return err
	}
	p.SetCastling(cr)
	p.SetSideToMove(board.Color(side))
	if ep != board.NoSquare {
		p.SetEPSquare(ep)
		if p.Validate() != nil || p.LegalEPSquare() != ep {
			return corrupt(r.format, "en-passant square %v without a legal capture", ep)
		}
	}
	return nil
}

// staticBits returns the length of encodeStatic's code of p, or -1 when
// p does not fit (more men of a kind than the method has chunks for).
func staticBits(p *board.Position) int {
	for i, t := range kinds004 {
		for c := board.White; c <= board.Black; c++ {
			if p.Pieces(c, t).Count() > slots004[i] {
				return -1
			}
		}
	}
	return 192 + state004Bits(p)
}

// encodeStatic writes seed 004's static method: 32 chunks of 6 bits, one
// per man of the initial set in kind order (pawns, rooks, bishops,
// knights, queen, king; White's before Black's), a captured man's chunk
// holding its own king's square; then seed 004's state fields (as the
// dynamic method has them) so that the code is a whole position. A
// position with more men of a kind than the initial set (a second queen)
// cannot be written: errUnrepresentable.
func encodeStatic(p *board.Position) (code, error) {
	if err := validated("static", p); err != nil {
		return code{}, err
	}
	if staticBits(p) < 0 {
		return code{}, fmt.Errorf("static: %w: %s", errUnrepresentable, p.FEN())
	}
	var w bitWriter
	for i, t := range kinds004 {
		for c := board.White; c <= board.Black; c++ {
			b := p.Pieces(c, t)
			for k := 0; k < slots004[i]; k++ {
				s := p.KingSquare(c)
				if b != 0 {
					s = b.PopLSB()
				}
				w.write(uint64(s), 6)
			}
		}
	}
	writeState004(&w, p)
	return w.result(), nil
}

// decodeStatic reads a code written by encodeStatic.
func decodeStatic(c code) (board.Position, error) {
	const format = "static"
	r, err := newBitReader(format, c)
	if err != nil {
		return board.Position{}, err
	}
	var chunks [6][2][]board.Square
	for i := range kinds004 {
		for col := 0; col < 2; col++ {
			for k := 0; k < slots004[i]; k++ {
				v, err := r.read(6)
				if err != nil {
					return board.Position{}, err
				}
				chunks[i][col] = append(chunks[i][col], board.Square(v))
			}
		}
	}
	p := emptyPosition()
	ks := [2]board.Square{chunks[5][0][0], chunks[5][1][0]}
	if ks[0] == ks[1] {
		return board.Position{}, corrupt(format, "both kings on %v", ks[0])
	}
	for i, t := range kinds004 {
		for col := 0; col < 2; col++ {
			prev := -1
			for _, s := range chunks[i][col] {
				if t != board.King && s == ks[col] {
					continue // captured
				}
				if int(s) <= prev || p.PieceAt(s) != board.NoPiece {
					return board.Position{}, corrupt(format, "chunk %v not canonical", s)
				}
				prev = int(s)
				p.Put(s, board.MakePiece(board.Color(col), t))
			}
		}
	}
	if err := readState004(r, &p); err != nil {
		return board.Position{}, err
	}
	if err := r.done(); err != nil {
		return board.Position{}, err
	}
	return finish(format, &p)
}

// dynamicBits returns the length of encodeDynamic's code of p, or -1 when
// p does not fit (a count above what the Alive Bits hold).
func dynamicBits(p *board.Position) int {
	n := state004Bits(p)
	for i, t := range kinds004 {
		for c := board.White; c <= board.Black; c++ {
			k := p.Pieces(c, t).Count()
			if k >= 1<<alive004[i] {
				return -1
			}
			n += alive004[i] + 6*k
		}
	}
	return n
}

// encodeDynamic writes seed 004's dynamic method: for each kind (pawns,
// rooks, bishops, knights, queens, kings) and colour (White first), the
// number of men alive in its Alive Bits (4 for pawns, 2 for rooks,
// bishops and knights, 1 for queens and kings), then their squares in 6
// bits each; then en passant (a flag, and the 6-bit square when a capture
// is possible), castling (4) and the side to move (1): 42 to 228 bits.
// Counts the Alive Bits cannot hold (a second queen, a third rook) give
// errUnrepresentable.
func encodeDynamic(p *board.Position) (code, error) {
	if err := validated("dynamic", p); err != nil {
		return code{}, err
	}
	if dynamicBits(p) < 0 {
		return code{}, fmt.Errorf("dynamic: %w: %s", errUnrepresentable, p.FEN())
	}
	var w bitWriter
	for i, t := range kinds004 {
		for c := board.White; c <= board.Black; c++ {
			b := p.Pieces(c, t)
			w.write(uint64(b.Count()), alive004[i])
			for b != 0 {
				w.write(uint64(b.PopLSB()), 6)
			}
		}
	}
	writeState004(&w, p)
	return w.result(), nil
}

// decodeDynamic reads a code written by encodeDynamic, at its exact
// length or zero-padded to a whole byte.
func decodeDynamic(c code) (board.Position, error) {
	const format = "dynamic"
	r, err := newBitReader(format, c)
	if err != nil {
		return board.Position{}, err
	}
	p := emptyPosition()
	for i, t := range kinds004 {
		for col := board.White; col <= board.Black; col++ {
			k, err := r.read(alive004[i])
			if err != nil {
				return board.Position{}, err
			}
			prev := -1
			for ; k > 0; k-- {
				v, err := r.read(6)
				if err != nil {
					return board.Position{}, err
				}
				s := board.Square(v)
				if int(s) <= prev || p.PieceAt(s) != board.NoPiece {
					return board.Position{}, corrupt(format, "square %v not canonical", s)
				}
				prev = int(s)
				p.Put(s, board.MakePiece(col, t))
			}
		}
	}
	if err := readState004(r, &p); err != nil {
		return board.Position{}, err
	}
	if err := r.donePadded(); err != nil {
		return board.Position{}, err
	}
	return finish(format, &p)
}

// base85Alphabet is the RFC 1924 alphabet, the one Python's
// base64.b85encode uses (seed 004's implementation is in Python).
const base85Alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz!#$%&()*+-;<=>?@^_`{|}~"

// base85Len returns the length of the base85 text of n bytes: 5
// characters per 4 bytes, k+1 for a last group of k bytes.
func base85Len(n int) int {
	l := n / 4 * 5
	if r := n % 4; r > 0 {
		l += r + 1
	}
	return l
}

// appendBase85 appends the base85 text of b (as Python's b85encode without
// padding: a last group of k bytes is padded with zeros and written as
// k+1 characters).
func appendBase85(dst, b []byte) []byte {
	for len(b) > 0 {
		var g [4]byte
		k := copy(g[:], b)
		b = b[k:]
		v := uint32(g[0])<<24 | uint32(g[1])<<16 | uint32(g[2])<<8 | uint32(g[3])
		var out [5]byte
		for i := 4; i >= 0; i-- {
			out[i] = base85Alphabet[v%85]
			v /= 85
		}
		dst = append(dst, out[:k+1]...)
	}
	return dst
}

// decodeBase85 reverses appendBase85.
func decodeBase85(s string) ([]byte, error) {
	var out []byte
	for len(s) > 0 {
		k := min(len(s), 5)
		if k == 1 {
			return nil, fmt.Errorf("base85: %w: a lone last character", errCorrupt)
		}
		var v uint64
		for i := 0; i < 5; i++ {
			d := 84 // padding: the highest digit, as Python pads
			if i < k {
				j := indexByte(base85Alphabet, s[i])
				if j < 0 {
					return nil, fmt.Errorf("base85: %w: character %q", errCorrupt, s[i])
				}
				d = j
			}
			v = v*85 + uint64(d)
		}
		if v > 1<<32-1 {
			return nil, fmt.Errorf("base85: %w: group out of range", errCorrupt)
		}
		g := [4]byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)}
		out = append(out, g[:k-1]...)
		s = s[k:]
	}
	return out, nil
}

func indexByte(s string, c byte) int {
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			return i
		}
	}
	return -1
}

// encodeDynamic85 writes the dynamic code, zero-padded to whole bytes, as
// base85 text (seed 004's short URL idea), one byte per character.
func encodeDynamic85(p *board.Position) (code, error) {
	c, err := encodeDynamic(p)
	if err != nil {
		return code{}, err
	}
	return padded(appendBase85(nil, c.Bytes)), nil
}

// decodeDynamic85 reads a code written by encodeDynamic85.
func decodeDynamic85(c code) (board.Position, error) {
	if err := wholeBytes("dynamic85", c); err != nil {
		return board.Position{}, err
	}
	b, err := decodeBase85(string(c.Bytes))
	if err != nil {
		return board.Position{}, fmt.Errorf("dynamic85: %w", err)
	}
	return decodeDynamic(padded(b))
}
