package savings

import (
	"github.com/chessbook/chessbook/board"
)

// The piece codes of seed 000's basic Huffman code (empty square "0";
// pawn 10c, bishop 1100c, knight 1101c, rook 1110c, queen 11110c, king
// 11111c, c = 1 for White) and of seed 002's frequency-weighted table, in
// pieceIndex order (White P N B R Q K, then Black).
var (
	huff000Codes = [12]string{
		"101", "11011", "11001", "11101", "111101", "111111",
		"100", "11010", "11000", "11100", "111100", "111110",
	}
	huff002Codes = [12]string{
		"110", "10110", "10100", "11111", "111010", "101110",
		"100", "10101", "11100", "11110", "111011", "101111",
	}
)

// huffLen is the code length of each piece type (index board.PieceType)
// in both tables: the seed 002 table, built from the start position's
// counts, gives every piece the length seed 000 gives it.
var huffLen = [7]int{0, 3, 5, 5, 5, 6, 6}

// huffBoardBits is the length of a 64-square Huffman board with these
// lengths: one bit per empty square plus the piece codes.
func huffBoardBits(p *board.Position) int {
	n := 64 - p.Occupied().Count()
	for t := board.Pawn; t <= board.King; t++ {
		n += huffLen[t] * p.ByType(t).Count()
	}
	return n
}

// encodeHuffman002 writes the 64 squares, a1 first, with seed 002's
// frequency-weighted Huffman table, then the common state suffix.
func encodeHuffman002(p *board.Position) (code, error) {
	if err := validated("huffman002", p); err != nil {
		return code{}, err
	}
	var w bitWriter
	for s := board.Square(0); s < 64; s++ {
		if pc := p.PieceAt(s); pc == board.NoPiece {
			w.code("0")
		} else {
			w.code(huff002Codes[pieceIndex(pc)])
		}
	}
	writeState000(&w, p)
	return w.result(), nil
}

// decodeHuffman002 reads a code written by encodeHuffman002.
func decodeHuffman002(c code) (board.Position, error) {
	const format = "huffman002"
	r, err := newBitReader(format, c)
	if err != nil {
		return board.Position{}, err
	}
	table := append([]string{"0"}, huff002Codes[:]...)
	p := emptyPosition()
	for s := board.Square(0); s < 64; s++ {
		i, err := r.readCode(table)
		if err != nil {
			return board.Position{}, err
		}
		if i > 0 {
			p.Put(s, pieceOf(i-1))
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

// huff000Header is the fixed header of both seed 000 Huffman codes: side
// to move 1, fifty-move clock 7, castling rights 4, en-passant index 3.
const huff000Header = 1 + 7 + 4 + 3

// writeHuff000Header writes the header.
func writeHuff000Header(w *bitWriter, p *board.Position) {
	w.write(uint64(p.SideToMove()), 1)
	w.write(clock7(p), 7)
	for _, c := range corners {
		var v uint64
		if p.Castling()&c.right != 0 {
			v = 1
		}
		w.write(v, 1)
	}
	w.write(epIndex(p), 3)
}

// huff000State is the header as read; the en-passant index is applied
// once the board is known.
type huff000State struct {
	side, clock, ep uint64
	castling        board.CastlingRights
}

func readHuff000Header(r *bitReader) (huff000State, error) {
	var st huff000State
	var err error
	if st.side, err = r.bit(); err != nil {
		return st, err
	}
	if st.clock, err = r.read(7); err != nil {
		return st, err
	}
	if st.clock > 100 {
		return st, corrupt(r.format, "fifty-move field %d", st.clock)
	}
	for _, c := range corners {
		v, err := r.bit()
		if err != nil {
			return st, err
		}
		if v == 1 {
			st.castling |= c.right
		}
	}
	st.ep, err = r.read(3)
	return st, err
}

// apply sets the header's fields on p, whose board is decoded.
func (st huff000State) apply(format string, p *board.Position) error {
	p.SetSideToMove(board.Color(st.side))
	p.SetCastling(st.castling)
	p.SetClocks(int(st.clock), 1)
	return setEPIndex(format, p, st.ep)
}

// huffman000Bits returns the length in bits of encodeHuffman000's code of p.
func huffman000Bits(p *board.Position) int {
	occ := p.Occupied()
	last := occ.MSB()
	n := huff000Header + int(last) + 1 - occ.Count()
	for t := board.Pawn; t <= board.King; t++ {
		n += huffLen[t] * p.ByType(t).Count()
	}
	if p.PieceAt(last).Type() == board.King {
		n -= huffLen[board.King]
	}
	return n
}

// encodeHuffman000 writes seed 000's basic Huffman code: a 15-bit header
// (side to move, fifty-move clock, the four castling rights, en-passant
// index among the candidates), then the squares a1..h8 with the codes
// empty 0, pawn 10c, bishop 1100c, knight 1101c, rook 1110c, queen 11110c,
// king 11111c, trailing empty squares omitted, and the last piece omitted
// too when it is a king. Omitting the end needs the code's exact length,
// which the container keeps (code.Bits).
func encodeHuffman000(p *board.Position) (code, error) {
	if err := validated("huffman000", p); err != nil {
		return code{}, err
	}
	var w bitWriter
	writeHuff000Header(&w, p)
	last := p.Occupied().MSB()
	for s := board.Square(0); s <= last; s++ {
		pc := p.PieceAt(s)
		switch {
		case pc == board.NoPiece:
			w.code("0")
		case s == last && pc.Type() == board.King:
		default:
			w.code(huff000Codes[pieceIndex(pc)])
		}
	}
	return w.result(), nil
}

// decodeHuffman000 reads a code written by encodeHuffman000.
func decodeHuffman000(c code) (board.Position, error) {
	const format = "huffman000"
	r, err := newBitReader(format, c)
	if err != nil {
		return board.Position{}, err
	}
	st, err := readHuff000Header(r)
	if err != nil {
		return board.Position{}, err
	}
	table := append([]string{"0"}, huff000Codes[:]...)
	p := emptyPosition()
	lastCoded := board.NoPiece
scan:
	for s := board.Square(0); s < 64; s++ {
		if r.left() == 0 {
			var kings [2]int
			for col := board.White; col <= board.Black; col++ {
				kings[col] = p.Pieces(col, board.King).Count()
			}
			switch {
			case kings[0]+kings[1] == 1:
				p.Put(s, board.MakePiece(board.Color(kings[0]), board.King))
			case lastCoded == board.NoPiece || lastCoded.Type() == board.King:
				return board.Position{}, corrupt(format, "not the canonical end of the board")
			}
			break scan
		}
		i, err := r.readCode(table)
		if err != nil {
			return board.Position{}, err
		}
		lastCoded = board.NoPiece
		if i > 0 {
			lastCoded = pieceOf(i - 1)
			p.Put(s, lastCoded)
		}
	}
	if err := r.done(); err != nil {
		return board.Position{}, err
	}
	if err := st.apply(format, &p); err != nil {
		return board.Position{}, err
	}
	return finish(format, &p)
}
