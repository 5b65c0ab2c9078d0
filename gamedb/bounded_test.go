//go:build oracle

package gamedb_test

import (
	"context"
	"errors"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/chessbook/chessbook/gamedb"
	"github.com/chessbook/chessbook/internal/testutil"
	"github.com/chessbook/chessbook/store"
)

// TestSearchMemoryBounded: on a store of real games (lichess_10k), a
// search whose names match most games ("a", "e", an event every lichess
// game has) allocates what its page needs, a bit per game for each name
// filter and its iterators, not memory for every game found or name
// matched; a page past gamedb.MaxWindow is refused.
func TestSearchMemoryBounded(t *testing.T) {
	data := testutil.SharedData(t)
	dir := t.TempDir()
	buildDB(t, dir, filepath.Join(data, "medium", "lichess_10k.pgn.zst"))
	st, err := store.Open(dir, store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	db, err := gamedb.Open(st)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, c := range []struct {
		name string
		q    gamedb.Query
	}{
		{"player a", gamedb.Query{Player: "a", Limit: 20}},
		{"player e by rating", gamedb.Query{Player: "e", Limit: 20, Sort: gamedb.ByRating}},
		{"event rated", gamedb.Query{Event: "rated", Limit: 20}},
		{"white a, black e, page 3", gamedb.Query{White: "a", Black: "e", Limit: 20, Offset: 40}},
	} {
		q := c.q
		// Once to warm the store's caches, then measured.
		if _, err := db.Search(ctx, q); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		res, err := db.Search(ctx, q)
		runtime.ReadMemStats(&after)
		if err != nil {
			t.Fatal(err)
		}
		alloc := after.TotalAlloc - before.TotalAlloc
		t.Logf("%s: %d games found, %d KiB allocated", c.name, res.Total, alloc>>10)
		if res.Total < 1000 || len(res.Games) != 20 {
			t.Errorf("%s: %d games found, %d listed: want 1000 or more, 20", c.name, res.Total, len(res.Games))
		}
		// Before, the postings of every name matched and every game found
		// were held: 1 MiB and more.
		if alloc > 512<<10 {
			t.Errorf("%s: %d KiB allocated for %d games found, more than 512 KiB", c.name, alloc>>10, res.Total)
		}
	}
	_, err = db.Search(ctx, gamedb.Query{Player: "a", Offset: gamedb.MaxWindow, Limit: 20})
	var we *gamedb.WindowError
	if !errors.As(err, &we) || !errors.Is(err, gamedb.ErrWindow) || err.Error() !=
		"page too deep: a search lists its first 100000 games at most, this page ends at game 100020; narrow the search (a longer name, a date range, a result...) or sort it otherwise" {
		t.Errorf("a page past MaxWindow: %v", err)
	}
}
