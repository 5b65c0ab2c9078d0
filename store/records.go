package store

import (
	"fmt"

	"github.com/cockroachdb/pebble/v2"
)

// RecordIter iterates over the records of one kind (the key prefix of the
// key schema: 'p', 'q', 'x', ...) of a store, in key order, each with its
// value as the store reads it (a MERGE record's operands merged): what
// a record-level copy of a store (merge.Run) reads. Keys are given
// without the prefix; keys and values are valid until the next move.
type RecordIter struct {
	it *pebble.Iterator
}

// NewRecordIter returns an iterator over the records of kind prefix. The
// caller closes it.
func (s *Store) NewRecordIter(prefix byte) (*RecordIter, error) {
	if s.closed.Load() {
		return nil, ErrClosed
	}
	it, err := s.db.NewIter(&pebble.IterOptions{LowerBound: []byte{prefix}, UpperBound: []byte{prefix + 1}})
	if err != nil {
		return nil, fmt.Errorf("iterating %q records: %w", prefix, err)
	}
	return &RecordIter{it: it}, nil
}

// First moves to the first record; it reports whether there is one.
func (i *RecordIter) First() bool { return i.it.First() }

// Last moves to the last record; it reports whether there is one.
func (i *RecordIter) Last() bool { return i.it.Last() }

// Next moves to the next record; it reports whether there is one.
func (i *RecordIter) Next() bool { return i.it.Next() }

// Valid reports whether the iterator is at a record.
func (i *RecordIter) Valid() bool { return i.it.Valid() }

// Key returns the current record's key, without its prefix.
func (i *RecordIter) Key() []byte { return i.it.Key()[1:] }

// Value returns the current record's value.
func (i *RecordIter) Value() ([]byte, error) {
	v, err := i.it.ValueAndErr()
	if err != nil {
		return nil, fmt.Errorf("reading %x: %w", i.it.Key(), err)
	}
	return v, nil
}

// Close closes the iterator, returning the iteration's error if any.
func (i *RecordIter) Close() error { return i.it.Close() }

// DecodeSingles calls fn with every single reference of the 'q' record
// whose key (without its prefix: the 3 bytes of the bucket) is key and
// whose value is v, in (hash, number) order, until fn returns false.
func DecodeSingles(key, v []byte, fn func(SingleRef) bool) error {
	b, err := bucketOf(append([]byte{prefixSingle}, key...))
	if err != nil {
		return err
	}
	if err := decodeSingles(b, v, fn); err != nil {
		return fmt.Errorf("single references %x: %w", key, err)
	}
	return nil
}

// DecodeGameNumber decodes the value of an 'n' record (see
// [SSTWriter.SetGameNumber]): the game's id and its first-seen stamp (0:
// none).
func DecodeGameNumber(num uint64, v []byte) (GameID, uint64, error) {
	return decodeNumber(num, v)
}
