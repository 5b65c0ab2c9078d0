//go:build oracle

package book_test

import (
	"path/filepath"
	"testing"

	"github.com/chessbook/chessbook/internal/testutil"
)

// selectionInput returns what TestSelectedOracle builds and selects: lichess
// and chess.com games of shared/data, and the repository's champions500
// (testdata's lichess2k and champions500 without -tags oracle; see
// docs/testing.md).
func selectionInput(t *testing.T) selectionCase {
	return selectionCase{
		files: []string{
			testutil.SharedFile(t, filepath.Join("small", "allancao_lichess_DrDrunkenstein_2019-01-29.pgn")),
			testutil.SharedFile(t, filepath.Join("small", "allancao_games.pgn")),
			testutil.Testdata(t, "champions500.pgn"),
		},
		from: [2]int{2018, 2}, to: [2]int{2018, 4}, since: [2]int{2018, 3},
	}
}
