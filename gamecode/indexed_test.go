package gamecode

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/chessbook/chessbook/board"
	"strings"
)

// checkIndexer checks the indexer against board.LegalMoves in p: as many
// numbers as legal moves, every number a distinct legal move, number the
// inverse of move. With all set, every other move value is refused.
func checkIndexer(t *testing.T, ix *indexer, p *board.Position, legal []board.Move, all bool) bool {
	t.Helper()
	n := ix.set(p)
	if n != len(legal) {
		t.Errorf("%s: %d numbered moves, %d legal", p.FEN(), n, len(legal))
		return false
	}
	got := make([]board.Move, n)
	for i := range got {
		got[i] = ix.move(i)
		if j, nj := ix.number(p, got[i]); j != i || nj != n {
			t.Errorf("%s: move %d of %d is %v, numbered %d of %d", p.FEN(), i, n, got[i], j, nj)
			return false
		}
	}
	slices.Sort(got)
	want := slices.Clone(legal)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("%s: numbered moves %v, legal %v", p.FEN(), got, want)
		return false
	}
	if !all {
		return true
	}
	for v := 0; v < 1<<16; v++ {
		m := board.Move(v)
		_, isLegal := slices.BinarySearch(want, m)
		if i, _ := ix.number(p, m); (i >= 0) != isLegal {
			t.Errorf("%s: number(%v) = %d, legal %v", p.FEN(), m, i, isLegal)
			return false
		}
	}
	return true
}

// TestIndexerMatchesLegalMoves checks the indexer in every position of
// real games (the repository's champions, the shared small and tricky
// inputs: promotions, en passant, pins, FEN starts) and in a walk three
// plies deep from the perft positions; every move value is tried in a
// sample of them.
func TestIndexerMatchesLegalMoves(t *testing.T) {
	files := []string{"../testdata/champions500.pgn"}
	for _, pat := range append(smallInputs(t), sharedSmallPGN(t)...) {
		m, _ := filepath.Glob(pat)
		for _, f := range m {
			if strings.HasSuffix(f, ".pgn") {
				files = append(files, f)
			}
		}
	}
	var ix indexer
	var buf [board.MaxMoves]board.Move
	positions := 0
	for _, f := range files {
		for _, g := range readGames(t, f) {
			p := g.Start
			for _, m := range g.Moves {
				positions++
				if !checkIndexer(t, &ix, &p, p.LegalMoves(buf[:0]), positions%2000 == 0) {
					return
				}
				p.Play(m)
			}
		}
	}
	fens := []string{
		"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
		"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
		"r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
		"rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
		// En passant that would expose the king along the rank; a pinned
		// pawn that may take en passant along its pin.
		"8/8/8/KPp4r/8/8/8/7k w - c6 0 2",
		"7k/8/8/2Pp4/8/8/8/K5B1 w - d6 0 2",
		// Promotions by capture and push, some pinned.
		"1r2k3/P1P5/8/8/8/8/8/4K3 w - - 0 1",
	}
	var walk func(p *board.Position, depth int) bool
	walk = func(p *board.Position, depth int) bool {
		var buf [board.MaxMoves]board.Move
		legal := p.LegalMoves(buf[:0])
		positions++
		if !checkIndexer(t, &ix, p, legal, depth == 3) {
			return false
		}
		if depth == 0 {
			return true
		}
		for _, m := range legal {
			q := *p
			q.Play(m)
			if !walk(&q, depth-1) {
				return false
			}
		}
		return true
	}
	for _, fen := range fens {
		p, err := board.ParseFEN(fen)
		if err != nil {
			t.Fatalf("%s: %v", fen, err)
		}
		if !walk(&p, 3) {
			return
		}
	}
	t.Logf("%d positions", positions)
	if positions < 100000 {
		t.Errorf("only %d positions", positions)
	}
}
