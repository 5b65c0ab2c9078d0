//go:build oracle

package keys

import (
	"github.com/chessbook/chessbook/keys/internal/corpus"
	"testing"

	"github.com/chessbook/chessbook/internal/testutil"
)

// withOracles is true in the oracle tests (-tags oracle, see
// docs/testing.md): the tricky seeds then come from the shared data's
// tricky/ folder too.
const withOracles = true

// trickyFiles returns the repository's testdata/tricky files and those of
// ../shared/data/tricky.
func trickyFiles(tb testing.TB) []string {
	tb.Helper()
	return append(testutil.TrickyFiles(tb), testutil.SharedTrickyFiles(tb)...)
}

// corpusDir returns the folder and the subfolders of the games the corpus
// tests replay: shared/data's small/ and medium/.
func corpusDir(t testing.TB) (string, []string) {
	return testutil.SharedData(t), []string{"small", "medium"}
}

// evalCorpus returns the world champions' games the key sizes are
// measured on: corpus.EvalFile of shared/data.
func evalCorpus(t testing.TB) string { return testutil.SharedFile(t, corpus.EvalFile) }
