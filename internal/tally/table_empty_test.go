package tally

import (
	"testing"

	"github.com/chessbook/chessbook/pgn"
)

// TestFlushEmpty: flushing a Table with no records (the builder does, for a
// batch of games without moves) emits nothing and does not panic; the
// Table works normally afterwards.
func TestFlushEmpty(t *testing.T) {
	tab := NewTable(16)
	for range 2 {
		calls := 0
		if err := tab.Flush(func(key, enc []byte) error { calls++; return nil }); err != nil || calls != 0 {
			t.Fatalf("empty Flush: %d calls, %v", calls, err)
		}
	}
	tab.Add([]byte{1, 2, 3}, 5, pgn.Draw, 2000, 0)
	calls := 0
	if err := tab.Flush(func(key, enc []byte) error { calls++; return nil }); err != nil || calls != 1 {
		t.Fatalf("Flush after an empty one: %d calls, %v", calls, err)
	}
}
