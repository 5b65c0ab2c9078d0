//go:build oracle

package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chessbook/chessbook/internal/testutil"
)

// The inputs of the tests that compare with external programs or read
// real data: the programs run here and the files of ../shared/data (the
// repository's reference outputs and slices without -tags oracle; see
// docs/testing.md).

// pgnExtractInput returns the champions' games of shared/data, lines, and
// pgn-extract -x run on them; and checks first that pgn-extract gives the
// committed answers on the champions500 slice.
func pgnExtractInput(t *testing.T) pgnExtractCase {
	bin := testutil.NeedTool(t, "pgn-extract", "apt-get install pgn-extract")
	run := func(t *testing.T, input, line string) []byte {
		t.Helper()
		vars := filepath.Join(t.TempDir(), "vars.txt")
		if err := os.WriteFile(vars, []byte(line+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		found := filepath.Join(t.TempDir(), "found.pgn")
		cmd := exec.Command(bin, "-x", vars, "--quiet", "-o", found, input)
		if msg, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("pgn-extract: %v\n%s", err, msg)
		}
		ref, err := os.ReadFile(found)
		if err != nil {
			t.Fatal(err)
		}
		return ref
	}
	for _, line := range pgnExtractLines {
		name := pgnExtractReference(t, line)
		if got := run(t, testutil.Testdata(t, "champions500.pgn"), line); !bytes.Equal(got, reference(t, name)) {
			t.Errorf("pgn-extract -x %q on champions500.pgn differs from testdata/reference/%s", line, name)
		}
	}
	input := filepath.Join(t.TempDir(), "champions.pgn")
	if err := os.WriteFile(input, testutil.ReadZst(t, testutil.SharedFile(t, filepath.Join("medium", "pgnmentor_world_champions_16players.pgn.zst"))), 0o644); err != nil {
		t.Fatal(err)
	}
	lines := []string{
		"1. d4 Nf6 2. c4 e6 3. Nf3",
		"1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6 6. Be2",
	}
	if testing.Short() {
		lines = lines[1:]
	}
	return pgnExtractCase{input: input, lines: lines, found: func(t *testing.T, line string) []byte { return run(t, input, line) }}
}

// sharedBooks returns the books of shared/data (at least 15).
func sharedBooks(t *testing.T) []string {
	dir := testutil.SharedData(t)
	var books []string
	for _, pat := range []string{"books/*.bin", "books/*/*.bin", "reference/*.bin"} {
		m, _ := filepath.Glob(filepath.Join(dir, pat))
		for _, f := range m {
			if !strings.Contains(f, "broken") {
				books = append(books, f)
			}
		}
	}
	if len(books) < 15 {
		t.Fatalf("only %d books in %s", len(books), dir)
	}
	return books
}

// notationsBook returns the book TestProbeNotations reads: Scid's Elo2400.
func notationsBook(t *testing.T) string { return sharedBook(t, "books/scid_Elo2400.bin") }

// makeBookOf runs PolyGlot's make-book on the PGN file pgnPath and returns
// its book, checking that it is the committed testdata/reference/name.
func makeBookOf(t *testing.T, pgnPath, name string) []byte {
	polyglotBin := testutil.NeedTool(t, "polyglot", "apt-get install polyglot; no make-book to compare with")
	ref := filepath.Join(t.TempDir(), "ref.bin")
	if msg, err := exec.Command(polyglotBin, "make-book", "-pgn", pgnPath, "-bin", ref).CombinedOutput(); err != nil {
		t.Fatalf("polyglot make-book: %v\n%s", err, msg)
	}
	theirs, err := os.ReadFile(ref)
	if err != nil {
		t.Fatal(err)
	}
	if committed, err := os.ReadFile(testutil.Testdata(t, filepath.Join("reference", name))); err != nil || !bytes.Equal(theirs, committed) {
		t.Errorf("make-book's book differs from testdata/reference/%s (%v)", name, err)
	}
	return theirs
}

// reference returns the content of testdata/reference/name.
func reference(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(testutil.Testdata(t, filepath.Join("reference", name)))
	if err != nil {
		t.Fatal(err)
	}
	return b
}
