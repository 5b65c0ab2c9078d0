package merge

import (
	"bytes"
	"context"
	"fmt"

	"github.com/chessbook/chessbook/internal/kway"
	"github.com/chessbook/chessbook/store"
)

// Reading the records of one kind of every source in one merged pass,
// by key (internal/kway).

// recordIters opens an iterator over the records of kind prefix of each
// source's store (of).
func recordIters(sources []*mergeSource, prefix store.Prefix, of func(*mergeSource) *store.Store) ([]*store.RecordIter, error) {
	its := make([]*store.RecordIter, len(sources))
	for i, s := range sources {
		it, err := of(s).NewRecordIter(prefix)
		if err != nil {
			closeIters(its)
			return nil, fmt.Errorf("merge: %s: %w", s.dir, err)
		}
		its[i] = it
	}
	return its, nil
}

func closeIters(its []*store.RecordIter) {
	for _, it := range its {
		if it != nil {
			_ = it.Close()
		}
	}
}

// kwayVal is one source's value of a key in a k-way merge (mergeRecords).
type kwayVal struct {
	src int
	v   []byte
}

// mergeRecords merges the records of its (one iterator per source, in
// source order) by key, calling fn once per key with the value of every
// source holding it, in source order, and closes the iterators. key, if
// not nil, maps a source's key to the key it merges under (appending to
// buf); it must keep each source's keys in order. Keys and values are
// valid during the call only.
func mergeRecords(ctx context.Context, its []*store.RecordIter, key func(src int, buf, k []byte) ([]byte, error),
	fn func(k []byte, vals []kwayVal) error) error {
	defer closeIters(its) // on failure; closed below otherwise
	srcs := make([]kway.Source[[]byte], len(its))
	for i, it := range its {
		srcs[i] = &recordSource{it: it, src: i, key: key}
	}
	// A merge of many stores (the shards of a distributed build) costs
	// log(stores) per record.
	var vals []kwayVal
	err := kway.Groups(ctx, srcs, func(a, b *[]byte) int { return bytes.Compare(*a, *b) }, func(keys [][]byte, group []int) error {
		vals = vals[:0]
		for _, i := range group { // at their records until the next group
			v, err := its[i].Value()
			if err != nil {
				return err
			}
			vals = append(vals, kwayVal{src: i, v: v})
		}
		return fn(keys[0], vals)
	})
	if err != nil {
		return err
	}
	for i, it := range its {
		if err := it.Close(); err != nil {
			its[i] = nil
			return err
		}
		its[i] = nil
	}
	return nil
}

// recordSource is a kway.Source of the keys of a source's records,
// mapped by key if not nil; it keeps the key before for the order check.
type recordSource struct {
	it        *store.RecordIter
	src       int
	key       func(src int, buf, k []byte) ([]byte, error)
	cur, prev []byte
	started   bool
}

func (s *recordSource) Next() ([]byte, bool, error) {
	var ok bool
	if s.started {
		ok = s.it.Next()
	} else {
		ok, s.started = s.it.First(), true
	}
	if !ok {
		return nil, false, nil
	}
	s.cur, s.prev = s.prev[:0], s.cur
	k := s.it.Key()
	if s.key == nil {
		s.cur = append(s.cur, k...)
	} else {
		var err error
		if s.cur, err = s.key(s.src, s.cur, k); err != nil {
			return nil, false, err
		}
	}
	if s.prev != nil && bytes.Compare(s.cur, s.prev) <= 0 {
		return nil, false, fmt.Errorf("records out of order: %x after %x", s.cur, s.prev)
	}
	return s.cur, true, nil
}
