//go:build oracle

package export_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/chessbook/chessbook/internal/testutil"
)

// The inputs of the tests that compare with PolyGlot's make-book:
// make-book run here and the files of shared/data (the repository's
// slices and committed books without -tags oracle; see docs/testing.md).

// makeBook runs PolyGlot's make-book on pgn with args and returns the book
// it writes, checking that it is the committed testdata/reference/name.
func makeBook(t *testing.T, pgn, name string, args ...string) []byte {
	t.Helper()
	bin := testutil.NeedTool(t, "polyglot", "apt-get install polyglot; no make-book to compare with")
	out := filepath.Join(t.TempDir(), "ref.bin")
	cmd := exec.Command(bin, append([]string{"make-book", "-pgn", pgn, "-bin", out}, args...)...)
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("polyglot make-book: %v\n%s", err, msg)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if committed, err := os.ReadFile(testutil.Testdata(t, filepath.Join("reference", name))); err != nil || !bytes.Equal(b, committed) {
		t.Errorf("make-book's book differs from testdata/reference/%s (%v): run testdata/reference/generate.sh", name, err)
	}
	return b
}

// spilledInput returns the games TestExportSpilledRuns builds (max-ply
// 20), make-book's book of them (-max-ply 20 -min-game 1) and the entries
// per spilled run: the world champions' games, in runs of 10,000 of its
// 133,495 entries.
func spilledInput(t *testing.T) (in, ref string, chunk int) {
	return testutil.SharedFile(t, filepath.Join("medium", "pgnmentor_world_champions_16players.pgn.zst")),
		testutil.SharedFile(t, filepath.Join("reference", "polyglot204_makebook_maxply20_mingame1__pgnmentor_world_champions_16players.bin")), 10000
}
