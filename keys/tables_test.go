package keys

import (
	"testing"

	"github.com/chessbook/chessbook/huffman"
)

// TestFrozenTables checks the shape of the key format's tables: every code
// complete, kings and impossible pawns without codes, runs only as long as
// the board allows.
func TestFrozenTables(t *testing.T) {
	isPiece := func(sym int) bool { return sym >= 1 && sym <= 14 && sym != 7 && sym != 8 }
	for s := 0; s < 64; s++ {
		backRank := s < 8 || s >= 56
		for name, c := range map[string]*huffman.Code{"square": squareCode(s), "landing": landingCode(s)} {
			if !c.Complete() {
				t.Errorf("%s code of square %d is not complete", name, s)
			}
			for sym := 0; sym < c.Symbols(); sym++ {
				l := c.Len(sym)
				switch {
				case sym >= RunBase:
					g := sym - RunBase
					if (l > 0) != (g >= 1 && g <= 64-s) {
						t.Errorf("%s[%d] run %d: length %d", name, s, g, l)
					}
				case !isPiece(sym) || sym&7 == 6:
					if l != 0 {
						t.Errorf("%s[%d] symbol %d (no piece or king) has a code", name, s, sym)
					}
				case sym&7 == 1 && backRank:
					if l != 0 {
						t.Errorf("%s[%d]: pawn on a back rank has a code", name, s)
					}
				default:
					if l == 0 {
						t.Errorf("%s[%d] piece %d has no code", name, s, sym)
					}
				}
			}
		}
	}
	for c := 0; c < 2; c++ {
		k := kingCode(c)
		if !k.Complete() || k.Symbols() != 64 {
			t.Errorf("king code %d: complete %v, %d symbols", c, k.Complete(), k.Symbols())
		}
		for s := 0; s < 64; s++ {
			if k.Len(s) == 0 {
				t.Errorf("king %d on %d has no code", c, s)
			}
		}
	}
}
