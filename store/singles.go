package store

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/cespare/xxhash/v2"
	"github.com/cockroachdb/pebble/v2"
)

// This file holds the single references ('q' records; see the package
// documentation): a position reached by a single game is kept as the
// game's id under a hash of the position key, with no statistics record.
// Its statistics are that game's contribution, which the reader (package
// book) rebuilds by replaying the game.

// SingleHash returns the hash of position key pos under which single
// references to it are kept: the high 32 bits of its 64-bit xxHash.
func SingleHash(pos []byte) uint32 { return uint32(xxhash.Sum64(pos) >> 32) }

// singleKey appends the store key of the single reference to game id
// under hash h to dst.
func singleKey(dst []byte, h uint32, id GameID) []byte {
	dst = append(dst, prefixSingle)
	dst = binary.BigEndian.AppendUint32(dst, h)
	return binary.BigEndian.AppendUint64(dst, uint64(id))
}

// SetSingle records that game id, stored in the same ingestion, is the
// only game of this ingestion that reached a position whose SingleHash is
// h, and that the position has no statistics record in it: its statistics
// are the game's contribution. The builder must make sure that no other
// position of the game, counted in a statistics record, has the same hash
// (so a reader that finds the game under h and replays it knows which
// position the reference is for). References go after the positions, in
// increasing (h, id) order; an identical reference written twice in one
// sstable is written once.
func (w *SSTWriter) SetSingle(h uint32, id GameID) error {
	if w.done {
		return errSSTDone
	}
	if id == 0 {
		return fmt.Errorf("store: sstable single reference %08x: zero game id", h)
	}
	w.key = singleKey(w.key[:0], h, id)
	if w.n > 0 && bytes.Equal(w.key, w.last) {
		return nil
	}
	if err := w.add(w.key, nil, false); err != nil {
		return fmt.Errorf("store: sstable single reference %08x %s: %w", h, id, err)
	}
	return nil
}

// Singles calls fn with the id of every game kept as a single reference
// under position key pos's hash (see [SetSingle]), in id order. Some may
// be references to other positions with the same hash: the caller replays
// each game to see whether it reached pos.
func (s *Store) Singles(pos []byte, fn func(id GameID) error) error {
	lower := singleKey(nil, SingleHash(pos), 0)[:5]
	upper := bytes.Clone(lower)
	for i := len(upper) - 1; i > 0; i-- { // the hash plus one, or the end of 'q'
		upper[i]++
		if upper[i] != 0 {
			break
		}
		if i == 1 {
			upper = []byte{prefixSingle + 1}
		}
	}
	return s.scan("single references", lower, upper, func(k, _ []byte) (bool, error) {
		if len(k) != 13 {
			return false, fmt.Errorf("iterating single references: %w: bad key %x", ErrNotStore, k)
		}
		return true, fn(GameID(binary.BigEndian.Uint64(k[5:])))
	})
}

// HasSingle reports whether the store holds the single reference to game
// id under hash h.
func (s *Store) HasSingle(h uint32, id GameID) (bool, error) {
	if s.closed.Load() {
		return false, ErrClosed
	}
	var kb [13]byte
	_, closer, err := s.db.Get(singleKey(kb[:0], h, id))
	if errors.Is(err, pebble.ErrNotFound) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("get single reference %08x %s: %w", h, id, err)
	}
	_ = closer.Close()
	return true, nil
}

// AllSingles calls fn with every single reference (see
// [SSTWriter.SetSingle]) in (hash, id) order, until fn returns false or an
// error.
func (s *Store) AllSingles(fn func(h uint32, id GameID) (bool, error)) error {
	return s.scan("single references", []byte{prefixSingle}, []byte{prefixSingle + 1}, func(k, _ []byte) (bool, error) {
		if len(k) != 13 {
			return false, fmt.Errorf("iterating single references: %w: bad key %x", ErrNotStore, k)
		}
		return fn(binary.BigEndian.Uint32(k[1:5]), GameID(binary.BigEndian.Uint64(k[5:])))
	})
}
