package gamecode

import (
	"math/bits"
	"testing"
)

// TestReciprocal checks the division by multiplication of the static
// models against plain division.
func TestReciprocal(t *testing.T) {
	ds := []uint32{2, 3, 7, 10, 60000, 65535, 65536, 1 << 20, 1<<32 - 1}
	ms := staticModels
	ds = append(ds, ms.count.cum[len(ms.count.cum)-1], ms.name.cum[len(ms.name.cum)-1])
	for i := range ms.text {
		for j := range ms.text[i] {
			ds = append(ds, ms.text[i][j].cum[len(ms.text[i][j].cum)-1])
		}
	}
	ns := []uint32{0, 1, 2, rcTop - 1, rcTop, rcTop + 1, 1<<31 - 1, 1 << 31, 1<<32 - 2, 1<<32 - 1}
	for x := uint64(12345); len(ns) < 10000; x = x*6364136223846793005 + 1442695040888963407 {
		ns = append(ns, uint32(x>>32))
	}
	for _, d := range ds {
		r := reciprocal(d)
		for _, n := range ns {
			if q, _ := bits.Mul64(r, uint64(n)); q != uint64(n/d) {
				t.Fatalf("%d / %d: %d, want %d", n, d, q, n/d)
			}
		}
	}
}
