//go:build oracle

package explorer

import (
	"path/filepath"
	"testing"

	"github.com/chessbook/chessbook/internal/testutil"
)

// The inputs of the tests that read real games: the files of
// ../shared/data (the repository's slices without -tags oracle; see
// docs/testing.md).

// filtersInputs returns the lichess and the masters' games
// TestFiltersOracle counts: lichess_10k and the world champions'.
func filtersInputs(t *testing.T) (lichess, masters string) {
	return testutil.SharedFile(t, filepath.Join("medium", "lichess_10k.pgn.zst")),
		testutil.SharedFile(t, filepath.Join("medium", "pgnmentor_world_champions_16players.pgn.zst"))
}

// openingGames returns the lichess games TestOpeningRealGames names.
func openingGames(t *testing.T) string {
	return testutil.SharedFile(t, filepath.Join("medium", "lichess_10k.pgn.zst"))
}

// mastersGames returns the masters' games of TestOpeningNamesAlongTheLine.
func mastersGames(t *testing.T) string {
	return testutil.SharedFile(t, filepath.Join("medium", "pgnmentor_world_champions_16players.pgn.zst"))
}
