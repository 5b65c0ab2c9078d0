//go:build !oracle

package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/chessbook/chessbook/internal/testutil"
)

// The inputs of the tests that compare with external programs or read
// real data: the repository's reference outputs and slices (with -tags
// oracle, the programs run here and the files of ../shared/data; see
// docs/testing.md).

// pgnExtractInput returns the champions' 500 games, two lines and
// pgn-extract -x's answers for them (testdata/reference/generate.sh).
func pgnExtractInput(t *testing.T) pgnExtractCase {
	return pgnExtractCase{
		input: testutil.Testdata(t, "champions500.pgn"),
		lines: pgnExtractLines,
		found: func(t *testing.T, line string) []byte {
			return reference(t, pgnExtractReference(t, line))
		},
	}
}

// sharedBooks returns the books of shared/data: none without -tags oracle.
func sharedBooks(*testing.T) []string { return nil }

// notationsBook returns the book TestProbeNotations reads: make-book's on
// the champions' games.
func notationsBook(t *testing.T) string {
	return testutil.Testdata(t, filepath.Join("reference", "champions500_makebook_maxply20_mingame1.bin"))
}

// makeBookOf returns PolyGlot's make-book of the PGN file pgnPath: the
// committed testdata/reference/name.
func makeBookOf(t *testing.T, pgnPath, name string) []byte {
	return reference(t, name)
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
