package gamedb

import (
	"math/bits"
	"slices"
)

// Bounded memory. A search's memory does not grow with the games it finds
// or the names its text matches: the posting lists are streamed, the sets
// of game numbers they give are bit sets (numSet: a bit per game number
// of the store, at most), and the page is chosen among the games found by
// keeping the best Offset+Limit of them (topK), at most MaxWindow.

// MaxWindow bounds a search's Offset+Limit (with a Limit): the games kept
// in memory to find a page. Deeper pages are refused (ErrWindow).
const MaxWindow = 100_000

// numSet is a set of game numbers: a bit per number, in pages of
// numSetPage numbers allocated when first used.
type numSet struct {
	pages map[uint64]*[numSetPage / 64]uint64
	n     int
}

const numSetPage = 1 << 16

func newNumSet() *numSet { return &numSet{pages: map[uint64]*[numSetPage / 64]uint64{}} }

// add adds num and reports whether it was not in the set.
func (s *numSet) add(num uint64) bool {
	p := s.pages[num/numSetPage]
	if p == nil {
		p = new([numSetPage / 64]uint64)
		s.pages[num/numSetPage] = p
	}
	w, b := num%numSetPage/64, uint64(1)<<(num%64)
	if p[w]&b != 0 {
		return false
	}
	p[w] |= b
	s.n++
	return true
}

// has reports whether num is in the set.
func (s *numSet) has(num uint64) bool {
	p := s.pages[num/numSetPage]
	return p != nil && p[num%numSetPage/64]&(uint64(1)<<(num%64)) != 0
}

// len returns the number of numbers in the set.
func (s *numSet) len() int { return s.n }

// and keeps in s the numbers that are in o too.
func (s *numSet) and(o *numSet) {
	for k, p := range s.pages {
		q := o.pages[k]
		if q == nil {
			s.n -= countBits(p)
			delete(s.pages, k)
			continue
		}
		for i := range p {
			s.n -= bits.OnesCount64(p[i] &^ q[i])
			p[i] &= q[i]
		}
	}
}

func countBits(p *[numSetPage / 64]uint64) int {
	n := 0
	for _, w := range p {
		n += bits.OnesCount64(w)
	}
	return n
}

// each calls fn with the numbers of the set, in increasing order.
func (s *numSet) each(fn func(num uint64) error) error {
	keys := make([]uint64, 0, len(s.pages))
	for k := range s.pages {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		p := s.pages[k]
		for i, w := range p {
			for w != 0 {
				b := bits.TrailingZeros64(w)
				w &= w - 1
				if err := fn(k*numSetPage + uint64(i)*64 + uint64(b)); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// topK keeps the k first values pushed in the order of cmp (k <= 0: all
// of them), in a heap whose root is the last of those kept.
//
// With keepTies, the values that cmp leaves equal to the last one kept are
// kept as well (in ties, up to MaxWindow of them), so that an order cmp
// leaves open (a search's ties, settled by game id) can be settled among
// every value that could take the last places.
type topK[T any] struct {
	k        int
	cmp      func(a, b T) int
	h        []T
	keepTies bool
	ties     []T
}

// tie keeps v among the values equal to the last one kept.
func (t *topK[T]) tie(v T) {
	if t.keepTies && len(t.ties) < MaxWindow {
		t.ties = append(t.ties, v)
	}
}

// push offers v.
func (t *topK[T]) push(v T) {
	if t.k <= 0 {
		t.h = append(t.h, v)
		return
	}
	if len(t.h) < t.k {
		t.h = append(t.h, v)
		// Sift up: a parent sorts after its children.
		for i := len(t.h) - 1; i > 0; {
			parent := (i - 1) / 2
			if t.cmp(t.h[parent], t.h[i]) >= 0 {
				break
			}
			t.h[parent], t.h[i] = t.h[i], t.h[parent]
			i = parent
		}
		return
	}
	switch c := t.cmp(v, t.h[0]); {
	case c > 0:
		return
	case c == 0:
		t.tie(v)
		return
	}
	old := t.h[0]
	t.h[0] = v
	for i := 0; ; {
		last, l, r := i, 2*i+1, 2*i+2
		if l < len(t.h) && t.cmp(t.h[l], t.h[last]) > 0 {
			last = l
		}
		if r < len(t.h) && t.cmp(t.h[r], t.h[last]) > 0 {
			last = r
		}
		if last == i {
			break
		}
		t.h[i], t.h[last] = t.h[last], t.h[i]
		i = last
	}
	// The values equal to the old last one are still among the last
	// places only if the new last one equals it.
	if t.keepTies {
		if t.cmp(old, t.h[0]) == 0 {
			t.tie(old)
		} else {
			t.ties = t.ties[:0]
		}
	}
}

// sorted returns the values kept, in order.
func (t *topK[T]) sorted() []T {
	t.h = append(t.h, t.ties...)
	t.ties = nil
	slices.SortFunc(t.h, t.cmp)
	return t.h
}
