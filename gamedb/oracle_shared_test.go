//go:build oracle

package gamedb_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/chessbook/chessbook/internal/testutil"
)

// TestOracleShared runs the oracle on the shared lichess and master
// inputs.
func TestOracleShared(t *testing.T) {
	root := testutil.SharedData(t)
	for _, f := range []string{"medium/lichess_10k.pgn.zst", "medium/pgnmentor_world_champions_16players.pgn.zst"} {
		t.Run(filepath.Base(f), func(t *testing.T) {
			t.Parallel()
			if testing.Short() && strings.Contains(f, "champions") {
				t.Skip("-short: the lichess input only")
			}
			oracleData(t, filepath.Join(root, f), 2, false)
		})
	}
}
