package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/chessbook/chessbook/internal/pgnoracle"
	"github.com/chessbook/chessbook/store"
)

// The command line as a newcomer meets it (issue 27): inputs with no
// games, -q, flag typos, enumerated flags, date forms, the filters
// spelled as bookquery spells them.

// TestNoGamesFound: an empty file, README.md, text with no game: exit 2,
// a message naming the inputs, and no store left behind, unless it was
// there before the run.
func TestNoGamesFound(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.pgn")
	notes := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	// Passes the first look (a move number) but holds no game.
	if err := os.WriteFile(notes, []byte("Notes for the club: after 1. e4 the Sicilian is best.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	readme := "../../README.md"
	for _, inputs := range [][]string{{empty}, {readme}, {notes}, {empty, readme, notes}} {
		for _, where := range []string{"new dir", "empty dir", "no store"} {
			db := filepath.Join(t.TempDir(), "db")
			args := append([]string{"-db", db}, inputs...)
			switch where {
			case "empty dir":
				if err := os.Mkdir(db, 0o755); err != nil {
					t.Fatal(err)
				}
			case "no store":
				args = inputs
			}
			code, out, errOut := runCLI(t, args...)
			if code != 2 || out != "" || !strings.HasPrefix(errOut, "bookbuild: no games found in "+strings.Join(inputs, ", ")+": no PGN game") ||
				strings.Count(errOut, "\n") != 1 {
				t.Errorf("%q, %s: exit %d, stdout %q, stderr %q; want 2, one line naming the inputs", inputs, where, code, out, errOut)
			}
			entries, err := os.ReadDir(db)
			switch {
			case where == "empty dir" && (err != nil || len(entries) > 0):
				t.Errorf("%q: the empty directory given holds %v (%v), want it kept, empty", inputs, entries, err)
			case where != "empty dir" && !os.IsNotExist(err):
				t.Errorf("%q, %s: the store %s was left behind (%v)", inputs, where, db, err)
			}
		}
	}
	// README's text that is no game is named.
	_, _, errOut := runCLI(t, readme)
	if !strings.Contains(errOut, "only text that is not PGN (first at "+readme+":1: PGN syntax error") {
		t.Errorf("README.md: %q", errOut)
	}
	// A store that was there before is kept as it was.
	db := filepath.Join(t.TempDir(), "db")
	if code, _, errOut := runCLI(t, "-db", db, champions); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if code, _, errOut := runCLI(t, "-db", db, empty); code != 2 || !strings.Contains(errOut, "no games found in "+empty) {
		t.Errorf("into a store: exit %d, %q", code, errOut)
	}
	st, err := store.Open(db, store.Options{ReadOnly: true})
	if err != nil {
		t.Fatalf("the store given was not kept: %v", err)
	}
	if g := st.Meta().Games; g != 500 {
		t.Errorf("the store given holds %d games, want its 500", g)
	}
	st.Close()
}

// TestSomeInputsEmpty: an input without games among others: a warning
// naming it, the run goes on (exit 0), and -report lists it.
func TestSomeInputsEmpty(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.pgn")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	report := filepath.Join(dir, "r.json")
	code, out, errOut := runCLI(t, "-db", filepath.Join(dir, "db"), "-report", report, empty, champions, "../../README.md")
	want := "bookbuild: warning: no games found in " + empty + ": no PGN game (a tag pair like [Event \"...\"] or moves like 1. e4 e5); the other inputs were read\n" +
		"bookbuild: warning: no games found in ../../README.md: no PGN game (a tag pair like [Event \"...\"] or moves like 1. e4 e5); the other inputs were read\n"
	if code != 0 || errOut != want || !strings.Contains(out, "games stored:    500") {
		t.Errorf("exit %d, stderr %q, stdout:\n%s", code, errOut, out)
	}
	var r reportJSON
	if b, err := os.ReadFile(report); err != nil || json.Unmarshal(b, &r) != nil || strings.Join(r.EmptyInputs, " ") != empty+" ../../README.md" {
		t.Errorf("report: %v, empty inputs %q", err, r.EmptyInputs)
	}
}

// TestQuiet: -q prints nothing but errors and warnings; -report still
// has the summary.
func TestQuiet(t *testing.T) {
	dir := t.TempDir()
	report := filepath.Join(dir, "r.json")
	var out, errOut strings.Builder
	code := run([]string{"-q", "-db", filepath.Join(dir, "db"), "-report", report, champions}, &out, &errOut)
	if code != 0 || out.Len() != 0 || errOut.Len() != 0 {
		t.Errorf("-q: exit %d, stdout %q, stderr %q; want nothing", code, out.String(), errOut.String())
	}
	var r reportJSON
	if b, err := os.ReadFile(report); err != nil || json.Unmarshal(b, &r) != nil || r.Games != 500 || r.Stored != 500 {
		t.Errorf("-q -report: %v, %+v", err, r)
	}
	// -q with an error: the error alone.
	out.Reset()
	errOut.Reset()
	code = run([]string{"-q", "-db", filepath.Join(dir, "db"), "-max-ply", "3", champions}, &out, &errOut)
	if code != 1 || out.Len() != 0 || !strings.HasPrefix(errOut.String(), "bookbuild: ") || strings.Count(errOut.String(), "\n") != 1 {
		t.Errorf("-q, incompatible store: exit %d, stdout %q, stderr %q", code, out.String(), errOut.String())
	}
}

// TestDryRun: without -db the games are replayed and counted, and a line
// on stderr, also with -q, says that nothing was stored and how to store
// them; exit 0.
func TestDryRun(t *testing.T) {
	want := "bookbuild: dry run: no -db given, so the 500 games were only replayed and nothing was stored; to store them: bookbuild -db DIR " + champions + "\n"
	code, out, errOut := runCLI(t, champions)
	if code != 0 || errOut != want || !strings.Contains(out, "games replayed:  500") {
		t.Errorf("exit %d, stderr %q, stdout:\n%s\nwant 0, %q", code, errOut, out, want)
	}
	code, out, errOut = runCLI(t, "-q", champions)
	if code != 0 || out != "" || errOut != want {
		t.Errorf("-q: exit %d, stdout %q, stderr %q; want 0, %q", code, out, errOut, want)
	}
}

// TestFlagErrors: a mistyped flag, or a value an enumerated flag does not
// take: exit 2, one line saying what is wrong (and what was meant, or
// the values taken), one saying where the help is; no usage.
func TestFlagErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-spede", "blitz"}, "unknown flag -spede (did you mean -speeds?)"},
		{[]string{"-speed", "blitz"}, "unknown flag -speed (did you mean -speeds?)"},
		{[]string{"-maxply", "20"}, "unknown flag -maxply (did you mean -max-ply?)"},
		{[]string{"-keep-duplicate"}, "unknown flag -keep-duplicate (did you mean -keep-duplicates?)"},
		{[]string{"-rating", "2000"}, "unknown flag -rating (did you mean -ratings?)"},
		{[]string{"-json"}, "unknown flag -json (bookbuild prints a summary; -report FILE.json writes it as JSON)"},
		{[]string{"-progress", "weird"}, `invalid value "weird" for flag -progress: want auto, bar, lines or none`},
		{[]string{"-q", "-progress", "weird"}, `invalid value "weird" for flag -progress: want auto, bar, lines or none`},
		{[]string{"-count", "sometimes"}, `invalid value "sometimes" for flag -count: want game or occurrence`},
		{[]string{"-game-coding", "huffman"}, `invalid value "huffman" for flag -game-coding: want indexed or ranked`},
	} {
		var out, errOut strings.Builder
		code := run(append(tc.args, champions), &out, &errOut)
		if want := "bookbuild: " + tc.want + "\nrun 'bookbuild -h' for help\n"; code != 2 || out.Len() != 0 || errOut.String() != want {
			t.Errorf("%q: exit %d, stderr %q; want 2 and %q", tc.args, code, errOut.String(), want)
		}
	}
	// A mistyped subcommand.
	var out, errOut strings.Builder
	if code := run([]string{"saving", champions}, &out, &errOut); code != 2 || !strings.Contains(errOut.String(), "saving") ||
		!strings.HasSuffix(errOut.String(), "(did you mean 'bookbuild savings'?)\n") {
		t.Errorf("bookbuild saving: exit %d, %q", code, errOut.String())
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-format", "xml"}, `invalid value "xml" for flag -format: want text, markdown or json`},
		{[]string{"-bands", "moves"}, `invalid value "moves" for flag -bands: want auto, ply or men`},
		{[]string{"-progres", "none"}, "unknown flag -progres (did you mean -progress?)"},
	} {
		var out, errOut strings.Builder
		code := run(append(append([]string{"savings"}, tc.args...), champions), &out, &errOut)
		if want := "bookbuild savings: " + tc.want + "\nrun 'bookbuild savings -h' for help\n"; code != 2 || errOut.String() != want {
			t.Errorf("savings %q: exit %d, stderr %q; want 2 and %q", tc.args, code, errOut.String(), want)
		}
	}
}

// TestDateForms: -since and -until take a year, a month or a day, with
// dashes as bookquery writes months or dots as PGN writes dates; each
// form of the same bound keeps the same games.
func TestDateForms(t *testing.T) {
	filtered := func(args ...string) string {
		t.Helper()
		code, out, errOut := runCLI(t, append(append([]string{"-db", filepath.Join(t.TempDir(), "db")}, args...), champions)...)
		if code != 0 {
			t.Fatalf("%q: exit %d: %s", args, code, errOut)
		}
		return regexp.MustCompile(`games stored: +\d+`).FindString(out)
	}
	// A year, a month, a day: each with dots or dashes. (A year starts
	// before its January: the games dated to the year only are kept.)
	for _, forms := range [][]string{{"1870"}, {"1870.01", "1870-01"}, {"1870.01.01", "1870-01-01"}} {
		var first string
		for _, f := range forms {
			until := strings.NewReplacer("1870", "1880", "01", "12").Replace(f)
			if len(until) == 10 {
				until = until[:8] + "31"
			}
			got := filtered("-since", f, "-until", until)
			if first == "" {
				first = got
			}
			if got != first || got == "" {
				t.Errorf("-since %s: %q, want %q as every form gives", f, got, first)
			}
		}
		if first == "games stored:    500" || first == "games stored:    0" {
			t.Errorf("1870 to 1880 keeps %q: the filter did nothing", first)
		}
	}
	for _, tc := range []struct{ v, want string }{
		{"1960-01.01", "want a date YYYY, YYYY-MM or YYYY-MM-DD"},
		{"1960-13", "month 13: want 01 to 12"},
		{"2023-02-29", "day 29: 2023-02 has days 01 to 28"},
		{"60", "want a date"},
		{"1960-1", "want a date"},
	} {
		code, _, errOut := runCLI(t, "-since", tc.v, champions)
		if code != 2 || !strings.Contains(errOut, "-since \""+tc.v+"\": "+tc.want) {
			t.Errorf("-since %s: exit %d, %q; want 2 and %q", tc.v, code, errOut, tc.want)
		}
	}
}

// TestRatingsAndSpeeds: -ratings keeps the games whose players' mean
// rating is in the bands, counted here from the tags; -speeds takes the
// speeds as bookquery (and the lichess API) spells them.
func TestRatingsAndSpeeds(t *testing.T) {
	for _, input := range ratingsInputs(t) {
		checkRatings(t, input)
	}
	if code, _, errOut := runCLI(t, "-ratings", "2100", champions); code != 2 || !strings.Contains(errOut, `-ratings: unknown rating band "2100"`) {
		t.Errorf("-ratings 2100: exit %d, %q", code, errOut)
	}
	// No game of the champions has a TimeControl: every game is left out,
	// so no store is left and the exit status is 2 (issue 37's rule).
	db := filepath.Join(t.TempDir(), "db")
	if code, out, errOut := runCLI(t, "-db", db, "-speeds", "ultraBullet,Blitz", champions); code != 2 || !strings.Contains(out, "games stored:    0") ||
		!strings.Contains(errOut, "no game stored: all 500 games read were left out by the filters (speed: 500)") {
		t.Errorf("-speeds ultraBullet,Blitz: exit %d, %s\n%s", code, errOut, out)
	}
	if _, err := os.Stat(db); !os.IsNotExist(err) {
		t.Errorf("-speeds ultraBullet,Blitz: the store the run created is still there (%v)", err)
	}
}

// checkRatings runs -ratings 2000,2500 on the PGN file twic and compares
// the games stored with the oracle: the band of each game's Elo tags, read
// from the text by package pgnoracle.
func checkRatings(t *testing.T, twic string) {
	t.Helper()
	want := 0
	for _, g := range pgnoracle.Read(t, twic) {
		if b := g.Band(); b >= 0 && (pgnoracle.BandFloors[b] == 2500 || pgnoracle.BandFloors[b] == 2000) {
			want++
		}
	}
	code, out, errOut := runCLI(t, "-db", filepath.Join(t.TempDir(), "db"), "-ratings", "2000,2500", twic)
	if code != 0 || want == 0 || !regexp.MustCompile(`games stored: +`+strconv.Itoa(want)+"\n").MatchString(out) {
		t.Errorf("%s, -ratings 2000,2500: exit %d, %s\n%s; want %d games stored", twic, code, errOut, out, want)
	}
}
