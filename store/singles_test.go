package store

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// bucketRefs returns n distinct random references in bucket b, sorted.
func bucketRefs(rng *rand.Rand, b uint32, n int) []SingleRef {
	set := map[SingleRef]bool{}
	for len(set) < n {
		set[SingleRef{Hash: b<<singleLowBits | uint32(rng.IntN(64)), Game: 1 + uint64(rng.IntN(200))}] = true
	}
	refs := make([]SingleRef, 0, n)
	for r := range set {
		refs = append(refs, r)
	}
	slices.SortFunc(refs, SingleRef.Compare)
	return refs
}

func decodeAll(t *testing.T, b uint32, v []byte) []SingleRef {
	t.Helper()
	var got []SingleRef
	if err := decodeSingles(b, v, func(r SingleRef) bool { got = append(got, r); return true }); err != nil {
		t.Fatalf("decoding %x: %v", v, err)
	}
	return got
}

// TestSinglesEncoding: a bucket's references decode as encoded, and
// encodings that are cut short or not strictly increasing are refused.
func TestSinglesEncoding(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{0, 1, 2, 50, 500} {
		refs := bucketRefs(rng, 77, n)
		v := appendSingles(nil, refs)
		if got := decodeAll(t, 77, v); !slices.Equal(got, refs) {
			t.Fatalf("n=%d: decoded %v, want %v", n, got, refs)
		}
		if n > 0 && validateSingles(v[:len(v)-1]) == nil && v[len(v)-1] != 0 {
			t.Errorf("n=%d: a truncated encoding is accepted", n)
		}
	}
	for _, bad := range [][]byte{
		{0, 0},             // game number 0
		{1, 5, 0, 0},       // the same reference twice
		{0x80},             // cut short
		{0x80, 0x80, 1, 1}, // low bits past the bucket (1 << 14)
	} {
		if validateSingles(bad) == nil {
			t.Errorf("%x accepted", bad)
		}
	}
}

// TestSinglesMerge: the merge operator gives the union of a bucket's
// operands, whatever their number and order, and fails on a corrupt one.
func TestSinglesMerge(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	key := singleKey(nil, 9<<singleLowBits)
	for _, k := range []int{1, 2, 7} {
		var ops [][]byte
		var union []SingleRef
		for range k {
			refs := bucketRefs(rng, 9, 1+rng.IntN(40))
			ops = append(ops, appendSingles(nil, refs))
			union = append(union, refs...)
		}
		slices.SortFunc(union, SingleRef.Compare)
		union = slices.Compact(union)
		vm, err := newMerger().Merge(key, ops[0])
		if err != nil {
			t.Fatal(err)
		}
		for i, op := range ops[1:] {
			if i%2 == 0 {
				err = vm.MergeNewer(op)
			} else {
				err = vm.MergeOlder(op)
			}
			if err != nil {
				t.Fatal(err)
			}
		}
		v, closer, err := vm.Finish(true)
		if err != nil {
			t.Fatal(err)
		}
		if got := decodeAll(t, 9, v); !slices.Equal(got, union) {
			t.Errorf("%d operands: merged %v, want %v", k, got, union)
		}
		if closer != nil {
			closer.Close()
		}
	}
	vm, err := newMerger().Merge(key, appendSingles(nil, bucketRefs(rng, 9, 3)))
	if err != nil {
		t.Fatal(err)
	}
	if err := vm.MergeNewer([]byte{0, 0}); err == nil {
		if _, _, err := vm.Finish(true); err == nil {
			t.Error("a corrupt operand merged")
		}
	}
}
