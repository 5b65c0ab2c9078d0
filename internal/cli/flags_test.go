package cli

import (
	"flag"
	"io"
	"slices"
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
