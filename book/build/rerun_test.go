package build_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/klauspost/compress/zstd"

	"github.com/chessbook/chessbook/book/build"
	"github.com/chessbook/chessbook/ingest"
	"github.com/chessbook/chessbook/internal/storetest"
	"github.com/chessbook/chessbook/store"
)

// buildInto runs the builder on inputs into the store at dir.
func buildInto(t *testing.T, dir string, opts build.Options, inputs ...string) build.Stats {
	t.Helper()
	st, err := store.Open(dir, store.Options{Meta: &store.Meta{MaxPly: opts.MaxPly, CountMode: opts.CountMode, KeepDuplicates: opts.KeepDuplicates}})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	b := build.NewBuilder(st, opts, 2)
	if _, err := ingest.Run(context.Background(), inputs, ingest.Options{Workers: 2}, b.Sink); err != nil {
		t.Fatal(err)
	}
	if err := b.Finish(); err != nil {
		t.Fatal(err)
	}
	return b.Stats()
}

// TestRerunChangesNothing builds a store, then runs the same input again
// (also split differently, and with duplicates kept): the second run finds
// every game already stored and the store stays byte for byte the same.
func TestRerunChangesNothing(t *testing.T) {
	in := "../../testdata/champions500.pgn"
	for _, opts := range []build.Options{
		{CountMode: store.CountGame},
		{CountMode: store.CountOccurrence, KeepDuplicates: true, Inputs: []string{in}},
	} {
		t.Run(fmt.Sprintf("%s keep=%v", opts.CountMode, opts.KeepDuplicates), func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "db")
			s1 := buildInto(t, dir, opts, in)
			d1, pos, games := storetest.Digest(t, dir)
			if s1.Games != 500 || games != 500 || pos < 30000 {
				t.Fatalf("first run: %d games added, %d stored, %d positions", s1.Games, games, pos)
			}
			// A small memory budget: many flushes, so the second run's
			// games meet the first run's in many places.
			opts.MemBudget = 1 << 20
			s2 := buildInto(t, dir, opts, in)
			if s2.Games != 0 || s2.Duplicates != 500 || s2.Positions != 0 {
				t.Fatalf("second run: %+v, want 500 duplicates and nothing added", s2)
			}
			if d2, _, _ := storetest.Digest(t, dir); d2 != d1 {
				t.Fatalf("the store changed on a re-run")
			}
		})
	}
}

// TestResumeAfterPartialBuild stands for a build killed part way: a store
// that holds the first games of the input (as a killed run leaves it: whole
// flushed units), then the whole input is built into it. The result must
// equal one uninterrupted build: nothing lost, nothing counted twice.
func TestResumeAfterPartialBuild(t *testing.T) {
	in := "../../testdata/champions500.pgn"
	data, err := os.ReadFile(in)
	if err != nil {
		t.Fatal(err)
	}
	// The first ~200 games: cut at a game boundary.
	cut := bytes.Index(data[len(data)*2/5:], []byte("\n[Event ")) + len(data)*2/5 + 1
	prefix := filepath.Join(t.TempDir(), "champions500.pgn")
	if err := os.WriteFile(prefix, data[:cut], 0o644); err != nil {
		t.Fatal(err)
	}
	for _, opts := range []build.Options{
		{CountMode: store.CountGame},
		{CountMode: store.CountOccurrence, KeepDuplicates: true},
	} {
		whole := filepath.Join(t.TempDir(), "whole")
		opts.Inputs = []string{in}
		buildInto(t, whole, opts, in)
		want, _, _ := storetest.Digest(t, whole)

		resumed := filepath.Join(t.TempDir(), "resumed")
		opts.Inputs = []string{prefix}
		first := buildInto(t, resumed, opts, prefix)
		opts.Inputs = []string{in}
		second := buildInto(t, resumed, opts, in)
		if first.Games+second.Games != 500 || second.Duplicates != first.Games {
			t.Fatalf("%s: first run %d games, second %d games and %d duplicates", opts.CountMode, first.Games, second.Games, second.Duplicates)
		}
		if got, _, _ := storetest.Digest(t, resumed); got != want {
			t.Fatalf("%s: resumed build differs from an uninterrupted one", opts.CountMode)
		}
	}
}

// TestDuplicatesAfterCommitInOneRun builds a fresh store from the same file
// given twice, with a memory budget small enough that the first copy's
// games are committed long before the second copy comes: the builder then
// skips the store lookup for games it knows are new (the store began empty
// and its filter of committed ids says no), and must still find every game
// of the second copy through that filter. The store must equal a build of
// the file once.
func TestDuplicatesAfterCommitInOneRun(t *testing.T) {
	in := "../../testdata/champions500.pgn"
	once := filepath.Join(t.TempDir(), "once")
	buildInto(t, once, build.Options{CountMode: store.CountGame}, in)
	want, _, _ := storetest.Digest(t, once)

	twice := filepath.Join(t.TempDir(), "twice")
	s := buildInto(t, twice, build.Options{CountMode: store.CountGame, MemBudget: 1 << 20}, in, in)
	if s.Games != 500 || s.Duplicates != 500 || s.Flushes < 4 {
		t.Fatalf("file given twice: %d games added, %d duplicates, %d flushes; want 500, 500 and several flushes", s.Games, s.Duplicates, s.Flushes)
	}
	if got, _, games := storetest.Digest(t, twice); got != want || games != 500 {
		t.Fatalf("file given twice: store digest %x with %d games, want %x (the file once) with 500", got, games, want)
	}
}

// TestResumeAfterCutInput: an input cut at a random byte (a download or a
// copy that stopped: plain, gzip, bzip2 and zstd) adds no partial game,
// and building the whole input into that store afterwards equals one
// uninterrupted build. (A compressed input cut anywhere fails to read on,
// which marks its last game as cut; plain text is cut inside a line.)
func TestResumeAfterCutInput(t *testing.T) {
	in := "../../testdata/champions500.pgn"
	data, err := os.ReadFile(in)
	if err != nil {
		t.Fatal(err)
	}
	opts := build.Options{CountMode: store.CountGame}
	whole := filepath.Join(t.TempDir(), "whole")
	buildInto(t, whole, opts, in)
	want, _, _ := storetest.Digest(t, whole)
	compressed := map[string][]byte{"pgn": data}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	_, _ = zw.Write(data)
	_ = zw.Close()
	compressed["pgn.gz"] = gz.Bytes()
	enc, _ := zstd.NewWriter(nil)
	compressed["pgn.zst"] = enc.EncodeAll(data, nil)
	if out, err := exec.Command("bzip2", "-c", in).Output(); err == nil {
		compressed["pgn.bz2"] = out
	} else {
		t.Logf("no bzip2 command (%v): bzip2 not tested", err)
	}
	rng := rand.New(rand.NewPCG(11, 12))
	for ext, full := range compressed {
		for i := 0; i < 3; i++ {
			cut := len(full)/10 + rng.IntN(len(full)*8/10)
			if ext == "pgn" && full[cut-1] == '\n' {
				// Plain text cut right after a line break cannot be told
				// from a last game written without a result marker, which
				// is kept: cut inside the line instead.
				cut++
			}
			dir := t.TempDir()
			part := filepath.Join(dir, "games."+ext)
			if err := os.WriteFile(part, full[:cut], 0o644); err != nil {
				t.Fatal(err)
			}
			db := filepath.Join(dir, "db")
			first := buildCut(t, db, opts, part)
			fullPath := filepath.Join(dir, "full."+ext)
			if err := os.WriteFile(fullPath, full, 0o644); err != nil {
				t.Fatal(err)
			}
			second := buildInto(t, db, opts, fullPath)
			if first.Games+second.Games != 500 || second.Duplicates != first.Games {
				t.Errorf("%s cut at %d of %d bytes: %d games from the cut input, then %d and %d duplicates from the whole",
					ext, cut, len(full), first.Games, second.Games, second.Duplicates)
			}
			if got, _, _ := storetest.Digest(t, db); got != want {
				t.Errorf("%s cut at %d of %d bytes: the store differs from an uninterrupted build", ext, cut, len(full))
			}
		}
	}
}

// buildCut is buildInto for an input that may end in a read error (a cut
// compressed stream): what was read before it is committed.
func buildCut(t *testing.T, dir string, opts build.Options, input string) build.Stats {
	t.Helper()
	st, err := store.Open(dir, store.Options{Meta: &store.Meta{CountMode: opts.CountMode}})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	b := build.NewBuilder(st, opts, 2)
	_, runErr := ingest.Run(context.Background(), []string{input}, ingest.Options{Workers: 2}, b.Sink)
	if err := b.Finish(); err != nil {
		t.Fatal(err)
	}
	if runErr != nil {
		t.Logf("%s: %v", filepath.Base(input), runErr)
	}
	return b.Stats()
}
