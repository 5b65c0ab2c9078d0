//go:build !oracle

package book_test

import (
	"path/filepath"
	"testing"

	"github.com/chessbook/chessbook/internal/testutil"
)

// selectionInput returns what TestSelectedOracle builds and selects: the
// repository's lichess200 (gamedb/testdata) and champions500 (with -tags
// oracle, lichess and chess.com games of shared/data; see
// docs/testing.md).
func selectionInput(t *testing.T) selectionCase {
	return selectionCase{
		files: []string{filepath.Join(testutil.RepoRoot(t), "gamedb", "testdata", "lichess200.pgn"), testutil.Testdata(t, "champions500.pgn")},
		from:  [2]int{2023, 6}, to: [2]int{2023, 8}, since: [2]int{2024, 10},
	}
}
