package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chessbook/chessbook/gamedb"
	"github.com/chessbook/chessbook/store"
)

// TestReindex: -reindex indexes a store that has no game index (as an
// older bookbuild wrote it), alone or before adding inputs; it needs a
// store.
func TestReindex(t *testing.T) {
	db := filepath.Join(t.TempDir(), "book")
	if code, _, errOut := runCLI(t, "-db", db, "../../testdata/champions500.pgn"); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	indexed := func() int {
		t.Helper()
		st, err := store.Open(db, store.Options{ReadOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		if _, err := gamedb.Open(st); err != nil {
			return -1
		}
		rep, err := gamedb.Check(context.Background(), st, func(p string) { t.Error(p) })
		if err != nil {
			t.Fatal(err)
		}
		return rep.Summaries
	}
	unindex := func() {
		t.Helper()
		st, err := store.Open(db, store.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if err := st.ClearIndex(); err != nil {
			t.Fatal(err)
		}
		st.Close()
	}
	if n := indexed(); n != 500 {
		t.Fatalf("a new store's index covers %d games", n)
	}
	// An indexed store's index is replaced (and the old one compacted
	// away).
	if code, out, errOut := runCLI(t, "-db", db, "-reindex"); code != 0 || !strings.Contains(out, "game index: 500 games indexed") {
		t.Fatalf("-reindex of an indexed store: exit %d, %q, %q", code, out, errOut)
	}
	if n := indexed(); n != 500 {
		t.Fatalf("re-reindexed: %d summaries", n)
	}
	unindex()
	if n := indexed(); n != -1 {
		t.Fatalf("an unindexed store opens, %d summaries", n)
	}
	code, out, errOut := runCLI(t, "-db", db, "-reindex")
	if code != 0 || !strings.Contains(out, "game index: 500 games indexed") || errOut != "" {
		t.Fatalf("-reindex: exit %d, %q, %q", code, out, errOut)
	}
	if n := indexed(); n != 500 {
		t.Fatalf("reindexed: %d summaries", n)
	}
	unindex()
	if code, out, errOut = runCLI(t, "-db", db, "-reindex", "../../testdata/ep_pinned.pgn"); code != 0 || !strings.Contains(out, "games stored:") {
		t.Fatalf("-reindex with an input: exit %d, %q, %q", code, out, errOut)
	}
	if n := indexed(); n <= 500 {
		t.Fatalf("reindexed and added to: %d summaries", n)
	}
	if code, _, errOut = runCLI(t, "-reindex"); code != 2 || !strings.Contains(errOut, "no store given") {
		t.Errorf("-reindex without -db: exit %d, %q", code, errOut)
	}
	if code, _, errOut = runCLI(t, "-db", filepath.Join(t.TempDir(), "none"), "-reindex"); code != 1 || !strings.Contains(errOut, "no chessbook store") {
		t.Errorf("-reindex of no store: exit %d, %q", code, errOut)
	}
}
