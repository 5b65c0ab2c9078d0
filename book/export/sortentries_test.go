package export_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/chessbook/chessbook/book/build"
	"github.com/chessbook/chessbook/book/export"
	"github.com/chessbook/chessbook/polyglot"
	"github.com/chessbook/chessbook/store"
)

// TestExportSpilledRuns: a book whose entries are sorted in many runs
// spilled to disk and merged (chunks of 10,000 of its 133,495 entries)
// is byte for byte PolyGlot's reference book of the same games, and the
// in-memory export's; WritePolyglot streams it to its file as WriteBook
// writes the in-memory book, and the runs are removed, after an error
// too.
func TestExportSpilledRuns(t *testing.T) {
	in, ref, chunk := spilledInput(t)
	want, err := os.ReadFile(ref)
	if err != nil {
		t.Fatal(err)
	}
	scratch := t.TempDir()
	t.Setenv("TMPDIR", scratch)
	st, _, _ := buildBook(t, build.Options{MaxPly: 20, CountMode: store.CountOccurrence, KeepDuplicates: true, Inputs: []string{in}}, in)
	o := export.Options{MinGame: 1, MaxPly: 20}

	inMemory, es := exportBytes(t, st, o)
	if !bytes.Equal(inMemory, want) {
		t.Fatalf("in memory: the book (%d bytes) differs from the reference (%d bytes)", len(inMemory), len(want))
	}
	chunked, runs := export.WithChunkEntries(o, chunk)
	path := filepath.Join(t.TempDir(), "book.bin")
	es2, err := export.WritePolyglot(context.Background(), st, chunked, path)
	if err != nil {
		t.Fatal(err)
	}
	if wantRuns := (es.Entries - 1) / chunk; *runs != wantRuns || wantRuns < 10 {
		t.Errorf("%d runs spilled for %d entries, want %d", *runs, es.Entries, wantRuns)
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("spilled: the book (%d bytes) differs from the reference (%d bytes)", len(got), len(want))
	}
	if es2.Entries != es.Entries || es2.Positions != es.Positions || es2.EPSplit != es.EPSplit || es2.Entries*polyglot.EntrySize != len(want) {
		t.Errorf("spilled: stats %+v, in memory %+v", es2, es)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o644 {
		t.Errorf("the book: %v, %v; want mode 0644", fi, err)
	}

	// An error while the runs are merged stops the export, which
	// leaves no run behind.
	stop := errors.New("stop")
	n := 0
	chunked, _ = export.WithChunkEntries(o, 10000)
	_, err = export.PolyglotTo(context.Background(), st, chunked, func(polyglot.Entry) error {
		if n++; n == 5 {
			return stop
		}
		return nil
	})
	if !errors.Is(err, stop) {
		t.Errorf("PolyglotTo: %v, want the callback's error", err)
	}
	left, err := os.ReadDir(scratch)
	if err != nil || len(left) != 0 {
		t.Errorf("scratch directory after the exports: %v %v, want empty", left, err)
	}
}
