package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/chessbook/chessbook/internal/testutil"
	"github.com/chessbook/chessbook/store"
)

// TestPGNAgainstPGNExtract compares the games 'pgn' writes through a
// position with those pgn-extract's positional match (-x) finds in the
// input: the same games, by their tags (pgn-extract keeps exact copies,
// the store does not; non-ASCII bytes are dropped from the tags, as the
// store turns Latin-1 into UTF-8). Transpositions count: pgn-extract
// matches the position, not the moves.
func TestPGNAgainstPGNExtract(t *testing.T) {
	bin := testutil.NeedTool(t, "pgn-extract", "apt-get install pgn-extract")
	data := testutil.SharedData(t)
	input := filepath.Join(t.TempDir(), "champions.pgn")
	if err := os.WriteFile(input, testutil.ReadZst(t, filepath.Join(data, "medium", "pgnmentor_world_champions_16players.pgn.zst")), 0o644); err != nil {
		t.Fatal(err)
	}
	db := buildBook(t, input)

	lines := []string{
		"1. d4 Nf6 2. c4 e6 3. Nf3",
		"1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6 6. Be2",
	}
	if testing.Short() {
		lines = lines[1:]
	}
	for _, line := range lines {
		vars := filepath.Join(t.TempDir(), "vars.txt")
		if err := os.WriteFile(vars, []byte(line+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		found := filepath.Join(t.TempDir(), "found.pgn")
		cmd := exec.Command(bin, "-x", vars, "--quiet", "-o", found, input)
		if msg, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("pgn-extract: %v\n%s", err, msg)
		}
		ref, err := os.ReadFile(found)
		if err != nil {
			t.Fatal(err)
		}
		got := mustRun(t, "-db", db, "pgn", "-moves", line, "-q")
		want, have := gameKeys(string(ref)), gameKeys(got)
		if len(want) == 0 || !slices.Equal(want, have) {
			t.Errorf("%s: pgn writes %d games, pgn-extract -x finds %d", line, len(have), len(want))
			for _, k := range want {
				if _, ok := slices.BinarySearch(have, k); !ok {
					t.Errorf("missing: %s", k)
					break
				}
			}
		}
	}
}

var pgnTagLine = regexp.MustCompile(`(?m)^\[(Event|Site|Date|Round|White|Black|Result) "(.*)"\]`)

// gameKeys returns the sorted distinct tag keys of the games of a PGN text.
func gameKeys(text string) []string {
	var keys []string
	for _, g := range strings.Split(text, "[Event ")[1:] {
		var k strings.Builder
		for _, m := range pgnTagLine.FindAllStringSubmatch("[Event "+g, -1) {
			for _, r := range []byte(m[2]) {
				if r < 128 {
					k.WriteByte(r)
				}
			}
			k.WriteByte('|')
		}
		keys = append(keys, k.String())
	}
	slices.Sort(keys)
	return slices.Compact(keys)
}

// TestExportMaxPlyRefused: export -max-ply below what an occurrence store
// counts would promise make-book's book and give another; it is refused
// with the build to run instead, and allowed where it means what it says.
func TestExportMaxPlyRefused(t *testing.T) {
	db := buildBookCount(t, store.CountOccurrence, championsPGN)
	out := filepath.Join(t.TempDir(), "b.bin")
	stdout, errOut, code := runCmd(t, "-db", db, "export", "-o", out, "-max-ply", "20")
	if code != 2 || stdout != "" || !strings.Contains(errOut, "bookbuild -max-ply 20 -count occurrence -keep-duplicates") {
		t.Errorf("export -max-ply 20 of an occurrence store: exit %d, stderr %q; want 2 and the build to run", code, errOut)
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("the refused export wrote a book")
	}
	game := buildBookCount(t, store.CountGame, championsPGN)
	if _, errOut, code := runCmd(t, "-db", game, "export", "-o", out, "-max-ply", "20"); code != 0 {
		t.Errorf("export -max-ply 20 of a game store: exit %d, %s", code, errOut)
	}
}
