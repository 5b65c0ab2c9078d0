package store

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/sstable"

	"github.com/chessbook/chessbook/keys"
	"github.com/chessbook/chessbook/stats"
)

// Damage is one problem Check found.
type Damage struct {
	// File is the sstable the damage is in, for a block that does not
	// match its checksum; empty for a record.
	File string
	// Key is the store key of a record that does not decode (nil for a
	// damaged block).
	Key []byte
	// Err says what is wrong.
	Err error
}

// String describes the damage on one line.
func (d Damage) String() string {
	if d.File != "" {
		return fmt.Sprintf("%s: %s", d.File, ErrorLine(d.Err))
	}
	return fmt.Sprintf("record %q: %s", d.Key, ErrorLine(d.Err))
}

// IsDamage reports whether err comes from damaged data: a block that does
// not match its checksum (Pebble's corruption errors).
func IsDamage(err error) bool { return pebble.IsCorruptionError(err) }

// ErrorLine returns err's message on one line: Pebble's corruption errors
// carry their details on lines of their own.
func ErrorLine(err error) string {
	var parts []string
	for _, l := range strings.Split(err.Error(), "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasSuffix(l, "carrier>") {
			parts = append(parts, l)
		}
	}
	return strings.Join(parts, "; ")
}

// CheckStats counts what Check read.
type CheckStats struct {
	Tables  int            // sstables whose every block was read
	Records map[string]int // records decoded, by kind ("position", "game", ...)
	Damaged int            // problems found
}

// Check verifies the store: every block of every sstable against its
// checksum, then every record, whose key must have its kind's form and
// whose value must decode (statistics, histories, single references, game
// numbers, the game order, the Meta; game records are handed to game,
// which decodes them, when it is not nil). It calls report with each
// problem and goes on; after a damaged block the record pass skips to the
// next kind of record. It returns an error only when it cannot go on (or
// ctx is done).
func (s *Store) Check(ctx context.Context, game func(rec []byte) error, report func(Damage)) (CheckStats, error) {
	cs := CheckStats{Records: map[string]int{}}
	note := func(d Damage) {
		cs.Damaged++
		report(d)
	}
	// The sstables in the directory: Pebble's list of its levels misses
	// those ingested above the memtable and not flushed yet.
	names, err := s.fs.List(s.dir)
	if err != nil {
		return cs, fmt.Errorf("store %q: listing sstables: %w", s.dir, err)
	}
	slices.Sort(names)
	for _, name := range names {
		if !strings.HasSuffix(name, ".sst") {
			continue
		}
		if err := ctx.Err(); err != nil {
			return cs, err
		}
		err := s.checkTable(ctx, s.fs.PathJoin(s.dir, name))
		if errors.Is(err, os.ErrNotExist) {
			continue // removed by a writer's compaction meanwhile
		}
		if err != nil {
			note(Damage{File: name, Err: err})
		}
		cs.Tables++
	}
	it, err := s.db.NewIter(nil)
	if err != nil {
		return cs, fmt.Errorf("store %q: %w", s.dir, err)
	}
	defer it.Close()
	n := 0
	lastPrefix, skipped, lastErr := byte(0), -1, ""
	for ok := it.First(); ; {
		if !ok {
			err := it.Error()
			if err == nil {
				break
			}
			// A damaged block: go on with the next kind of record (once
			// more, if the seek meets the same damage).
			if err.Error() != lastErr {
				note(Damage{Key: append([]byte(nil), it.Key()...), Err: err})
				lastErr = err.Error()
			}
			next := int(lastPrefix) + 1
			if next > 0xff || next <= skipped {
				break
			}
			skipped = next
			ok = it.SeekGE([]byte{byte(next)})
			continue
		}
		if n++; n%4096 == 0 && ctx.Err() != nil {
			return cs, ctx.Err()
		}
		k := it.Key()
		if len(k) > 0 {
			lastPrefix = k[0]
		}
		v, err := it.ValueAndErr()
		kind := "unknown"
		if err == nil {
			kind, err = checkRecord(k, v, game)
		}
		cs.Records[kind]++
		if err != nil {
			note(Damage{Key: append([]byte(nil), k...), Err: err})
		}
		ok = it.Next()
	}
	return cs, nil
}

// checkTable reads every block of the sstable at path.
func (s *Store) checkTable(ctx context.Context, path string) error {
	f, err := s.fs.Open(path)
	if err != nil {
		return err
	}
	readable, err := sstable.NewSimpleReadable(f)
	if err != nil {
		_ = f.Close()
		return err
	}
	r, err := sstable.NewReader(ctx, readable, s.popts.MakeReaderOptions())
	if err != nil {
		_ = readable.Close()
		return err
	}
	defer r.Close()
	return r.ValidateBlockChecksums()
}

// checkRecord decodes one record and returns its kind.
func checkRecord(key, v []byte, game func([]byte) error) (string, error) {
	if len(key) == 0 {
		return "unknown", errors.New("empty key")
	}
	position := func(pos []byte) error {
		if _, err := keys.Decode(pos); err != nil {
			return fmt.Errorf("bad position key: %w", err)
		}
		return nil
	}
	switch key[0] {
	case prefixPosition:
		if err := position(key[1:]); err != nil {
			return "position", err
		}
		return "position", stats.ValidateEncoded(v)
	case prefixEP:
		if len(key) < 3 || key[1] > 7 {
			return "en-passant", errors.New("bad en-passant key")
		}
		if err := position(key[2:]); err != nil {
			return "en-passant", err
		}
		return "en-passant", stats.ValidateEncoded(v)
	case prefixHistory:
		if err := position(key[1:]); err != nil {
			return "history", err
		}
		_, err := stats.DecodeHistory(nil, v)
		return "history", err
	case prefixGame:
		if len(key) != 9 {
			return "game", errors.New("bad game key")
		}
		if game != nil {
			return "game", game(v)
		}
		return "game", nil
	case prefixSingle:
		if len(key) != 4 {
			return "single references", errors.New("bad single references key")
		}
		return "single references", validateSingles(v)
	case prefixNumber:
		if len(key) != 9 || len(v) < 8 {
			return "game number", errors.New("bad game number record")
		}
		if len(v) > 8 {
			if _, n := binary.Uvarint(v[8:]); n != len(v)-8 {
				return "game number", errors.New("bad first-seen stamp")
			}
		}
		return "game number", nil
	case prefixOrder:
		if len(key) != 17 || len(v) != 0 {
			return "game order", errors.New("bad game order record")
		}
		return "game order", nil
	case prefixMeta:
		var m Meta
		if string(key) != metaKey {
			return "meta", errors.New("bad meta key")
		}
		return "meta", json.Unmarshal(v, &m)
	}
	return "unknown", fmt.Errorf("unknown kind of record %q", key[0])
}
