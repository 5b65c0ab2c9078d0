package huffman

import "fmt"

// Alphabets of the key format's codes (see keys/FORMAT.md).
//
// Piece symbols are board.Piece values: colour<<3 | type with types pawn 1,
// knight 2, bishop 3, rook 4, queen 5, king 6, so white pieces are 1..6 and
// black pieces 9..14. Kings and pawns on the first or eighth rank never
// have a code (kings are coded by square, such pawns are illegal).
const (
	// RunBase is the first run symbol: the symbol RunBase+g (g >= 1) of a
	// Square code stands for g empty scan squares.
	RunBase = 16
	// MaxRun is the longest run a Square code can express.
	MaxRun = 63
	// SquareSymbols is the alphabet size of the Square codes: the piece
	// symbols 0..15 and the runs RunBase+1 .. RunBase+MaxRun.
	SquareSymbols = RunBase + MaxRun + 1
	// PieceSymbols is the alphabet size of the Landing codes (piece symbols).
	PieceSymbols = 16
	// KingSymbols is the alphabet size of the King codes (squares a1=0..h8=63).
	KingSymbols = 64
)

// The frozen tables, built once from the generated length strings.
var (
	squareCodes  [64]*Code
	landingCodes [64]*Code
	kingCodes    [2]*Code
)

func init() {
	build := func(all string, i, n int, what string) *Code {
		l, err := ParseLengths(all[i*n : (i+1)*n])
		if err != nil {
			panic(fmt.Sprintf("huffman: frozen %s table %d: %v", what, i, err))
		}
		return MustCode(l)
	}
	if len(squareCodeLengths) != 64*SquareSymbols || len(landingCodeLengths) != 64*PieceSymbols ||
		len(kingCodeLengths) != 2*KingSymbols {
		panic("huffman: frozen tables have the wrong size")
	}
	for s := 0; s < 64; s++ {
		squareCodes[s] = build(squareCodeLengths, s, SquareSymbols, "square")
		landingCodes[s] = build(landingCodeLengths, s, PieceSymbols, "landing")
	}
	for c := 0; c < 2; c++ {
		kingCodes[c] = build(kingCodeLengths, c, KingSymbols, "king")
	}
}

// Square returns the code used when the scan cursor stands on square s
// (a1 = 0 .. h8 = 63): its symbols are the piece on s, or a run of g >= 1
// empty scan squares starting at s (symbol RunBase+g).
func Square(s int) *Code { return squareCodes[s&63] }

// Landing returns the code of the piece on square s that ends a run of
// empty scan squares (piece symbols only).
func Landing(s int) *Code { return landingCodes[s&63] }

// King returns the code of the king square of colour c (0 white, 1 black),
// used when the category does not imply it.
func King(c int) *Code { return kingCodes[c&1] }
