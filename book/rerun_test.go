package book_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/chessbook/chessbook/book"
	"github.com/chessbook/chessbook/ingest"
	"github.com/chessbook/chessbook/internal/storetest"
	"github.com/chessbook/chessbook/store"
)

// buildInto runs the builder on inputs into the store at dir.
func buildInto(t *testing.T, dir string, opts book.Options, inputs ...string) book.Stats {
	t.Helper()
	st, err := store.Open(dir, store.Options{Meta: &store.Meta{MaxPly: opts.MaxPly, CountMode: opts.CountMode, KeepDuplicates: opts.KeepDuplicates}})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	b := book.NewBuilder(st, opts, 2)
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
	in := "../testdata/champions500.pgn"
	for _, opts := range []book.Options{
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
	in := "../testdata/champions500.pgn"
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
	for _, opts := range []book.Options{
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
	in := "../testdata/champions500.pgn"
	once := filepath.Join(t.TempDir(), "once")
	buildInto(t, once, book.Options{CountMode: store.CountGame}, in)
	want, _, _ := storetest.Digest(t, once)

	twice := filepath.Join(t.TempDir(), "twice")
	s := buildInto(t, twice, book.Options{CountMode: store.CountGame, MemBudget: 1 << 20}, in, in)
	if s.Games != 500 || s.Duplicates != 500 || s.Flushes < 4 {
		t.Fatalf("file given twice: %d games added, %d duplicates, %d flushes; want 500, 500 and several flushes", s.Games, s.Duplicates, s.Flushes)
	}
	if got, _, games := storetest.Digest(t, twice); got != want || games != 500 {
		t.Fatalf("file given twice: store digest %x with %d games, want %x (the file once) with 500", got, games, want)
	}
}
