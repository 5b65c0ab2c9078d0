package explorer

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/chessbook/chessbook/book/build"
	"github.com/chessbook/chessbook/ingest"
	"github.com/chessbook/chessbook/internal/storetest"
	"github.com/chessbook/chessbook/store"
)

const championsPGN = "../testdata/champions500.pgn"

// buildStore builds a book with default options from the PGN files into a
// new directory and returns it.
func buildStore(tb testing.TB, inputs ...string) string {
	tb.Helper()
	dir := filepath.Join(tb.TempDir(), "book")
	st, err := store.Open(dir, store.Options{Meta: &store.Meta{CountMode: store.CountGame}})
	if err != nil {
		tb.Fatal(err)
	}
	b := build.NewBuilder(st, build.Options{}, 2)
	if _, err := ingest.Run(context.Background(), inputs, ingest.Options{Workers: 2}, b.Sink); err != nil {
		tb.Fatal(err)
	}
	if err := b.Finish(); err != nil {
		tb.Fatal(err)
	}
	if err := st.Close(); err != nil {
		tb.Fatal(err)
	}
	return dir
}

// openStore opens the store in dir read-only until the test ends.
func openStore(tb testing.TB, dir string) *store.Store {
	tb.Helper()
	st, err := store.Open(dir, store.Options{ReadOnly: true})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { st.Close() })
	return st
}

// champions is the store of testdata/champions500.pgn, which many tests
// read: built once per test binary (storetest.Once).
var champions = storetest.Once(build.Options{CountMode: store.CountGame}, championsPGN)

// TestMain runs the tests and removes the shared stores.
func TestMain(m *testing.M) { storetest.Main(m) }

// championsStore returns the open store of testdata/champions500.pgn,
// read-only.
func championsStore(tb testing.TB) *store.Store {
	tb.Helper()
	st, _, _ := champions.Open(tb)
	return st
}
