package cli

import (
	"errors"
	"flag"
	"io"
	"slices"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		args []string
		db   string
		q    bool
		pos  []string
	}{
		{[]string{"-db", "D", "a.pgn", "b.pgn"}, "D", false, []string{"a.pgn", "b.pgn"}},
		{[]string{"a.pgn", "-db", "D", "b.pgn", "-q"}, "D", true, []string{"a.pgn", "b.pgn"}},
		{[]string{"a.pgn", "-", "-q"}, "", true, []string{"a.pgn", "-"}},
		{[]string{"-q", "--", "-db", "x"}, "", true, []string{"-db", "x"}},
		{[]string{"a", "--", "-q"}, "", false, []string{"a", "-q"}},
		{nil, "", false, nil},
	} {
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		db := fs.String("db", "", "")
		q := fs.Bool("q", false, "")
		if err := Parse(fs, tc.args); err != nil {
			t.Fatalf("%q: %v", tc.args, err)
		}
		if *db != tc.db || *q != tc.q || !slices.Equal(fs.Args(), tc.pos) && len(fs.Args())+len(tc.pos) > 0 {
			t.Errorf("%q: db %q q %v args %q; want %q %v %q", tc.args, *db, *q, fs.Args(), tc.db, tc.q, tc.pos)
		}
	}
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	if err := Parse(fs, []string{"a", "-nope"}); err == nil {
		t.Error("an unknown flag after an argument is accepted")
	}
}

// TestUnknownFlag: a mistyped flag is an *UnknownFlagError that names the
// nearest flag, the usage is not printed, and a hint replaces the
// suggestion.
func TestUnknownFlag(t *testing.T) {
	for _, tc := range []struct {
		flag, want string
	}{
		{"-spede", "unknown flag -spede (did you mean -speeds?)"},
		{"-speed", "unknown flag -speed (did you mean -speeds?)"},
		{"-max", "unknown flag -max (did you mean -max-ply?)"},
		{"-maxply", "unknown flag -maxply (did you mean -max-ply?)"},
		{"-tpo", "unknown flag -tpo (did you mean -top?)"},
		{"-Top", "unknown flag -Top (did you mean -top?)"},
		{"-xyzzy", "unknown flag -xyzzy"},
		{"-json", "unknown flag -json (pgn writes PGN)"},
	} {
		var out strings.Builder
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		fs.SetOutput(&out)
		usage := false
		fs.Usage = func() { usage = true }
		for _, name := range []string{"speeds", "max-ply", "min-ply", "top", "db"} {
			fs.String(name, "", "")
		}
		err := ParseHinted(fs, []string{"a.pgn", tc.flag, "x"}, map[string]string{"json": "pgn writes PGN"})
		var ue *UnknownFlagError
		if !errors.As(err, &ue) || err.Error() != tc.want {
			t.Errorf("%s: %v, want %q", tc.flag, err, tc.want)
		}
		if usage || out.Len() > 0 {
			t.Errorf("%s: the usage was printed (%q)", tc.flag, out.String())
		}
	}
	// -h prints the usage and returns flag.ErrHelp.
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	usage := false
	fs.Usage = func() { usage = true }
	if err := Parse(fs, []string{"-h"}); !errors.Is(err, flag.ErrHelp) || !usage {
		t.Errorf("-h: %v, usage printed %v", err, usage)
	}
}

func TestNearest(t *testing.T) {
	words := []string{"encode", "decode", "moves", "history", "games", "pgn", "game", "positions", "export", "probe", "serve", "savings", "check"}
	for _, tc := range []struct{ s, want string }{
		{"move", "moves"}, {"mvoes", "moves"}, {"posiitons", "positions"}, {"exprot", "export"},
		{"histroy", "history"}, {"gmae", "game"}, {"gams", "games"}, {"pos", "positions"},
		{"ga", ""}, {"build", ""}, {"zzz", ""}, {"", ""}, {"savigns", "savings"},
	} {
		if got := Nearest(tc.s, words); got != tc.want {
			t.Errorf("Nearest(%q) = %q, want %q", tc.s, got, tc.want)
		}
	}
	for _, tc := range []struct {
		a, b string
		d    int
	}{{"", "", 0}, {"abc", "abc", 0}, {"abc", "acb", 1}, {"kitten", "sitting", 3}, {"", "abc", 3}, {"ca", "abc", 3}, {"é", "e", 1}} {
		if got := distance(tc.a, tc.b); got != tc.d {
			t.Errorf("distance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.d)
		}
	}
}

// TestEnum: an enumerated flag refuses any value it does not list, naming
// those it takes, and keeps its default.
func TestEnum(t *testing.T) {
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var mode string
	EnumVar(fs, &mode, "progress", "auto", "the `MODE`", ProgressModes...)
	if mode != "auto" {
		t.Fatalf("default %q", mode)
	}
	err := Parse(fs, []string{"-progress", "weird"})
	if err == nil || !strings.Contains(err.Error(), `invalid value "weird" for flag -progress: want auto, bar, lines or none`) {
		t.Errorf("-progress weird: %v", err)
	}
	if err := Parse(fs, []string{"-progress", "lines"}); err != nil || mode != "lines" {
		t.Errorf("-progress lines: %v, %q", err, mode)
	}
	var b strings.Builder
	fs.SetOutput(&b)
	fs.PrintDefaults()
	if !strings.Contains(b.String(), "-progress MODE") || !strings.Contains(b.String(), "(default auto)") {
		t.Errorf("help: %q", b.String())
	}
}
