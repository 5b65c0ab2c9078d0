package kway

import (
	"math/rand/v2"
	"slices"
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
