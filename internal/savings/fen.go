package savings

import (
	"fmt"

	"github.com/chessbook/chessbook/board"
)

// encodeFEN writes p (normalized, see normalize) as FEN text, both clocks
// included, one byte per character.
func encodeFEN(p *board.Position) (code, error) {
	if err := validated("fen", p); err != nil {
		return code{}, err
	}
	q := normalize(p)
	return padded(q.AppendFEN(nil)), nil
}

// decodeFEN reads a FEN written by encodeFEN.
func decodeFEN(c code) (board.Position, error) {
	if err := wholeBytes("fen", c); err != nil {
		return board.Position{}, err
	}
	p, err := board.ParseFEN(string(c.Bytes))
	if err != nil {
		return board.Position{}, fmt.Errorf("fen: %w: %v", errCorrupt, err)
	}
	return p, nil
}

// encodeNibbles writes the board as 64 four-bit squares, a1 first (seed
// 002's "simple contents", 256 bits), using the three values 13 symbols
// leave free as that seed suggests: 13 a pawn that has just double-stepped
// and can be taken en passant (legally), 14 a king that keeps a castling
// right, 15 a rook whose castling right is kept. The colour of these
// follows from their square. One more bit gives the side to move: 257 bits
// for every position.
//
// Values 0..12: empty, then White P N B R Q K, then Black p n b r q k.
func encodeNibbles(p *board.Position) (code, error) {
	if err := validated("nibbles", p); err != nil {
		return code{}, err
	}
	var w bitWriter
	for s := board.Square(0); s < 64; s++ {
		w.write(uint64(nibble(p, s)), 4)
	}
	w.write(uint64(p.SideToMove()), 1)
	return w.result(), nil
}

// nibble returns the 4-bit value of square s.
func nibble(p *board.Position, s board.Square) int {
	pc := p.PieceAt(s)
	if pc == board.NoPiece {
		return 0
	}
	switch pc.Type() {
	case board.Pawn:
		if ep := p.LegalEPSquare(); ep != board.NoSquare && (ep^8) == s {
			return 13
		}
	case board.King:
		for _, c := range corners {
			if c.king == s && c.color == pc.Color() && p.Castling()&c.right != 0 {
				return 14
			}
		}
	case board.Rook:
		for _, c := range corners {
			if c.rook == s && c.color == pc.Color() && p.Castling()&c.right != 0 {
				return 15
			}
		}
	}
	return 1 + pieceIndex(pc)
}

// decodeNibbles reads a code written by encodeNibbles.
func decodeNibbles(c code) (board.Position, error) {
	const format = "nibbles"
	r, err := newBitReader(format, c)
	if err != nil {
		return board.Position{}, err
	}
	p := emptyPosition()
	var cr board.CastlingRights
	var flaggedKing [2]bool
	epPawn := board.NoSquare
	for s := board.Square(0); s < 64; s++ {
		v, err := r.read(4)
		if err != nil {
			return board.Position{}, err
		}
		switch {
		case v == 0:
		case v <= 12:
			p.Put(s, pieceOf(int(v)-1))
		case v == 13:
			if epPawn != board.NoSquare {
				return board.Position{}, corrupt(format, "two en-passant pawns")
			}
			switch s.Rank() {
			case 3:
				p.Put(s, board.WhitePawn)
			case 4:
				p.Put(s, board.BlackPawn)
			default:
				return board.Position{}, corrupt(format, "en-passant pawn on %v", s)
			}
			epPawn = s
		case v == 14:
			switch s {
			case board.E1:
				p.Put(s, board.WhiteKing)
				flaggedKing[board.White] = true
			case board.E8:
				p.Put(s, board.BlackKing)
				flaggedKing[board.Black] = true
			default:
				return board.Position{}, corrupt(format, "castling king on %v", s)
			}
		default: // 15
			found := false
			for _, c := range corners {
				if c.rook == s {
					p.Put(s, board.MakePiece(c.color, board.Rook))
					cr |= c.right
					found = true
				}
			}
			if !found {
				return board.Position{}, corrupt(format, "castling rook on %v", s)
			}
		}
	}
	for _, c := range corners {
		if cr&c.right != 0 && !flaggedKing[c.color] {
			return board.Position{}, corrupt(format, "castling rook on %v without its castling king", c.rook)
		}
	}
	for col := board.White; col <= board.Black; col++ {
		if flaggedKing[col] && cr&(corners[2*col].right|corners[2*col+1].right) == 0 {
			return board.Position{}, corrupt(format, "castling king without a castling rook")
		}
	}
	p.SetCastling(cr)
	side, err := r.bit()
	if err != nil {
		return board.Position{}, err
	}
	p.SetSideToMove(board.Color(side))
	if epPawn != board.NoSquare {
		if (epPawn.Rank() == 3) != (side == 1) {
			return board.Position{}, corrupt(format, "en-passant pawn of the side to move")
		}
		ep := epPawn ^ 8
		p.SetEPSquare(ep)
		if p.LegalEPSquare() != ep {
			return board.Position{}, corrupt(format, "en-passant square %v without a legal capture", ep)
		}
	}
	if err := r.done(); err != nil {
		return board.Position{}, err
	}
	return finish(format, &p)
}

// fenLen returns len(p.AppendFEN(nil)) without writing the FEN: one
// character per man, one digit per run of empty squares within a rank,
// seven slashes, and the other fields.
func fenLen(p *board.Position) int {
	occ := p.Occupied()
	empty := ^occ
	runStarts := empty &^ (empty << 1 &^ board.FileA)
	n := occ.Count() + runStarts.Count() + 7
	n += 3 // " w "
	if cr := p.Castling(); cr == 0 {
		n++
	} else {
		n += board.Bitboard(cr).Count()
	}
	n++ // space
	if p.EPSquare() == board.NoSquare {
		n++
	} else {
		n += 2
	}
	return n + 2 + digits(p.HalfMoveClock()) + digits(p.FullMoveNumber())
}

// digits returns the number of decimal digits of v >= 0.
func digits(v int) int {
	n := 1
	for v >= 10 {
		v /= 10
		n++
	}
	return n
}
