package storetest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/chessbook/chessbook/book/build"
	"github.com/chessbook/chessbook/ingest"
	"github.com/chessbook/chessbook/store"
)

// Build runs the whole pipeline (ingest.Run into a build.Builder, two
// workers) on inputs into a new store in a temporary directory of tb, with
// opts, and returns it open (closed when the test ends), with the
// pipeline's summary and the builder's counters. It is the one
// build-a-store helper of the tests; a store that several tests only read
// is built once per test binary with Once instead.
func Build(tb testing.TB, opts build.Options, inputs ...string) (*store.Store, *ingest.Summary, build.Stats) {
	tb.Helper()
	st, sum, bs, err := buildStore(filepath.Join(tb.TempDir(), "db"), opts, inputs)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { st.Close() })
	return st, sum, bs
}

// buildStore builds inputs into a new store in dir with opts and returns it
// open.
func buildStore(dir string, opts build.Options, inputs []string) (*store.Store, *ingest.Summary, build.Stats, error) {
	st, err := store.Open(dir, store.Options{Meta: &store.Meta{MaxPly: opts.MaxPly, CountMode: opts.CountMode, KeepDuplicates: opts.KeepDuplicates}})
	if err != nil {
		return nil, nil, build.Stats{}, err
	}
	b := build.NewBuilder(st, opts, 2)
	sum, err := ingest.Run(context.Background(), inputs, ingest.Options{Workers: 2}, b.Sink)
	if err == nil {
		err = b.Finish()
	}
	if err != nil {
		st.Close()
		return nil, nil, build.Stats{}, fmt.Errorf("building %v: %w", inputs, err)
	}
	return st, sum, b.Stats(), nil
}

// Built is a store that the tests of a package share, read-only: built
// the first time a test asks for it, once per test binary, into a
// directory that Main removes when the tests end. Declare it at package
// level:
//
//	var champions = storetest.Once(build.Options{CountMode: store.CountGame}, "../testdata/champions500.pgn")
//
// and give the package a TestMain that calls storetest.Main.
type Built struct {
	opts   build.Options
	inputs []string
	once   sync.Once
	dir    string
	sum    *ingest.Summary
	stats  build.Stats
	err    error
}

// Once returns the shared store of inputs built with opts (see Built).
func Once(opts build.Options, inputs ...string) *Built {
	return &Built{opts: opts, inputs: inputs}
}

// tempRoot is the temporary directory when the test binary starts: the
// shared stores go there, whatever TMPDIR a test sets meanwhile.
var tempRoot = os.TempDir()

// fixtures are the directories of the shared stores built so far, which
// Main removes.
var fixtures struct {
	sync.Mutex
	dirs []string
}

// get builds the store the first time it is asked for.
func (b *Built) get(tb testing.TB) {
	tb.Helper()
	b.once.Do(func() {
		parent, err := os.MkdirTemp(tempRoot, "chessbook-fixture-")
		if err != nil {
			b.err = err
			return
		}
		fixtures.Lock()
		fixtures.dirs = append(fixtures.dirs, parent)
		fixtures.Unlock()
		b.dir = filepath.Join(parent, "db")
		var st *store.Store
		st, b.sum, b.stats, b.err = buildStore(b.dir, b.opts, b.inputs)
		if b.err == nil {
			b.err = st.Close()
		}
	})
	if b.err != nil {
		tb.Fatalf("the shared store of %v: %v", b.inputs, b.err)
	}
}

// Dir returns the directory of the shared store, building it first if no
// test has yet: the tests must not write to it.
func (b *Built) Dir(tb testing.TB) string {
	tb.Helper()
	b.get(tb)
	return b.dir
}

// Open opens the shared store read-only (closed when the test ends) and
// returns it with the summary and the counters of its build.
func (b *Built) Open(tb testing.TB) (*store.Store, *ingest.Summary, build.Stats) {
	tb.Helper()
	b.get(tb)
	st, err := store.Open(b.dir, store.Options{ReadOnly: true})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { st.Close() })
	return st, b.sum, b.stats
}

// Main runs the tests (m.Run), removes the directories of the shared
// stores built meanwhile and exits with the tests' status: call it from
// the TestMain of a package that uses Once.
func Main(m *testing.M) {
	code := m.Run()
	fixtures.Lock()
	for _, d := range fixtures.dirs {
		if err := os.RemoveAll(d); err != nil {
			fmt.Fprintln(os.Stderr, "storetest:", err)
		}
	}
	fixtures.Unlock()
	os.Exit(code)
}
