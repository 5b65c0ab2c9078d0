//go:build !oracle

package gamecode

import (
	"path/filepath"
	"testing"

	"github.com/chessbook/chessbook/internal/testutil"
)

// The inputs of the tests that read real games: the repository's
// testdata (with -tags oracle, the files of ../shared/data; see
// docs/testing.md).

// withOracles is true in the oracle tests (-tags oracle).
const withOracles = false

// mediumInputs returns the files TestRoundTripMedium round-trips, and the
// least number of games they hold: champions500 and lichess2k.
func mediumInputs(t *testing.T) ([]string, int) {
	return []string{testutil.Testdata(t, "champions500.pgn"), testutil.Testdata(t, "lichess2k.pgn.zst")}, 2499
}

// smallInputs returns the patterns of the files TestRoundTripSmall
// round-trips: testdata/tricky's PGN files.
func smallInputs(t testing.TB) []string {
	root := filepath.Join(testutil.RepoRoot(t), "testdata")
	return []string{filepath.Join(root, "tricky", "*.pgn"), filepath.Join(root, "tricky", "*", "*.pgn")}
}

// untilInput returns the games TestDecodeGameUntil cuts: the lichess slice.
func untilInput(t *testing.T) string { return testutil.Testdata(t, "lichess2k.pgn.zst") }

// sharedSmallPGN returns the PGN files of shared/data/small: none without
// -tags oracle.
func sharedSmallPGN(testing.TB) []string { return nil }
