package gamedb

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestTopKKeepsTies checks that topK with keepTies keeps, besides the k
// first values, every value equal to the k-th (so that an order the
// comparison leaves open can be settled among all of them), and nothing
// worse.
func TestTopKKeepsTies(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 200; trial++ {
		n, k := 1+rng.IntN(300), 1+rng.IntN(50)
		vals := make([]int, n)
		for i := range vals {
			vals[i] = rng.IntN(1 + rng.IntN(20)) // many ties
		}
		top := &topK[int]{k: k, keepTies: true, cmp: func(a, b int) int { return a - b }}
		for _, v := range vals {
			top.push(v)
		}
		got := top.sorted()
		want := slices.Clone(vals)
		slices.Sort(want)
		if k < n {
			last := want[k-1]
			i := k
			for i < n && want[i] == last {
				i++
			}
			want = want[:i]
		}
		if !slices.Equal(got, want) {
			t.Fatalf("trial %d (n %d, k %d): kept %v, want %v", trial, n, k, got, want)
		}
	}
}
