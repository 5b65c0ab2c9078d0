package savings

import (
	"math/bits"

	"github.com/chessbook/chessbook/board"
)

// streamHeader is the stream code's two bytes "for the 50-move rule and
// such things": side to move 1, castling rights 4, en-passant file 4 (0
// none, else file + 1, legal captures only), fifty-move clock 7.
const streamHeader = 16

// streamGapCost is the length of a gap of g empty squares in the stream
// code: one nibble for 1-3 squares, two for 4-19, longer gaps split into
// gaps of 19 and the rest.
func streamGapCost(g int) int {
	n := 0
	for g > 19 {
		n += 8
		g -= 19
	}
	switch {
	case g == 0:
	case g <= 3:
		n += 4
	default:
		n += 8
	}
	return n
}

// streamBoardBits is the length of the board part of the stream code of
// the occupancy occ: a nibble per man and the gaps' codes. Gaps of 1-19
// squares cost 4 bits, 4 more from 4 squares on: counted with run masks;
// only boards with a gap of 20 or more take the slow path.
func streamBoardBits(occ board.Bitboard) int {
	e := ^occ
	e2 := e & (e >> 1)
	e4 := e2 & (e2 >> 2)
	e16 := e4 & (e4 >> 4)
	e16 &= e16 >> 8
	if e16&(e4>>16) != 0 { // a gap of 20 or more
		return streamBoardBitsSlow(occ)
	}
	runs := (e &^ (e << 1)).Count()
	long := (e4 &^ (e4 << 1)).Count()
	return 4*occ.Count() + 4*runs + 4*long
}

// streamBoardBitsSlow is streamBoardBits run by run.
func streamBoardBitsSlow(occ board.Bitboard) int {
	n := 4 * occ.Count()
	for e := ^occ; e != 0; {
		s := e.LSB()
		g := bits.TrailingZeros64(^uint64(e >> s))
		n += streamGapCost(g)
		if s+board.Square(g) >= 64 {
			break
		}
		e &^= (board.Bitboard(1)<<g - 1) << s
	}
	return n
}

// streamBits returns the length in bits of encodeStream's code of p.
func streamBits(p *board.Position) int {
	return streamHeader + streamBoardBits(p.Occupied())
}

// encodeStream writes seed 000's stream code: the 16-bit header, then the
// squares a1..h8 as nibbles: 0-11 a piece (White P N B R Q K, then
// Black), 12-14 one to three empty squares, 15 followed by a nibble n for
// n+4 (4-19) empty squares. Longer gaps are split into gaps of 19 and the
// rest; the trailing gap is written too.
func encodeStream(p *board.Position) (code, error) {
	if err := validated("stream", p); err != nil {
		return code{}, err
	}
	var w bitWriter
	w.write(uint64(p.SideToMove()), 1)
	for _, c := range corners {
		var v uint64
		if p.Castling()&c.right != 0 {
			v = 1
		}
		w.write(v, 1)
	}
	var ep uint64
	if s := p.LegalEPSquare(); s != board.NoSquare {
		ep = uint64(s.File() + 1)
	}
	w.write(ep, 4)
	w.write(clock7(p), 7)
	gap := 0
	flush := func() {
		for gap > 0 {
			k := min(gap, 19)
			if k <= 3 {
				w.write(uint64(11+k), 4)
			} else {
				w.write(15, 4)
				w.write(uint64(k-4), 4)
			}
			gap -= k
		}
	}
	for s := board.Square(0); s < 64; s++ {
		pc := p.PieceAt(s)
		if pc == board.NoPiece {
			gap++
			continue
		}
		flush()
		w.write(uint64(pieceIndex(pc)), 4)
	}
	flush()
	return w.result(), nil
}

// decodeStream reads a code written by encodeStream.
func decodeStream(c code) (board.Position, error) {
	const format = "stream"
	r, err := newBitReader(format, c)
	if err != nil {
		return board.Position{}, err
	}
	side, err := r.bit()
	if err != nil {
		return board.Position{}, err
	}
	var cr board.CastlingRights
	for _, cc := range corners {
		v, err := r.bit()
		if err != nil {
			return board.Position{}, err
		}
		if v == 1 {
			cr |= cc.right
		}
	}
	ep, err := r.read(4)
	if err != nil {
		return board.Position{}, err
	}
	clock, err := r.read(7)
	if err != nil {
		return board.Position{}, err
	}
	if ep > 8 || clock > 100 {
		return board.Position{}, corrupt(format, "bad header")
	}
	p := emptyPosition()
	for s := 0; s < 64; {
		v, err := r.read(4)
		if err != nil {
			return board.Position{}, err
		}
		switch {
		case v < 12:
			p.Put(board.Square(s), pieceOf(int(v)))
			s++
		case v < 15:
			s += int(v) - 11
		default:
			n, err := r.read(4)
			if err != nil {
				return board.Position{}, err
			}
			s += int(n) + 4
		}
		if s > 64 {
			return board.Position{}, corrupt(format, "empty squares past the end of the board")
		}
	}
	if err := r.done(); err != nil {
		return board.Position{}, err
	}
	p.SetSideToMove(board.Color(side))
	p.SetCastling(cr)
	p.SetClocks(int(clock), 1)
	if ep > 0 {
		sq := board.MakeSquare(int(ep)-1, 5)
		if side == 1 {
			sq = board.MakeSquare(int(ep)-1, 2)
		}
		p.SetEPSquare(sq)
		if p.Validate() != nil || p.LegalEPSquare() != sq {
			return board.Position{}, corrupt(format, "en-passant square %v without a legal capture", sq)
		}
	}
	return finish(format, &p)
}
