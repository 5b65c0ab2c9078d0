package store

import (
	"fmt"

	"github.com/chessbook/chessbook/stats"
	"github.com/cockroachdb/pebble/v2"
)

// Iter iterates over the positions of the store in the byte order of their
// keys. It reads a consistent snapshot of the store taken when it was
// created. An Iter is for one goroutine; Close it when done.
//
//	it, err := s.NewIter()
//	...
//	for ok := it.First(); ok; ok = it.Next() {
//		e, err := it.Entry()
//		...
//	}
//	if err := it.Close(); err != nil { ... }
type Iter struct {
	it *pebble.Iterator
}

// NewIter returns an iterator over all positions, not yet positioned: call
// First or SeekGE.
func (s *Store) NewIter() (*Iter, error) {
	if s.closed.Load() {
		return nil, ErrClosed
	}
	lower, upper := positionBounds()
	it, err := s.db.NewIter(&pebble.IterOptions{LowerBound: lower, UpperBound: upper})
	if err != nil {
		return nil, fmt.Errorf("store: new iterator: %w", err)
	}
	return &Iter{it: it}, nil
}

// First moves to the first position and reports whether there is one.
func (i *Iter) First() bool { return i.it.First() }

// SeekGE moves to the first position whose key is at least pos and reports
// whether there is one.
func (i *Iter) SeekGE(pos []byte) bool {
	return i.it.SeekGE(positionKey(make([]byte, 0, 1+len(pos)), pos))
}

// Next moves to the next position and reports whether there is one.
func (i *Iter) Next() bool { return i.it.Next() }

// Valid reports whether the iterator is at a position.
func (i *Iter) Valid() bool { return i.it.Valid() }

// Key returns the current position key. It is valid until the next move of
// the iterator.
func (i *Iter) Key() []byte { return i.it.Key()[1:] }

// Value returns the current position's encoded stats.Entry. It is valid
// until the next move of the iterator.
func (i *Iter) Value() ([]byte, error) {
	v, err := i.it.ValueAndErr()
	if err != nil {
		return nil, fmt.Errorf("store: position %x: %w", i.Key(), err)
	}
	return v, nil
}

// Entry returns the current position's entry, decoded.
func (i *Iter) Entry() (stats.Entry, error) {
	var e stats.Entry
	err := i.EntryInto(&e)
	return e, err
}

// EntryInto decodes the current position's entry into e, reusing its
// capacity.
func (i *Iter) EntryInto(e *stats.Entry) error {
	v, err := i.Value()
	if err != nil {
		return err
	}
	if err := stats.DecodeInto(e, v); err != nil {
		return fmt.Errorf("store: position %x: %w", i.Key(), err)
	}
	return nil
}

// Error returns the error that stopped the iteration, if any.
func (i *Iter) Error() error {
	if err := i.it.Error(); err != nil {
		return fmt.Errorf("store: iterating: %w", err)
	}
	return nil
}

// Close releases the iterator and returns the error that stopped the
// iteration, if any.
func (i *Iter) Close() error {
	if err := i.it.Close(); err != nil {
		return fmt.Errorf("store: iterating: %w", err)
	}
	return nil
}

// Positions calls fn for every position in the store, in key order, with
// the position key and its decoded entry. Both are only valid during the
// call (they are reused). It stops at the first error, from fn or from the
// store, and returns it.
func (s *Store) Positions(fn func(pos []byte, e *stats.Entry) error) error {
	it, err := s.NewIter()
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
