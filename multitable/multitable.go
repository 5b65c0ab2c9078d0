// Package multitable sorts positions into the 81 categories ("tables") of
// the Huffman multi-table approach.
//
// Each of the four rook home squares a1, h1 (White) and a8, h8 (Black) is in
// one of three states: no own rook there (the square is empty or holds any
// other piece), an own rook there without the castling right that goes with
// it, or an own rook there with that right. The category is
//
//	cat = s(a1) + 3*s(h1) + 9*s(a8) + 27*s(h8)
//
// with s = 0 (NoRook), 1 (Rook) or 2 (Castle), so 0 <= cat <= 80; the
// start position is category 80. A category implies:
//   - the rooks on the home squares in state Rook or Castle;
//   - all four castling rights (a right is held exactly when its square is
//     in state Castle: a1 = White O-O-O, h1 = White O-O, a8 = Black O-O-O,
//     h8 = Black O-O);
//   - the king square (e1 / e8) of each side keeping a castling right: in 25
//     categories both kings are implied.
//
// A key coder therefore only codes what the category leaves open.
package multitable

import (
	"fmt"

	"github.com/chessbook/chessbook/board"
)

// Count is the number of categories.
const Count = 81

// State is what a category says about one rook home square.
type State uint8

// The three states of a rook home square.
const (
	NoRook State = iota // no own rook on the square
	Rook                // own rook there, without the castling right
	Castle              // own rook there, with the castling right
)

// String returns "-", "rook" or "castle".
func (s State) String() string {
	switch s {
	case NoRook:
		return "-"
	case Rook:
		return "rook"
	case Castle:
		return "castle"
	}
	return fmt.Sprintf("State(%d)", uint8(s))
}

// Corner names one of the four rook home squares, in category digit order.
type Corner uint8

// The four corners, in the order of the category's base-3 digits.
const (
	A1 Corner = iota
	H1
	A8
	H8
)

var cornerInfo = [4]struct {
	sq    board.Square
	color board.Color
	right board.CastlingRights
}{
	{board.A1, board.White, board.WhiteQueenSide},
	{board.H1, board.White, board.WhiteKingSide},
	{board.A8, board.Black, board.BlackQueenSide},
	{board.H8, board.Black, board.BlackKingSide},
}

// kingHome is the king's start square of each colour.
var kingHome = [2]board.Square{board.E1, board.E8}

// StateOf returns the state of corner c in p. A castling right counts only
// when the king and the rook stand on their home squares (a right without
// them is not a right and is dropped; Validate rejects such positions).
func StateOf(p *board.Position, c Corner) State {
	ci := &cornerInfo[c&3]
	if p.PieceAt(ci.sq) != board.MakePiece(ci.color, board.Rook) {
		return NoRook
	}
	if p.Castling()&ci.right != 0 && p.PieceAt(kingHome[ci.color]) == board.MakePiece(ci.color, board.King) {
		return Castle
	}
	return Rook
}

// Category returns p's category, 0..80.
func Category(p *board.Position) uint8 {
	return uint8(StateOf(p, A1)) + 3*uint8(StateOf(p, H1)) + 9*uint8(StateOf(p, A8)) + 27*uint8(StateOf(p, H8))
}

// Make returns the category of the four corner states (indexed by Corner).
// States above Castle are treated as Castle.
func Make(s [4]State) uint8 {
	var cat uint8
	for i := 3; i >= 0; i-- {
		cat = cat*3 + uint8(min(s[i], Castle))
	}
	return cat
}

// States returns the four corner states of category cat (indexed by
// Corner). cat must be below Count; higher values are reduced modulo Count.
func States(cat uint8) [4]State {
	cat %= Count
	var s [4]State
	for i := range s {
		s[i] = State(cat % 3)
		cat /= 3
	}
	return s
}

// Implied is what a category says about the position.
type Implied struct {
	// States are the corner states (indexed by Corner).
	States [4]State
	// Castling holds exactly the castling rights of the position.
	Castling board.CastlingRights
	// Rooks are the corner squares that hold an own rook (state Rook or
	// Castle): white rooks on a1 / h1, black rooks on a8 / h8.
	Rooks board.Bitboard
	// NoRooks are the corner squares that hold no own rook (state NoRook):
	// anything but a rook of the corner's colour may stand there.
	NoRooks board.Bitboard
	// Kings holds, per colour, the implied king square (E1 / E8) when that
	// side keeps a castling right, else board.NoSquare.
	Kings [2]board.Square
	// Skip is the set of squares a key's board scan leaves out because
	// the category fixes their contents: Rooks and the implied king
	// squares.
	Skip board.Bitboard
}

// KingImplied reports whether colour c's king square is implied.
func (im *Implied) KingImplied(c board.Color) bool { return im.Kings[c&1] != board.NoSquare }

var implied = func() (t [Count]Implied) {
	for cat := range t {
		im := &t[cat]
		im.States = States(uint8(cat))
		im.Kings = [2]board.Square{board.NoSquare, board.NoSquare}
		for c, s := range im.States {
			ci := &cornerInfo[c]
			switch s {
			case NoRook:
				im.NoRooks |= ci.sq.Bitboard()
			case Castle:
				im.Castling |= ci.right
				im.Kings[ci.color] = kingHome[ci.color]
				fallthrough
			case Rook:
				im.Rooks |= ci.sq.Bitboard()
			}
		}
		im.Skip = im.Rooks
		for _, k := range im.Kings {
			if k != board.NoSquare {
				im.Skip |= k.Bitboard()
			}
		}
	}
	return t
}()

// Implies returns what category cat implies. cat must be below Count;
// higher values are reduced modulo Count.
func Implies(cat uint8) Implied { return implied[cat%Count] }

// Name returns a short name of category cat: one letter per corner in the
// order a1 h1 a8 h8, '-' for NoRook, 'r' for Rook and 'c' for Castle; the
// start position's category 80 is "cccc".
func Name(cat uint8) string {
	s := States(cat)
	b := make([]byte, 4)
	for i, st := range s {
		b[i] = "-rc"[st]
	}
	return string(b)
}
