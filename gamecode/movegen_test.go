package gamecode

import (
	"context"
	"math/bits"
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
func sameMoves(s *scorer, p *board.Position, h *history) (got, want []board.Move, ok bool) {
	np := s.gen(p, h)
	for i := range s.pieces[:np] {
		nd := s.dests(&s.pieces[i])
		got = append(got, s.moves[:nd]...)
	}
	want = p.LegalMoves(nil)
	slices.Sort(got)
	slices.Sort(want)
	return got, want, slices.Equal(got, want)
}

func perftCheck(t *testing.T, s *scorer, p *board.Position, depth int) {
	if got, want, ok := sameMoves(s, p, &history{}); !ok {
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

// TestGenPerft compares the generator with board.LegalMoves over the
// perft suite's trees.
func TestGenPerft(t *testing.T) {
	var s scorer
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

// TestGenGames compares the generator with board.LegalMoves in every
// position of real games.
func TestGenGames(t *testing.T) {
	root := testutil.SharedData(t)
	var files []string
	for _, pat := range []string{"medium/*.pgn*", "small/*", "tricky/*.pgn", "tricky/*/*.pgn"} {
		m, _ := filepath.Glob(filepath.Join(root, pat))
		files = append(files, m...)
	}
	if testing.Short() {
		files = []string{"../testdata/champions500.pgn"}
	}
	var mu sync.Mutex
	positions := 0
	for _, f := range files {
		_, err := ingest.Run(context.Background(), []string{f}, ingest.Options{}, func(int) ingest.Sink {
			s := new(scorer)
			return funcSink(func(g *pgn.Game) error {
				p := g.Start
				var h history
				for _, m := range g.Moves {
					if got, want, ok := sameMoves(s, &p, &h); !ok {
						t.Errorf("%s:%d: %s: generated %v, want %v", g.File, g.Line, p.FEN(), got, want)
						return nil
					}
					h.play(&p, m)
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

// TestScores checks that the generator's scores (by composite tables)
// equal the sums of the features' weights, the definition the trainer
// uses.
func TestScores(t *testing.T) {
	files := []string{"../testdata/champions500.pgn"}
	if !testing.Short() {
		m, _ := filepath.Glob(filepath.Join(testutil.SharedData(t), "small", "*.pgn"))
		files = append(files, m...)
	}
	var mu sync.Mutex
	checked := 0
	_, err := ingest.Run(context.Background(), files, ingest.Options{}, func(int) ingest.Sink {
		s := new(scorer)
		return funcSink(func(g *pgn.Game) error {
			p := g.Start
			var h history
			for _, m := range g.Moves {
				np := s.gen(&p, &h)
				for i := range s.pieces[:np] {
					pc := &s.pieces[i]
					var want int32
					for _, f := range s.pieceFeatures(pc) {
						want += pieceWeights[f]
					}
					if s.pscore[i] != want {
						t.Errorf("%s:%d: %s: piece on %v scores %d, features say %d", g.File, g.Line, p.FEN(), pc.from, s.pscore[i], want)
						return nil
					}
					nd := s.dests(pc)
					for j, dm := range s.moves[:nd] {
						var want int32
						for _, f := range s.destFeatures(pc, dm) {
							want += destWeights[f]
						}
						if s.dscore[j] != want {
							t.Errorf("%s:%d: %s: move %v scores %d, features say %d", g.File, g.Line, p.FEN(), dm, s.dscore[j], want)
							return nil
						}
					}
				}
				mu.Lock()
				checked++
				mu.Unlock()
				h.play(&p, m)
			}
			return nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d positions", checked)
}

// TestReciprocal checks the division by multiplication of the static
// models against plain division.
func TestReciprocal(t *testing.T) {
	ds := []uint32{2, 3, 7, 10, 60000, 65535, 65536, 1 << 20, 1<<32 - 1}
	ms := staticModels
	ds = append(ds, ms.count.cum[len(ms.count.cum)-1], ms.name.cum[len(ms.name.cum)-1])
	for i := range ms.text {
		for j := range ms.text[i] {
			ds = append(ds, ms.text[i][j].cum[len(ms.text[i][j].cum)-1])
		}
	}
	ns := []uint32{0, 1, 2, rcTop - 1, rcTop, rcTop + 1, 1<<31 - 1, 1 << 31, 1<<32 - 2, 1<<32 - 1}
	for x := uint64(12345); len(ns) < 10000; x = x*6364136223846793005 + 1442695040888963407 {
		ns = append(ns, uint32(x>>32))
	}
	for _, d := range ds {
		r := reciprocal(d)
		for _, n := range ns {
			if q, _ := bits.Mul64(r, uint64(n)); q != uint64(n/d) {
				t.Fatalf("%d / %d: %d, want %d", n, d, q, n/d)
			}
		}
	}
}
