package polyglot

import (
	"bufio"
	"cmp"
	"fmt"
	"io"
	"slices"
)

// CompareEntries orders entries the way PolyGlot's make-book writes them:
// by key ascending, then by weight descending. It returns 0 for entries of
// equal key and weight, whatever their moves: make-book has no further
// tie-break (see SortEntries).
func CompareEntries(a, b Entry) int {
	if c := cmp.Compare(a.Key, b.Key); c != 0 {
		return c
	}
	return int(b.Weight) - int(a.Weight)
}

// SortEntries sorts entries in place into book order with a stable sort
// by CompareEntries: key ascending, weight descending, and entries of equal
// key and weight left in their given order.
//
// That is exactly PolyGlot 2.0.4's make-book order: it qsorts its entries
// by (key, weight descending) with glibc's stable merge sort, and holds them
// in the order each (position, move) pair was first met while replaying the
// games. Entries passed in that first-seen order come out byte-identical to
// make-book's (the reference books in shared/data/reference are reproduced
// this way by the tests); equal-weight moves are NOT ordered by move code
// (about half of make-book's ties are in ascending move order, half in
// descending). Callers whose entries come from a map should put them in a
// deterministic order first, for example by move, or by first occurrence if
// they want make-book's bytes.
func SortEntries(entries []Entry) {
	slices.SortStableFunc(entries, CompareEntries)
}

// WriteBook writes entries to w as a Polyglot book: sorted as SortEntries
// does (entries itself is not modified), 16 big-endian bytes per entry,
// nothing else. Header entries (key 0) come first; weight-0 entries and
// duplicate moves are written as given (Check reports them).
func WriteBook(w io.Writer, entries []Entry) error {
	sorted := entries
	if !slices.IsSortedFunc(entries, CompareEntries) {
		sorted = slices.Clone(entries)
		SortEntries(sorted)
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	var buf [EntrySize]byte
	for _, e := range sorted {
		if _, err := bw.Write(appendEntry(buf[:0], e)); err != nil {
			return fmt.Errorf("polyglot: writing book: %w", err)
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("polyglot: writing book: %w", err)
	}
	return nil
}
