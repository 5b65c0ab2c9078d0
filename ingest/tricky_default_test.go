//go:build !oracle

package ingest

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
