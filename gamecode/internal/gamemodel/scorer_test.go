package gamemodel

import (
	"context"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/ingest"
	"github.com/chessbook/chessbook/internal/testutil"
	"github.com/chessbook/chessbook/pgn"
)

// sameMoves reports whether the scorer generated exactly board's legal moves.
func sameMoves(s *Scorer, p *board.Position, h *History) (got, want []board.Move, ok bool) {
	np := s.Score(p, h)
	for i := range s.Pieces[:np] {
		nd := s.Dests(&s.Pieces[i])
		got = append(got, s.Moves[:nd]...)
	}
	want = p.LegalMoves(nil)
	slices.Sort(got)
	slices.Sort(want)
	return got, want, slices.Equal(got, want)
}

func perftCheck(t *testing.T, s *Scorer, p *board.Position, depth int) {
	if got, want, ok := sameMoves(s, p, &History{}); !ok {
		t.Fatalf("%s: generated %v, want %v", p.FEN(), got, want)
	}
	if depth == 0 {
		return
	}
	for _, m := range p.LegalMoves(nil) {
		q := *p
		q.Play(m)
		perftCheck(t, s, &q, depth-1)
	}
}

// TestScorerPerft compares the moves the scorer lists with
// board.LegalMoves over the perft suite's trees.
func TestScorerPerft(t *testing.T) {
	var s Scorer
	depth := 3
	if testing.Short() {
		depth = 2
	}
	for _, fen := range testutil.PerftFENs {
		p, err := board.ParseFEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		perftCheck(t, &s, &p, depth)
	}
}

// TestScorerGames compares the moves the scorer lists with
// board.LegalMoves in every position of real games: testdata's
// champions500, lichess2k and tricky files (with -tags oracle, shared/data's
// medium, small and tricky files).
func TestScorerGames(t *testing.T) {
	var files []string
	for _, pat := range gamePatterns(t) {
		m, _ := filepath.Glob(pat)
		files = append(files, m...)
	}
	if testing.Short() {
		files = []string{"../../../testdata/champions500.pgn"}
	}
	var mu sync.Mutex
	positions := 0
	for _, f := range files {
		_, err := ingest.Run(context.Background(), []string{f}, ingest.Options{}, func(int) ingest.Sink {
			s := new(Scorer)
			return ingest.SinkFunc(func(g *pgn.Game) error {
				p := g.Start
				var h History
				for _, m := range g.Moves {
					if got, want, ok := sameMoves(s, &p, &h); !ok {
						t.Errorf("%s:%d: %s: generated %v, want %v", g.File, g.Line, p.FEN(), got, want)
						return nil
					}
					h.Play(&p, m)
				}
				mu.Lock()
				positions += len(g.Moves)
				mu.Unlock()
				return nil
			})
		})
		if err != nil {
			t.Logf("%s: %v", f, err)
		}
	}
	t.Logf("%d positions", positions)
}

// TestScores checks that the scorer's scores (by composite tables)
// equal the sums of the features' weights, the definition the trainer
// uses.
func TestScores(t *testing.T) {
	files := []string{"../../../testdata/champions500.pgn"}
	if !testing.Short() {
		files = append(files, scoreInputs(t)...)
	}
	var mu sync.Mutex
	checked := 0
	_, err := ingest.Run(context.Background(), files, ingest.Options{}, func(int) ingest.Sink {
		s := new(Scorer)
		return ingest.SinkFunc(func(g *pgn.Game) error {
			p := g.Start
			var h History
			for _, m := range g.Moves {
				np := s.Score(&p, &h)
				for i := range s.Pieces[:np] {
					pc := &s.Pieces[i]
					var want int32
					for _, f := range s.PieceFeatures(pc) {
						want += pieceWeights[f]
					}
					if s.PScore[i] != want {
						t.Errorf("%s:%d: %s: piece on %v scores %d, features say %d", g.File, g.Line, p.FEN(), pc.from, s.PScore[i], want)
						return nil
					}
					nd := s.Dests(pc)
					for j, dm := range s.Moves[:nd] {
						var want int32
						for _, f := range s.DestFeatures(pc, dm) {
							want += destWeights[f]
						}
						if s.DScore[j] != want {
							t.Errorf("%s:%d: %s: move %v scores %d, features say %d", g.File, g.Line, p.FEN(), dm, s.DScore[j], want)
							return nil
						}
					}
				}
				mu.Lock()
				checked++
				mu.Unlock()
				h.Play(&p, m)
			}
			return nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d positions", checked)
}
