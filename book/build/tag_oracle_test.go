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
