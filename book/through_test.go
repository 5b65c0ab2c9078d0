package book_test

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"testing"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/book"
	"github.com/chessbook/chessbook/book/build"
	"github.com/chessbook/chessbook/gamecode"
	"github.com/chessbook/chessbook/keys"
	"github.com/chessbook/chessbook/store"
)

// throughStore builds champions500.pgn and opens it read-only.
func throughStore(t *testing.T) *store.Store {
	t.Helper()
	db := filepath.Join(t.TempDir(), "db")
	res, err := build.Run(context.Background(), build.RunOptions{Dir: db, Workers: 2, Options: build.Options{Inputs: []string{champions}}})
	if err != nil || res.Stats == nil || res.Stats.Games != 500 {
		t.Fatalf("building %s: %v", champions, err)
	}
	st, err := store.Open(db, store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// TestGamesThroughWorkersAndCancel: GamesThrough finds the same games, in
// the same order, on one worker as on every CPU, the games that a full
// replay of every stored game finds (the oracle); and once its context is
// done it calls fn no more and returns the context's error.
func TestGamesThroughWorkersAndCancel(t *testing.T) {
	st := throughStore(t)
	p := board.StartPosition()
	for _, uci := range []string{"e2e4", "e7e5"} {
		m, err := p.ParseUCI(uci)
		if err != nil {
			t.Fatal(err)
		}
		p.Play(m)
	}
	// The oracle: every stored game decoded whole, in id order.
	var want []store.GameID
	if err := st.GamesBetween(0, 0, func(id store.GameID, rec []byte) (bool, error) {
		g, err := gamecode.DecodeGame(rec)
		if err != nil {
			return false, err
		}
		q := g.Start
		for _, m := range g.Moves {
			if keys.Equal(&q, &p) {
				want = append(want, id)
				return true, nil
			}
			q.Play(m)
		}
		if keys.Equal(&q, &p) {
			want = append(want, id)
		}
		return true, nil
	}); err != nil {
		t.Fatal(err)
	}
	if len(want) < 50 {
		t.Fatalf("only %d games through 1.e4 e5: the store is not the champions'", len(want))
	}
	for _, workers := range []int{1, 0} {
		var got []store.GameID
		err := book.GamesThrough(context.Background(), st, &p, book.ThroughOptions{Workers: workers}, func(id store.GameID, _ []byte, _ int) (bool, error) {
			got = append(got, id)
			return true, nil
		})
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("Workers %d: %d games (%v), the full replay finds %d", workers, len(got), err, len(want))
		}
	}
	// Cancelled from fn at the third game: no fourth call.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	calls := 0
	err := book.GamesThrough(ctx, st, &p, book.ThroughOptions{Workers: 1}, func(store.GameID, []byte, int) (bool, error) {
		calls++
		if calls == 3 {
			cancel()
		}
		return true, nil
	})
	if !errors.Is(err, context.Canceled) || calls != 3 {
		t.Errorf("cancelled at the third game: %d calls, error %v; want 3 and context.Canceled", calls, err)
	}
	// Done before the start: no call at all.
	calls = 0
	err = book.GamesThrough(ctx, st, &p, book.ThroughOptions{}, func(store.GameID, []byte, int) (bool, error) {
		calls++
		return true, nil
	})
	if !errors.Is(err, context.Canceled) || calls != 0 {
		t.Errorf("cancelled before the start: %d calls, error %v", calls, err)
	}
}

// champions is the world champions' games of the repository's test data.
const champions = "../testdata/champions500.pgn"
