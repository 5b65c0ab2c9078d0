package tally

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/pgn"
	"github.com/chessbook/chessbook/stats"
)

// resultOf maps 0-3 to the four result counters, in a fixed order.
var resultOf = [4]pgn.Result{pgn.Unknown, pgn.WhiteWins, pgn.Draw, pgn.BlackWins}

// TestTableMatchesEntries adds random games to a Table and to plain Entries
// (the reference) and demands the same encoded entries, in key order.
func TestTableMatchesEntries(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	tab := NewTable(16) // small on purpose: it must grow many times
	want := map[string]*stats.Entry{}
	for i := 0; i < 200000; i++ {
		key := []byte(fmt.Sprintf("pos%05d", rng.IntN(3000)))[:3+rng.IntN(6)]
		m := board.Move(rng.IntN(8) + 1)
		r := resultOf[rng.IntN(4)]
		rating := 0
		if rng.IntN(3) > 0 {
			rating = 1000 + rng.IntN(2000)
		}
		d := stats.Date(0)
		if rng.IntN(4) > 0 {
			d = stats.NewDate(1850+rng.IntN(170), rng.IntN(13), rng.IntN(32))
		}
		tab.Add(key, m, r, rating, d)
		e := want[string(key)]
		if e == nil {
			e = &stats.Entry{}
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
			got, _ := stats.Decode(enc)
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
		e, err := stats.Decode(enc)
		if err != nil || string(key) != "x" || len(e.Moves) != 1 || e.Moves[0].Draws != 2 {
			t.Fatalf("after reuse: %q %+v %v", key, e, err)
		}
		return nil
	})
}

// randomKeys returns n random 12-byte keys drawn from rng.
func randomKeys(rng *rand.Rand, n int) [][]byte {
	keys := make([][]byte, n)
	for i := range keys {
		k := make([]byte, 12)
		for j := range k {
			k[j] = byte(rng.Uint32())
		}
		keys[i] = k
	}
	return keys
}

func BenchmarkTableAdd(b *testing.B) {
	keys := randomKeys(rand.New(rand.NewPCG(1, 2)), 1<<16)
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

// TestFlushSplit: with a single callback, FlushSplit gives each position
// with one occurrence that has a game, and whose game has no other
// occurrence with the same hash, to single
// (in hash order, with its game's Local), and every other position to
// emit (in key order, with its hash and its entry as Flush would encode
// it), whatever the hashes: several positions share some of them, as
// when hashes collide.
func TestFlushSplit(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	tab := NewTable(64)
	type occ struct {
		key    string
		hash   uint32
		local  uint32
		hasRef bool
		row    stats.HistoryRow
	}
	tab.KeepHistory()
	var all []occ
	hashOf := func(k string) uint32 { return uint32(len(k)) << 24 } // collides a lot
	for g := 0; g < 300; g++ {
		o := stats.Occurrence{Result: resultOf[rng.IntN(4)], MoverRating: 1990 + rng.IntN(3), Ply: g % 7, Local: uint32(g),
			Date: stats.NewDate(2000+rng.IntN(2), rng.IntN(3), 1), Cell: stats.NewCell(stats.Speed(rng.IntN(2)), stats.RatingBand(rng.IntN(2)))}
		if rng.IntN(5) > 0 {
			o.Game = stats.GameRef{ID: uint64(g + 1)}
		}
		for p := 0; p < 1+rng.IntN(3); p++ {
			key := fmt.Sprintf("k%d", rng.IntN(400))
			o.Hash = hashOf(key)
			m := board.Move(1 + rng.IntN(2))
			tab.AddOccurrence([]byte(key), m, &o)
			row := stats.HistoryRow{Period: stats.PeriodOf(o.Date), Move: m, Cell: o.Cell}
			row.Add(o.Result, o.MoverRating)
			all = append(all, occ{key, o.Hash, o.Local, o.Game.ID != 0, row})
		}
	}
	count := map[string]int{}
	sameHash := map[[2]uint32]int{} // (hash, game) -> occurrences
	for _, o := range all {
		count[o.key]++
		sameHash[[2]uint32{o.hash, o.local}]++
	}
	wantSingles := map[[2]uint32]int{}
	nSingles := 0
	wantEmit := map[string]bool{}
	for _, o := range all {
		if count[o.key] == 1 && sameHash[[2]uint32{o.hash, o.local}] == 1 && o.hasRef {
			wantSingles[[2]uint32{o.hash, o.local}]++
			nSingles++
		} else {
			wantEmit[o.key] = true
		}
	}
	var lastKey string
	var lastHash uint32
	gotEmit, gotSingles := 0, 0
	wantRows := map[string]map[[3]int]stats.CellStats{}
	for _, o := range all {
		if wantEmit[o.key] {
			if wantRows[o.key] == nil {
				wantRows[o.key] = map[[3]int]stats.CellStats{}
			}
			k := [3]int{int(o.row.Period), int(o.row.Move), int(o.row.Cell)}
			s := wantRows[o.key][k]
			s.Merge(o.row.CellStats)
			wantRows[o.key][k] = s
		}
	}
	err := tab.FlushSplit(func(key []byte, hash uint32, enc, hist []byte) error {
		if !wantEmit[string(key)] || string(key) <= lastKey || hash != hashOf(string(key)) {
			return fmt.Errorf("emit %q (hash %x) after %q: not expected", key, hash, lastKey)
		}
		if _, err := stats.Decode(enc); err != nil {
			return err
		}
		h, err := stats.DecodeHistory(nil, hist)
		if err != nil || len(h) != len(wantRows[string(key)]) {
			return fmt.Errorf("emit %q: history of %d rows (%v), want %d", key, len(h), err, len(wantRows[string(key)]))
		}
		for _, r := range h {
			if w := wantRows[string(key)][[3]int{int(r.Period), int(r.Move), int(r.Cell)}]; w != r.CellStats {
				return fmt.Errorf("emit %q: history row %+v, want %+v", key, r, w)
			}
		}
		lastKey = string(key)
		gotEmit++
		return nil
	}, func(hash, local uint32) error {
		if wantSingles[[2]uint32{hash, local}] == 0 || hash < lastHash {
			return fmt.Errorf("single %x game %d: not expected, or after hash %x", hash, local, lastHash)
		}
		lastHash = hash
		wantSingles[[2]uint32{hash, local}]--
		gotSingles++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if gotEmit != len(wantEmit) || gotSingles != nSingles || gotSingles == 0 {
		t.Fatalf("%d positions emitted and %d singles, want %d and %d", gotEmit, gotSingles, len(wantEmit), nSingles)
	}
}

// BenchmarkFlush adds 2^20 occurrences of 2^15 positions, each with its
// game, date and cell, and flushes them with their histories: the
// flush's aggregation, per occurrence.
func BenchmarkFlush(b *testing.B) {
	rng := rand.New(rand.NewPCG(3, 4))
	keys := randomKeys(rng, 1<<15)
	tab := NewTable(1 << 20)
	tab.KeepHistory()
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		for i := range 1 << 20 {
			k := rng.IntN(len(keys))
			o := stats.Occurrence{Result: resultOf[i&3], MoverRating: 1500 + i&511, Date: stats.NewDate(2000+i%20, 1+i%12, 1),
				Ply: i & 63, Seen: uint64(i), Game: stats.GameRef{ID: uint64(i + 1), Rating: uint16(2000 + i&255)},
				Hash: uint32(k), Cell: stats.NewCell(stats.Speed(i%6), stats.RatingBand(i%9))}
			tab.AddOccurrence(keys[k], board.Move(i&7+1), &o)
		}
		err := tab.FlushSplit(func(key []byte, hash uint32, enc, hist []byte) error { return nil }, nil)
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N<<20), "ns/occurrence")
}
