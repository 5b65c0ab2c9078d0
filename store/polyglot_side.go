package store

import (
	"encoding/binary"
	"fmt"

	"github.com/chessbook/chessbook/stats"
)

// This file holds the two kinds of side records a Polyglot export needs to
// equal PolyGlot's make-book exactly (see the package documentation's key
// schema): the en-passant records ('e') and the game order index ('o').

// epKey appends the store key of the en-passant side record of position
// pos with en-passant file file to dst.
func epKey(dst []byte, file int, pos []byte) []byte {
	dst = append(dst, prefixEP, byte(file))
	return append(dst, pos...)
}

// orderKey appends the store key of the game order record of game id,
// whose first-seen stamp is stamp, to dst.
func orderKey(dst []byte, stamp uint64, id GameID) []byte {
	dst = append(dst, prefixOrder)
	dst = binary.BigEndian.AppendUint64(dst, stamp)
	return binary.BigEndian.AppendUint64(dst, uint64(id))
}

// MergeEPTrusted adds the encoded stats.Entry enc, which must come from
// stats.Entry.AppendEncode, to the en-passant side record of position pos
// for en-passant file file (0..7): the occurrences of pos where PolyGlot's
// key holds that file although no en-passant capture is legal (so the
// position key, which is canonical, does not). The occurrences stay counted
// in the position's own record too. These records go to the sstable that
// holds the games and the Meta record (the key ranges of the sstables of
// one ingestion must not overlap), so they must be written before any game
// ([SSTWriter.SetGame]), in increasing (file, pos) order.
func (w *SSTWriter) MergeEPTrusted(file int, pos, enc []byte) error {
	if w.done {
		return errSSTDone
	}
	if file < 0 || file > 7 || len(pos) == 0 {
		return fmt.Errorf("store: sstable en-passant record: file %d, position %x: bad key", file, pos)
	}
	w.key = epKey(w.key[:0], file, pos)
	if err := w.put(w.key, enc, true); err != nil {
		return fmt.Errorf("store: sstable en-passant record %d %x: %w", file, pos, err)
	}
	return nil
}

// SetGameOrder records that game id, stored in the same ingestion, came
// with first-seen stamp stamp (its input's index and its line; see the
// builder): the game order index PolyGlot-exact exports replay. Records go
// after the en-passant records and before the positions, in increasing
// (stamp, id) order.
func (w *SSTWriter) SetGameOrder(stamp uint64, id GameID) error {
	if w.done {
		return errSSTDone
	}
	if id == 0 || stamp == 0 {
		return fmt.Errorf("store: sstable game order: stamp %x, game %s: zero", stamp, id)
	}
	w.key = orderKey(w.key[:0], stamp, id)
	if err := w.put(w.key, nil, false); err != nil {
		return fmt.Errorf("store: sstable game order %x %s: %w", stamp, id, err)
	}
	return nil
}

// EPRecords calls fn with every en-passant side record (see
// [SSTWriter.MergeEPTrusted]): its file, its position key and its entry,
// in key order. pos and e are only valid during the call.
func (s *Store) EPRecords(fn func(file int, pos []byte, e *stats.Entry) error) error {
	var e stats.Entry
	return s.scan("en-passant records", []byte{prefixEP}, []byte{prefixEP + 1}, func(k, v []byte) (bool, error) {
		if len(k) < 3 || k[1] > 7 {
			return false, fmt.Errorf("iterating en-passant records: %w: bad key %x", ErrNotStore, k)
		}
		err := stats.DecodeInto(&e, v)
		if err == nil {
			err = fn(int(k[1]), k[2:], &e)
		}
		if err != nil {
			return false, fmt.Errorf("en-passant record %x: %w", k[1:], err)
		}
		return true, nil
	})
}

// GameOrder calls fn with every record of the game order index (see
// [SSTWriter.SetGameOrder]) in stamp order, that is in input order, until
// fn returns false or an error. Only -count occurrence builds write it.
func (s *Store) GameOrder(fn func(stamp uint64, id GameID) (bool, error)) error {
	return s.scan("the game order", []byte{prefixOrder}, []byte{prefixOrder + 1}, func(k, _ []byte) (bool, error) {
		if len(k) != 17 {
			return false, fmt.Errorf("iterating the game order: %w: bad key %x", ErrNotStore, k)
		}
		return fn(binary.BigEndian.Uint64(k[1:9]), GameID(binary.BigEndian.Uint64(k[9:])))
	})
}
