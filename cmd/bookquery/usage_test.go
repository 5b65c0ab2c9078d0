package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/chessbook/chessbook/book/build"
	"github.com/chessbook/chessbook/book/export"
	"github.com/chessbook/chessbook/ingest"
	"github.com/chessbook/chessbook/store"
)

// The command line as a newcomer meets it (issue 27): typos, enumerated
// flags, -json where it is taken, date forms, progress, export's note,
// positions -max-ply.

// TestTypos: a mistyped command or flag: exit 2, one line with what was
// meant, one saying where the help is; no usage.
func TestTypos(t *testing.T) {
	db := championsBook(t)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"mvoes"}, "bookquery: unknown command \"mvoes\" (did you mean moves?)\ncommands: " + commandNames() + "; run 'bookquery -h' for help\n"},
		{[]string{"move"}, "bookquery: unknown command \"move\" (did you mean moves?)\n"},
		{[]string{"build"}, "bookquery: unknown command \"build\"\n"},
		{[]string{"moves", "-tpo", "3"}, "bookquery: moves: unknown flag -tpo (did you mean -top?)\nrun 'bookquery moves -h' for help\n"},
		{[]string{"moves", "-speed", "blitz"}, "bookquery: moves: unknown flag -speed (did you mean -speeds?)\nrun 'bookquery moves -h' for help\n"},
		{[]string{"history", "-min-rating", "2000"}, "bookquery: history: unknown flag -min-rating (bookquery filters on the players' mean rating by band: -ratings 2000,2200,2500 for a mean of 2000 and up)\n"},
		{[]string{"positions", "-max", "3"}, "bookquery: positions: unknown flag -max (did you mean -max-ply?)\n"},
		{[]string{"pgn", "-json"}, "bookquery: pgn: unknown flag -json (pgn writes PGN; 'games -page N -json' lists the games as JSON)\n"},
		{[]string{"-json", "moves"}, "bookquery: unknown flag -json (the command's flags go after its name: bookquery -db DIR <command> [flags])\nrun 'bookquery -h' for help\n"},
		{[]string{"-dbb", db, "moves"}, "bookquery: unknown flag -dbb (did you mean -db?)\n"},
	} {
		args := tc.args
		if args[0] != "-dbb" && args[0] != "-json" {
			args = append([]string{"-db", db}, args...)
		}
		out, errOut, code := runCmd(t, args...)
		if code != 2 || out != "" || !strings.HasPrefix(errOut, tc.want) || strings.Count(errOut, "\n") != 2 {
			t.Errorf("%q: exit %d, stderr %q; want 2 and %q (two lines)", tc.args, code, errOut, tc.want)
		}
	}
}

// TestEnumeratedFlags: a value an enumerated flag does not take: exit 2
// and the values it takes.
func TestEnumeratedFlags(t *testing.T) {
	db := championsBook(t)
	o := filepath.Join(t.TempDir(), "b.bin")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"positions", "-format", "xml"}, `invalid value "xml" for flag -format: want ndjson or csv`},
		{[]string{"positions", "-progress", "weird"}, `invalid value "weird" for flag -progress: want auto, bar, lines or none`},
		{[]string{"export", "-o", o, "-weights", "luck"}, `invalid value "luck" for flag -weights: want score or games`},
		{[]string{"savings", "-format", "html"}, `invalid value "html" for flag -format: want text, markdown or json`},
		{[]string{"savings", "-bands", "rank"}, `invalid value "rank" for flag -bands: want auto, ply or men`},
		{[]string{"check", "-q", "-progress", "always"}, `invalid value "always" for flag -progress: want auto, bar, lines or none`},
		{[]string{"pgn", "-progress", "yes"}, `invalid value "yes" for flag -progress`},
		{[]string{"games", "-page", "1", "-progress", "no"}, `invalid value "no" for flag -progress`},
	} {
		out, errOut, code := runCmd(t, append([]string{"-db", db}, tc.args...)...)
		if code != 2 || out != "" || !strings.Contains(errOut, "bookquery: "+tc.args[0]+": "+tc.want) {
			t.Errorf("%q: exit %d, stderr %q; want 2 and %q", tc.args, code, errOut, tc.want)
		}
	}
	if _, err := os.Stat(o); err == nil {
		t.Error("a refused export wrote its book")
	}
}

// TestJSONWhereTaken: the help says which commands take -json, and each
// command's help lists it exactly when the command takes it.
func TestJSONWhereTaken(t *testing.T) {
	_, help, _ := runCmd(t, "-h")
	if !strings.Contains(help, "Every command but pgn (which writes PGN) and serve (which answers JSON over HTTP) takes -json.") {
		t.Errorf("bookquery -h does not say which commands take -json:\n%s", help)
	}
	for _, c := range commands {
		_, h, code := runCmd(t, c.name, "-h")
		_, no := noJSON[c.name]
		if code != 0 || strings.Contains(h, "\n  -json\n") == no {
			t.Errorf("%s -h (exit %d) lists -json: %v, want %v", c.name, code, !no, !no)
		}
	}
}

// TestQueryDateForms: months with dashes or dots, and years, as bookbuild
// takes them; a day is refused, naming why.
func TestQueryDateForms(t *testing.T) {
	db := championsBook(t)
	dash := mustRun(t, "-db", db, "history", "-since", "1870-01", "-until", "1880-06", "-json")
	dot := mustRun(t, "-db", db, "history", "-since", "1870.01", "-until", "1880.06", "-json")
	if dash != dot || !strings.Contains(dash, `"history":[{"month":"1871"`) {
		t.Errorf("-since 1870-01 and 1870.01 differ:\n%s\n%s", dash, dot)
	}
	_, errOut, code := runCmd(t, "-db", db, "moves", "-since", "1870-01-05")
	if code != 2 || !strings.Contains(errOut, "-since=1870-01-05: want a month YYYY-MM or a year YYYY: the store counts games by month, not by day") {
		t.Errorf("-since 1870-01-05: exit %d, %q", code, errOut)
	}
	_, errOut, code = runCmd(t, "-db", db, "moves", "-until", "1870-13")
	if code != 2 || !strings.Contains(errOut, "month 13: want 01 to 12") {
		t.Errorf("-until 1870-13: exit %d, %q", code, errOut)
	}
}

// TestProgressOnStderr: every command that reads the whole store or its
// games shows its progress on stderr with -progress lines, and its end;
// -q shows nothing; stdout is the same either way.
func TestProgressOnStderr(t *testing.T) {
	db := championsBook(t)
	dir := t.TempDir()
	for _, args := range [][]string{
		{"positions"},
		{"positions", "-max-ply", "4"},
		{"export", "-o", filepath.Join(dir, "a.bin"), "-json"},
		{"pgn", "-moves", "e4 e5 Nf3"},
		{"games", "-moves", "e4 e5", "-page", "1"},
		{"check"},
		{"savings", "-json"},
	} {
		quiet, qErr, code := runCmd(t, append(append([]string{"-db", db}, args...), "-q")...)
		if code != 0 || qErr != "" {
			t.Errorf("%q -q: exit %d, stderr %q; want nothing", args, code, qErr)
		}
		out, errOut, code := runCmd(t, append(append([]string{"-db", db}, args...), "-progress", "lines")...)
		if code != 0 || !strings.Contains(errOut, ": ") || !strings.Contains(errOut, "done in ") {
			t.Errorf("%q -progress lines: exit %d, stderr %q; want progress lines and done in", args, code, errOut)
		}
		if args[0] != "savings" && args[0] != "export" && out != quiet { // savings and export print times
			t.Errorf("%q: stdout differs with -q and -progress lines", args)
		}
	}
}

// TestExportDiffers: a book exported from a store that does not count as
// make-book does says how it differs, on stderr and in -json; from a
// -count occurrence -keep-duplicates store it says nothing.
func TestExportDiffers(t *testing.T) {
	for _, tc := range []struct {
		mode store.CountMode
		keep bool
		want []string
	}{
		{store.CountGame, false, []string{"counts a game once per position (-count game)", "counts the copies of a game once"}},
		{store.CountGame, true, []string{"counts a game once per position (-count game)"}},
		{store.CountOccurrence, false, []string{"counts the copies of a game once"}},
		{store.CountOccurrence, true, nil},
	} {
		dir := filepath.Join(t.TempDir(), "book")
		st, err := store.Open(dir, store.Options{Meta: &store.Meta{CountMode: tc.mode, KeepDuplicates: tc.keep}})
		if err != nil {
			t.Fatal(err)
		}
		b := build.NewBuilder(st, build.Options{CountMode: tc.mode, KeepDuplicates: tc.keep}, 2)
		if _, err := ingest.Run(context.Background(), []string{championsPGN}, ingest.Options{Workers: 2}, b.Sink); err != nil {
			t.Fatal(err)
		}
		if err := b.Finish(); err != nil {
			t.Fatal(err)
		}
		st.Close()
		o := filepath.Join(t.TempDir(), "b.bin")
		out, errOut, code := runCmd(t, "-db", dir, "export", "-o", o, "-progress", "none")
		var j exportJSON
		jsonOut := mustRun(t, "-db", dir, "export", "-o", o, "-json")
		if code != 0 || json.Unmarshal([]byte(jsonOut), &j) != nil || j.Entries == 0 {
			t.Fatalf("%s %v: exit %d, %s %s", tc.mode, tc.keep, code, errOut, jsonOut)
		}
		if tc.want == nil {
			if errOut != "" || j.Differs != "" {
				t.Errorf("a make-book store: stderr %q, differs %q; want nothing", errOut, j.Differs)
			}
			continue
		}
		for _, w := range tc.want {
			if !strings.HasPrefix(errOut, "note: this store ") || !strings.Contains(errOut, w) || !strings.Contains(j.Differs, w) || !strings.Contains(j.Differs, "'bookbuild -count occurrence -keep-duplicates'") {
				t.Errorf("%s %v: stderr %q, differs %q; want %q", tc.mode, tc.keep, errOut, j.Differs, w)
			}
		}
		if !strings.Contains(out, "entries") {
			t.Errorf("%s %v: stdout %q", tc.mode, tc.keep, out)
		}
	}
}

// TestPositionsMaxPlyLimit: positions -max-ply N, whose replays stop at
// ply N, lists exactly the positions of the full dump at ply N or less,
// with all their statistics, on a store of two builds (positions with
// statistics records in one and single references in the other, and
// positions of single references from both).
func TestPositionsMaxPlyLimit(t *testing.T) {
	data, err := os.ReadFile(championsPGN)
	if err != nil {
		t.Fatal(err)
	}
	games := strings.SplitAfter(string(data), "\n\n[Event ")
	half := len(games) / 2
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.pgn"), filepath.Join(dir, "b.pgn")
	if err := os.WriteFile(a, []byte(strings.Join(games[:half], "")), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(b, []byte("[Event "+strings.Join(games[half:], "")), 0o644); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "book")
	for _, in := range []string{a, b} {
		st, err := store.Open(db, store.Options{Meta: &store.Meta{CountMode: store.CountGame}})
		if err != nil {
			t.Fatal(err)
		}
		bl := build.NewBuilder(st, build.Options{CountMode: store.CountGame}, 2)
		if _, err := ingest.Run(context.Background(), []string{in}, ingest.Options{Workers: 2}, bl.Sink); err != nil {
			t.Fatal(err)
		}
		if err := bl.Finish(); err != nil {
			t.Fatal(err)
		}
		if g := st.Meta().Games; in == b && g != 500 {
			t.Fatalf("the two halves hold %d games, want 500", g)
		}
		st.Close()
	}
	all := strings.Split(strings.TrimSpace(mustRun(t, "-db", db, "positions", "-moves")), "\n")
	for _, n := range []int{0, 1, 4, 9, 30} {
		var want []string
		for _, line := range all {
			var p export.Position
			if err := json.Unmarshal([]byte(line), &p); err != nil {
				t.Fatal(err)
			}
			if p.Ply != nil && *p.Ply <= n {
				want = append(want, line)
			}
		}
		got := strings.Split(strings.TrimSpace(mustRun(t, "-db", db, "positions", "-moves", "-max-ply", strconv.Itoa(n))), "\n")
		slices.Sort(want)
		slices.Sort(got)
		if len(want) < 1 || !slices.Equal(got, want) {
			t.Errorf("-max-ply %d: %d positions, the full dump has %d at ply %d or less", n, len(got), len(want), n)
		}
	}
}
