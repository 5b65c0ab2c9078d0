package polyglot

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestWriteBookRoundTrip reads each reference book (PolyGlot make-book
// output) and writes its entries back: the bytes must be identical. The
// other real books come back identical too when they are in make-book
// order (sorted keys, heaviest first).
func TestWriteBookRoundTrip(t *testing.T) {
	for _, rb := range realBooks() {
		t.Run(filepath.Base(rb.path), func(t *testing.T) {
			want, err := os.ReadFile(bookPath(t, rb.path))
			if err != nil {
				t.Fatal(err)
			}
			b, err := ParseBook(want)
			if err != nil {
				t.Fatal(err)
			}
			inOrder := slices.IsSortedFunc(b.Entries(), CompareEntries)
			if isReference(rb.path) && !inOrder {
				t.Fatal("a make-book book is not in CompareEntries order")
			}
			orig := slices.Clone(b.Entries())
			var got bytes.Buffer
			if err := WriteBook(&got, b.Entries()); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(orig, b.Entries()) {
				t.Fatal("WriteBook modified its input")
			}
			if inOrder != bytes.Equal(got.Bytes(), want) {
				t.Fatalf("in make-book order: %v, bytes identical: %v", inOrder, !inOrder)
			}
			if !inOrder {
				// Sorted output is a permutation that Check finds clean.
				nb, err := ParseBook(got.Bytes())
				if err != nil {
					t.Fatal(err)
				}
				if !nb.Sorted() || findCode(Check(nb), CodeWeightOrder) != nil {
					t.Error("WriteBook output is not in book order")
				}
			}
		})
	}
}

func TestSortEntries(t *testing.T) {
	es := []Entry{
		{Key: 2, Move: 1, Weight: 1},
		{Key: 1, Move: 9, Weight: 5},
		{Key: 2, Move: 3, Weight: 4},
		{Key: 0, Move: 0x4050, Weight: 0x4740}, // header
		{Key: 2, Move: 2, Weight: 4},           // tie with move 3: stays after it
		{Key: 1, Move: 8, Weight: 5},           // tie with move 9: stays after it
		{Key: 2, Move: 4, Weight: 9},
	}
	var buf bytes.Buffer
	if err := WriteBook(&buf, es); err != nil {
		t.Fatal(err)
	}
	b, err := ReadBook(&buf)
	if err != nil {
		t.Fatal(err)
	}
	var got []uint16
	for _, e := range b.Entries() {
		got = append(got, e.Move)
	}
	if want := []uint16{0x4050, 9, 8, 4, 3, 2, 1}; !slices.Equal(got, want) {
		t.Errorf("order %v, want %v", got, want)
	}
	if es[0].Move != 1 {
		t.Error("WriteBook sorted its input in place")
	}
	SortEntries(es)
	if !slices.IsSortedFunc(es, CompareEntries) || es[1].Move != 9 {
		t.Errorf("SortEntries: %v", es)
	}
	// The encoding: big-endian, 16 bytes.
	buf.Reset()
	if err := WriteBook(&buf, []Entry{{0x0102030405060708, 0x090a, 0x0b0c, 0x0d0e0f10}}); err != nil {
		t.Fatal(err)
	}
	if want := []byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}; !bytes.Equal(buf.Bytes(), want) {
		t.Errorf("encoding % x", buf.Bytes())
	}
}

type failWriter struct{ n int }

func (w *failWriter) Write(p []byte) (int, error) {
	if w.n -= len(p); w.n < 0 {
		return 0, errors.New("disk full")
	}
	return len(p), nil
}

func TestWriteBookError(t *testing.T) {
	es := make([]Entry, 10000) // more than the write buffer
	for i := range es {
		es[i].Key = uint64(i + 1)
	}
	for _, n := range []int{0, 100 << 10} {
		err := WriteBook(&failWriter{n: n}, es)
		if err == nil || !strings.Contains(err.Error(), "disk full") || !strings.HasPrefix(err.Error(), "polyglot: writing book") {
			t.Errorf("n=%d: err = %v", n, err)
		}
	}
}
