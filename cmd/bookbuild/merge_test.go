package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/chessbook/chessbook/internal/storetest"
	"github.com/chessbook/chessbook/store"
)

// runArgs runs bookbuild with args and returns its exit status, stdout
// and stderr.
func runArgs(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(args, &out, &errOut)
	noCrash(t, errOut.String())
	return code, out.String(), errOut.String()
}

// TestMergeCommand runs bookbuild merge as a user would: two stores of
// the halves of champions500.pgn, whose second half repeats games of the
// first, merged into one that holds what one build of both holds (every
// kind of record: storetest.DifferentKinds); and the
// merges refused, with exit status 2.
func TestMergeCommand(t *testing.T) {
	pgn, err := os.ReadFile(champions)
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	cut := bytes.Index(pgn[len(pgn)/2:], []byte("\n[Event ")) + len(pgn)/2 + 1
	first, second := filepath.Join(tmp, "first.pgn"), filepath.Join(tmp, "second.pgn")
	// The second half, and again the first 20 games of the first.
	head := pgn[:cut]
	for i, n := 0, 0; i < len(head); i++ {
		if bytes.HasPrefix(head[i:], []byte("\n[Event ")) {
			if n++; n == 20 {
				head = head[:i+1]
				break
			}
		}
	}
	if err := os.WriteFile(first, pgn[:cut], 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(second, append(append([]byte{}, pgn[cut:]...), head...), 0o644); err != nil {
		t.Fatal(err)
	}
	a, b, all, out := filepath.Join(tmp, "a"), filepath.Join(tmp, "b"), filepath.Join(tmp, "all"), filepath.Join(tmp, "out")
	for _, args := range [][]string{{"-q", "-db", a, first}, {"-q", "-db", b, second}, {"-q", "-db", all, first, second},
		{"-q", "-db", filepath.Join(tmp, "short"), "-max-ply", "8", first}} {
		if code, _, errOut := runArgs(t, args...); code != 0 {
			t.Fatalf("bookbuild %v: exit %d: %s", args, code, errOut)
		}
	}
	code, stdout, stderr := runArgs(t, "merge", "-db", out, a, b)
	if code != 0 || stderr != "" {
		t.Fatalf("merge: exit %d, stderr %q", code, stderr)
	}
	for _, re := range []string{`(?m)^stores merged: +2$`, `(?m)^duplicates: +20 `, `(?m)^rebuilt: +1 stores`, `(?m)^store: +` + regexp.QuoteMeta(out) + `, `} {
		if !regexp.MustCompile(re).MatchString(stdout) {
			t.Errorf("merge output lacks %s:\n%s", re, stdout)
		}
	}
	games := func(dir string) uint64 {
		st, err := store.Open(dir, store.Options{ReadOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		return st.Meta().Games
	}
	if g, w := games(out), games(all); g != w || !strings.Contains(stdout, "games:") {
		t.Errorf("merged %d games, one build %d", g, w)
	}
	// Everything the stores hold, kind by kind (storetest.KindDigests:
	// statistics, single references and histories as they answer, game
	// records and numbers, the game index, the Meta).
	if diff := storetest.DifferentKinds(t, out, all); len(diff) > 0 {
		t.Errorf("the merged store differs from one build of both halves in its records of kinds %v", diff)
	}
	for _, tc := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"merge", "-db", out, a}, 2, "holds 500 games: merge destination must be a new or empty store"},
		{[]string{"merge", "-db", filepath.Join(tmp, "x"), a, filepath.Join(tmp, "short")}, 2, "stores built with different options"},
		{[]string{"merge", "-db", a, a}, 2, "is one of the stores merged"},
		{[]string{"merge", "-db", filepath.Join(tmp, "y"), first}, 2, "not a chessbook store"},
		{[]string{"merge", "-db", filepath.Join(tmp, "z"), filepath.Join(tmp, "missing")}, 2, "no chessbook store here"},
		{[]string{"merge", a, b}, 2, "no store to write"},
		{[]string{"merge", "-db", filepath.Join(tmp, "w")}, 2, "no store to merge"},
		{[]string{"merge", "-dbb", "x", a}, 2, "-db"},
	} {
		code, _, stderr := runArgs(t, tc.args...)
		if code != tc.code || !strings.HasPrefix(stderr, "bookbuild merge: ") || !strings.Contains(stderr, tc.msg) {
			t.Errorf("bookbuild %v: exit %d, stderr %q; want %d and %q", tc.args, code, stderr, tc.code, tc.msg)
		}
	}
	for _, dir := range []string{"x", "y", "z", "w"} {
		if _, err := os.Stat(filepath.Join(tmp, dir)); err == nil {
			t.Errorf("a refused merge left %s", dir)
		}
	}
}

// TestMergeDamagedSource: a merge of a store with a damaged table fails
// (exit 1) with one plain line naming that store, not one of its file
// names alone, and no Pebble detail carrier.
func TestMergeDamagedSource(t *testing.T) {
	pgn, err := os.ReadFile(champions)
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	cut := bytes.Index(pgn[len(pgn)/2:], []byte("\n[Event ")) + len(pgn)/2 + 1
	first, second := filepath.Join(tmp, "first.pgn"), filepath.Join(tmp, "second.pgn")
	if err := os.WriteFile(first, pgn[:cut], 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(second, pgn[cut:], 0o644); err != nil {
		t.Fatal(err)
	}
	a, b := filepath.Join(tmp, "a"), filepath.Join(tmp, "damaged")
	for _, c := range [][2]string{{a, first}, {b, second}} {
		if code, _, errOut := runArgs(t, "-q", "-db", c[0], c[1]); code != 0 {
			t.Fatalf("building %s: exit %d: %s", c[0], code, errOut)
		}
	}
	// Damage the largest table in its middle.
	tables, err := filepath.Glob(filepath.Join(b, "*.sst"))
	if err != nil || len(tables) == 0 {
		t.Fatal(tables, err)
	}
	var big string
	var size int64
	for _, p := range tables {
		if fi, err := os.Stat(p); err == nil && fi.Size() > size {
			big, size = p, fi.Size()
		}
	}
	data, err := os.ReadFile(big)
	if err != nil {
		t.Fatal(err)
	}
	for i := len(data) / 3; i < len(data)/3+200; i++ {
		data[i] ^= 0x5a
	}
	if err := os.WriteFile(big, data, 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errOut := runArgs(t, "merge", "-q", "-db", filepath.Join(tmp, "out"), a, b)
	want := "bookbuild merge: store " + b + " is damaged (in its file " + filepath.Base(big) + "; 'bookquery -db " + b + " check' lists what): pebble: file "
	if code != 1 || !strings.HasPrefix(errOut, want) || strings.Count(errOut, "\n") != 1 || strings.Contains(errOut, "carrier") {
		t.Errorf("merge of a damaged store: exit %d, %q; want 1, %q...", code, errOut, want)
	}
}
