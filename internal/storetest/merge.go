package storetest

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/chessbook/chessbook/book/build"
	"github.com/chessbook/chessbook/book/merge"
	"github.com/chessbook/chessbook/store"
)

// Stores split, built and merged, for the merge tests and the tests that
// compare a merged store with one build.

// SplitPGN writes the games of the PGN text data to parts files in dir,
// cut at game boundaries into parts of about equal size, named
// name-1.pgn, name-2.pgn, ...
func SplitPGN(t testing.TB, dir, name string, data []byte, parts int) []string {
	t.Helper()
	var cuts []int
	for i := 0; i < len(data); {
		j := bytes.Index(data[i:], []byte("\n[Event "))
		if j < 0 {
			break
		}
		cuts = append(cuts, i+j+1)
		i += j + 1
	}
	var files []string
	start := 0
	for p := 1; p <= parts; p++ {
		end := len(data)
		if p < parts {
			want := len(data) * p / parts
			k, _ := slices.BinarySearch(cuts, want)
			if k == len(cuts) {
				t.Fatalf("no game boundary after byte %d", want)
			}
			end = cuts[k]
		}
		f := filepath.Join(dir, fmt.Sprintf("%s-%d.pgn", name, p))
		if err := os.WriteFile(f, data[start:end], 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
		start = end
	}
	return files
}

// BuildStore builds inputs (also opts.Inputs unless set) into a new
// store at dir, compacted, and returns the build's counters.
func BuildStore(t testing.TB, dir string, opts build.Options, inputs ...string) build.Stats {
	t.Helper()
	if opts.Inputs == nil {
		opts.Inputs = inputs
	}
	if opts.CountMode == "" {
		opts.CountMode = store.CountGame
	}
	return BuildWorkers(t, dir, opts, 2, inputs...)
}

// MergeParts builds each group of inputs into a store of its own, merges
// them in order with o, and returns the merged store's directory and what
// the merge did.
func MergeParts(t testing.TB, opts build.Options, o merge.Options, groups ...[]string) (string, merge.Stats) {
	t.Helper()
	tmp := t.TempDir()
	var dirs []string
	for i, g := range groups {
		dir := filepath.Join(tmp, fmt.Sprintf("part%d", i+1))
		BuildStore(t, dir, opts, g...)
		dirs = append(dirs, dir)
	}
	out := filepath.Join(tmp, "merged")
	ms, err := merge.Run(context.Background(), out, dirs, o)
	if err != nil {
		t.Fatal(err)
	}
	return out, ms
}

// OpenRO opens the store at dir read-only for the test.
func OpenRO(t testing.TB, dir string) *store.Store {
	t.Helper()
	st, err := store.Open(dir, store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}
