//go:build oracle

package main

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chessbook/chessbook/internal/testutil"
	"github.com/chessbook/chessbook/polyglot"
)

// sharedBook returns the path of a book of shared/data, skipping the test
// when it is absent (see testutil.SharedFile).
func sharedBook(t testing.TB, rel string) string {
	t.Helper()
	return testutil.SharedFile(t, rel)
}

// TestProbeKnownReads are the book reads shared/spec/polyglot.md gives,
// and what shared/data/books/PROVENANCE.txt says of the books.
func TestProbeKnownReads(t *testing.T) {
	t.Run("performance start e2e4", func(t *testing.T) {
		got := probeJSONOf(t, "-book", sharedBook(t, "books/pychesslib_performance.bin"))
		if got.Key != "463b96181691fc9c" || len(got.Moves) == 0 || got.Moves[0].UCI != "e2e4" || got.Moves[0].SAN != "e4" {
			t.Fatalf("start position: key %s, moves %+v; want e2e4 first", got.Key, got.Moves)
		}
		for _, m := range got.Moves {
			if m.Weight > got.Moves[0].Weight {
				t.Errorf("%s weighs %d, more than e2e4's %d", m.UCI, m.Weight, got.Moves[0].Weight)
			}
		}
	})
	t.Run("lasker-trap f2g1n", func(t *testing.T) {
		path := sharedBook(t, "books/pychesslib_lasker-trap.bin")
		fen := "rnbqk1nr/ppp2ppp/8/4P3/1BP5/8/PP2KpPP/RN1Q1BNR b kq - 1 7"
		got := probeJSONOf(t, "-book", path, "-fen", fen)
		if len(got.Moves) != 1 || len(got.Ignored) != 0 {
			t.Fatalf("lasker-trap: %+v, want one move", got)
		}
		want := probeMoveJSON{UCI: "f2g1n", SAN: "fxg1=N+", Entry: "f2g1n", Weight: got.Moves[0].Weight, Percent: 100}
		if got.Moves[0] != want || want.Weight == 0 {
			t.Errorf("lasker-trap: %+v, want %+v", got.Moves[0], want)
		}
		// The entry's promotion code, read from the file's bytes: 1, a
		// knight.
		raw := readRawBook(t, path)
		es := raw[mustParseHex(t, got.Key)]
		if len(es) != 1 || es[0].move>>12 != 1 {
			t.Errorf("raw entries of %s: %+v, want one with promotion code 1", got.Key, es)
		}
	})
	t.Run("castling", func(t *testing.T) {
		// PolyGlot writes O-O as e1h1; probe lists it as the king's move.
		got := probeJSONOf(t, "-book", sharedBook(t, "books/scid_Performance.bin"), "-moves", "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6")
		i := slices.IndexFunc(got.Moves, func(m probeMoveJSON) bool { return m.SAN == "O-O" })
		if i < 0 || got.Moves[i].UCI != "e1g1" || got.Moves[i].Entry != "e1h1" {
			t.Errorf("Ruy Lopez: moves %+v, want O-O as e1g1 written e1h1", got.Moves)
		}
		if got.Opening == nil || got.Opening.ECO != "C70" {
			t.Errorf("Ruy Lopez: opening %+v", got.Opening)
		}
	})
	t.Run("learn values", func(t *testing.T) {
		// The two performance.bin have the same size and differ from byte
		// 13, in the learn field of the first entry: python-chess's copy
		// keeps learning data, Scid's has none.
		py := probeJSONOf(t, "-book", sharedBook(t, "books/pychesslib_performance.bin"))
		scid := probeJSONOf(t, "-book", sharedBook(t, "books/scid_Performance.bin"))
		if len(py.Moves) != len(scid.Moves) || len(py.Moves) == 0 {
			t.Fatalf("start position: %+v and %+v", py.Moves, scid.Moves)
		}
		learned := 0
		for i := range py.Moves {
			a, b := py.Moves[i], scid.Moves[i]
			if a.UCI != b.UCI || a.Weight != b.Weight || b.Learn != 0 {
				t.Errorf("move %d: %+v and %+v", i, a, b)
			}
			if a.Learn != 0 {
				learned++
			}
		}
		if learned == 0 {
			t.Errorf("python-chess's performance.bin: no learn value at the start: %+v", py.Moves)
		}
	})
	t.Run("unsorted tails", func(t *testing.T) {
		for _, c := range []struct {
			book     string
			first    int // the first out-of-order entry; -1: sorted
			entries  int
			warnings int
		}{
			{"books/donna_rodent.bin", 175228, 175355, 2},
			{"books/virtuoso_Titans.bin", 121157, 121160, 2},
			{"books/gochess_testdata_Titans.bin", -1, 121160, 0}, // the same book, sorted
		} {
			got, code, errOut := checkJSONOf(t, sharedBook(t, c.book))
			if code != 0 || errOut != "" || got.Errors != 0 || got.Warnings != c.warnings {
				t.Errorf("%s: exit status %d, stderr %q, %d errors %d warnings; want 0, none, 0, %d", c.book, code, errOut, got.Errors, got.Warnings, c.warnings)
			}
			f := findFinding(got, polyglot.CodeUnsorted)
			switch {
			case c.first < 0 && f != nil:
				t.Errorf("%s: %+v, want no unsorted finding", c.book, f)
			case c.first >= 0 && (f == nil || f.Index != c.first || f.Severity != "warning"):
				t.Errorf("%s: unsorted finding %+v, want a warning at entry %d", c.book, f, c.first)
			}
			if s := findFinding(got, polyglot.CodeSummary); s == nil || s.Count != c.entries {
				t.Errorf("%s: summary %+v, want %d entries", c.book, s, c.entries)
			}
		}
	})
}

// TestProbeNotABook checks the HTML page saved as a .bin, and the other
// errors: a file that is not a usable book exits with status 1, as a
// missing or foreign store does, with a message naming the file; bad usage
// and bad positions with status 2.
func TestProbeNotABook(t *testing.T) {
	broken := sharedBook(t, "books/broken/dimtrigkakis_komodo_NOT_A_BOOK.bin")
	good := sharedBook(t, "books/scid_gm2600.bin")
	missing := filepath.Join(t.TempDir(), "missing.bin")
	for _, tc := range []struct {
		args []string
		code int
		want []string
	}{
		{[]string{"probe", "-book", broken}, 1, []string{broken, "not a Polyglot book", "size 43126 is not a multiple of 16", "HTML"}},
		{[]string{"probe", "-book", missing}, 1, []string{missing, "no such file"}},
		{[]string{"probe", "-book", t.TempDir()}, 1, []string{"is a directory"}},
		{[]string{"probe", "-check", "-book", missing}, 1, []string{missing, "no such file"}},
		{[]string{"probe"}, 2, []string{"no book given", "-book"}},
		{[]string{"probe", good}, 2, []string{"unexpected arguments", "-book BOOK.bin"}},
		{[]string{"probe", "-book", good, "-fen", "nonsense"}, 2, []string{"bad FEN", "nonsense"}},
		{[]string{"probe", "-book", good, "-moves", "e4 e5 Ke3"}, 2, []string{"move 2.Ke3: illegal move"}},
		{[]string{"probe", "-book", good, "-check", "-moves", "e4"}, 2, []string{"-check", "no -fen or -moves"}},
	} {
		out, errOut, code := runCmd(t, tc.args...)
		if code != tc.code || out != "" {
			t.Errorf("bookquery %q: exit status %d, stdout %q; want %d and no output", tc.args, code, out, tc.code)
		}
		if !strings.HasPrefix(errOut, "bookquery: probe: ") || strings.Count(errOut, "\n") != 1 {
			t.Errorf("bookquery %q: stderr %q, want one line starting bookquery: probe: ", tc.args, errOut)
		}
		for _, w := range tc.want {
			if !strings.Contains(errOut, w) {
				t.Errorf("bookquery %q: stderr %q does not mention %q", tc.args, errOut, w)
			}
		}
	}

	// -check tells what is wrong, then fails.
	c, code, errOut := checkJSONOf(t, broken)
	if code != 1 || c.Errors != 2 || findFinding(c, polyglot.CodeSize) == nil || findFinding(c, polyglot.CodeNotBook) == nil ||
		!strings.Contains(findFinding(c, polyglot.CodeNotBook).Message, "HTML") {
		t.Errorf("-check %s: exit status %d, %+v", broken, code, c)
	}
	if want := "bookquery: probe: " + broken + ": 2 errors: not a sound Polyglot book\n"; errOut != want {
		t.Errorf("-check %s: stderr %q, want %q", broken, errOut, want)
	}
	text, _, _ := runCmd(t, "probe", "-check", "-book", broken)
	if !strings.Contains(text, "error: not a Polyglot book: size 43126 is not a multiple of 16") || !strings.HasSuffix(text, "2 errors, 0 warnings\n") {
		t.Errorf("-check %s:\n%s", broken, text)
	}
	// A sound book: the summary, exit status 0.
	text = mustRun(t, "probe", "-check", "-book", good)
	if !strings.Contains(text, "info: 21671 entries (346736 bytes)") || !strings.HasSuffix(text, "0 errors, 0 warnings\n") {
		t.Errorf("-check %s:\n%s", good, text)
	}
}
