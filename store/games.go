package store

import (
	"encoding/binary"
	"errors"
	"fmt"
	"strconv"

	"github.com/cockroachdb/pebble/v2"
)

// ErrGameNotFound is returned, wrapped with the id, by [Store.Game] for an
// id the store does not hold.
var ErrGameNotFound = errors.New("no such game")

// GameID is a stored game's id: a hash of the game's content (see the
// builder), never 0. Its text form is 16 lower-case hex digits.
type GameID uint64

// String returns the id's text form.
func (id GameID) String() string {
	var b [16]byte
	const digits = "0123456789abcdef"
	for i := 15; i >= 0; i-- {
		b[i] = digits[id&15]
		id >>= 4
	}
	return string(b[:])
}

// ParseGameID parses the text form of a game id (16 hex digits; upper case
// is accepted).
func ParseGameID(s string) (GameID, error) {
	if len(s) != 16 {
		return 0, fmt.Errorf("game id %q: want 16 hex digits", s)
	}
	v, err := strconv.ParseUint(s, 16, 64)
	if err != nil || v == 0 {
		return 0, fmt.Errorf("game id %q: want 16 hex digits, not all zero", s)
	}
	return GameID(v), nil
}

// gameKey appends the store key of game id to dst.
func gameKey(dst []byte, id GameID) []byte {
	dst = append(dst, prefixGame)
	return binary.BigEndian.AppendUint64(dst, uint64(id))
}

// Game returns the stored record of game id (see package gamecode), or an
// error wrapping [ErrGameNotFound].
func (s *Store) Game(id GameID) ([]byte, error) {
	if s.closed.Load() {
		return nil, ErrClosed
	}
	var kb [9]byte
	raw, closer, err := s.db.Get(gameKey(kb[:0], id))
	if errors.Is(err, pebble.ErrNotFound) {
		return nil, fmt.Errorf("game %s: %w", id, ErrGameNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("get game %s: %w", id, err)
	}
	rec := append([]byte(nil), raw...)
	_ = closer.Close()
	return rec, nil
}

// HasGame reports whether the store holds game id.
func (s *Store) HasGame(id GameID) (bool, error) {
	if s.closed.Load() {
		return false, ErrClosed
	}
	var kb [9]byte
	_, closer, err := s.db.Get(gameKey(kb[:0], id))
	if errors.Is(err, pebble.ErrNotFound) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("get game %s: %w", id, err)
	}
	_ = closer.Close()
	return true, nil
}

// Games calls fn with every stored game, in id order, until fn returns
// false or an error. The record passed to fn is only valid during the call.
func (s *Store) Games(fn func(id GameID, rec []byte) (bool, error)) error {
	return s.GamesBetween(0, 0, fn)
}

// GamesBetween is [Store.Games] restricted to the ids in [lo, hi) (hi 0:
// no upper bound), so that several goroutines can read the games in
// parallel.
func (s *Store) GamesBetween(lo, hi GameID, fn func(id GameID, rec []byte) (bool, error)) error {
	upper := []byte{prefixGame + 1}
	if hi != 0 {
		upper = gameKey(nil, hi)
	}
	return s.scan("games", gameKey(nil, lo), upper, func(k, v []byte) (bool, error) {
		if len(k) != 9 {
			return false, fmt.Errorf("iterating games: %w: bad game key %x", ErrNotStore, k)
		}
		return fn(GameID(binary.BigEndian.Uint64(k[1:])), v)
	})
}

// scan calls fn with every key in [lower, upper) and its value, in key
// order, until fn returns false or an error (returned as it is); both are
// only valid during the call. what names the records in the errors of the
// iteration itself.
func (s *Store) scan(what string, lower, upper []byte, fn func(k, v []byte) (bool, error)) error {
	if s.closed.Load() {
		return ErrClosed
	}
	it, err := s.db.NewIter(&pebble.IterOptions{LowerBound: lower, UpperBound: upper})
	if err != nil {
		return fmt.Errorf("iterating %s: %w", what, err)
	}
	for ok := it.First(); ok; ok = it.Next() {
		v, err := it.ValueAndErr()
		if err != nil {
			_ = it.Close()
			return fmt.Errorf("iterating %s: %w", what, err)
		}
		more, err := fn(it.Key(), v)
		if err != nil || !more {
			_ = it.Close()
			return err
		}
	}
	if err := it.Close(); err != nil {
		return fmt.Errorf("iterating %s: %w", what, err)
	}
	return nil
}

// SetGame adds the record of game id, ingested with the rest by
// [SSTWriter.IngestWith]. Games must come in strictly increasing id order; the
// record is stored as given (a SET, not merged).
func (w *SSTWriter) SetGame(id GameID, rec []byte) error {
	if w.done {
		return errSSTDone
	}
	if id == 0 {
		return errors.New("store: sstable game: id 0")
	}
	w.key = gameKey(w.key[:0], id)
	if err := w.put(w.key, rec, false); err != nil {
		return fmt.Errorf("store: sstable game %s: %w", id, err)
	}
	return nil
}

// gamesTable creates the sstable of games (and side records and Meta)
// unless it exists.
func (w *SSTWriter) gamesTable() error {
	if w.gw != nil {
		return nil
	}
	path, gw, err := w.s.createSST()
	if err != nil {
		return fmt.Errorf("store: games sstable: %w", err)
	}
	w.gpath, w.gw = path, gw
	return nil
}
