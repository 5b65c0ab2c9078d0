package storetest

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/chessbook/chessbook/book/build"
	"github.com/chessbook/chessbook/book/export"
	"github.com/chessbook/chessbook/ingest"
	"github.com/chessbook/chessbook/polyglot"
	"github.com/chessbook/chessbook/store"
)

// The stores the tests of several packages build (book, book/build,
// book/merge).

// BuildRuns builds the inputs into a new store, one build per element of
// runs, and returns its directory.
func BuildRuns(t testing.TB, o build.Options, runs ...[]string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "db")
	for _, in := range runs {
		o.Inputs = in
		if _, err := build.Run(context.Background(), build.RunOptions{Options: o, Dir: dir}); err != nil {
			t.Fatalf("building %v: %v", in, err)
		}
	}
	return dir
}

// BuildWorkers builds inputs into a new store at dir with workers
// pipeline workers.
func BuildWorkers(t testing.TB, dir string, opts build.Options, workers int, inputs ...string) build.Stats {
	t.Helper()
	st, err := store.Open(dir, store.Options{Meta: &store.Meta{MaxPly: opts.MaxPly, CountMode: opts.CountMode, KeepDuplicates: opts.KeepDuplicates}})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	b := build.NewBuilder(st, opts, workers)
	if _, err := ingest.Run(context.Background(), inputs, ingest.Options{Workers: workers}, b.Sink); err != nil {
		t.Fatal(err)
	}
	if err := b.Finish(); err != nil {
		t.Fatal(err)
	}
	// Many commits make as many sorted runs, which every lookup of the
	// digest would read: compacted, they read as one.
	if err := st.Compact(context.Background()); err != nil {
		t.Fatal(err)
	}
	return b.Stats()
}

// CompareExport exports st with o and compares the book with PolyGlot's
// reference ref byte for byte: every entry (key, move, weight) in the same
// order, with no position exempted. On a difference it reports the first
// few positions that differ.
func CompareExport(t testing.TB, st *store.Store, ref string, o export.Options) {
	t.Helper()
	got, es, err := export.Polyglot(context.Background(), st, o)
	if err != nil {
		t.Fatal(err)
	}
	if es.Warning != "" || es.Estimated != 0 {
		t.Errorf("export warning: %s", es.Warning)
	}
	raw, err := os.ReadFile(ref)
	if err != nil {
		t.Fatal(err)
	}
	bk, err := polyglot.OpenBook(ref)
	if err != nil {
		t.Fatal(err)
	}
	want := bk.Entries()
	if !slices.Equal(got, want) {
		group := func(es []polyglot.Entry) map[uint64][]polyglot.Entry {
			m := map[uint64][]polyglot.Entry{}
			for _, e := range es {
				m[e.Key] = append(m[e.Key], e)
			}
			return m
		}
		g, w := group(got), group(want)
		bad := 0
		for key, we := range w {
			if ge := g[key]; !slices.Equal(ge, we) {
				if bad < 10 {
					t.Errorf("key %016x: exported %v, reference %v", key, ge, we)
				}
				bad++
			}
		}
		for key, ge := range g {
			if _, ok := w[key]; !ok {
				if bad < 10 {
					t.Errorf("key %016x: exported %v, not in the reference", key, ge)
				}
				bad++
			}
		}
		t.Fatalf("%s: %d entries exported, %d in the reference; %d positions differ", filepath.Base(ref), len(got), len(want), bad)
	}
	var buf bytes.Buffer
	if err := polyglot.WriteBook(&buf, got); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(buf.Bytes(), raw) {
		t.Fatalf("%s: the written book differs from the reference file", filepath.Base(ref))
	}
	t.Logf("%s: byte-identical, %d entries; %d positions halved, %d replayed in game order, %d split by the en-passant rule",
		filepath.Base(ref), len(got), es.Halved, es.Replayed, es.EPSplit)
}
