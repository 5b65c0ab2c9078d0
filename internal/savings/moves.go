package savings

import (
	"math"
	"math/bits"

	"github.com/chessbook/chessbook/board"
)

// The sizes of the move codes, which write the moves of a game from a
// known start position (the codes themselves, which the tests run, are in
// movecodes_test.go). Their per-move sizes leave out the game's framing (the number of plies,
// the result, the start position): the game codes (gamecode, zstd) carry
// theirs.

// fromToBits returns the size of m in the from/to code: 12 bits, 2 more
// for a promotion.
func fromToBits(m board.Move) int {
	if m.Kind() == board.MovePromotion {
		return 14
	}
	return 12
}

// legalIndexBits returns the size of a move's index among n legal moves
// at a fixed width: ceil(log2 n) bits (0 for a forced move).
func legalIndexBits(n int) int { return bits.Len(uint(n - 1)) }

// legalRadixBits returns the information in choosing one of n legal
// moves, log2 n: a move's share of the game's variable-base number.
func legalRadixBits(n int) float64 { return math.Log2(float64(n)) }
