package sortedruns

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestMerge: merging increasing runs sorts as slices.Sort does, whatever
// the number and lengths of the runs, and keeps equal elements in order.
func TestMerge(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	type elem struct{ v, order int }
	var scratch []elem
	for _, k := range []int{1, 2, 3, 5, 8, 17} {
		var v []elem
		var ends []int
		for range k {
			run := make([]elem, rng.IntN(40))
			for i := range run {
				run[i] = elem{v: rng.IntN(50)}
			}
			slices.SortFunc(run, func(a, b elem) int { return cmp.Compare(a.v, b.v) })
			v = append(v, run...)
			ends = append(ends, len(v))
		}
		for i := range v {
			v[i].order = i
		}
		want := slices.Clone(v)
		slices.SortStableFunc(want, func(a, b elem) int { return cmp.Compare(a.v, b.v) })
		var got []elem
		got, scratch = Merge(v, ends, scratch, func(a, b *elem) int { return cmp.Compare(a.v, b.v) })
		if !slices.Equal(got, want) {
			t.Fatalf("%d runs: got %v, want %v", k, got, want)
		}
	}
}
