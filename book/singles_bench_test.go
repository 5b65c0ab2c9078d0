package book_test

import (
	"context"
	"testing"

	"github.com/chessbook/chessbook/book"
	"github.com/chessbook/chessbook/book/build"
	"github.com/chessbook/chessbook/stats"
	"github.com/chessbook/chessbook/store"
)

// championsStore builds the world champions' sample into a new store and
// returns it open, read-only (closed when the benchmark ends).
func championsStore(b *testing.B) *store.Store {
	dir := b.TempDir() + "/db"
	if _, err := build.Run(context.Background(), build.RunOptions{Options: build.Options{Inputs: []string{"../testdata/champions500.pgn"}}, Dir: dir}); err != nil {
		b.Fatal(err)
	}
	st, err := store.Open(dir, store.Options{ReadOnly: true})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	return st
}

// BenchmarkEntrySingles looks up positions of the world champions' store
// that one game reaches (single references: each lookup reads the game
// and replays it up to the position), and reports the time per lookup.
func BenchmarkEntrySingles(b *testing.B) {
	st := championsStore(b)
	var keys [][]byte
	err := book.Positions(context.Background(), st, 0, func(pos []byte, e *stats.Entry) error {
		if e.Total().Games() == 1 && len(keys) < 4096 {
			keys = append(keys, append([]byte(nil), pos...))
		}
		return nil
	})
	if err != nil || len(keys) < 4096 {
		b.Fatalf("%d positions of one game, %v", len(keys), err)
	}
	var e stats.Entry
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		found, err := book.LookupInto(st, &e, keys[i%len(keys)])
		if err != nil || !found {
			b.Fatalf("%x: %v %v", keys[i%len(keys)], found, err)
		}
	}
}

// BenchmarkPositions lists every position of the world champions' store
// with its statistics (most of them found by replaying the games their
// single references name).
func BenchmarkPositions(b *testing.B) {
	st := championsStore(b)
	b.ReportAllocs()
	b.ResetTimer()
	n := 0
	for b.Loop() {
		err := book.Positions(context.Background(), st, 0, func([]byte, *stats.Entry) error { n++; return nil })
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(n)/float64(b.N), "positions/op")
}
