//go:build !oracle

package pgn

import (
	"path/filepath"
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

// corpusCounts returns the folder of the PGN files TestCorpusCounts
// parses and their game counts: the repository's testdata.
func corpusCounts(t *testing.T) (string, map[string]int) {
	return filepath.Join(testutil.RepoRoot(t), "testdata"), map[string]int{
		"champions500.pgn":  500,
		"lichess2k.pgn.zst": 2000,
	}
}

// sharedTrickyCounts are the counts of shared/data's tricky files
// TestCorpusTrickyCounts checks: none without -tags oracle.
var sharedTrickyCounts map[string][3]int

// sharedNotPGN returns the binary files of shared/data: none without -tags
// oracle.
func sharedNotPGN(*testing.T) []string { return nil }
