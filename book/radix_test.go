package book

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestRadixSort: radixSort sorts as slices.Sort does, whatever bytes the
// values share.
func TestRadixSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var scratch []uint64
	for _, mask := range []uint64{0, 1, 0xff, 0xffff0000ffff, 0xffffffff00000000, ^uint64(0)} {
		for _, n := range []int{0, 1, 2, 100, 5000} {
			v := make([]uint64, n)
			for i := range v {
				v[i] = rng.Uint64()&mask | 0x1200000000000000
			}
			want := slices.Sorted(slices.Values(v))
			scratch = radixSort(v, scratch)
			if !slices.Equal(v, want) {
				t.Fatalf("mask %x, n %d: not sorted", mask, n)
			}
		}
	}
}
