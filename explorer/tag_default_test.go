//go:build !oracle

package explorer

import (
	"testing"

	"github.com/chessbook/chessbook/internal/testutil"
)

// The inputs of the tests that read real games: the repository's slices
// (with -tags oracle, the files of ../shared/data; see docs/testing.md).

// filtersInputs returns the lichess and the masters' games
// TestFiltersOracle counts: lichess2k and champions500.
func filtersInputs(t *testing.T) (lichess, masters string) {
	return testutil.Testdata(t, "lichess2k.pgn.zst"), testutil.Testdata(t, "champions500.pgn")
}

// openingGames returns the lichess games TestOpeningRealGames names.
func openingGames(t *testing.T) string { return testutil.Testdata(t, "lichess2k.pgn.zst") }

// mastersGames returns the masters' games of TestOpeningNamesAlongTheLine.
func mastersGames(t *testing.T) string { return testutil.Testdata(t, "champions500.pgn") }
