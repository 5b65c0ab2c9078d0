package build_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/chessbook/chessbook/book/build"
	"github.com/chessbook/chessbook/gamecode"
	"github.com/chessbook/chessbook/ingest"
	"github.com/chessbook/chessbook/internal/storetest"
	"github.com/chessbook/chessbook/pgn"
	"github.com/chessbook/chessbook/store"
)

// recordSink keeps every game it is given as a gamecode record, with its
// file and line.
type recordSink struct {
	recs  [][]byte
	lines []int
	files []string
}

func (s *recordSink) Game(g *pgn.Game) error {
	rec, err := gamecode.AppendGame(nil, g)
	if err != nil {
		return err
	}
	s.recs, s.lines, s.files = append(s.recs, rec), append(s.lines, g.Line), append(s.files, g.File)
	return nil
}

func (s *recordSink) Skip(*ingest.GameError) {}

// TestBuildFromGames builds inputs twice, once read by Build and once
// given as games (RunOptions.Games) decoded from their records, as a
// pipeline that ships games as records does: the stores must hold the
// same (every position, game record, side record and first-seen stamp,
// and the game index). The input is given twice, so that half its games
// are duplicates (kept, in one case).
func TestBuildFromGames(t *testing.T) {
	in := "../../testdata/champions500.pgn"
	inputs := []string{in, in}
	sink := &recordSink{}
	if _, err := ingest.Run(context.Background(), inputs, ingest.Options{Workers: 1}, func(int) ingest.Sink { return sink }); err != nil {
		t.Fatal(err)
	}
	if len(sink.recs) != 1000 {
		t.Fatalf("%d games read, want 1000", len(sink.recs))
	}
	for _, opts := range []build.Options{
		{CountMode: store.CountGame, Inputs: inputs},
		{CountMode: store.CountOccurrence, KeepDuplicates: true, MaxPly: 30, Inputs: inputs},
	} {
		t.Run(string(opts.CountMode), func(t *testing.T) {
			read := filepath.Join(t.TempDir(), "read")
			if _, err := build.Run(context.Background(), build.RunOptions{Options: opts, Dir: read, Workers: 2}); err != nil {
				t.Fatal(err)
			}
			given := filepath.Join(t.TempDir(), "given")
			res, err := build.Run(context.Background(), build.RunOptions{Options: opts, Dir: given, Workers: 2,
				Games: func(yield func(*pgn.Game) error) error {
					for i, rec := range sink.recs {
						g, err := gamecode.DecodeGame(rec)
						if err != nil {
							return err
						}
						g.File, g.Line = sink.files[i], sink.lines[i]
						if err := yield(&g); err != nil {
							return err
						}
					}
					return nil
				}})
			if err != nil {
				t.Fatal(err)
			}
			if res.Summary.Ingested != 1000 || res.Plan.Workers < 1 {
				t.Fatalf("summary %+v", res.Summary)
			}
			wantGames := int64(500)
			if opts.KeepDuplicates {
				wantGames = 1000
			}
			if res.Stats.Games != wantGames {
				t.Fatalf("%d games stored, want %d", res.Stats.Games, wantGames)
			}
			d1, p1, g1 := storetest.Digest(t, read)
			d2, p2, g2 := storetest.Digest(t, given)
			if d1 != d2 {
				t.Fatalf("stores differ: read %d positions, %d games; given %d, %d", p1, g1, p2, g2)
			}
			if storetest.IndexDigest(t, read) != storetest.IndexDigest(t, given) {
				t.Fatal("game indexes differ")
			}
		})
	}
}

// TestContentIDOfCopies checks that ContentID is the id a build stores a
// game under, and that a game's copies share it.
func TestContentIDOfCopies(t *testing.T) {
	in := "../../testdata/champions500.pgn"
	dir := filepath.Join(t.TempDir(), "db")
	if _, err := build.Run(context.Background(), build.RunOptions{Options: build.Options{Inputs: []string{in}}, Dir: dir}); err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(dir, store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	n := 0
	sink := sinkFunc(func(g *pgn.Game) error {
		n++
		if ok, err := st.HasGame(build.ContentID(g)); err != nil || !ok {
			t.Errorf("%s:%d: ContentID %v not stored (%v)", g.File, g.Line, build.ContentID(g), err)
		}
		return nil
	})
	if _, err := ingest.Run(context.Background(), []string{in}, ingest.Options{Workers: 1}, func(int) ingest.Sink { return sink }); err != nil {
		t.Fatal(err)
	}
	if n != 500 {
		t.Fatalf("%d games", n)
	}
}

type sinkFunc func(*pgn.Game) error

func (f sinkFunc) Game(g *pgn.Game) error { return f(g) }
func (sinkFunc) Skip(*ingest.GameError)   {}
