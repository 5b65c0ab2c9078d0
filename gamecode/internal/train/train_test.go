package train

import (
	"bytes"
	"context"
	"go/ast"
	"go/parser"
	"go/token"
	"sync"
	"testing"

	"github.com/chessbook/chessbook/gamecode/internal/gamemodel"
	"github.com/chessbook/chessbook/ingest"
	"github.com/chessbook/chessbook/pgn"
)

// champions gathers the Stats and a Trainer of the champions' games.
func champions(t *testing.T) (*Stats, *Trainer) {
	var mu sync.Mutex
	var stats []*Stats
	var trainers []*Trainer
	_, err := ingest.Run(context.Background(), []string{"../../../testdata/champions500.pgn"}, ingest.Options{}, func(int) ingest.Sink {
		s, tr := new(Stats), NewTrainer()
		mu.Lock()
		stats, trainers = append(stats, s), append(trainers, tr)
		mu.Unlock()
		return ingest.SinkFunc(func(g *pgn.Game) error {
			tr.Add(g)
			return s.Add(g)
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	all, tr := new(Stats), NewTrainer()
	for i := range stats {
		all.Merge(stats[i])
		tr.Merge(trainers[i])
	}
	return all, tr
}

// TestStatsAndTrainer checks the counts of real games, that a training
// epoch lowers the loss, and that the tables written are the Go source of
// gamemodel's frozen tables.
func TestStatsAndTrainer(t *testing.T) {
	s, tr := champions(t)
	if s.Games != 500 || tr.Games() != 500 || s.Plies < 30000 {
		t.Fatalf("%d games (%d kept for training), %d plies", s.Games, tr.Games(), s.Plies)
	}
	bits := (s.PieceBits + s.DestBits) / float64(s.Plies)
	if bits < 1 || bits > 8 {
		t.Errorf("frozen weights: %.3f bits/ply", bits)
	}
	if s.Name[gamemodel.NameEnd] != s.Games {
		t.Errorf("%d tag lists ended, want %d", s.Name[gamemodel.NameEnd], s.Games)
	}
	p0, d0 := tr.Epoch(0) // zero weights: every choice equally likely
	p1, d1 := tr.Epoch(0.05)
	p2, d2 := tr.Epoch(0)
	t.Logf("bits/ply: untrained %.3f, first epoch %.3f, after it %.3f; frozen %.3f", p0+d0, p1+d1, p2+d2, bits)
	if !(p2+d2 < p0+d0) {
		t.Errorf("training did not lower the loss: %.3f, then %.3f", p0+d0, p2+d2)
	}

	var b bytes.Buffer
	if err := s.WriteTables(&b, tr.PieceWeights(), tr.DestWeights()); err != nil {
		t.Fatal(err)
	}
	f, err := parser.ParseFile(token.NewFileSet(), "tables_gen.go", b.Bytes(), parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	if !ast.IsGenerated(f) || f.Name.Name != "gamemodel" {
		t.Errorf("package %s, generated %v", f.Name.Name, ast.IsGenerated(f))
	}
	vars := map[string]bool{}
	for _, d := range f.Decls {
		if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.VAR {
			for _, sp := range g.Specs {
				for _, n := range sp.(*ast.ValueSpec).Names {
					vars[n.Name] = true
				}
			}
		}
	}
	for _, v := range []string{"pieceWeights", "destWeights", "NameFreq", "TextFreq"} {
		if !vars[v] {
			t.Errorf("no %s in the tables", v)
		}
	}
	if err := s.WriteTables(&b, nil, nil); err == nil {
		t.Error("WriteTables accepted no weights")
	}
}
