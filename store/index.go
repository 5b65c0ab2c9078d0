package store

import (
	"context"
	"errors"
	"fmt"

	"github.com/cockroachdb/pebble/v2"
)

// This file holds the game index's records ('x' keys; package gamedb
// defines what is under them): the store writes, reads and merges them
// without looking inside, but for the merge records, which are tallies
// (see tally.go).

// indexKey appends the store key of index key k to dst.
func indexKey(dst, k []byte) []byte {
	dst = append(dst, prefixIndex)
	return append(dst, k...)
}

// SetIndex adds the game index record k -> v (k without the store's
// 'x' prefix), a SET, to the sstable. Index records go to a writer of
// their own (their key range is after every other kind's), in strictly
// increasing key order, each key once.
func (w *SSTWriter) SetIndex(k, v []byte) error {
	return w.addIndex(k, v, false)
}

// MergeIndex adds the game index record k -> v, a MERGE record whose value
// is a tally (see [AppendTally]): it merges with the records of other
// ingestions under the same key, field by field. Keys as for SetIndex.
func (w *SSTWriter) MergeIndex(k, v []byte) error {
	if err := validateTally(v); err != nil {
		return fmt.Errorf("store: sstable index record %q: %w", k, err)
	}
	return w.addIndex(k, v, true)
}

func (w *SSTWriter) addIndex(k, v []byte, merge bool) error {
	if w.done {
		return errSSTDone
	}
	if len(k) == 0 {
		return errors.New("store: sstable index record: empty key")
	}
	w.key = indexKey(w.key[:0], k)
	if err := w.put(w.key, v, merge); err != nil {
		return fmt.Errorf("store: sstable index record %q: %w", k, err)
	}
	return nil
}

// SetGameIndex makes the ingestion set [Meta].GameIndex to version (not
// 0): the store's index then covers every game it holds.
func (w *SSTWriter) SetGameIndex(version int) { w.gameIndex = version }

// ReplaceIndex makes the ingestion replace the store's game index: every
// index record the store holds is deleted, and w's index records added,
// in the one atomic ingestion, so that readers see the old index until
// they see the new one (a reindex).
func (w *SSTWriter) ReplaceIndex() { w.replaceIndex = true }

// ClearIndex deletes every game index record and marks the store as
// having no index ([Meta].GameIndex 0), in one synced write: the store is
// then as an older bookbuild left it (the tests make such stores with it;
// a reindex replaces the index in its ingestion instead, ReplaceIndex).
func (s *Store) ClearIndex() error {
	if s.closed.Load() {
		return ErrClosed
	}
	if s.opts.ReadOnly {
		return ErrReadOnly
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	m := s.meta
	m.GameIndex = 0
	m.Updated = timeNow()
	raw, err := m.marshal()
	if err != nil {
		return err
	}
	b := s.db.NewBatch()
	defer b.Close()
	if err := b.DeleteRange([]byte{prefixIndex}, []byte{prefixIndex + 1}, nil); err != nil {
		return fmt.Errorf("store: clear index: %w", err)
	}
	if err := b.Set([]byte(metaKey), raw, nil); err != nil {
		return fmt.Errorf("store: clear index: %w", err)
	}
	if err := s.db.Apply(b, pebble.Sync); err != nil {
		return fmt.Errorf("store: clear index: %w", err)
	}
	s.meta = m
	return nil
}

// IndexIter iterates over game index records (keys without the store's
// 'x' prefix) in key order, forward or backward, over a consistent
// snapshot of the store taken when it was created. It is for one
// goroutine; Close it when done.
type IndexIter struct {
	it *pebble.Iterator
	kb []byte
}

// NewIndexIter returns an iterator over the index records whose keys are
// in [lower, upper) (upper nil: to the end of the index), not yet
// positioned.
func (s *Store) NewIndexIter(lower, upper []byte) (*IndexIter, error) {
	if s.closed.Load() {
		return nil, ErrClosed
	}
	o := &pebble.IterOptions{LowerBound: indexKey(nil, lower), UpperBound: []byte{prefixIndex + 1}}
	if upper != nil {
		o.UpperBound = indexKey(nil, upper)
	}
	it, err := s.db.NewIter(o)
	if err != nil {
		return nil, fmt.Errorf("store: new index iterator: %w", err)
	}
	return &IndexIter{it: it}, nil
}

// First moves to the first record and reports whether there is one.
func (i *IndexIter) First() bool { return i.it.First() }

// Last moves to the last record and reports whether there is one.
func (i *IndexIter) Last() bool { return i.it.Last() }

// SeekGE moves to the first record whose key is at least k.
func (i *IndexIter) SeekGE(k []byte) bool {
	i.kb = indexKey(i.kb[:0], k)
	return i.it.SeekGE(i.kb)
}

// SeekLT moves to the last record whose key is less than k.
func (i *IndexIter) SeekLT(k []byte) bool {
	i.kb = indexKey(i.kb[:0], k)
	return i.it.SeekLT(i.kb)
}

// Next moves to the next record.
func (i *IndexIter) Next() bool { return i.it.Next() }

// Prev moves to the previous record.
func (i *IndexIter) Prev() bool { return i.it.Prev() }

// Valid reports whether the iterator is at a record.
func (i *IndexIter) Valid() bool { return i.it.Valid() }

// Key returns the current record's key, without the 'x' prefix; valid
// until the iterator moves.
func (i *IndexIter) Key() []byte { return i.it.Key()[1:] }

// Value returns the current record's value (merged); valid until the
// iterator moves.
func (i *IndexIter) Value() ([]byte, error) {
	v, err := i.it.ValueAndErr()
	if err != nil {
		return nil, fmt.Errorf("store: index record %q: %w", i.Key(), err)
	}
	return v, nil
}

// Error returns the error that stopped the iteration, if any.
func (i *IndexIter) Error() error {
	if err := i.it.Error(); err != nil {
		return fmt.Errorf("store: iterating the index: %w", err)
	}
	return nil
}

// Close releases the iterator and returns the error that stopped the
// iteration, if any.
func (i *IndexIter) Close() error {
	if err := i.it.Close(); err != nil {
		return fmt.Errorf("store: iterating the index: %w", err)
	}
	return nil
}

// IndexGet returns a copy of the value of index record k, and whether
// there is one.
func (s *Store) IndexGet(k []byte) ([]byte, bool, error) {
	v, closer, err := s.get("index record", indexKey(nil, k))
	if err != nil || closer == nil {
		return nil, false, err
	}
	out := append([]byte(nil), v...)
	_ = closer.Close()
	return out, true, nil
}

// CompactIndex compacts the game index's key range: after a reindex, the
// records ReplaceIndex or ClearIndex deleted leave the disk (a whole-store Compact would
// rewrite everything else too).
func (s *Store) CompactIndex(ctx context.Context) error {
	if s.closed.Load() {
		return ErrClosed
	}
	if s.opts.ReadOnly {
		return ErrReadOnly
	}
	if err := s.db.Compact(ctx, []byte{prefixIndex}, []byte{prefixIndex + 1}, true); err != nil {
		return fmt.Errorf("compact the index of store %q: %w", s.dir, err)
	}
	return nil
}
