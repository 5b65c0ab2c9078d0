package merge_test

import (
	"context"
	"github.com/chessbook/chessbook/internal/storetest"
	"path/filepath"
	"testing"

	"github.com/chessbook/chessbook/book/build"
	"github.com/chessbook/chessbook/book/merge"
	"github.com/chessbook/chessbook/gamedb"
	"github.com/chessbook/chessbook/store"
)

// TestReindexKeepsReaders: while a reindex of an indexed store runs, a
// reader opening the store finds the old index whole (the same answers as
// before); after it, the new one, with the same answers.
func TestReindexKeepsReaders(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "book")
	storetest.BuildStore(t, dir, build.Options{}, champions)
	search := func() (int, string) {
		t.Helper()
		st, err := store.Open(dir, store.Options{ReadOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		db, err := gamedb.Open(st)
		if err != nil {
			t.Errorf("a reader: %v", err)
			return -1, ""
		}
		res, err := db.Search(context.Background(), gamedb.Query{Player: "lasker", Limit: 1})
		if err != nil {
			t.Errorf("a reader's search: %v", err)
			return -1, ""
		}
		names, err := db.Names(context.Background(), gamedb.Players, "lasker", 0)
		if err != nil {
			t.Fatal(err)
		}
		tallied := 0
		for _, n := range names {
			tallied += n.Games()
		}
		if tallied != res.Total || len(res.Games) == 0 {
			// A tally the old index added to the new.
			t.Errorf("lasker: %d games in the tallies, %d found", tallied, res.Total)
			return res.Total, ""
		}
		return res.Total, res.Games[0].ID.String()
	}
	total, first := search()
	if total <= 0 {
		t.Fatalf("lasker: %d games", total)
	}
	st, err := store.Open(dir, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	calls := 0
	err = merge.Reindex(context.Background(), st, func(done, all uint64) {
		calls++
		if n, id := search(); n != total || id != first {
			t.Errorf("during the reindex (%d of %d games): %d games, first %s; want %d, %s", done, all, n, id, total, first)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if calls < 2 {
		t.Fatalf("progress called %d times", calls)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	if n, id := search(); n != total || id != first {
		t.Errorf("after the reindex: %d games, first %s; want %d, %s", n, id, total, first)
	}
	st, err = store.Open(dir, store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	rep, err := gamedb.Check(context.Background(), st, func(p string) { t.Error(p) })
	if err != nil {
		t.Fatal(err)
	}
	if rep.Summaries != 500 {
		t.Errorf("after the reindex: %d summaries", rep.Summaries)
	}
}
