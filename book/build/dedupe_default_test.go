//go:build !oracle

package build

import (
	"testing"

	"github.com/chessbook/chessbook/internal/testutil"
)

// storedInputs returns the files TestStoredGamesRoundTrip builds:
// testdata's champions500 and lichess2k (shared/data's medium/ with -tags
// oracle, see docs/testing.md).
func storedInputs(t *testing.T) []string {
	return []string{testutil.Testdata(t, "champions500.pgn"), testutil.Testdata(t, "lichess2k.pgn.zst")}
}
