package multitable

import (
	"testing"

	"github.com/chessbook/chessbook/board"
)

func pos(t *testing.T, fen string) board.Position {
	t.Helper()
	p, err := board.ParseFEN(fen)
	if err != nil {
		t.Fatalf("%s: %v", fen, err)
	}
	return p
}

func TestCategoryExamples(t *testing.T) {
	for _, c := range []struct {
		fen  string
		name string
	}{
		{board.StartFEN, "cccc"},
		{"r3k2r/8/8/8/8/8/8/R3K2R w - - 0 1", "rrrr"},
		{"r3k2r/8/8/8/8/8/8/R3K2R w Kq - 0 1", "rccr"},
		{"4k3/8/8/8/8/8/8/4K3 w - - 0 1", "----"},
		// A black rook on a1 is not White's rook: NoRook.
		{"4k3/8/8/8/8/8/8/r3K2R w K - 0 1", "-c--"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w Kk - 0 1", "rcrc"},
	} {
		p := pos(t, c.fen)
		cat := Category(&p)
		if got := Name(cat); got != c.name {
			t.Errorf("%s: category %d %s, want %s", c.fen, cat, got, c.name)
		}
		im := Implies(cat)
		if im.Castling != p.Castling() {
			t.Errorf("%s: implied castling %v, position %v", c.fen, im.Castling, p.Castling())
		}
		for sq := im.Rooks; sq != 0; {
			s := sq.PopLSB()
			if pc := p.PieceAt(s); pc.Type() != board.Rook || pc.Color() != board.Color(s>>5) {
				t.Errorf("%s: implied rook on %v, found %v", c.fen, s, pc)
			}
		}
		for col, k := range im.Kings {
			if k != board.NoSquare && p.KingSquare(board.Color(col)) != k {
				t.Errorf("%s: implied king %v, found %v", c.fen, k, p.KingSquare(board.Color(col)))
			}
		}
	}
}

func TestStartIs80(t *testing.T) {
	p := board.StartPosition()
	if c := Category(&p); c != 80 {
		t.Errorf("start position category %d, want 80", c)
	}
}

func TestMakeStatesInverse(t *testing.T) {
	seen := map[uint8]bool{}
	for cat := 0; cat < Count; cat++ {
		s := States(uint8(cat))
		if got := Make(s); got != uint8(cat) {
			t.Errorf("Make(States(%d)) = %d", cat, got)
		}
		seen[uint8(cat)] = true
	}
	if len(seen) != Count {
		t.Errorf("%d categories", len(seen))
	}
}

// TestImpliedKings checks the seed's count: in 25 categories both kings are
// implied, and exactly where each side has a corner in state Castle.
func TestImpliedKings(t *testing.T) {
	both := 0
	for cat := 0; cat < Count; cat++ {
		im := Implies(uint8(cat))
		s := im.States
		w := s[A1] == Castle || s[H1] == Castle
		b := s[A8] == Castle || s[H8] == Castle
		if im.KingImplied(board.White) != w || im.KingImplied(board.Black) != b {
			t.Errorf("category %s: kings implied %v %v", Name(uint8(cat)), im.KingImplied(board.White), im.KingImplied(board.Black))
		}
		if w && b {
			both++
		}
		if im.Rooks&im.NoRooks != 0 || (im.Rooks|im.NoRooks) != board.A1.Bitboard()|board.H1.Bitboard()|board.A8.Bitboard()|board.H8.Bitboard() {
			t.Errorf("category %s: rooks %v no rooks %v", Name(uint8(cat)), im.Rooks, im.NoRooks)
		}
		if im.Skip&^(im.Rooks|board.E1.Bitboard()|board.E8.Bitboard()) != 0 {
			t.Errorf("category %s: skip %v", Name(uint8(cat)), im.Skip)
		}
	}
	if both != 25 {
		t.Errorf("%d categories imply both kings, want 25", both)
	}
}

func TestStateOfDropsRightWithoutKing(t *testing.T) {
	// A right set by hand without the king at home is not a right.
	p := pos(t, "4k3/8/8/8/8/8/8/R3K2R w - - 0 1")
	p.Put(board.E1, board.NoPiece)
	p.Put(board.D1, board.WhiteKing)
	p.SetCastling(board.WhiteKingSide)
	if s := StateOf(&p, H1); s != Rook {
		t.Errorf("h1 state %v, want rook", s)
	}
}

func BenchmarkCategory(b *testing.B) {
	p := board.StartPosition()
	var n int
	for b.Loop() {
		n += int(Category(&p))
	}
	_ = n
}
