package gamecode

import (
	"testing"

	"github.com/chessbook/chessbook/board"
)

// TestMoveIndexer: the exported indexer numbers each move of real games
// below the number of legal moves, and gives the move back from its
// number; illegal moves get -1.
func TestMoveIndexer(t *testing.T) {
	var x MoveIndexer
	var buf [board.MaxMoves]board.Move
	for _, g := range readGames(t, "../testdata/champions500.pgn") {
		p := g.Start
		for _, m := range g.Moves {
			i, n := x.Number(&p, m)
			if legal := len(p.LegalMoves(buf[:0])); n != legal || i < 0 || i >= n {
				t.Fatalf("%s: %v numbered %d of %d, %d legal moves", p.FEN(), m, i, n, legal)
			}
			if x.Set(&p) != n || x.Move(i) != m {
				t.Fatalf("%s: move %d of %d is %v, want %v", p.FEN(), i, n, x.Move(i), m)
			}
			p.Play(m)
		}
	}
	// The coding gives the same numbers, and the same record.
	for _, g := range readGames(t, "../testdata/champions500.pgn")[:50] {
		var nums [30]MoveNumber
		rec, k, err := AppendGameCodedNumbered(nil, g, Indexed, nums[:])
		plain, _ := AppendGameCoded(nil, g, Indexed)
		if err != nil || k != min(30, len(g.Moves)) || string(rec) != string(plain) {
			t.Fatalf("game at line %d: %d numbers, %v, same record %v", g.Line, k, err, string(rec) == string(plain))
		}
		p := g.Start
		for ply, m := range g.Moves[:k] {
			if i, n := x.Number(&p, m); int(nums[ply].I) != i || int(nums[ply].N) != n {
				t.Fatalf("game at line %d, ply %d: coded %+v, numbered %d of %d", g.Line, ply, nums[ply], i, n)
			}
			p.Play(m)
		}
		if _, k, _ := AppendGameCodedNumbered(nil, g, Ranked, nums[:]); k != 0 {
			t.Errorf("the ranked coding gave %d numbers", k)
		}
	}
	p := board.StartPosition()
	if i, n := x.Number(&p, board.NewMove(board.E2, board.E5)); i != -1 || n != 20 {
		t.Errorf("e2e5 from the start: %d of %d, want -1 of 20", i, n)
	}
}
