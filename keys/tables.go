package keys

import (
	"fmt"

	"github.com/chessbook/chessbook/huffman"
)

// The key's code tables, tables_gen.go, are generated from real games by
// ./internal/gentables (see FORMAT.md, "The codes"). They are frozen: the
// generator is only run to define a new format, and running it again on the
// same corpus reproduces the file byte for byte.
//go:generate go run ./internal/gentables -o tables_gen.go

// Alphabets of the key's Huffman codes (see FORMAT.md).
//
// Piece symbols are board.Piece values: colour<<3 | type with types pawn 1,
// knight 2, bishop 3, rook 4, queen 5, king 6, so white pieces are 1..6 and
// black pieces 9..14. Kings and pawns on the first or eighth rank never
// have a code (kings are coded by square, such pawns are illegal).
const (
	// RunBase is the first run symbol: the symbol RunBase+g (g >= 1) of a
	// square code stands for g empty scan squares.
	RunBase = 16
	// maxRun is the longest run a square code can express.
	maxRun = 63
	// SquareSymbols is the alphabet size of the square codes: the piece
	// symbols 0..15 and the runs RunBase+1 .. RunBase+63.
	SquareSymbols = RunBase + maxRun + 1
	// PieceSymbols is the alphabet size of the landing codes (piece
	// symbols).
	PieceSymbols = 16
	// KingSymbols is the alphabet size of the king codes (squares a1=0 ..
	// h8=63).
	KingSymbols = 64
)

// frozenCodes are the key's Huffman codes, built from the generated length
// strings.
type frozenCodes struct {
	square  [64]*huffman.Code
	landing [64]*huffman.Code
	king    [2]*huffman.Code
}

// codes is built once, before any init function runs (the encoder's
// tables in keys.go are built from it), and never written after.
var codes = buildCodes()

// buildCodes parses the generated length strings; it panics if they are
// malformed (they are constants: a test runs this).
func buildCodes() frozenCodes {
	build := func(all string, i, n int, what string) *huffman.Code {
		l, err := huffman.ParseLengths(all[i*n : (i+1)*n])
		if err != nil {
			panic(fmt.Sprintf("keys: frozen %s table %d: %v", what, i, err))
		}
		return huffman.MustCode(l)
	}
	if len(squareCodeLengths) != 64*SquareSymbols || len(landingCodeLengths) != 64*PieceSymbols ||
		len(kingCodeLengths) != 2*KingSymbols {
		panic("keys: frozen tables have the wrong size")
	}
	var c frozenCodes
	for s := 0; s < 64; s++ {
		c.square[s] = build(squareCodeLengths, s, SquareSymbols, "square")
		c.landing[s] = build(landingCodeLengths, s, PieceSymbols, "landing")
	}
	for k := 0; k < 2; k++ {
		c.king[k] = build(kingCodeLengths, k, KingSymbols, "king")
	}
	return c
}

// squareCode returns the code used when the scan cursor stands on square s
// (a1 = 0 .. h8 = 63): its symbols are the piece on s, or a run of g >= 1
// empty scan squares starting at s (symbol RunBase+g).
func squareCode(s int) *huffman.Code { return codes.square[s&63] }

// landingCode returns the code of the piece on square s that ends a run of
// empty scan squares (piece symbols only).
func landingCode(s int) *huffman.Code { return codes.landing[s&63] }

// kingCode returns the code of the king square of colour c (0 white, 1
// black), used when the category does not imply it.
func kingCode(c int) *huffman.Code { return codes.king[c&1] }
