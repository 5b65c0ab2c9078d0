package kway

import (
	"cmp"
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// BenchmarkMerge merges k sorted sources of 1<<16 random items in all,
// one by one (Each) and by groups of equal keys (Groups; the keys are
// distinct, so every group is one item: the cost of taking and putting
// back), and with a Tree64 over the same keys; ns/item is per item.
func BenchmarkMerge(b *testing.B) {
	const total = 1 << 16
	for _, k := range []int{2, 8, 64} {
		rng := rand.New(rand.NewPCG(uint64(k), 1))
		srcs := make([][]uint64, k)
		for range total {
			i := rng.IntN(k)
			srcs[i] = append(srcs[i], rng.Uint64()>>1)
		}
		for i := range srcs {
			slices.Sort(srcs[i])
		}
		cmpU := func(a, b *uint64) int { return cmp.Compare(*a, *b) }
		mk := func() []Source[uint64] {
			out := make([]Source[uint64], k)
			for i := range srcs {
				out[i] = Slice(srcs[i])
			}
			return out
		}
		b.Run(fmt.Sprintf("Each/k=%d", k), func(b *testing.B) {
			for b.Loop() {
				n := 0
				if err := Each(context.Background(), mk(), cmpU, func(*uint64, int) error { n++; return nil }); err != nil || n != total {
					b.Fatal(n, err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/total, "ns/item")
		})
		b.Run(fmt.Sprintf("Tree64/k=%d", k), func(b *testing.B) {
			for b.Loop() {
				// Distinct keys: the input's index in the low bits.
				keys := make([]uint64, k)
				pos := make([]int, k)
				key := func(i int) uint64 {
					if pos[i] == len(srcs[i]) {
						return ^uint64(0)
					}
					return srcs[i][pos[i]]&^63 | uint64(i)
				}
				for i := range keys {
					keys[i] = key(i)
				}
				t := NewTree64(keys)
				n := 0
				for w := t.Winner(); keys[w] != ^uint64(0); w = t.Winner() {
					n++
					pos[w]++
					keys[w] = key(w)
					t.Update(w)
				}
				if n != total {
					b.Fatal(n)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/total, "ns/item")
		})
		b.Run(fmt.Sprintf("Groups/k=%d", k), func(b *testing.B) {
			for b.Loop() {
				n := 0
				if err := Groups(context.Background(), mk(), cmpU, func(items []uint64, g []int) error { n += len(g); return nil }); err != nil || n != total {
					b.Fatal(n, err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/total, "ns/item")
		})
	}
}
