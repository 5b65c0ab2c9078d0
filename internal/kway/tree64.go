package kway

// Tree64 is the merge's tournament tree specialised to distinct uint64
// keys, one per input, for the merge that sees the most items (the
// build's single references): its comparisons are plain integer ones,
// where a Merger's go through a function value and its sources' states.
// Node 0 holds the index of the smallest key, nodes 1..k-1 the losers of
// the matches below them ("loser tree": an update replays only the
// winner's path, against the losers stored on it); the leaves are
// implicit (input i is node i+k).
//
// The caller owns the keys: it sets an exhausted input's key to ^0 (which
// no live key may be) and calls Update after changing the winner's key.
// Equal keys are not allowed: callers make them distinct, e.g. with the
// input's index in their low bits.
type Tree64 struct {
	keys []uint64
	node []int
}

// NewTree64 returns the tree of keys, one per input (at least one).
func NewTree64(keys []uint64) *Tree64 {
	t := &Tree64{keys: keys, node: make([]int, len(keys))}
	var build func(n int) int
	build = func(n int) int {
		if n >= len(keys) {
			return n - len(keys)
		}
		a, b := build(2*n), build(2*n+1)
		if keys[b] < keys[a] {
			a, b = b, a
		}
		t.node[n] = b
		return a
	}
	t.node[0] = build(1)
	return t
}

// Winner returns the index of the smallest key.
func (t *Tree64) Winner() int { return t.node[0] }

// Update restores the tree after the key of w, the winner, changed.
func (t *Tree64) Update(w int) {
	for n := (w + len(t.keys)) / 2; n >= 1; n /= 2 {
		if l := t.node[n]; t.keys[l] < t.keys[w] {
			t.node[n], w = w, l
		}
	}
	t.node[0] = w
}
