//go:build !oracle

package merge_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/klauspost/compress/zstd"

	"github.com/chessbook/chessbook/internal/testutil"
)

// championsGames is the number of games of the world champions' corpus
// the default tests merge: testdata's champions500 and its first 100 games
// again (the shared corpus repeats games too).
const championsGames = 600

// mergeData returns the folder of the real games the merge tests build.
// The oracle tests (-tags oracle) read ../shared/data; the default tests
// read a folder made here from the repository's slices, laid out as
// shared/data and under its file names, so that the tests read the same
// paths (see docs/testing.md):
//
//   - medium/pgnmentor_world_champions_16players.pgn.zst: champions500
//     followed by its first 100 games again (its first 1,702 lines);
//   - reference/polyglot204_makebook_*__pgnmentor_world_champions_16players.bin:
//     make-book's books of those 600 games (testdata/reference's
//     champions600dup books);
//   - small/: lichess2k's games in parts of the sizes of the shared files
//     (DannyTheDonkey 105 games, DrDrunkenstein 984, allancao_games 334,
//     notnil_Carlsen the rest), and champions500 as notnil_twic0920.
func mergeData(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	write := func(rel string, b []byte) {
		t.Helper()
		path := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	read := func(rel string) []byte {
		t.Helper()
		b, err := os.ReadFile(testutil.Testdata(t, rel))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	champions := read("champions500.pgn")
	cut := 0 // the end of its first 1,702 lines: its first 100 games
	for range 1702 {
		cut += bytes.IndexByte(champions[cut:], '\n') + 1
	}
	first100 := champions[:cut]
	var zst bytes.Buffer
	zw, err := zstd.NewWriter(&zst)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := zw.Write(append(bytes.Clone(champions), first100...)); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	write("medium/pgnmentor_world_champions_16players.pgn.zst", zst.Bytes())
	write("reference/polyglot204_makebook_default__pgnmentor_world_champions_16players.bin", read("reference/champions600dup_makebook_default.bin"))
	write("reference/polyglot204_makebook_maxply20_mingame1__pgnmentor_world_champions_16players.bin", read("reference/champions600dup_makebook_maxply20_mingame1.bin"))
	write("small/notnil_twic0920.pgn", champions)
	lichess := testutil.ReadZst(t, testutil.Testdata(t, "lichess2k.pgn.zst"))
	starts := [][]byte{}
	for i := 0; i < len(lichess); {
		starts = append(starts, lichess[i:])
		j := bytes.Index(lichess[i+1:], []byte("\n[Event "))
		if j < 0 {
			break
		}
		i += j + 2
	}
	// games returns games [from, to) of lichess2k.
	games := func(from, to int) []byte {
		end := len(lichess)
		if to < len(starts) {
			end = len(lichess) - len(starts[to])
		}
		return lichess[len(lichess)-len(starts[from]) : end]
	}
	write("small/allancao_lichess_DannyTheDonkey_2019-01-29.pgn", games(0, 105))
	write("small/allancao_lichess_DrDrunkenstein_2019-01-29.pgn", games(105, 1089))
	write("small/allancao_games.pgn", games(1089, 1423))
	write("small/notnil_Carlsen.pgn", games(1423, len(starts)))
	return dir
}
