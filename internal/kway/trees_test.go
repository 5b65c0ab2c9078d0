package kway

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestTree64 merges random sorted inputs (1 to 70 of them, some empty)
// with a Tree64 and compares with sorting everything.
func TestTree64(t *testing.T) {
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
		lt := NewTree64(keys)
		var got []uint64
		for w := lt.Winner(); keys[w] != ^uint64(0); w = lt.Winner() {
			got = append(got, keys[w])
			pos[w]++
			keys[w] = key(w)
			lt.Update(w)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("trial %d, %d inputs: merged %v, want %v", trial, k, got, want)
		}
	}
}

// TestTreeBytes merges random sorted inputs of byte strings (1 to 40 of
// them, some empty, many keys equal across inputs) with a TreeBytes and
// compares with a stable sort by key then input.
func TestTreeBytes(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	type rec struct {
		key string
		in  int
	}
	for trial := 0; trial < 300; trial++ {
		k := 1 + rng.IntN(40)
		inputs := make([][]string, k)
		var want []rec
		for i := range inputs {
			for range rng.IntN(30) {
				inputs[i] = append(inputs[i], string(rune('a'+rng.IntN(5)))+string(rune('a'+rng.IntN(5))))
			}
			slices.Sort(inputs[i])
			for _, s := range inputs[i] {
				want = append(want, rec{s, i})
			}
		}
		slices.SortStableFunc(want, func(a, b rec) int {
			if a.key != b.key {
				return strings.Compare(a.key, b.key)
			}
			return a.in - b.in
		})
		keys := make([][]byte, k)
		done := make([]bool, k)
		pos := make([]int, k)
		load := func(i int) {
			if pos[i] == len(inputs[i]) {
				done[i] = true
				return
			}
			keys[i] = []byte(inputs[i][pos[i]])
		}
		for i := range keys {
			load(i)
		}
		tr := NewTreeBytes(keys, done)
		var got []rec
		for w := tr.Winner(); !done[w]; w = tr.Winner() {
			got = append(got, rec{string(keys[w]), w})
			pos[w]++
			load(w)
			tr.Update(w)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("trial %d, %d inputs: merged %v, want %v", trial, k, got, want)
		}
	}
}
