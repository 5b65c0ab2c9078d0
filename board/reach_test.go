package board_test

import (
	"testing"

	"github.com/chessbook/chessbook/board"
)

// TestReach: a position is reachable from the positions before it in a
// game, and not from positions with fewer pieces or pawns, with a pawn
// gone from its starting rank, or without a castling right it has.
func TestReach(t *testing.T) {
	fen := func(s string) *board.Position {
		p, err := board.ParseFEN(s)
		if err != nil {
			t.Fatal(err)
		}
		return &p
	}
	// The target: after 1.e4 e5 2.Nf3 Nc6 3.Bb5 a6 4.Bxc6 dxc6.
	target := fen("r1bqkbnr/1pp2ppp/p1p5/4p3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 5")
	r := board.NewReach(target)
	for _, c := range []struct {
		name string
		fen  string
		want bool
	}{
		{"the start", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", true},
		{"itself", "r1bqkbnr/1pp2ppp/p1p5/4p3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 5", true},
		{"after 3...a6", "r1bqkbnr/1ppp1ppp/p1n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 4", true},
		{"White's bishop gone, no piece more", "r1bqkbnr/1ppp1ppp/p1n5/4p3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 4", true},
		{"a black piece fewer", "r1bqkbnr/1pp2ppp/p7/4p3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 5", false},
		{"White's d-pawn gone", "r1bqkbnr/1pp2ppp/p1p5/4p3/4P3/5N2/PPP2PPP/RNBQK2R w KQkq - 0 5", false},
		{"White's d-pawn off its rank", "r1bqkbnr/1pp2ppp/p1p5/4p3/3PP3/5N2/PPP2PPP/RNBQK2R w KQkq - 0 5", false},
		{"White's king side castling lost", "r1bqkbnr/1pp2ppp/p1p5/4p3/4P3/5N2/PPPP1PPP/RNBQK2R w Qkq - 0 5", false},
	} {
		if got := r.ReachableFrom(fen(c.fen)); got != c.want {
			t.Errorf("%s: reachable %v, want %v", c.name, got, c.want)
		}
	}
}
