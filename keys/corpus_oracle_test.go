//go:build oracle

package keys

import (
	"os"
	"path/filepath"
	"runtime/debug"
	"testing"

	"github.com/chessbook/chessbook/internal/testutil"
)

// TestCorpusLarge does the same on shared/data large/ (412k games, 34.4M
// positions, 21M distinct): under a minute on two cores, 1.4 GB of memory.
// Skipped with -short.
func TestCorpusLarge(t *testing.T) {
	if testing.Short() {
		t.Skip("large corpus skipped with -short")
	}
	dir := testutil.SharedData(t)
	if _, err := os.Stat(filepath.Join(dir, "large")); err != nil {
		testutil.Missing(t, "no large corpus: %v", err)
	}
	// The live heap is canon's 1 GB map, which has no pointers to scan:
	// collecting more often than the default costs little and keeps the
	// peak near the live heap instead of twice it.
	defer debug.SetGCPercent(debug.SetGCPercent(30))
	runCorpus(t, dir, "large")
}
