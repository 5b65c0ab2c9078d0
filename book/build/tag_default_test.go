//go:build !oracle

package build_test

import (
	"path/filepath"
	"testing"

	"github.com/chessbook/chessbook/internal/testutil"
)

// The inputs of the tests that read real games: the repository's slices
// (with -tags oracle, the files of ../shared/data; see docs/testing.md).

// lichessInput returns the lichess games TestFilters builds, and how many
// they are: testdata's lichess2k.
func lichessInput(t *testing.T) (string, int) { return testutil.Testdata(t, "lichess2k.pgn.zst"), 2000 }

// fenGames returns the text of lichess games, some from a FEN, and how
// many of them at least start from a FEN: the 106 games of lichess_10k
// that start from a FEN, verbatim (testdata's lichess_fen106).
func fenGames(t *testing.T) (string, int) {
	return string(testutil.ReadZst(t, testutil.Testdata(t, "lichess_fen106.pgn.zst"))), 100
}

// killInputs returns the games the kill tests build and make-book's books
// of them: champions500 (max-ply 20, min-game 1) and lichess2k (its games
// from a FEN left out).
func killInputs(t *testing.T) (champions, championsRef, lichess, lichessRef string) {
	return testutil.Testdata(t, "champions500.pgn"), testutil.Testdata(t, filepath.Join("reference", "champions500_makebook_maxply20_mingame1.bin")),
		testutil.Testdata(t, "lichess2k.pgn.zst"), testutil.Testdata(t, filepath.Join("reference", "lichess2k_nosetup_makebook_default.bin"))
}

// countGameInputs returns the files TestCountGameOracle compares, as
// "small" and "medium" ones, and the least number of positions the small
// ones hold: champions500 and lichess2k, both small.
func countGameInputs(t *testing.T) (small, medium []string, minTotal int) {
	return []string{testutil.Testdata(t, "champions500.pgn"), testutil.Testdata(t, "lichess2k.pgn.zst")}, nil, 150000
}

// killBudget is the aggregation memory of the kill tests' builds: small
// enough for a dozen commits of the slices.
const killBudget = 128 << 10

// lichessZst returns a zstd file of lichess games: testdata's lichess2k.
func lichessZst(t *testing.T) string { return testutil.Testdata(t, "lichess2k.pgn.zst") }

// mediumInput returns the games TestBuildInterruptResume builds:
// testdata's champions500.
func mediumInput(t *testing.T) string { return testutil.Testdata(t, "champions500.pgn") }

// withOracles is true in the oracle tests (-tags oracle).
const withOracles = false
