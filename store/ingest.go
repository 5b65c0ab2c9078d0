package store

import (
	"bytes"
	"context"
	"errors"
	"fmt"

	"github.com/chessbook/chessbook/stats"
	"github.com/cockroachdb/pebble/v2/objstorage/objstorageprovider"
	"github.com/cockroachdb/pebble/v2/sstable"
	"github.com/cockroachdb/pebble/v2/vfs"
)

// SSTWriter writes a sorted run of merge records straight into an sstable,
// then ingests it into the store: the path for big sorted runs, which skips
// the WAL and the memtable.
//
// The records are MERGE records, as from a [Batch]: they add up with what
// the store already holds, whatever the order of ingestions and commits.
// Position keys must be given in strictly increasing byte order, each once.
// En-passant side records ([SSTWriter.MergeEPTrusted]) go before the
// games, game order records ([SSTWriter.SetGameOrder]) before the
// positions.
//
// An SSTWriter is for one goroutine. Call [SSTWriter.Ingest] to ingest what
// was written, or [SSTWriter.Close] to drop it.
type SSTWriter struct {
	s     *Store
	path  string
	w     *sstable.Writer
	last  []byte // last position key written, with its prefix
	key   []byte // scratch
	enc   []byte // scratch for MergeEntry
	n     int
	games uint64
	done  bool
	// nextGame is one more than the highest game number recorded
	// (SetGameNumber); 0: none.
	nextGame uint64

	// Game records (and the en-passant side records before them) go to
	// a second sstable, which also gets the Meta record at ingestion: the
	// two tables' key ranges ('e'..'m' and 'o'..'p') must not overlap.
	gpath string
	gw    *sstable.Writer
	glast []byte
}

// NewSSTWriter starts an sstable for ingestion, in the store directory's
// "chessbook-ingest" subdirectory.
func (s *Store) NewSSTWriter() (*SSTWriter, error) {
	if s.closed.Load() {
		return nil, ErrClosed
	}
	if s.opts.ReadOnly {
		return nil, ErrReadOnly
	}
	path, w, err := s.createSST()
	if err != nil {
		return nil, fmt.Errorf("store: new sstable: %w", err)
	}
	return &SSTWriter{s: s, path: path, w: w}, nil
}

// createSST creates a new sstable file for ingestion, written with the
// store's table format, comparer, key schema and merger name.
func (s *Store) createSST() (string, *sstable.Writer, error) {
	dir := s.fs.PathJoin(s.dir, ingestDir)
	if err := s.fs.MkdirAll(dir, 0o755); err != nil {
		return "", nil, err
	}
	path := s.fs.PathJoin(dir, fmt.Sprintf("%06d.sst", s.tmpSeq.Add(1)))
	f, err := s.fs.Create(path, vfs.WriteCategoryUnspecified)
	if err != nil {
		return "", nil, err
	}
	// Level 0's options (fast compression): compactions recompress the
	// data with zstd on its way down, and compressing ingested runs with
	// zstd as well cost more build time than it saved space (a store
	// closed before its compactions caught up is 10-20% bigger).
	wo := s.popts.MakeWriterOptions(0, s.db.TableFormat())
	return path, sstable.NewWriter(objstorageprovider.NewFileWritable(f), wo), nil
}

// Merge adds the encoded stats.Entry enc to the position with key pos, as
// [Batch.Merge] does. pos must be greater than the previous position key
// written, or Merge fails with an error wrapping [ErrUnsorted].
func (w *SSTWriter) Merge(pos, enc []byte) error {
	if err := stats.ValidateEncoded(enc); err != nil {
		return fmt.Errorf("store: sstable merge position %x: %w", pos, err)
	}
	return w.MergeTrusted(pos, enc)
}

// MergeTrusted is Merge for encodings that come straight from
// stats.Entry.AppendEncode (the builder's flushes): it skips re-validating
// them, which is a noticeable share of a large build. Keys are still
// checked for order.
func (w *SSTWriter) MergeTrusted(pos, enc []byte) error {
	if w.done {
		return errSSTDone
	}
	if len(pos) == 0 {
		return errors.New("store: sstable merge: empty position key")
	}
	w.key = positionKey(w.key[:0], pos)
	if err := w.add(w.key, enc, true); err != nil {
		return fmt.Errorf("store: sstable merge position %x: %w", pos, err)
	}
	return nil
}

// add writes the record key (prefix included) -> value to the data
// sstable, a MERGE or a SET, after checking that key follows the previous
// one. It keeps key as the last key written and hands its buffer back to
// w.key.
func (w *SSTWriter) add(key, value []byte, merge bool) error {
	if err := addInOrder(w.w, w.last, w.n == 0, key, value, merge); err != nil {
		return err
	}
	w.last, w.key = key, w.last
	w.n++
	return nil
}

// addGames writes the record key -> value to the games sstable (created
// on first use), a MERGE or a SET, after checking that key follows the
// previous one written there.
func (w *SSTWriter) addGames(key, value []byte, merge bool) error {
	if err := w.gamesTable(); err != nil {
		return err
	}
	if err := addInOrder(w.gw, w.glast, len(w.glast) == 0, key, value, merge); err != nil {
		return err
	}
	w.glast = append(w.glast[:0], key...)
	return nil
}

// addInOrder writes key -> value to tw, a MERGE or a SET, unless key does
// not follow last (first: nothing was written yet).
func addInOrder(tw *sstable.Writer, last []byte, first bool, key, value []byte, merge bool) error {
	if !first && bytes.Compare(key, last) <= 0 {
		return fmt.Errorf("key %x after %x: %w", key, last, ErrUnsorted)
	}
	if merge {
		return tw.Merge(key, value)
	}
	return tw.Set(key, value)
}

// MergeEntry adds e to the position with key pos; see [SSTWriter.Merge].
func (w *SSTWriter) MergeEntry(pos []byte, e stats.Entry) error {
	w.enc = e.AppendEncode(w.enc[:0])
	return w.Merge(pos, w.enc)
}

// AddGames adds n to the games counted by the sstable: [Meta].Games grows
// by it in the same atomic ingestion as the sstable's data.
func (w *SSTWriter) AddGames(n uint64) { w.games += n }

// Len returns the number of records written.
func (w *SSTWriter) Len() int { return w.n }

// Ingest finishes the sstable and ingests it, together with the store's
// updated Meta, in one atomic and durable Pebble ingestion. The records
// merge with what the store holds. After Ingest, successful or not, the
// writer is done; Close is then a no-op.
func (w *SSTWriter) Ingest() error {
	if w.done {
		return errSSTDone
	}
	w.done = true
	if w.n == 0 && w.gw == nil { // (no game numbers either: they go to the data table)
		// Pebble can not ingest an empty table.
		w.abort()
		if w.games == 0 {
			return nil
		}
		b := w.s.db.NewBatch()
		defer b.Close()
		if err := w.s.commitMeta(b, w.games, true); err != nil {
			return fmt.Errorf("store: ingest: %w", err)
		}
		return nil
	}
	var paths []string
	if w.n > 0 {
		if err := w.w.Close(); err != nil { // syncs the file
			w.abort()
			return fmt.Errorf("store: ingest: finishing sstable: %w", err)
		}
		paths = append(paths, w.path)
	} else {
		_ = w.w.Close()
		_ = w.s.fs.Remove(w.path)
	}
	if err := w.s.ingestWithMeta(paths, w.gpath, w.gw, w.games, w.nextGame); err != nil {
		for _, p := range paths {
			_ = w.s.fs.Remove(p)
		}
		return fmt.Errorf("store: ingest: %w", err)
	}
	return nil
}

// Close drops the sstable unless it was ingested.
func (w *SSTWriter) Close() error {
	if w.done {
		return nil
	}
	w.done = true
	w.abort()
	return nil
}

func (w *SSTWriter) abort() {
	_ = w.w.Close()
	_ = w.s.fs.Remove(w.path)
	if w.gw != nil {
		_ = w.gw.Close()
		_ = w.s.fs.Remove(w.gpath)
	}
}

var errSSTDone = errors.New("store: sstable writer already ingested or closed")

// ingestWithMeta ingests the sstables at paths and the games sstable mw
// (at metaPath; nil: a new one) finished with the Meta advanced by games
// and past game number nextGame-1, atomically. Pebble removes the files when it succeeds; on failure the
// games sstable is removed here, the others are the caller's.
func (s *Store) ingestWithMeta(paths []string, metaPath string, mw *sstable.Writer, games, nextGame uint64) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if mw == nil {
		var err error
		if metaPath, mw, err = s.createSST(); err != nil {
			return fmt.Errorf("meta sstable: %w", err)
		}
	}
	m, raw, err := s.advanceMeta(games, nextGame)
	if err != nil {
		_ = mw.Close()
		_ = s.fs.Remove(metaPath)
		return err
	}
	if err := mw.Set([]byte(metaKey), raw); err != nil {
		_ = mw.Close()
		_ = s.fs.Remove(metaPath)
		return fmt.Errorf("meta sstable: %w", err)
	}
	if err := mw.Close(); err != nil {
		_ = s.fs.Remove(metaPath)
		return fmt.Errorf("meta sstable: %w", err)
	}
	if err := s.db.Ingest(context.Background(), append(paths, metaPath)); err != nil {
		_ = s.fs.Remove(metaPath)
		return err
	}
	s.meta = m
	return nil
}
