package polyglot

import (
	"fmt"

	"github.com/chessbook/chessbook/board"
)

// A Polyglot book move is a uint16: to | from<<6 | promo<<12, squares
// numbered a1 = 0 ... h8 = 63, promo 0 none, 1 knight, 2 bishop, 3 rook,
// 4 queen. Castling is written as the king taking its own rook (e1h1, e1a1,
// e8h8, e8a8).
const (
	moveSquareMask = 63
	moveFromShift  = 6
	movePromoShift = 12
	maxPromoCode   = 4
)

// MoveFrom returns the from square of the book move m.
func MoveFrom(m uint16) board.Square { return board.Square(m >> moveFromShift & moveSquareMask) }

// MoveTo returns the to square of the book move m: for castling, the square
// of the rook the king "takes".
func MoveTo(m uint16) board.Square { return board.Square(m & moveSquareMask) }

// MovePromotion returns the piece type the book move m promotes to, or
// board.NoPieceType for promotion code 0 and for the invalid codes 5..15.
func MovePromotion(m uint16) board.PieceType {
	c := m >> movePromoShift
	if c == 0 || c > maxPromoCode {
		return board.NoPieceType
	}
	return board.Knight + board.PieceType(c-1)
}

// MoveString returns the book move m as written, in UCI-like notation and
// without a position: "e2e4", "f2g1n", "e1h1" for White's O-O. An invalid
// promotion code is shown as "?" ("e7e8?").
func MoveString(m uint16) string {
	from, to := MoveFrom(m), MoveTo(m)
	b := []byte{'a' + byte(from.File()), '1' + byte(from.Rank()), 'a' + byte(to.File()), '1' + byte(to.Rank())}
	if c := m >> movePromoShift; c != 0 {
		if c <= maxPromoCode {
			b = append(b, " nbrq"[c])
		} else {
			b = append(b, '?')
		}
	}
	return string(b)
}

// castleRook maps a castling king destination to the square of the rook the
// king "takes" in Polyglot's notation, and back.
var castleRook = [...]struct {
	king, kingTo, rook board.Square
	right              board.CastlingRights
	color              board.Color
}{
	{board.E1, board.G1, board.H1, board.WhiteKingSide, board.White},
	{board.E1, board.C1, board.A1, board.WhiteQueenSide, board.White},
	{board.E8, board.G8, board.H8, board.BlackKingSide, board.Black},
	{board.E8, board.C8, board.A8, board.BlackQueenSide, board.Black},
}

// DecodeMove returns the legal move of p that the book move m stands for.
//
// Castling written as the king taking its own rook (e1h1, e1a1, e8h8, e8a8)
// becomes the castling move (e1g1, e1c1, e8g8, e8c8 in board's encoding)
// only when the side to move's king stands on e1/e8 and still has that
// castling right; otherwise the move is read as an ordinary move. The king's
// own two-square move (e1g1 ...), which PolyGlot never writes but some tools
// do, is accepted as castling too; Check flags it as suspicious.
//
// The error names the move and the position when m is not a legal move of p
// or has an invalid promotion code (5..15).
func DecodeMove(p *board.Position, m uint16) (board.Move, error) {
	bm, reason := decodeMove(p, m)
	if reason != "" {
		return board.NullMove, fmt.Errorf("polyglot: book move %s (0x%04x) %s in %s", MoveString(m), m, reason, p.FEN())
	}
	return bm, nil
}

// decodeMove is DecodeMove without the error formatting: it returns the
// reason the move is rejected, or "".
func decodeMove(p *board.Position, m uint16) (board.Move, string) {
	from, to := MoveFrom(m), MoveTo(m)
	if c := m >> movePromoShift; c > maxPromoCode {
		return board.NullMove, fmt.Sprintf("has invalid promotion code %d", c)
	}
	if from == to {
		return board.NullMove, "does not move (from == to)"
	}
	pc := p.PieceAt(from)
	us := p.SideToMove()
	var bm board.Move
	switch {
	case m>>movePromoShift != 0:
		bm = board.NewPromotion(from, to, MovePromotion(m))
	case pc == board.MakePiece(us, board.King):
		bm = board.NewMove(from, to)
		for _, c := range castleRook {
			if c.color == us && from == c.king && p.Castling()&c.right != 0 && (to == c.rook || to == c.kingTo) {
				bm = board.NewMove(from, c.kingTo) | board.MoveCastling
				break
			}
		}
	case pc == board.MakePiece(us, board.Pawn) && to == p.EPSquare() && from.File() != to.File():
		bm = board.NewMove(from, to) | board.MoveEnPassant
	default:
		bm = board.NewMove(from, to)
	}
	if !p.IsLegal(bm) {
		if pc == board.MakePiece(us, board.Pawn) && m>>movePromoShift == 0 && (to.Rank() == 0 || to.Rank() == 7) {
			return board.NullMove, "is a pawn move to the last rank without a promotion piece, not legal"
		}
		return board.NullMove, "is not legal"
	}
	return bm, ""
}

// EncodeMove returns the book encoding of the move m of position p:
// to | from<<6 | promo<<12, with castling written as the king taking its
// own rook (O-O is e1h1 / e8h8, O-O-O e1a1 / e8a8).
//
// A move is castling when its kind is board.MoveCastling, or, when p is not
// nil, when p's king stands on e1/e8 and m moves it two files (a move built
// with board.NewMove rather than taken from LegalMoves). p may be nil; m is
// not checked for legality.
func EncodeMove(p *board.Position, m board.Move) uint16 {
	from, to := m.From(), m.To()
	castling := m.Kind() == board.MoveCastling
	if !castling && p != nil && p.PieceAt(from).Type() == board.King && m.Kind() == board.MoveNormal {
		d := int(to) - int(from)
		castling = (from == board.E1 || from == board.E8) && (d == 2 || d == -2)
	}
	if castling {
		for _, c := range castleRook {
			if from == c.king && to == c.kingTo {
				to = c.rook
				break
			}
		}
	}
	e := uint16(to) | uint16(from)<<moveFromShift
	if pt := m.Promotion(); pt != board.NoPieceType {
		e |= uint16(pt-board.Knight+1) << movePromoShift
	}
	return e
}
