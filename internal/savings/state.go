package savings

import (
	"fmt"

	"github.com/chessbook/chessbook/board"
)

// normalize returns p with its en-passant square kept only when an
// en-passant capture is legal: the position identity every encoding here
// writes (FEN and PGN set the square after every double step; the store's
// key keeps it only when it matters).
func normalize(p *board.Position) board.Position {
	q := *p
	q.SetEPSquare(q.LegalEPSquare())
	return q
}

// castleCorner is one castling right with the squares it needs.
type castleCorner struct {
	right      board.CastlingRights
	king, rook board.Square
	color      board.Color
}

// corners lists the rights in FEN order: K, Q, k, q.
var corners = [4]castleCorner{
	{board.WhiteKingSide, board.E1, board.H1, board.White},
	{board.WhiteQueenSide, board.E1, board.A1, board.White},
	{board.BlackKingSide, board.E8, board.H8, board.Black},
	{board.BlackQueenSide, board.E8, board.A8, board.Black},
}

// appears reports whether the board lets the corner's right exist: the
// king and the rook on their home squares.
func (c castleCorner) appears(p *board.Position) bool {
	return p.PieceAt(c.king) == board.MakePiece(c.color, board.King) &&
		p.PieceAt(c.rook) == board.MakePiece(c.color, board.Rook)
}

// epCandidateSet returns the en-passant squares the board "appears to
// allow" (seed 000): for each pawn of the side not to move on its fourth
// rank with a pawn of the side to move directly beside it, and the square
// it skipped and the one it came from empty, the skipped square.
func epCandidateSet(p *board.Position) board.Bitboard {
	us := p.SideToMove()
	them := us.Other()
	empty := ^p.Occupied()
	rank := board.Rank5
	if us == board.Black {
		rank = board.Rank4
	}
	ours := p.Pieces(us, board.Pawn) & rank
	beside := (ours<<1)&^board.FileA | (ours>>1)&^board.FileH
	cand := p.Pieces(them, board.Pawn) & rank & beside
	if us == board.White {
		return cand << 8 & empty & (empty >> 8)
	}
	return cand >> 8 & empty & (empty << 8)
}

// epCandidates returns the candidate squares of epCandidateSet in file
// order.
func epCandidates(p *board.Position) (sq [8]board.Square, n int) {
	for b := epCandidateSet(p); b != 0; n++ {
		sq[n] = b.PopLSB()
	}
	return sq, n
}

// epIndex returns the en-passant field of seed 000's state: 0 for none,
// else the 1-based index of p's legal en-passant square among the
// candidates.
func epIndex(p *board.Position) uint64 {
	ep := p.LegalEPSquare()
	if ep == board.NoSquare {
		return 0
	}
	sq, n := epCandidates(p)
	for i := 0; i < n; i++ {
		if sq[i] == ep {
			return uint64(i + 1)
		}
	}
	return 0 // unreachable for a valid position: a legal square is a candidate
}

// setEPIndex sets p's en-passant square from an epIndex value and checks
// that the capture is legal (the encoders write only legal squares).
func setEPIndex(format string, p *board.Position, v uint64) error {
	if v == 0 {
		p.SetEPSquare(board.NoSquare)
		return nil
	}
	sq, n := epCandidates(p)
	if v > uint64(n) {
		return corrupt(format, "en-passant index %d with %d candidates", v, n)
	}
	p.SetEPSquare(sq[v-1])
	if p.LegalEPSquare() != sq[v-1] {
		return corrupt(format, "en-passant square %v without a legal capture", sq[v-1])
	}
	return nil
}

// clock7 is seed 000's fifty-move field: the half-move clock, 100 for 100
// or more (101 values in 7 bits).
func clock7(p *board.Position) uint64 { return uint64(min(p.HalfMoveClock(), 100)) }

// state000Bits is the length of the common state suffix (see
// writeState000) for p.
func state000Bits(p *board.Position) int {
	n := 1
	for _, c := range corners {
		if c.appears(p) {
			n++
		}
	}
	if epCandidateSet(p) != 0 {
		n += 3
	}
	return n
}

// writeState000 writes the common state suffix that completes the board-only
// codes of seed 002, with seed 000's rules: the side to move (1 bit), one
// bit for each castling right whose king and rook stand on their home
// squares, and when the board shows en-passant candidates, 3 bits: 0 for
// none, else the index of the legal square among them.
func writeState000(w *bitWriter, p *board.Position) {
	w.write(uint64(p.SideToMove()), 1)
	for _, c := range corners {
		if c.appears(p) {
			var v uint64
			if p.Castling()&c.right != 0 {
				v = 1
			}
			w.write(v, 1)
		}
	}
	if _, k := epCandidates(p); k > 0 {
		w.write(epIndex(p), 3)
	}
}

// readState000 reads what writeState000 wrote into p, whose board is set.
func readState000(r *bitReader, p *board.Position) error {
	side, err := r.bit()
	if err != nil {
		return err
	}
	p.SetSideToMove(board.Color(side))
	var cr board.CastlingRights
	for _, c := range corners {
		if c.appears(p) {
			v, err := r.bit()
			if err != nil {
				return err
			}
			if v == 1 {
				cr |= c.right
			}
		}
	}
	p.SetCastling(cr)
	if _, k := epCandidates(p); k > 0 {
		v, err := r.read(3)
		if err != nil {
			return err
		}
		if err := setEPIndex(r.format, p, v); err != nil {
			return err
		}
	}
	return nil
}

// finish validates a decoded position.
func finish(format string, p *board.Position) (board.Position, error) {
	if err := p.Validate(); err != nil {
		return board.Position{}, fmt.Errorf("%s: %w: %v", format, errCorrupt, err)
	}
	return *p, nil
}

// emptyPosition returns a cleared position (white to move, no rights).
func emptyPosition() board.Position {
	var p board.Position
	p.Clear()
	return p
}

// pieceIndex numbers the twelve pieces 0..11: White P N B R Q K, then Black.
func pieceIndex(pc board.Piece) int {
	return int(pc.Color())*6 + int(pc.Type()) - 1
}

// pieceOf is the inverse of pieceIndex.
func pieceOf(i int) board.Piece {
	return board.MakePiece(board.Color(i/6), board.PieceType(i%6+1))
}

// validated checks that p is a valid position before it is encoded.
func validated(format string, p *board.Position) error {
	if err := p.Validate(); err != nil {
		return fmt.Errorf("%s: cannot encode: %w", format, err)
	}
	return nil
}
