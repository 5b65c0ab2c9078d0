package keys

import (
	"testing"

	"github.com/chessbook/chessbook/huffman"
)

// maxScanPieces is the most pieces a valid position has in the board scan:
// at most 16 men a side, the two kings are coded apart.
const maxScanPieces = 30

// maxEPBits bounds the en-passant field: at most 8 legal squares.
const maxEPBits = 4

// keyBitsBound returns an upper bound on the bits after the category byte
// of any valid position's key. The scan part is a relaxation: any square
// may be left out of the scan (as if implied), and at most maxScanPieces
// pieces are placed.
func keyBitsBound() int {
	sq := func(s, sym int) int { return squareCode(s).Len(sym) }
	maxPiece := func(c *huffman.Code) int {
		m := -1
		for sym := 1; sym < RunBase; sym++ {
			if l := c.Len(sym); l > 0 && l > m {
				m = l
			}
		}
		return m
	}
	const neg = -1 << 30
	// f[s][k]: max bits from a cursor on square s with at most k pieces left.
	// g[s][k]: max over cursors on squares >= s, or 0 (nothing left).
	var f, g [65][maxScanPieces + 1]int
	for k := 0; k <= maxScanPieces; k++ {
		g[64][k] = 0
	}
	for s := 63; s >= 0; s-- {
		for k := 0; k <= maxScanPieces; k++ {
			best := neg
			for r := 1; r <= 64-s && RunBase+r < SquareSymbols; r++ {
				if l := sq(s, RunBase+r); l > 0 {
					best = max(best, l) // run to the end
				}
			}
			if k > 0 {
				if m := maxPiece(squareCode(s)); m > 0 {
					best = max(best, m+g[s+1][k-1])
				}
				for t := s + 1; t < 64; t++ {
					m := maxPiece(landingCode(t))
					if m <= 0 {
						continue
					}
					for r := 1; r <= t-s; r++ {
						if l := sq(s, RunBase+r); l > 0 {
							best = max(best, l+m+g[t+1][k-1])
						}
					}
				}
			}
			f[s][k] = best
			g[s][k] = max(g[s+1][k], best, 0)
		}
	}
	kingMax := 0
	for c := 0; c < 2; c++ {
		m := 0
		for s := 0; s < 64; s++ {
			m = max(m, kingCode(c).Len(s))
		}
		kingMax += m
	}
	return 1 + kingMax + g[0][maxScanPieces] + maxEPBits
}

func TestMaxLenBound(t *testing.T) {
	b := keyBitsBound()
	need := 1 + (b+7)/8
	t.Logf("bound: %d bits after the category byte, %d bytes in all; MaxLen = %d", b, need, MaxLen)
	if need > MaxLen {
		t.Errorf("MaxLen %d below the bound %d", MaxLen, need)
	}
}
