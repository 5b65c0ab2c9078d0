package polyglot

import (
	"testing"

	"github.com/chessbook/chessbook/board"
)

// The test vectors of shared/spec/polyglot.md.
var vectors = []struct {
	fen string
	key uint64
}{
	{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 0x463b96181691fc9c},
	{"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", 0x823c9b50fd114196},
	{"rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2", 0x0756b94461c50fb0},
	{"rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2", 0x662fafb965db29d4},
	{"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", 0x22a48b5a8e47ff78},
	{"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPPKPPP/RNBQ1BNR b kq - 0 3", 0x652a607ca3f242c1},
	{"rnbq1bnr/ppp1pkpp/8/3pPp2/8/8/PPPPKPPP/RNBQ1BNR w - - 0 4", 0x00fdd303c946bdd9},
	{"rnbqkbnr/p1pppppp/8/8/PpP4P/8/1P1PPPP1/RNBQKBNR b KQkq c3 0 3", 0x3c8123ea7b067637},
	{"rnbqkbnr/p1pppppp/8/8/P6P/R1p5/1P1PPPP1/1NBQKBNR b Kkq - 0 4", 0x5c3f9b829b279560},
	{"rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2", 0x0844931a6ef4b9a0},
}

func TestKeyVectors(t *testing.T) {
	for _, v := range vectors {
		p, err := board.ParseFEN(v.fen)
		if err != nil {
			t.Fatalf("%s: %v", v.fen, err)
		}
		if got := Key(&p); got != v.key {
			t.Errorf("Key(%s) = %016x, want %016x", v.fen, got, v.key)
		}
	}
}

// TestKeyIgnoresClocksAndDeadEP checks that the clocks and an en-passant
// square without an adjacent pawn of the side to move do not change the key.
func TestKeyIgnoresClocksAndDeadEP(t *testing.T) {
	a, _ := board.ParseFEN("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1")
	b, _ := board.ParseFEN("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 7 40")
	if Key(&a) != Key(&b) {
		t.Errorf("keys differ: %016x %016x", Key(&a), Key(&b))
	}
}

func BenchmarkKey(b *testing.B) {
	p, _ := board.ParseFEN("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4")
	b.ReportAllocs()
	var k uint64
	for i := 0; i < b.N; i++ {
		k ^= Key(&p)
	}
	_ = k
}
