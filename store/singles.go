package store

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/cockroachdb/pebble/v2"

	"github.com/chessbook/chessbook/keys"
)

// This file holds the single references ('q' records) and the game numbers
// they use ('n' records); see the package documentation. A position reached
// by a single game is kept as a reference to the game under a hash of the
// position key, with no statistics record: its statistics are the game's
// contribution, which the reader (package book) rebuilds by replaying the
// game.

// SingleRef is a single reference: the [SingleHash] of a position and the
// number of the one game that reached it (see [SSTWriter.SetGameNumber]).
type SingleRef struct {
	Hash uint32
	Game uint64
}

// Compare orders references by hash, then game number: it returns -1, 0
// or 1 as r is before, equal to or after o.
func (r SingleRef) Compare(o SingleRef) int {
	switch {
	case r.Hash != o.Hash:
		if r.Hash < o.Hash {
			return -1
		}
		return 1
	case r.Game < o.Game:
		return -1
	case r.Game > o.Game:
		return 1
	}
	return 0
}

// SingleHash returns the hash under which single references to the
// position whose key is pos are kept: the high 32 bits of the position's
// [keys.Hash] (see SingleHashOf). A byte string that is not a key hashes
// to 0, as does any position whose hash starts so: a reader replays the
// games it finds under a hash to see which positions they reached.
func SingleHash(pos []byte) uint32 {
	p, err := keys.Decode(pos)
	if err != nil {
		return 0
	}
	return SingleHashOf(keys.Hash(&p))
}

// SingleHashOf returns the SingleHash of a position from its [keys.Hash]:
// what a builder or a reader that has the position, not its key, uses.
func SingleHashOf(h uint64) uint32 { return uint32(h >> 32) }

// Single references are kept in buckets: one 'q' record per value of the
// hash's high singleBucketBits bits, holding every reference of the
// bucket, so that a build writes a few hundred thousand records rather
// than one per position, and the references are delta-coded.
const (
	singleBucketBits = 18
	singleLowBits    = 32 - singleBucketBits
	singleLowMask    = 1<<singleLowBits - 1
	// singleNumberBits bounds game numbers: below 2^50, so that the merge
	// operator packs a reference's low hash bits and number in 64 bits.
	singleNumberBits = 64 - singleLowBits
)

// singleKey appends the store key of the bucket of hash h to dst.
func singleKey(dst []byte, h uint32) []byte {
	b := h >> singleLowBits
	return append(dst, prefixSingle, byte(b>>16), byte(b>>8), byte(b))
}

// bucketOf returns the bucket of a 'q' record's key.
func bucketOf(k []byte) (uint32, error) {
	if len(k) != 4 || k[0] != prefixSingle || k[1] > (1<<singleBucketBits-1)>>16 {
		return 0, fmt.Errorf("%w: bad single reference key %x", ErrNotStore, k)
	}
	return uint32(k[1])<<16 | uint32(k[2])<<8 | uint32(k[3]), nil
}

// appendSingles appends the encoding of refs, which must be sorted,
// without duplicates and all in one bucket, to dst. Each reference is the
// difference of the hash's low bits from the previous reference's, as a
// uvarint, then the game number as a uvarint, or its difference from the
// previous reference's number when the low bits are the same.
func appendSingles(dst []byte, refs []SingleRef) []byte {
	var w singlesWriter
	for _, r := range refs {
		dst = w.append(dst, uint64(r.Hash&singleLowMask), r.Game)
	}
	return dst
}

// appendPackedSingles is appendSingles for sorted packed references (see
// appendPacked).
func appendPackedSingles(dst []byte, packs []uint64) []byte {
	var w singlesWriter
	for _, p := range packs {
		dst = w.append(dst, p>>singleNumberBits, p&(1<<singleNumberBits-1))
	}
	return dst
}

// singlesWriter encodes a bucket's references one at a time, in order.
type singlesWriter struct {
	n         int
	low, game uint64 // the previous reference's
}

// append appends the reference with hash low bits low and game number
// game to dst.
func (w *singlesWriter) append(dst []byte, low, game uint64) []byte {
	dst = binary.AppendUvarint(dst, low-w.low)
	if w.n > 0 && low == w.low {
		dst = binary.AppendUvarint(dst, game-w.game)
	} else {
		dst = binary.AppendUvarint(dst, game)
	}
	w.n++
	w.low, w.game = low, game
	return dst
}

// singlesReader decodes an encoded bucket one reference at a time,
// checking that the references are strictly increasing and whole.
type singlesReader struct {
	v         []byte
	n         int
	low, game uint64 // the last reference's
}

// next decodes the next reference into r.low and r.game; it returns false
// at the end of the encoding, or with an error.
func (r *singlesReader) next() (bool, error) {
	if len(r.v) == 0 {
		return false, nil
	}
	d, n := binary.Uvarint(r.v)
	if n <= 0 || d > singleLowMask-r.low {
		return false, errBadSingles
	}
	r.v = r.v[n:]
	g, n := binary.Uvarint(r.v)
	if n <= 0 {
		return false, errBadSingles
	}
	r.v = r.v[n:]
	if r.n > 0 && d == 0 {
		if g == 0 || g > ^uint64(0)-r.game {
			return false, errBadSingles
		}
		g += r.game
	}
	if g == 0 || g >= 1<<singleNumberBits {
		return false, errBadSingles
	}
	r.n++
	r.low += d
	r.game = g
	return true, nil
}

// decodeSingles calls fn with every reference of the encoded bucket v, in
// order, until fn returns false. It fails on an encoding that is not
// strictly increasing or is cut short.
func decodeSingles(bucket uint32, v []byte, fn func(SingleRef) bool) error {
	r := singlesReader{v: v}
	for {
		ok, err := r.next()
		if !ok || err != nil {
			return err
		}
		if !fn(SingleRef{Hash: bucket<<singleLowBits | uint32(r.low), Game: r.game}) {
			return nil
		}
	}
}

var errBadSingles = errors.New("corrupt single references")

// appendPacked appends the references of the encoded bucket v to dst,
// each packed as its hash's low bits << singleNumberBits | its game
// number (which sorts as the references do).
func appendPacked(dst []uint64, v []byte) ([]uint64, error) {
	r := singlesReader{v: v}
	for {
		ok, err := r.next()
		if !ok || err != nil {
			return dst, err
		}
		dst = append(dst, r.low<<singleNumberBits|r.game)
	}
}

// validateSingles checks that v is a valid encoding of a bucket's single
// references.
func validateSingles(v []byte) error {
	return decodeSingles(0, v, func(SingleRef) bool { return true })
}

// numberKey appends the store key of game number num to dst.
func numberKey(dst []byte, num uint64) []byte {
	dst = append(dst, prefixNumber)
	return binary.BigEndian.AppendUint64(dst, num)
}

// SetGameNumber records that game id, stored in the same ingestion, has
// number num, and its first-seen stamp (0: none; see the builder): single
// references name games by number, which takes a few bytes where an id
// takes eight, and the stamp is what a single reference's statistics need
// beyond the game record. Numbers are given out by the builder from
// [Meta].NextGame up, each once; the ingestion advances NextGame past the
// numbers it records. Records go before the game order records and the
// positions, in increasing number order.
func (w *SSTWriter) SetGameNumber(num uint64, id GameID, stamp uint64) error {
	if w.done {
		return errSSTDone
	}
	if num == 0 || id == 0 || num >= 1<<singleNumberBits {
		return fmt.Errorf("store: sstable game number %d, game %s: out of range", num, id)
	}
	w.key = numberKey(w.key[:0], num)
	w.enc = binary.BigEndian.AppendUint64(w.enc[:0], uint64(id))
	if stamp != 0 {
		w.enc = binary.AppendUvarint(w.enc, stamp)
	}
	if err := w.put(w.key, w.enc, false); err != nil {
		return fmt.Errorf("store: sstable game number %d: %w", num, err)
	}
	w.nextGame = max(w.nextGame, num+1)
	return nil
}

// decodeNumber decodes the value of a game number record.
func decodeNumber(num uint64, v []byte) (GameID, uint64, error) {
	if len(v) < 8 {
		return 0, 0, fmt.Errorf("game number %d: %w: bad record %x", num, ErrNotStore, v)
	}
	id := GameID(binary.BigEndian.Uint64(v))
	if len(v) == 8 {
		return id, 0, nil
	}
	stamp, n := binary.Uvarint(v[8:])
	if n != len(v)-8 || stamp == 0 {
		return 0, 0, fmt.Errorf("game number %d: %w: bad record %x", num, ErrNotStore, v)
	}
	return id, stamp, nil
}

// MergeSingles adds the single references refs, sorted by hash then game
// number and without duplicates, each to a game numbered in the same
// ingestion: each says that the game is the only one of the ingestion
// that reached a position with that hash, and that the position has no
// statistics record in it. The builder must make sure that no other
// position the game counted has the same hash (a reader that finds the
// game under the hash and replays it then knows which position the
// reference is for). References go after the positions.
func (w *SSTWriter) MergeSingles(refs []SingleRef) error {
	if w.done {
		return errSSTDone
	}
	for i := 0; i < len(refs); {
		j := i + 1
		for j < len(refs) && refs[j].Hash>>singleLowBits == refs[i].Hash>>singleLowBits {
			j++
		}
		for k := i; k < j; k++ {
			if refs[k].Game == 0 || (k > i && refs[k].Compare(refs[k-1]) <= 0) {
				return fmt.Errorf("store: sstable single references: %08x %d: %w", refs[k].Hash, refs[k].Game, ErrUnsorted)
			}
		}
		w.enc = appendSingles(w.enc[:0], refs[i:j])
		w.key = singleKey(w.key[:0], refs[i].Hash)
		if err := w.put(w.key, w.enc, true); err != nil {
			return fmt.Errorf("store: sstable single references %08x: %w", refs[i].Hash, err)
		}
		i = j
	}
	return nil
}

// SinglesOf calls fn with the number of every game kept as a single
// reference under SingleHash h (see [SSTWriter.MergeSingles]), in number
// order. Some may be references to other positions with the same hash:
// the caller replays each game to see whether it reached its position.
func (s *Store) SinglesOf(h uint32, fn func(num uint64) error) error {
	v, closer, err := s.get("single references", singleKey(make([]byte, 0, 4), h))
	if err != nil || closer == nil {
		return err
	}
	defer closer.Close()
	var nums []uint64
	err = decodeSingles(h>>singleLowBits, v, func(r SingleRef) bool {
		if r.Hash == h {
			nums = append(nums, r.Game)
		}
		return r.Hash <= h
	})
	if err != nil {
		return fmt.Errorf("single references %08x: %w", h, err)
	}
	for _, n := range nums {
		if err := fn(n); err != nil {
			return err
		}
	}
	return nil
}

// get returns the value of key, or a nil closer when there is none.
func (s *Store) get(what string, key []byte) ([]byte, interface{ Close() error }, error) {
	if s.closed.Load() {
		return nil, nil, ErrClosed
	}
	v, closer, err := s.db.Get(key)
	if errors.Is(err, pebble.ErrNotFound) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("get %s %x: %w", what, key, err)
	}
	return v, closer, nil
}

// GameByNumber returns the id and the first-seen stamp (0: none) of the
// game numbered num (see [SSTWriter.SetGameNumber]), or an error wrapping
// [ErrGameNotFound].
func (s *Store) GameByNumber(num uint64) (GameID, uint64, error) {
	v, closer, err := s.get("game number", numberKey(nil, num))
	if err != nil {
		return 0, 0, err
	}
	if closer == nil {
		return 0, 0, fmt.Errorf("game number %d: %w", num, ErrGameNotFound)
	}
	defer closer.Close()
	return decodeNumber(num, v)
}

// GameNumbers calls fn with every numbered game whose number is in [lo,
// hi), with its id and first-seen stamp, in number order, until fn
// returns false or an error.
func (s *Store) GameNumbers(lo, hi uint64, fn func(num uint64, id GameID, stamp uint64) (bool, error)) error {
	return s.scan("game numbers", numberKey(nil, lo), numberKey(nil, hi), func(k, v []byte) (bool, error) {
		if len(k) != 9 {
			return false, fmt.Errorf("iterating game numbers: %w: bad key %x", ErrNotStore, k)
		}
		num := binary.BigEndian.Uint64(k[1:])
		id, stamp, err := decodeNumber(num, v)
		if err != nil {
			return false, err
		}
		return fn(num, id, stamp)
	})
}

// AllSingles calls fn with every single reference, in (hash, number)
// order, until fn returns false or an error.
func (s *Store) AllSingles(fn func(r SingleRef) (bool, error)) error {
	return s.scan("single references", []byte{prefixSingle}, []byte{prefixSingle + 1}, func(k, v []byte) (bool, error) {
		b, err := bucketOf(k)
		if err != nil {
			return false, err
		}
		more := true
		var fnErr error
		err = decodeSingles(b, v, func(r SingleRef) bool {
			more, fnErr = fn(r)
			return more && fnErr == nil
		})
		if err != nil {
			return false, fmt.Errorf("single references %x: %w", k, err)
		}
		return more, fnErr
	})
}

// SingleBucket returns the bucket of single references (one record of
// the store) that a position with single hash h belongs to:
// [SSTWriter.MergeSingles] writes a record per bucket.
func SingleBucket(h uint32) uint32 { return h >> singleLowBits }
