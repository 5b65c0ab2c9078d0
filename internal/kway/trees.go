package kway

import "bytes"

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

// TreeBytes is the tree specialised to byte-string keys, ties to the
// earlier input, for the build's merge of its sorted runs (a hot path:
// bytes.Compare called directly, where a Merger's comparison goes through
// a function value). Node 0 holds the index of the smallest key, nodes
// 1..k-1 the losers of the matches below them, as in Tree64.
//
// The caller owns the keys and the done flags, one per input: it sets
// done[i] at input i's end, and calls Update after changing the winner's
// key or flag. The winner is done only when every input is.
type TreeBytes struct {
	keys [][]byte
	done []bool
	node []int
}

// NewTreeBytes returns the tree of keys and done, one per input (at least
// one).
func NewTreeBytes(keys [][]byte, done []bool) *TreeBytes {
	t := &TreeBytes{keys: keys, done: done, node: make([]int, len(keys))}
	var build func(n int) int
	build = func(n int) int {
		if n >= len(keys) {
			return n - len(keys)
		}
		a, b := build(2*n), build(2*n+1)
		if t.beats(b, a) {
			a, b = b, a
		}
		t.node[n] = b
		return a
	}
	t.node[0] = build(1)
	return t
}

// beats reports whether input a's key comes before input b's: a live
// input before a done one, then by key, then by index.
func (t *TreeBytes) beats(a, b int) bool {
	if t.done[a] || t.done[b] {
		return !t.done[a]
	}
	if c := bytes.Compare(t.keys[a], t.keys[b]); c != 0 {
		return c < 0
	}
	return a < b
}

// Winner returns the index of the smallest key (done if every input is).
func (t *TreeBytes) Winner() int { return t.node[0] }

// Update restores the tree after the key or flag of w, the winner,
// changed.
func (t *TreeBytes) Update(w int) {
	for n := (w + len(t.keys)) / 2; n >= 1; n /= 2 {
		if l := t.node[n]; t.beats(l, w) {
			t.node[n], w = w, l
		}
	}
	t.node[0] = w
}
