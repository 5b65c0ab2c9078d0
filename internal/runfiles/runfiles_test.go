package runfiles

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/pgn"
	"github.com/chessbook/chessbook/stats"
	"github.com/chessbook/chessbook/store"
)

func openScratchStore(t *testing.T) *store.Store {
	t.Helper()
	st, err := store.Open(t.TempDir(), store.Options{Meta: &store.Meta{CountMode: store.CountGame}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// TestMergeRuns: merging the sections of several runs gives every key
// once, in order, with the entries of a key found in several runs merged
// (compared with stats.Entry.Merge), and the single references of runs
// whose game numbers interleave in (hash, number) order.
func TestMergeRuns(t *testing.T) {
	st := openScratchStore(t)
	rng := rand.New(rand.NewPCG(1, 2))
	want := map[string]stats.Entry{}
	var runs []*Run
	type ref struct {
		h   uint32
		num uint64
	}
	var wantRefs []ref
	bases := []uint64{500, 1, 9000} // runs are not in number order
	for _, base := range bases {
		w := NewWriter(st)
		keys := map[string]bool{}
		for len(keys) < 200 {
			keys[fmt.Sprintf("pos%03d", rng.IntN(300))] = true
		}
		sorted := slices.Sorted(func(yield func(string) bool) {
			for k := range keys {
				if !yield(k) {
					return
				}
			}
		})
		for _, k := range sorted {
			var e stats.Entry
			e.Moves = append(e.Moves, stats.MoveEntry{Move: board.Move(1 + rng.IntN(3))})
			e.Moves[0].MoveStats.Add(pgn.Result(1+rng.IntN(3)), 2000+rng.IntN(500), 0)
			old := want[k]
			old.Merge(e)
			want[k] = old
			val := binary.BigEndian.AppendUint32(nil, 7)
			val = e.AppendEncode(val)
			if err := w.Add(Positions, []byte(k), val); err != nil {
				t.Fatal(err)
			}
		}
		var packed []uint64
		for local := uint64(0); local < 300; local++ {
			h := uint32(rng.IntN(40)) << 20 // few hashes: many equal across runs
			packed = append(packed, uint64(h)<<32|local)
			wantRefs = append(wantRefs, ref{h, base + local})
		}
		slices.Sort(packed)
		if err := w.AddSingles(packed, base); err != nil {
			t.Fatal(err)
		}
		r, err := w.Finish()
		if err != nil {
			t.Fatal(err)
		}
		runs = append(runs, r)
	}
	var gotKeys []string
	err := MergeSection(st, runs, Positions, Pairwise(MergePositionValues), func(k, v []byte) error {
		gotKeys = append(gotKeys, string(k))
		if binary.BigEndian.Uint32(v) != 7 {
			return fmt.Errorf("key %s: hash %x", k, v[:4])
		}
		e, err := stats.Decode(v[4:])
		if err != nil {
			return err
		}
		if w := want[string(k)]; !e.Equal(w) {
			return fmt.Errorf("key %s: merged %+v, want %+v", k, e, w)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.IsSorted(gotKeys) || len(gotKeys) != len(want) {
		t.Fatalf("merged %d keys (sorted %v), want %d", len(gotKeys), slices.IsSorted(gotKeys), len(want))
	}
	slices.SortFunc(wantRefs, func(a, b ref) int {
		if c := cmp.Compare(a.h, b.h); c != 0 {
			return c
		}
		return cmp.Compare(a.num, b.num)
	})
	var gotRefs []ref
	if err := MergeRefs(st, runs, func(h uint32, num uint64) error {
		gotRefs = append(gotRefs, ref{h, num})
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(gotRefs, wantRefs) {
		t.Fatalf("merged %d references, want %d, or out of order", len(gotRefs), len(wantRefs))
	}

	// A run cut short is an error naming the Section, not a panic.
	path := runs[1].paths[Positions]
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(path, fi.Size()-3); err != nil {
		t.Fatal(err)
	}
	err = MergeSection(st, runs, Positions, Pairwise(MergePositionValues), func(k, v []byte) error { return nil })
	if err == nil || !strings.Contains(err.Error(), "positions") {
		t.Fatalf("truncated run: %v, want an error about the positions", err)
	}
	for _, r := range runs {
		r.Remove(st)
	}
}

// TestLoserTree merges random sorted inputs (1 to 70 of them, some empty)
// with a loserTree and compares with sorting everything.
func TestLoserTree(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for trial := 0; trial < 200; trial++ {
		k := 1 + rng.IntN(70)
		inputs := make([][]uint64, k)
		var want []uint64
		for i := range inputs {
			for range rng.IntN(40) {
				// Distinct keys: the input's index in the low bits.
				inputs[i] = append(inputs[i], uint64(rng.IntN(1000))<<8|uint64(i))
			}
			slices.Sort(inputs[i])
			want = append(want, inputs[i]...)
		}
		slices.Sort(want)
		keys := make([]uint64, k)
		pos := make([]int, k)
		key := func(i int) uint64 {
			if pos[i] == len(inputs[i]) {
				return ^uint64(0)
			}
			return inputs[i][pos[i]]
		}
		for i := range keys {
			keys[i] = key(i)
		}
		lt := newLoserTree(keys)
		var got []uint64
		for w := lt.winner(); keys[w] != ^uint64(0); w = lt.winner() {
			got = append(got, keys[w])
			pos[w]++
			keys[w] = key(w)
			lt.update(w)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("trial %d, %d inputs: merged %v, want %v", trial, k, got, want)
		}
	}
}
