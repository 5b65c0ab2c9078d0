//go:build oracle

package build_test

import (
	"path/filepath"
	"testing"

	"github.com/chessbook/chessbook/internal/testutil"
)

// The inputs of the tests that read real games: the files of
// ../shared/data (the repository's slices without -tags oracle; see
// docs/testing.md).

// lichessInput returns the lichess games TestFilters builds, and how many
// they are: shared/data's lichess_10k.
func lichessInput(t *testing.T) (string, int) {
	return testutil.SharedFile(t, filepath.Join("medium", "lichess_10k.pgn.zst")), 10000
}

// fenGames returns the text of lichess games, some from a FEN, and how
// many of them at least start from a FEN: lichess_10k's 106.
func fenGames(t *testing.T) (string, int) {
	return string(testutil.ReadZst(t, testutil.SharedFile(t, filepath.Join("medium", "lichess_10k.pgn.zst")))), 100
}

// killInputs returns the games the kill tests build and make-book's books
// of them: the world champions' (max-ply 20, min-game 1) and lichess_10k
// (its games from a FEN left out).
func killInputs(t *testing.T) (champions, championsRef, lichess, lichessRef string) {
	return testutil.SharedFile(t, filepath.Join("medium", "pgnmentor_world_champions_16players.pgn.zst")),
		testutil.SharedFile(t, filepath.Join("reference", "polyglot204_makebook_maxply20_mingame1__pgnmentor_world_champions_16players.bin")),
		testutil.SharedFile(t, filepath.Join("medium", "lichess_10k.pgn.zst")),
		testutil.SharedFile(t, filepath.Join("reference", "polyglot204_makebook_default__corentings_lichess10k_nosetup.bin"))
}

// countGameInputs returns the files TestCountGameOracle compares, as
// small and medium ones, and the least number of positions the small ones
// hold: shared/data's small/ (about 676,000 distinct positions) and
// medium/.
func countGameInputs(t *testing.T) (small, medium []string, minTotal int) {
	data := testutil.SharedData(t)
	small, _ = filepath.Glob(filepath.Join(data, "small", "*"))
	medium, _ = filepath.Glob(filepath.Join(data, "medium", "*"))
	return small, medium, 600000
}

// killBudget is the aggregation memory of the kill tests' builds: a dozen
// commits of the medium corpus.
const killBudget = 16 << 20

// lichessZst returns a zstd file of lichess games: lichess_10k.
func lichessZst(t *testing.T) string {
	return testutil.SharedFile(t, filepath.Join("medium", "lichess_10k.pgn.zst"))
}

// mediumInput returns the games TestBuildInterruptResume builds: the
// world champions' corpus.
func mediumInput(t *testing.T) string {
	return testutil.SharedFile(t, filepath.Join("medium", "pgnmentor_world_champions_16players.pgn.zst"))
}

// withOracles is true in the oracle tests (-tags oracle).
const withOracles = true
