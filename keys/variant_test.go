package keys

import (
	"errors"
	"testing"

	"github.com/chessbook/chessbook/board"
)

// TestChess960Refused: the castling rights of a Chess960 position are not
// in the key format; Check says so and Append codes nothing, while a
// Chess960 position without rights, and every standard position however its
// FEN was written, keys as before.
func TestChess960Refused(t *testing.T) {
	for _, fen := range []string{
		"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
		"1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1",
		"4k3/8/8/8/8/8/8/RR2K2R w B - 0 1", // a rook on b1, its right; h1 without
	} {
		p, err := board.ParseFEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		if err := Check(&p); !errors.Is(err, ErrVariant) {
			t.Errorf("%s: Check = %v, want ErrVariant", fen, err)
		}
		if k := Append([]byte("x"), &p); string(k) != "x" {
			t.Errorf("%s: Append coded %x", fen, k)
		}
		if k := Encode(&p); k != nil {
			t.Errorf("%s: Encode = %x, want nil", fen, k)
		}
	}
	// The same Chess960 position without castling rights is coded, as
	// the standard position with those pieces.
	p, _ := board.ParseFEN("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w - - 2 9")
	q, _ := board.ParseFEN("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9")
	q.SetCastling(0)
	if q.CastlingMode() != board.CastlingChess960 {
		t.Fatal("not a Chess960 position")
	}
	if err := Check(&q); err != nil {
		t.Errorf("Chess960 without rights: %v", err)
	}
	if kp, kq := Encode(&p), Encode(&q); kp == nil || string(kp) != string(kq) {
		t.Errorf("Chess960 without rights: key %x, the standard position's %x", kq, kp)
	}
	// Standard positions from Shredder-FEN key as from KQkq: the first
	// golden key.
	for _, fen := range []string{board.StartFEN, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1"} {
		p, err := board.ParseFEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		if err := Check(&p); err != nil {
			t.Errorf("%s: %v", fen, err)
		}
		if k := Hex(Encode(&p)); k != "5000241c0402" {
			t.Errorf("%s: key %s, want the golden 5000241c0402", fen, k)
		}
	}
}
