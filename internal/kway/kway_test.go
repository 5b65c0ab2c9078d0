package kway

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"
)

// item is a test item: a key, and where it came from.
type item struct {
	key      int
	src, pos int
}

func cmpKey(a, b *item) int { return cmp.Compare(a.key, b.key) }

// randomSources returns k sorted sources of random lengths (some empty)
// with keys in [0, keys), and all their items.
func randomSources(rng *rand.Rand, k, maxLen, keys int) ([][]item, []item) {
	srcs := make([][]item, k)
	var all []item
	for i := range srcs {
		n := rng.IntN(maxLen + 1)
		if rng.IntN(5) == 0 {
			n = 0
		}
		for range n {
			srcs[i] = append(srcs[i], item{key: rng.IntN(keys)})
		}
		slices.SortFunc(srcs[i], func(a, b item) int { return cmp.Compare(a.key, b.key) })
		for p := range srcs[i] {
			srcs[i][p].src, srcs[i][p].pos = i, p
		}
		all = append(all, srcs[i]...)
	}
	return srcs, all
}

func sources(srcs [][]item) []Source[item] {
	out := make([]Source[item], len(srcs))
	for i, s := range srcs {
		out[i] = Slice(s)
	}
	return out
}

// wantOrder sorts all as the merge must: by key, then source, then place
// in the source.
func wantOrder(all []item) []item {
	want := slices.Clone(all)
	sort.Slice(want, func(i, j int) bool {
		a, b := want[i], want[j]
		if a.key != b.key {
			return a.key < b.key
		}
		if a.src != b.src {
			return a.src < b.src
		}
		return a.pos < b.pos
	})
	return want
}

// TestEach: random sorted sources (0 to 40 of them, some empty, many
// equal keys within and across sources) merge into the order of
// sort.Slice by (key, source, place), each item with its source.
func TestEach(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 500 {
		k := rng.IntN(41)
		srcs, all := randomSources(rng, k, 30, 1+rng.IntN(60))
		var got []item
		err := Each(context.Background(), sources(srcs), cmpKey, func(it *item, src int) error {
			if it.src != src {
				return fmt.Errorf("item of source %d given as source %d's", it.src, src)
			}
			got = append(got, *it)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if want := wantOrder(all); !slices.Equal(got, want) {
			t.Fatalf("trial %d, %d sources: merged\n%v\nwant\n%v", trial, k, got, want)
		}
	}
}

// TestGroups: the same sources merged by groups give each key once, with
// the items of every source holding it in source order; with keys
// repeated within sources, a group ends where its source repeats.
func TestGroups(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := range 500 {
		k := rng.IntN(41)
		// Distinct keys within a source (the users' case), many shared.
		srcs, _ := randomSources(rng, k, 30, 1+rng.IntN(60))
		var all []item
		for i := range srcs {
			srcs[i] = slices.CompactFunc(srcs[i], func(a, b item) bool { return a.key == b.key })
			for p := range srcs[i] {
				srcs[i][p].pos = p
			}
			all = append(all, srcs[i]...)
		}
		want := wantOrder(all)
		var got []item
		var keys []int
		err := Groups(context.Background(), sources(srcs), cmpKey, func(items []item, group []int) error {
			if !slices.IsSorted(group) || len(items) != len(group) {
				return fmt.Errorf("group %v not in source order, or %d items", group, len(items))
			}
			keys = append(keys, items[0].key)
			for i, it := range items {
				if it.key != keys[len(keys)-1] || it.src != group[i] {
					return fmt.Errorf("group of %d holds %d of source %d as source %d's", keys[len(keys)-1], it.key, it.src, group[i])
				}
				got = append(got, it)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("trial %d, %d sources: merged\n%v\nwant\n%v", trial, k, got, want)
		}
		wantKeys := make([]int, 0, len(want))
		for _, it := range want {
			wantKeys = append(wantKeys, it.key)
		}
		if wantKeys = slices.Compact(wantKeys); !slices.Equal(keys, wantKeys) {
			t.Fatalf("trial %d: groups of %v, want %v", trial, keys, wantKeys)
		}
	}
	// Repeated keys within sources: every item once, in order, no group
	// holding two items of a source.
	for trial := range 300 {
		srcs, all := randomSources(rng, rng.IntN(12), 30, 8)
		want := wantOrder(all)
		var got []item
		err := Groups(context.Background(), sources(srcs), cmpKey, func(items []item, group []int) error {
			for i := 1; i < len(group); i++ {
				if group[i] <= group[i-1] || items[i].key != items[0].key {
					return fmt.Errorf("group %v of %v", group, items)
				}
			}
			got = append(got, items...)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		// Merged by key; within a key, groups split where a source repeats.
		for i := 1; i < len(got); i++ {
			if got[i].key < got[i-1].key {
				t.Fatalf("trial %d: %v out of order", trial, got)
			}
		}
		slices.SortFunc(got, func(a, b item) int {
			return cmp.Or(cmp.Compare(a.key, b.key), cmp.Compare(a.src, b.src), cmp.Compare(a.pos, b.pos))
		})
		if !slices.Equal(got, want) {
			t.Fatalf("trial %d: items lost or repeated", trial)
		}
	}
}

// TestMixed: Next and NextGroup may alternate on one merger.
func TestMixed(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for trial := range 200 {
		srcs, all := randomSources(rng, 1+rng.IntN(10), 20, 15)
		want := wantOrder(all)
		m, err := New(sources(srcs), cmpKey)
		if err != nil {
			t.Fatal(err)
		}
		var got []item
		for {
			if rng.IntN(2) == 0 {
				it, _, err := m.Next()
				if err != nil {
					t.Fatal(err)
				}
				if it == nil {
					break
				}
				got = append(got, *it)
				continue
			}
			items, _, err := m.NextGroup()
			if err != nil {
				t.Fatal(err)
			}
			if len(items) == 0 {
				break
			}
			got = append(got, items...)
		}
		// Groups take one item per source: a source's repeated key comes
		// in a later group, so compare as multisets in key order.
		keysOf := func(v []item) []int {
			var k []int
			for _, it := range v {
				k = append(k, it.key)
			}
			return k
		}
		if !slices.Equal(keysOf(got), keysOf(want)) {
			t.Fatalf("trial %d: keys %v, want %v", trial, keysOf(got), keysOf(want))
		}
		slices.SortFunc(got, func(a, b item) int { return cmp.Or(cmp.Compare(a.src, b.src), cmp.Compare(a.pos, b.pos)) })
		slices.SortFunc(all, func(a, b item) int { return cmp.Or(cmp.Compare(a.src, b.src), cmp.Compare(a.pos, b.pos)) })
		if !slices.Equal(got, all) {
			t.Fatalf("trial %d: items lost or repeated", trial)
		}
	}
}

// failing is a source that fails after n items.
type failing struct {
	n   int
	err error
}

func (f *failing) Next() (item, bool, error) {
	if f.n == 0 {
		return item{}, false, f.err
	}
	f.n--
	return item{key: 10 - f.n}, true, nil
}

// TestErrors: a source's error, at its first item or later, a callback's
// error and a cancelled context end the merge with that error.
func TestErrors(t *testing.T) {
	boom := errors.New("boom")
	ok := Slice([]item{{key: 1}, {key: 5}, {key: 20}})
	for _, n := range []int{0, 1, 3} {
		srcs := []Source[item]{Slice([]item{{key: 1}, {key: 5}, {key: 20}}), &failing{n: n, err: boom}}
		if err := Each(context.Background(), srcs, cmpKey, func(*item, int) error { return nil }); !errors.Is(err, boom) {
			t.Errorf("Each, failing after %d: %v", n, err)
		}
		srcs = []Source[item]{Slice([]item{{key: 1}, {key: 5}, {key: 20}}), &failing{n: n, err: boom}}
		if err := Groups(context.Background(), srcs, cmpKey, func([]item, []int) error { return nil }); !errors.Is(err, boom) {
			t.Errorf("Groups, failing after %d: %v", n, err)
		}
	}
	stop := errors.New("stop")
	if err := Each(context.Background(), []Source[item]{ok}, cmpKey, func(*item, int) error { return stop }); err != stop {
		t.Errorf("callback's error: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := Groups(ctx, []Source[item]{Slice([]item{{key: 1}})}, cmpKey, func([]item, []int) error { return nil }); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

// TestEmpty: no sources, or only empty ones, merge to nothing.
func TestEmpty(t *testing.T) {
	for k := range 4 {
		srcs := make([]Source[item], k)
		for i := range srcs {
			srcs[i] = Slice[item](nil)
		}
		m, err := New(srcs, cmpKey)
		if err != nil {
			t.Fatal(err)
		}
		if it, src, err := m.Next(); it != nil || src != -1 || err != nil {
			t.Errorf("%d empty sources: Next gave %v %d %v", k, it, src, err)
		}
		if it, g, err := m.NextGroup(); len(it) != 0 || len(g) != 0 || err != nil {
			t.Errorf("%d empty sources: NextGroup gave %v %v", k, g, err)
		}
	}
}

// TestAllocs: merging allocates nothing per item.
func TestAllocs(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	srcs, all := randomSources(rng, 13, 1000, 50000)
	for _, grouped := range []bool{false, true} {
		m, err := New(sources(srcs), cmpKey)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		allocs := testing.AllocsPerRun(len(all)/2, func() {
			if grouped {
				if _, g, _ := m.NextGroup(); len(g) > 0 {
					n++
				}
			} else if it, _, _ := m.Next(); it != nil {
				n++
			}
		})
		if n < len(all)/2 || allocs != 0 {
			t.Errorf("grouped %v: %v allocations per item over %d items", grouped, allocs, n)
		}
	}
}
