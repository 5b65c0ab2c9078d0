package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func runCLI(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var o, e bytes.Buffer
	code = run(append([]string{"-progress", "none"}, args...), &o, &e)
	return code, o.String(), e.String()
}

func TestBuildAndAddAgain(t *testing.T) {
	db := filepath.Join(t.TempDir(), "book")
	code, out, errOut := runCLI(t, "-db", db, "../../testdata/champions500.pgn")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"games read:      500", "games stored:    500", "games skipped:   0", "plies replayed:  38955", "500 games in all (max-ply 0, count game)"} {
		if !strings.Contains(out, want) {
			t.Errorf("summary lacks %q:\n%s", want, out)
		}
	}
	// The same input again: every game is a duplicate, nothing changes.
	if code, out, errOut = runCLI(t, "-db", db, "../../testdata/champions500.pgn"); code != 0 ||
		!strings.Contains(out, "games stored:    0") || !strings.Contains(out, "duplicates:      500") || !strings.Contains(out, "500 games in all") {
		t.Fatalf("second run: exit %d, %s %s", code, out, errOut)
	}
	// Other build options than the store's: refused, naming both values.
	code, _, errOut = runCLI(t, "-db", db, "-max-ply", "20", "../../testdata/champions500.pgn")
	if code != 1 || !strings.Contains(errOut, "incompatible max-ply: the store has 0 (all plies), this run asks for 20") {
		t.Fatalf("incompatible options: exit %d, %q", code, errOut)
	}
	code, _, errOut = runCLI(t, "-db", db, "-count", "occurrence", "../../testdata/champions500.pgn")
	if code != 1 || !strings.Contains(errOut, "incompatible") {
		t.Fatalf("incompatible count mode: exit %d, %q", code, errOut)
	}
	code, _, errOut = runCLI(t, "-db", db, "-keep-duplicates", "../../testdata/champions500.pgn")
	if code != 1 || !strings.Contains(errOut, "incompatible keep-duplicates") {
		t.Fatalf("incompatible keep-duplicates: exit %d, %q", code, errOut)
	}
}

// TestDuplicates feeds a file holding every game twice: by default each
// game is stored and counted once; with -keep-duplicates twice, and a
// re-run of the same input still adds nothing.
func TestDuplicates(t *testing.T) {
	one, err := os.ReadFile("../../testdata/champions500.pgn")
	if err != nil {
		t.Fatal(err)
	}
	twice := filepath.Join(t.TempDir(), "twice.pgn")
	if err := os.WriteFile(twice, append(append(one, '\n'), one...), 0o644); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(t.TempDir(), "once")
	code, out, errOut := runCLI(t, "-db", db, twice)
	if code != 0 || !strings.Contains(out, "games read:      1000") || !strings.Contains(out, "games stored:    500") ||
		!strings.Contains(out, "duplicates:      500") || !strings.Contains(out, "500 games in all") {
		t.Fatalf("default: exit %d, %s %s", code, out, errOut)
	}
	db = filepath.Join(t.TempDir(), "kept")
	for run := 0; run < 2; run++ {
		code, out, errOut = runCLI(t, "-db", db, "-keep-duplicates", twice)
		ingested, dups := "1000", "0"
		if run == 1 {
			ingested, dups = "0", "1000"
		}
		if code != 0 || !strings.Contains(out, "games stored:    "+ingested) || !strings.Contains(out, "duplicates:      "+dups) ||
			!strings.Contains(out, "1000 games in all") {
			t.Fatalf("-keep-duplicates run %d: exit %d, %s %s", run, code, out, errOut)
		}
	}
}

func TestBadUsage(t *testing.T) {
	db := filepath.Join(t.TempDir(), "b")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{}, "no input"},
		{[]string{"-count", "sometimes", "x.pgn"}, "-count"},
		{[]string{"-speed", "lightning", "x.pgn"}, "-speed"},
		{[]string{"-since", "yesterday", "x.pgn"}, "-since"},
		{[]string{"-since", "2099.13.45", "x.pgn"}, "month 13"},
		{[]string{"-until", "2023.02.30", "x.pgn"}, "day 30"},
		{[]string{"-since", "2020", "-until", "2019.12", "x.pgn"}, "after -until"},
		{[]string{"-max-ply", "-1", "x.pgn"}, "-max-ply"},
		{[]string{"-mem", "10", "x.pgn"}, "-mem"},
		{[]string{"-mem", "100000000", "x.pgn"}, "machine"},
		{[]string{"-workers", "-1", "x.pgn"}, "-workers"},
		{[]string{"-report", filepath.Join(t.TempDir(), "no", "such", "dir", "r.json"), "x.pgn"}, "-report"},
		{[]string{"-report", t.TempDir(), "x.pgn"}, "directory"},
		{[]string{"-no-such-flag", "x.pgn"}, "no-such-flag"},
	} {
		args := append([]string{"-db", db}, tc.args...)
		if code, _, errOut := runCLI(t, args...); code != 2 || !strings.Contains(errOut, tc.want) {
			t.Errorf("%q: exit %d, stderr %q; want 2 and a message about %q", tc.args, code, errOut, tc.want)
		}
	}
	if _, err := os.Stat(db); err == nil {
		t.Error("a refused command created the store")
	}
}

// TestMissingInput: every input is checked before any work: a missing one,
// even after a good one, is refused at once (exit 2), with no store made
// and nothing read.
func TestMissingInput(t *testing.T) {
	db := filepath.Join(t.TempDir(), "b")
	code, out, errOut := runCLI(t, "-db", db, champions, "no/such/file.pgn")
	if code != 2 || !strings.Contains(errOut, "no/such/file.pgn: no such file or directory") || out != "" {
		t.Fatalf("exit %d, stdout %q, stderr %q; want 2, no summary and the file named", code, out, errOut)
	}
	if _, err := os.Stat(db); err == nil {
		t.Error("a refused run created the store")
	}
}

// TestInputsChecked: a directory stands for its PGN files, flags may
// follow the inputs, and a file that is no PGN (a Polyglot book, an HTML
// page) is refused before any work, saying what it is.
func TestInputsChecked(t *testing.T) {
	dir := t.TempDir()
	pgnText, err := os.ReadFile(champions)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"b.pgn", "a.pgn"} {
		if err := os.WriteFile(filepath.Join(dir, name), pgnText, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("not read"), 0o644); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(t.TempDir(), "db")
	code, out, errOut := runCLI(t, dir, "-db", db, "-progress", "none", "-keep-duplicates")
	if code != 0 || !strings.Contains(errOut, dir+": a directory: reading its 2 PGN files in name order") || !strings.Contains(out, "games read:      1000") {
		t.Fatalf("a directory of 2 PGN files: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	html := filepath.Join(dir, "page.pgn")
	if err := os.WriteFile(html, []byte("<!DOCTYPE html>\n<html><body>Not found</body></html>\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	book := filepath.Join(dir, "book.bin")
	if err := os.WriteFile(book, make([]byte, 64), 0o644); err != nil {
		t.Fatal(err)
	}
	db2 := filepath.Join(t.TempDir(), "db")
	code, out, errOut = runCLI(t, "-db", db2, html, book)
	if code != 2 || out != "" || !strings.Contains(errOut, html+": not PGN: an HTML page") || !strings.Contains(errOut, book+": not PGN: a binary file, maybe a Polyglot book") {
		t.Errorf("an HTML page and a book: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	if _, err := os.Stat(db2); err == nil {
		t.Error("a refused run created the store")
	}
}

// reportCase is what TestReportAndFilters runs on: lichess games, some
// from a FEN (one of them a bad FEN), and the Gelfand game with its
// illegal move, with the counts the summary must give.
type reportCase struct {
	lichess, bad                   string
	read, stored, fromFEN, badFENs int64
}

func TestReportAndFilters(t *testing.T) {
	c := reportInput(t)
	report := filepath.Join(t.TempDir(), "report.json")
	code, out, errOut := runCLI(t, "-db", filepath.Join(t.TempDir(), "b"), "-report", report, "-standard-start-only",
		c.lichess, c.bad)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{fmt.Sprintf("games read:      %d", c.read), fmt.Sprintf("games stored:    %d", c.stored),
		fmt.Sprintf("%-21s%d", "starts from a FEN:", c.fromFEN), "illegal move:        1", fmt.Sprintf("%-21s%d", "bad FEN:", c.badFENs),
		"pgnmentor_Gelfand_illegal_move_31Qxe1.pgn:16: illegal move: 31.Qxe1"} {
		if !strings.Contains(out, want) {
			t.Errorf("summary lacks %q:\n%s", want, out)
		}
	}
	raw, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	var r reportJSON
	if err := json.Unmarshal(raw, &r); err != nil {
		t.Fatal(err)
	}
	if r.Games != c.read || int64(len(r.Errors)) != 1+c.badFENs || r.Skipped["illegal move"] != 1 || r.Skipped["bad FEN"] != c.badFENs {
		t.Fatalf("report %+v", r)
	}
}

// TestProgressPhases: with -progress lines the progress goes to the end of
// the reading (all games counted) and names every phase after it, on
// stderr only.
func TestProgressPhases(t *testing.T) {
	var out, errOut bytes.Buffer
	db := filepath.Join(t.TempDir(), "db")
	if code := run([]string{"-progress", "lines", "-db", db, champions}, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	text := errOut.String()
	for _, want := range []string{"read 500 games, 38955 plies", "writing the store...", "closing the store...", "done in "} {
		if !strings.Contains(text, want) {
			t.Errorf("progress lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(out.String(), "writing the store") {
		t.Error("progress on stdout")
	}
}

// TestVersion checks -version: the program, the module and the Go
// toolchain on one line of standard output, exit 0, whatever else is on
// the command line.
func TestVersion(t *testing.T) {
	for _, args := range [][]string{{"-version"}, {"-version", "-db", t.TempDir(), "nosuchfile.pgn"}} {
		var out, errOut bytes.Buffer
		if code := run(args, &out, &errOut); code != 0 {
			t.Fatalf("bookbuild %v: exit %d, stderr %q", args, code, errOut.String())
		}
		if got := out.String(); !strings.HasPrefix(got, "bookbuild github.com/chessbook/chessbook ") || !strings.Contains(got, " go1.") || strings.Count(got, "\n") != 1 {
			t.Errorf("bookbuild %v printed %q", args, got)
		}
	}
}
