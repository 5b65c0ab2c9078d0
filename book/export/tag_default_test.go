//go:build !oracle

package export_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/chessbook/chessbook/internal/testutil"
)

// The inputs of the tests that compare with PolyGlot's make-book: the
// repository's slices and make-book's books of them, committed (with
// -tags oracle, shared/data and make-book run here; see docs/testing.md).

// makeBook returns PolyGlot's make-book of the PGN file pgn with args: the
// committed testdata/reference/name (see its generate.sh).
func makeBook(t *testing.T, pgn, name string, args ...string) []byte {
	t.Helper()
	b, err := os.ReadFile(testutil.Testdata(t, filepath.Join("reference", name)))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// spilledInput returns the games TestExportSpilledRuns builds (max-ply
// 20), make-book's book of them (-max-ply 20 -min-game 1) and the entries
// per spilled run: champions500, in runs of 300 of its 3,223 entries.
func spilledInput(t *testing.T) (in, ref string, chunk int) {
	return testutil.Testdata(t, "champions500.pgn"),
		testutil.Testdata(t, filepath.Join("reference", "champions500_makebook_maxply20_mingame1.bin")), 300
}
