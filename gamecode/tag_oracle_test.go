//go:build oracle

package gamecode

import (
	"path/filepath"
	"testing"

	"github.com/chessbook/chessbook/internal/testutil"
)

// The inputs of the tests that read real games: the files of
// ../shared/data (the repository's testdata without -tags oracle; see
// docs/testing.md).

// withOracles is true in the oracle tests (-tags oracle).
const withOracles = true

// mediumInputs returns the files TestRoundTripMedium round-trips, and the
// least number of games they hold: shared/data/medium.
func mediumInputs(t *testing.T) ([]string, int) {
	dir := testutil.SharedFile(t, "medium")
	files, err := filepath.Glob(filepath.Join(dir, "*.pgn*"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no medium inputs in %s: %v", dir, err)
	}
	return files, 40000
}

// smallInputs returns the patterns of the files TestRoundTripSmall
// round-trips: shared/data's small and tricky files.
func smallInputs(t testing.TB) []string {
	root := testutil.SharedData(t)
	return []string{filepath.Join(root, "small", "*"), filepath.Join(root, "tricky", "*.pgn"), filepath.Join(root, "tricky", "*", "*.pgn")}
}

// untilInput returns the games TestDecodeGameUntil cuts: a TWIC issue.
func untilInput(t *testing.T) string {
	return testutil.SharedFile(t, filepath.Join("small", "notnil_twic0920.pgn"))
}

// sharedSmallPGN returns the PGN files of shared/data/small.
func sharedSmallPGN(tb testing.TB) []string {
	m, _ := filepath.Glob(filepath.Join(testutil.SharedData(tb), "small", "*.pgn"))
	return m
}
