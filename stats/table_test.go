package stats

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/pgn"
)

// resultOf maps 0-3 to the four result counters, in a fixed order.
var resultOf = [4]pgn.Result{pgn.Unknown, pgn.WhiteWins, pgn.Draw, pgn.BlackWins}

// TestTableMatchesEntries adds random games to a Table and to plain Entries
// (the reference) and demands the same encoded entries, in key order.
func TestTableMatchesEntries(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	tab := NewTable(16) // small on purpose: it must grow many times
	want := map[string]*Entry{}
	for i := 0; i < 200000; i++ {
		key := []byte(fmt.Sprintf("pos%05d", rng.IntN(3000)))[:3+rng.IntN(6)]
		m := board.Move(rng.IntN(8) + 1)
		r := resultOf[rng.IntN(4)]
		rating := 0
		if rng.IntN(3) > 0 {
			rating = 1000 + rng.IntN(2000)
		}
		d := Date(0)
		if rng.IntN(4) > 0 {
			d = NewDate(1850+rng.IntN(170), rng.IntN(13), rng.IntN(32))
		}
		tab.Add(key, m, r, rating, d)
		e := want[string(key)]
		if e == nil {
			e = &Entry{}
			want[string(key)] = e
		}
		e.Add(m, r, rating, d)
	}
	var prev []byte
	n := 0
	err := tab.Flush(func(key, enc []byte) error {
		if prev != nil && bytes.Compare(prev, key) >= 0 {
			t.Fatalf("keys out of order: %q then %q", prev, key)
		}
		prev = append(prev[:0], key...)
		w := want[string(key)]
		if w == nil {
			t.Fatalf("unexpected key %q", key)
		}
		if got := w.AppendEncode(nil); !bytes.Equal(got, enc) {
			got, _ := Decode(enc)
			t.Fatalf("key %q: table gives %+v, want %+v", key, got, *w)
		}
		n++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n != len(want) {
		t.Fatalf("flushed %d positions, want %d", n, len(want))
	}
	if tab.Len() != 0 {
		t.Fatalf("Len after Flush = %d", tab.Len())
	}
	// Reused after a flush, it starts from empty.
	tab.Add([]byte("x"), 1, pgn.Draw, 0, 0)
	tab.Add([]byte("x"), 1, pgn.Draw, 0, 0)
	_ = tab.Flush(func(key, enc []byte) error {
		e, err := Decode(enc)
		if err != nil || string(key) != "x" || len(e.Moves) != 1 || e.Moves[0].Draws != 2 {
			t.Fatalf("after reuse: %q %+v %v", key, e, err)
		}
		return nil
	})
}

func BenchmarkTableAdd(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	keys := make([][]byte, 1<<16)
	for i := range keys {
		k := make([]byte, 12)
		for j := range k {
			k[j] = byte(rng.Uint32())
		}
		keys[i] = k
	}
	tab := NewTable(1 << 20)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		tab.Add(keys[i&(1<<16-1)], board.Move(i&7+1), pgn.Draw, 2500, 20200101)
		if tab.Len() >= 1<<20 {
			tab.Reset()
		}
	}
}
