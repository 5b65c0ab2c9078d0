package store

import (
	"errors"
	"fmt"

	"github.com/chessbook/chessbook/stats"
	"github.com/cockroachdb/pebble/v2"
)

// This file reads the statistics records ('p'): the positions that
// several games reached, or one game more than once. They are not every
// position of the book: most positions (96% of the 412k-game benchmark's)
// have no statistics record but single references to the game that
// reached them (see the package documentation), whose statistics package
// book rebuilds by replaying the game. A position's statistics are what
// book.Lookup and book.Positions answer; the readers here see only the
// records, for book's readers and for tools that study the store's
// layout.

// StatsRecordInto decodes the statistics record of the position with key
// pos into e, reusing its capacity, and reports whether the position has
// one. A position kept as single references has none (found is false):
// its statistics are what book.Lookup rebuilds. A position with a record
// may have single references too (games of other flushes), which the
// record does not count.
func (s *Store) StatsRecordInto(e *stats.Entry, pos []byte) (found bool, err error) {
	e.Reset()
	if s.closed.Load() {
		return false, ErrClosed
	}
	var kb [64]byte
	raw, closer, err := s.db.Get(positionKey(kb[:0], pos))
	if errors.Is(err, pebble.ErrNotFound) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("get position %x: %w", pos, err)
	}
	defer closer.Close()
	if err := stats.DecodeInto(e, raw); err != nil {
		return false, fmt.Errorf("get position %x: %w", pos, err)
	}
	return true, nil
}

// StatsIter iterates over the statistics records of the store (not every
// position: see [Store.StatsRecordInto]) in the byte order of their
// position keys. It reads a consistent snapshot of the store taken when
// it was created. A StatsIter is for one goroutine; Close it when done.
//
//	it, err := s.NewStatsIter()
//	...
//	var e stats.Entry
//	for ok := it.First(); ok; ok = it.Next() {
//		err := it.EntryInto(&e)
//		...
//	}
//	if err := it.Close(); err != nil { ... }
type StatsIter struct {
	it *pebble.Iterator
}

// NewStatsIter returns an iterator over the statistics records, not yet
// positioned: call First or SeekGE.
func (s *Store) NewStatsIter() (*StatsIter, error) {
	if s.closed.Load() {
		return nil, ErrClosed
	}
	lower, upper := positionBounds()
	it, err := s.db.NewIter(&pebble.IterOptions{LowerBound: lower, UpperBound: upper})
	if err != nil {
		return nil, fmt.Errorf("store: new iterator: %w", err)
	}
	return &StatsIter{it: it}, nil
}

// First moves to the first record and reports whether there is one.
func (i *StatsIter) First() bool { return i.it.First() }

// SeekGE moves to the first record whose position key is at least pos and
// reports whether there is one.
func (i *StatsIter) SeekGE(pos []byte) bool {
	return i.it.SeekGE(positionKey(make([]byte, 0, 1+len(pos)), pos))
}

// Next moves to the next record and reports whether there is one.
func (i *StatsIter) Next() bool { return i.it.Next() }

// Key returns the current record's position key. It is valid until the
// next move of the iterator.
func (i *StatsIter) Key() []byte { return i.it.Key()[1:] }

// EntryInto decodes the current record into e, reusing its capacity.
func (i *StatsIter) EntryInto(e *stats.Entry) error {
	v, err := i.it.ValueAndErr()
	if err != nil {
		return fmt.Errorf("store: position %x: %w", i.Key(), err)
	}
	if err := stats.DecodeInto(e, v); err != nil {
		return fmt.Errorf("store: position %x: %w", i.Key(), err)
	}
	return nil
}

// Close releases the iterator and returns the error that stopped the
// iteration, if any.
func (i *StatsIter) Close() error {
	if err := i.it.Close(); err != nil {
		return fmt.Errorf("store: iterating: %w", err)
	}
	return nil
}

// StatsRecords calls fn with every statistics record (not every position:
// see [Store.StatsRecordInto]; book.Positions lists them all), in key
// order, with the position key and the decoded record. Both are only
// valid during the call (they are reused). It stops at the first error,
// from fn or from the store, and returns it.
func (s *Store) StatsRecords(fn func(pos []byte, e *stats.Entry) error) error {
	it, err := s.NewStatsIter()
	if err != nil {
		return err
	}
	var e stats.Entry
	for ok := it.First(); ok; ok = it.Next() {
		if err := it.EntryInto(&e); err != nil {
			_ = it.Close()
			return err
		}
		if err := fn(it.Key(), &e); err != nil {
			_ = it.Close()
			return err
		}
	}
	return it.Close()
}
