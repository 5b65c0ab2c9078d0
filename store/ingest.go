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
// The records are MERGE records: they add up with what
// the store already holds, whatever the order of ingestions and commits.
// Position keys must be given in strictly increasing byte order, each once.
// Each kind of record goes to the sstable its entry in the registry
// names ([Kind].Table: kinds.go), in which keys, and so kinds, come in
// increasing order: en-passant side records ([SSTWriter.MergeEPTrusted])
// go before the games, and the histories after them; game numbers before
// the game order records ([SSTWriter.SetGameOrder]), which go before the
// positions, the single references and the game index.
//
// An SSTWriter is for one goroutine. Call [SSTWriter.IngestWith] to ingest what
// was written, or [SSTWriter.Close] to drop it.
type SSTWriter struct {
	s     *Store
	path  string
	w     *sstable.Writer
	last  []byte // last position key written, with its prefix
	key   []byte // scratch
	enc   []byte // scratch
	n     int
	games uint64
	done  bool
	// nextGame is one more than the highest game number recorded
	// (SetGameNumber); 0: none.
	nextGame uint64
	// gameIndex is the Meta's GameIndex after the ingestion
	// (SetGameIndex); 0: unchanged.
	gameIndex int
	// replaceIndex: the ingestion deletes every index record the store
	// held before it (ReplaceIndex).
	replaceIndex bool

	// Game records (and the en-passant side records before them) go to
	// a second sstable: the tables' key ranges ('e'..'g' and 'n'..'q')
	// must not overlap. The Meta record gets a third at ingestion.
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

// Merge adds the encoded stats.Entry enc to the position with key pos. The
// entry is validated (a corrupt operand would break every later compaction
// of its key); Merge returns an error wrapping stats.ErrCorrupt for a bad
// one. pos must be greater than the previous position key
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
	if err := w.put(w.key, enc, true); err != nil {
		return fmt.Errorf("store: sstable merge position %x: %w", pos, err)
	}
	return nil
}

// put writes the record key (prefix included) -> value, a MERGE or a
// SET, to the sstable its kind's entry in the registry (kinds.go) names:
// the data table or the games table, each in strictly increasing key
// order, so that a table's kinds come in prefix order. It refuses a key
// of no kind, a MERGE of a SET kind and a SET of a MERGE kind.
func (w *SSTWriter) put(key, value []byte, merge bool) error {
	k := kindOfKey(key)
	if k == nil {
		return fmt.Errorf("key %x: %s", key, kindName(key))
	}
	if (merge && k.Write == Set) || (!merge && k.Write == Merge) {
		return fmt.Errorf("key %x: a %s record written as a SET or MERGE it is not", key, k.Name)
	}
	switch k.Table {
	case DataTable:
		return w.add(key, value, merge)
	case GamesTable:
		return w.addGames(key, value, merge)
	}
	return fmt.Errorf("key %x: %s records are not written through an SSTWriter", key, k.Name)
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

// AddGames adds n to the games counted by the sstable: [Meta].Games grows
// by it in the same atomic ingestion as the sstable's data.
func (w *SSTWriter) AddGames(n uint64) { w.games += n }

// IngestWith finishes the sstables of w and others and ingests them,
// together with the store's updated Meta counting the games of all, in
// one atomic and durable Pebble ingestion (others may be none); the
// records merge with what the store holds. Writers filled in parallel,
// one per goroutine, are committed together this way. The writers'
// keys must not overlap (each kind of record from one writer, or
// positions and references split in key ranges). After IngestWith,
// successful or not, every writer is done.
func (w *SSTWriter) IngestWith(others ...*SSTWriter) error {
	all := append([]*SSTWriter{w}, others...)
	for _, x := range all {
		if x.done {
			for _, y := range all {
				_ = y.Close()
			}
			return errSSTDone
		}
	}
	var paths []string
	var games, nextGame uint64
	var gameIndex int
	var err error
	for _, x := range all {
		x.done = true
		games += x.games
		nextGame = max(nextGame, x.nextGame)
		gameIndex = max(gameIndex, x.gameIndex)
		if err == nil {
			paths, err = x.finish(paths)
		} else {
			x.abort()
		}
	}
	if err != nil {
		for _, p := range paths {
			_ = w.s.fs.Remove(p)
		}
		return fmt.Errorf("store: ingest: %w", err)
	}
	if len(paths) == 0 {
		// Pebble can not ingest an empty table.
		if games == 0 && gameIndex == 0 {
			return nil
		}
		b := w.s.db.NewBatch()
		defer b.Close()
		if err := w.s.commitMeta(b, games, gameIndex, true); err != nil {
			return fmt.Errorf("store: ingest: %w", err)
		}
		return nil
	}
	if err := w.s.ingestWithMeta(paths, games, nextGame, gameIndex); err != nil {
		for _, p := range paths {
			_ = w.s.fs.Remove(p)
		}
		return fmt.Errorf("store: ingest: %w", err)
	}
	return nil
}

// finish closes the writer's sstables, removing the empty ones, and
// appends the paths of the others to paths. On failure it removes its
// files.
func (w *SSTWriter) finish(paths []string) ([]string, error) {
	if w.gw != nil {
		gw := w.gw
		w.gw = nil // closed here, whatever happens
		if err := gw.Close(); err != nil {
			_ = w.s.fs.Remove(w.gpath)
			w.abort()
			return paths, fmt.Errorf("finishing games sstable: %w", err)
		}
		paths = append(paths, w.gpath)
	}
	if w.replaceIndex {
		// A range deletion in the ingested table: Pebble gives the
		// table's keys one sequence number, and a range deletion covers
		// only keys older than itself, so the index records written
		// beside it stay, and every older one goes.
		if err := w.w.DeleteRange([]byte{prefixIndex}, []byte{prefixIndex + 1}); err != nil {
			w.abort()
			return paths, fmt.Errorf("replacing the game index: %w", err)
		}
		w.n++
	}
	if w.n > 0 {
		if err := w.w.Close(); err != nil { // syncs the file
			w.abort()
			return paths, fmt.Errorf("finishing sstable: %w", err)
		}
		return append(paths, w.path), nil
	}
	_ = w.w.Close()
	_ = w.s.fs.Remove(w.path)
	return paths, nil
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

// ingestWithMeta ingests the sstables at paths with a one-record sstable
// of the Meta advanced by games and past game number nextGame-1, with
// GameIndex set to gameIndex unless it is 0, atomically. The Meta has a
// table of its own: the store's first Meta record reached level 0
// through the memtable, and a table holding the key would land above
// it, where a big one is compacted right away;
// without it, the tables of a build into a new store go to the last
// level. Pebble removes the files when it succeeds; on failure the meta
// sstable is removed here, the others are the caller's.
func (s *Store) ingestWithMeta(paths []string, games, nextGame uint64, gameIndex int) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	metaPath, mw, err := s.createSST()
	if err != nil {
		return fmt.Errorf("meta sstable: %w", err)
	}
	m, raw, err := s.advanceMeta(games, nextGame, gameIndex, 1)
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
