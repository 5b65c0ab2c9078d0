package kway

import "context"

// Source is one sorted input of a merge.
type Source[T any] interface {
	// Next returns the source's next item (its first on the first call);
	// ok is false after the last. Items must come in the merge's order
	// (equal items allowed); the merger does not check it. An item may
	// point into the source's buffers, which the source may reuse at the
	// following call: the merger asks a source for its next item only
	// once the caller is done with the current one.
	Next() (item T, ok bool, err error)
}

// source states in a Merger.
const (
	live  = iota // at an item, in the tree
	taken        // its item taken by NextGroup, out of the tree until its source moves on
	done         // at its end
)

// Merger merges sorted sources in the order of cmp, ties to the earlier
// source. The zero Merger is not usable; see New.
//
// The sources are the leaves of a tournament tree in heap numbering
// (source i is node k+i, node n's children are 2n and 2n+1) whose inner
// nodes hold the winner of their subtree, node 1 the smallest of all: a
// change to any source's item is replayed up its path with one comparison
// per level, against the sibling's winner.
type Merger[T any] struct {
	srcs  []Source[T]
	cmp   func(a, b *T) int
	cur   []T     // each source's current item
	state []uint8 // live, taken or done
	node  []int   // node[n], n in [1, 2k): the winner of the subtree at n
	last  int     // the source whose item Next returned last (-1: none)
	items []T     // the items NextGroup returned last
	group []int   // and their sources
}

// New reads the first item of every source and returns their merger. The
// sources stay the caller's (to close).
func New[T any](srcs []Source[T], cmp func(a, b *T) int) (*Merger[T], error) {
	k := len(srcs)
	m := &Merger[T]{srcs: srcs, cmp: cmp, cur: make([]T, k), state: make([]uint8, k), node: make([]int, 2*k), last: -1}
	for i, s := range srcs {
		item, ok, err := s.Next()
		if err != nil {
			return nil, err
		}
		if ok {
			m.cur[i] = item
		} else {
			m.state[i] = done
		}
		m.node[k+i] = i
	}
	for n := k - 1; n >= 1; n-- {
		a, b := m.node[2*n], m.node[2*n+1]
		if m.beats(b, a) {
			a = b
		}
		m.node[n] = a
	}
	return m, nil
}

// beats reports whether source a's item comes before source b's: a live
// source before one that is not, then by cmp, then by source.
func (m *Merger[T]) beats(a, b int) bool {
	if m.state[a]|m.state[b] != live {
		return m.state[a] == live
	}
	if c := m.cmp(&m.cur[a], &m.cur[b]); c != 0 {
		return c < 0
	}
	return a < b
}

// replay restores the tree after the item (or state) of source i changed.
func (m *Merger[T]) replay(i int) {
	node := m.node
	for p := i + len(m.srcs); p > 1; p >>= 1 {
		a, b := node[p], node[p^1]
		if p&1 == 1 { // a is the right child: b comes first in ties
			a, b = b, a
		}
		if m.beats(b, a) {
			a = b
		}
		node[p>>1] = a
	}
}

// winner returns the source of the smallest item, -1 if none is left.
func (m *Merger[T]) winner() int {
	switch len(m.srcs) {
	case 0:
		return -1
	case 1:
		if m.state[0] != live {
			return -1
		}
		return 0
	}
	w := m.node[1]
	if m.state[w] != live {
		return -1
	}
	return w
}

// advance reads source i's next item (i the winner, or taken) and puts
// it back in the tree.
func (m *Merger[T]) advance(i int) error {
	item, ok, err := m.srcs[i].Next()
	if err != nil {
		m.state[i] = done
		m.replay(i)
		return err
	}
	if ok {
		m.cur[i], m.state[i] = item, live
	} else {
		var zero T
		m.cur[i], m.state[i] = zero, done
	}
	m.replay(i)
	return nil
}

// Next returns the smallest item left and its source, or nil after the
// last. The item is valid until the next call (its source moves on then).
func (m *Merger[T]) Next() (*T, int, error) {
	if err := m.release(); err != nil {
		return nil, -1, err
	}
	if m.last >= 0 {
		err := m.advance(m.last)
		m.last = -1
		if err != nil {
			return nil, -1, err
		}
	}
	w := m.winner()
	if w < 0 {
		return nil, -1, nil
	}
	m.last = w
	return &m.cur[w], w, nil
}

// NextGroup returns the smallest item left and the items equal to it
// (cmp 0) of the other sources, in source order, with their sources, or
// nothing after the last: each source at most once (an item equal to its
// source's previous one comes in the next group). The slices and the
// items are valid until the next call: the group's sources move on then.
// Taking an item out of the tree and putting its source's next one back
// are a replay each.
func (m *Merger[T]) NextGroup() ([]T, []int, error) {
	if m.last >= 0 {
		err := m.advance(m.last)
		m.last = -1
		if err != nil {
			return nil, nil, err
		}
	}
	if err := m.release(); err != nil {
		return nil, nil, err
	}
	w := m.winner()
	if w < 0 {
		return nil, nil, nil
	}
	for n := w; n >= 0 && (n == w || m.cmp(&m.cur[n], &m.cur[w]) == 0); n = m.winner() {
		m.items = append(m.items, m.cur[n])
		m.group = append(m.group, n)
		m.state[n] = taken
		m.replay(n)
	}
	return m.items, m.group, nil
}

// release moves the sources of the last group on.
func (m *Merger[T]) release() error {
	group := m.group
	m.items, m.group = m.items[:0], m.group[:0]
	for g, i := range group {
		if err := m.advance(i); err != nil {
			for _, j := range group[g+1:] {
				m.state[j] = done
			}
			return err
		}
	}
	return nil
}

// checkEvery is how many items Each and Groups take between checks of
// their context.
const checkEvery = 4096

// Each merges srcs in the order of cmp (ties to the earlier source) and
// calls fn with every item and its source, stopping at fn's first error,
// a source's, or ctx's end (checked every 4096 items). The item is valid
// during the call only.
func Each[T any](ctx context.Context, srcs []Source[T], cmp func(a, b *T) int, fn func(item *T, src int) error) error {
	m, err := New(srcs, cmp)
	if err != nil {
		return err
	}
	for n := 0; ; n++ {
		if n%checkEvery == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		item, src, err := m.Next()
		if err != nil {
			return err
		}
		if item == nil {
			return nil
		}
		if err := fn(item, src); err != nil {
			return err
		}
	}
}

// Groups merges srcs in the order of cmp and calls fn once per group of
// equal items (cmp 0; see NextGroup) with the items and their sources, in
// source order, stopping at fn's first error, a source's, or ctx's end
// (checked every 4096 groups). The slices and items are valid during the
// call only.
func Groups[T any](ctx context.Context, srcs []Source[T], cmp func(a, b *T) int, fn func(items []T, srcs []int) error) error {
	m, err := New(srcs, cmp)
	if err != nil {
		return err
	}
	for n := 0; ; n++ {
		if n%checkEvery == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		items, group, err := m.NextGroup()
		if err != nil {
			return err
		}
		if len(group) == 0 {
			return nil
		}
		if err := fn(items, group); err != nil {
			return err
		}
	}
}

// Slice returns a Source of the items of s, which must be sorted.
func Slice[T any](s []T) Source[T] { return &sliceSource[T]{s: s} }

type sliceSource[T any] struct{ s []T }

func (s *sliceSource[T]) Next() (T, bool, error) {
	if len(s.s) == 0 {
		var zero T
		return zero, false, nil
	}
	item := s.s[0]
	s.s = s.s[1:]
	return item, true, nil
}
