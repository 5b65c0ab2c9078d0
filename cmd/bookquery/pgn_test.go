package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"fmt"
	"github.com/chessbook/chessbook/store"
)

// pgnExtractCase is what TestPGNAgainstPGNExtract compares: a PGN file,
// lines of moves, and the games pgn-extract -x finds through each line's
// position (the committed output of testdata/reference/generate.sh for
// the champions500 games, pgn-extract run here with -tags oracle).
type pgnExtractCase struct {
	input string
	lines []string
	found func(t *testing.T, line string) []byte
}

// pgnExtractLines are the lines of testdata/reference/generate.sh's
// pgn-extract -x outputs on the champions500 games, in its order.
var pgnExtractLines = []string{
	"1. d4 d5 2. c4 e6 3. Nc3 Nf6",
	"1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6",
}

// pgnExtractReference returns the name of generate.sh's output for line.
func pgnExtractReference(t *testing.T, line string) string {
	i := slices.Index(pgnExtractLines, line)
	if i < 0 {
		t.Fatalf("no reference output for %q", line)
	}
	return fmt.Sprintf("champions500_pgnextract_x_line%d.pgn", i+1)
}

// TestPGNAgainstPGNExtract compares the games 'pgn' writes through a
// position with those pgn-extract's positional match (-x) finds in the
// input: the same games, by their tags (pgn-extract keeps exact copies,
// the store does not; non-ASCII bytes are dropped from the tags, as the
// store turns Latin-1 into UTF-8). Transpositions count: pgn-extract
// matches the position, not the moves.
func TestPGNAgainstPGNExtract(t *testing.T) {
	x := pgnExtractInput(t)
	db := buildBook(t, x.input)
	for _, line := range x.lines {
		ref := x.found(t, line)
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
