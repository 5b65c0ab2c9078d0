//go:build !oracle

package build_test

import (
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
