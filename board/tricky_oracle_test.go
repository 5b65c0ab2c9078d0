//go:build oracle

package board

import (
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
