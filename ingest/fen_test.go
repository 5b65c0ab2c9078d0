package ingest

import (
	"testing"

	"github.com/chessbook/chessbook/board"
)

// TestParseLenientFEN: a FEN tag of a standard game gives a standard
// position; castling rights without their king and rook on e and a / h are
// dropped, also when board.ParseFEN would read them as Chess960.
func TestParseLenientFEN(t *testing.T) {
	for _, tc := range []struct{ fen, want string }{
		{board.StartFEN, board.StartFEN},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1", board.StartFEN},
		// The king on f1: X-FEN would make K and Q Chess960 rights.
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1KNR w KQkq - 0 1", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1KNR w kq - 0 1"},
		{"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w - - 2 9"},
	} {
		p, err := parseLenientFEN(tc.fen)
		if err != nil {
			t.Errorf("%s: %v", tc.fen, err)
			continue
		}
		if p.FEN() != tc.want || p.CastlingMode() != board.CastlingStandard {
			t.Errorf("%s: %s (%v), want %s (standard)", tc.fen, p.FEN(), p.CastlingMode(), tc.want)
		}
	}
}
