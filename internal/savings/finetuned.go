package savings

import (
	"math/bits"

	"github.com/chessbook/chessbook/board"
)

// ftPrefix is the fine-tuned code of each piece type without its colour
// bit: with the kings out of the scan the queen needs 5 bits, not 6.
var ftPrefix = [6]string{"", "10", "1101", "1100", "1110", "1111"}

// ftHeader is the fine-tuned code's fixed header: the basic code's 15 bits,
// both king squares (6 + 6), the run-code selector (1) and the number of
// men of the first colour met in the scan (4).
const ftHeader = huff000Header + 12 + 1 + 4

// ftOptions switch off fine-tunings, to measure what each one saves.
type ftOptions struct {
	noColourCount bool // no count field: every piece keeps its colour bit
}

// runCost is the length of the compact code of g empty squares: 1 for
// one ("0"), 5 for 2-9 ("00nnn"), 8 for 10-41 ("00nnn0nn"); longer runs
// are split into runs of 41 and the rest.
func runCost(g int) int {
	n := 0
	for g > 41 {
		n += 8
		g -= 41
	}
	switch {
	case g == 0:
	case g == 1:
		n++
	case g <= 9:
		n += 5
	default:
		n += 8
	}
	return n
}

// ftScan measures the scan part of the fine-tuned code.
type ftScan struct {
	straight  int         // bits of the empty squares, one bit each
	compact   int         // bits of the empty squares with run codes
	pieceBits int         // bits of the piece codes, colour bits included
	first     board.Color // colour of the first man in the scan
	count     int         // men of that colour in the scan
}

// ftMeasure computes the lengths of the scan of p's non-king men in
// square order, king squares skipped, trailing empty squares omitted.
func ftMeasure(p *board.Position, opt ftOptions) ftScan {
	kings := p.ByType(board.King)
	occ := p.Occupied() &^ kings
	var sc ftScan
	if occ == 0 {
		return sc
	}
	sc.first = p.PieceAt(occ.LSB()).Color()
	firsts := p.ByColor(sc.first) &^ kings
	sc.count = firsts.Count()
	for t := board.Pawn; t <= board.Queen; t++ {
		sc.pieceBits += len(ftPrefix[t]) * (p.ByType(t) & occ).Count()
	}
	sc.pieceBits += occ.Count()
	if !opt.noColourCount {
		// no colour bit after the first colour's last man
		last := firsts.MSB()
		sc.pieceBits -= (occ &^ (board.Bitboard(2)<<last - 1)).Count()
	}
	// The runs of empty squares up to the last man, on the board with the
	// king squares taken out (62 squares: the runs around a king join).
	c := uint64(occ)
	for _, k := range [2]board.Square{kings.MSB(), kings.LSB()} {
		low := uint64(1)<<k - 1
		c = c&low | c>>1&^low
	}
	top := 63 - bits.LeadingZeros64(c)
	e := ^c & (uint64(1)<<top - 1)
	sc.straight = bits.OnesCount64(e)
	e2 := e & (e >> 1)
	e8 := e2 & (e2 >> 2)
	e8 &= e8 >> 4
	e10 := e8 & (e2 >> 8)
	e32 := e8 & (e8 >> 8)
	e32 &= e32 >> 16
	if e32&(e8>>32)&(e2>>40) != 0 { // a run of 42 or more
		for e != 0 {
			s := bits.TrailingZeros64(e)
			l := bits.TrailingZeros64(^(e >> s))
			sc.compact += runCost(l)
			e &^= (uint64(1)<<l - 1) << s
		}
		return sc
	}
	sc.compact = bits.OnesCount64(e&^(e<<1)) + 4*bits.OnesCount64(e2&^(e2<<1)) + 3*bits.OnesCount64(e10&^(e10<<1))
	return sc
}

// ftBits is the length of the fine-tuned code of p with options opt.
func ftBits(p *board.Position, opt ftOptions) int {
	sc := ftMeasure(p, opt)
	n := ftHeader + sc.pieceBits + min(sc.straight, sc.compact)
	if opt.noColourCount {
		n -= 4
	}
	return n
}

// fineTunedBits returns the length in bits of encodeFineTuned's code of p.
func fineTunedBits(p *board.Position) int { return ftBits(p, ftOptions{}) }

// encodeFineTuned writes seed 000's fine-tuned Huffman code, with the
// fine-tunings the seed describes that fit together:
//
//   - the basic code's 15-bit header (side, fifty-move clock, castling,
//     en-passant index);
//   - both kings as 6-bit squares, their squares left out of the scan (the
//     empty runs on both sides of a king join), the queen in 5 bits
//     (1111c);
//   - a selector bit: 0 codes each empty square as "0", 1 codes runs
//     compactly: one square "0", 2-9 squares "00nnn", 10-41 squares
//     "00nnn0nn" (a zero after a run extends it by two bits); the encoder
//     picks the shorter;
//   - 4 bits giving the number of men of the colour of the first man met
//     in the scan; after the last of them the colour bits are left out;
//   - the scan of the other 62 squares, trailing empty squares omitted
//     (the exact length is kept, as for the basic code).
//
// Not taken: the "maximum count reached" colour rule (the seed's own
// examples ignore promotions) and the pawnless piece table.
func encodeFineTuned(p *board.Position) (code, error) {
	if err := validated("finetuned", p); err != nil {
		return code{}, err
	}
	sc := ftMeasure(p, ftOptions{})
	var w bitWriter
	writeHuff000Header(&w, p)
	w.write(uint64(p.KingSquare(board.White)), 6)
	w.write(uint64(p.KingSquare(board.Black)), 6)
	compact := sc.compact < sc.straight
	if compact {
		w.write(1, 1)
	} else {
		w.write(0, 1)
	}
	w.write(uint64(sc.count), 4)
	kings := p.ByType(board.King)
	occ := p.Occupied() &^ kings
	gap := 0
	written := 0
	for s := board.Square(0); s < 64 && occ != 0; s++ {
		if kings.Has(s) {
			continue
		}
		if !occ.Has(s) {
			gap++
			continue
		}
		writeRun(&w, gap, compact)
		gap = 0
		occ &^= s.Bitboard()
		pc := p.PieceAt(s)
		w.code(ftPrefix[pc.Type()])
		if written < sc.count {
			w.write(uint64(1-pc.Color()), 1)
		}
		if pc.Color() == sc.first {
			written++
		}
	}
	return w.result(), nil
}

// writeRun writes g empty squares.
func writeRun(w *bitWriter, g int, compact bool) {
	if !compact {
		for ; g > 0; g-- {
			w.code("0")
		}
		return
	}
	for g > 0 {
		k := min(g, 41)
		switch {
		case k == 1:
			w.code("0")
		case k <= 9:
			w.code("00")
			w.write(uint64(k-2), 3)
		default:
			v := uint64(k - 10)
			w.code("00")
			w.write(v>>2, 3)
			w.code("0")
			w.write(v&3, 2)
		}
		g -= k
	}
}

// decodeFineTuned reads a code written by encodeFineTuned.
func decodeFineTuned(c code) (board.Position, error) {
	const format = "finetuned"
	r, err := newBitReader(format, c)
	if err != nil {
		return board.Position{}, err
	}
	st, err := readHuff000Header(r)
	if err != nil {
		return board.Position{}, err
	}
	p := emptyPosition()
	var ks [2]board.Square
	for col := range ks {
		v, err := r.read(6)
		if err != nil {
			return board.Position{}, err
		}
		ks[col] = board.Square(v)
	}
	if ks[0] == ks[1] {
		return board.Position{}, corrupt(format, "both kings on %v", ks[0])
	}
	p.Put(ks[0], board.WhiteKing)
	p.Put(ks[1], board.BlackKing)
	sel, err := r.bit()
	if err != nil {
		return board.Position{}, err
	}
	count, err := r.read(4)
	if err != nil {
		return board.Position{}, err
	}
	var scan []board.Square
	for s := board.Square(0); s < 64; s++ {
		if s != ks[0] && s != ks[1] {
			scan = append(scan, s)
		}
	}
	i := 0
	written := 0
	first := board.Color(2) // not yet known
	for r.left() > 0 {
		b, _ := r.bit()
		if b == 0 { // empty squares
			run := 1
			if nb, ok := r.peek(); sel == 1 && ok && nb == 0 {
				r.bit()
				v, err := r.read(3)
				if err != nil {
					return board.Position{}, err
				}
				run = int(v) + 2
				if nb, ok := r.peek(); ok && nb == 0 {
					r.bit()
					lo, err := r.read(2)
					if err != nil {
						return board.Position{}, err
					}
					run = int(v<<2|lo) + 10
				}
			}
			if i+run > len(scan) {
				return board.Position{}, corrupt(format, "empty squares past the end of the board")
			}
			i += run
			continue
		}
		if i >= len(scan) {
			return board.Position{}, corrupt(format, "men past the end of the board")
		}
		var t board.PieceType
		if b2, err := r.bit(); err != nil {
			return board.Position{}, err
		} else if b2 == 0 {
			t = board.Pawn
		} else {
			v, err := r.read(2)
			if err != nil {
				return board.Position{}, err
			}
			t = [4]board.PieceType{board.Bishop, board.Knight, board.Rook, board.Queen}[v]
		}
		var col board.Color
		if written < int(count) {
			cb, err := r.bit()
			if err != nil {
				return board.Position{}, err
			}
			col = board.Color(1 - cb)
			if first == 2 {
				first = col
			}
			if col == first {
				written++
			}
		} else {
			if first == 2 {
				return board.Position{}, corrupt(format, "a man with a colour count of 0")
			}
			col = first.Other()
		}
		p.Put(scan[i], board.MakePiece(col, t))
		i++
	}
	if written != int(count) {
		return board.Position{}, corrupt(format, "colour count %d, %d men found", count, written)
	}
	if err := st.apply(format, &p); err != nil {
		return board.Position{}, err
	}
	return finish(format, &p)
}
