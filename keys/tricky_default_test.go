//go:build !oracle

package keys

import (
	"testing"

	"github.com/chessbook/chessbook/internal/testutil"
)

// withOracles is true in the oracle tests (-tags oracle, see
// docs/testing.md).
const withOracles = false

// trickyFiles returns the repository's testdata/tricky files (with -tags
// oracle, those of ../shared/data/tricky too).
func trickyFiles(tb testing.TB) []string {
	tb.Helper()
	return testutil.TrickyFiles(tb)
}

// corpusDir returns the folder and the subfolders of the games the corpus
// tests replay: the repository's testdata (champions500, lichess2k).
func corpusDir(t testing.TB) (string, []string) { return testutil.RepoRoot(t), []string{"testdata"} }

// evalCorpus returns the world champions' games the key sizes are
// measured on: the 500 of testdata.
func evalCorpus(t testing.TB) string { return testutil.Testdata(t, "champions500.pgn") }
