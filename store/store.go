package store

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"

	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/vfs"
)

// ingestDir is the subdirectory of the store where sstables are written
// before ingestion. Pebble ignores it (its name parses as no Pebble file).
const ingestDir = "chessbook-ingest"

// Store is an open chessbook store. Its methods are safe for concurrent use,
// except Close, which must be called once, after every other call returned.
type Store struct {
	dir   string
	fs    vfs.FS
	opts  Options
	popts *pebble.Options // as given to pebble.Open, defaults filled in
	db    *pebble.DB
	lock  *pebble.Lock

	closed atomic.Bool
	// compacting is set while Compact runs: it may use every CPU.
	compacting atomic.Bool
	tmpSeq     atomic.Uint64

	// mu serialises the writes that carry a new Meta record, so that the
	// last one written counts everything committed.
	mu   sync.Mutex
	meta Meta
}

// Open opens the chessbook store in dir.
//
// If dir does not exist or is empty, and opts.Meta is set and opts.ReadOnly
// is not, Open creates a new store with opts.Meta's build options; otherwise
// it fails with [ErrNotExist]. If dir holds anything but a chessbook store,
// Open fails with [ErrNotStore]; if the store has another format version or
// (when opts.Meta is set) other build options, with an [*IncompatibleError];
// if another writer has it open, with [ErrLocked] (readers, opened with
// opts.ReadOnly, never wait and are never refused: see Options.ReadOnly).
func Open(dir string, opts Options) (*Store, error) {
	s, err := open(dir, opts)
	if err != nil {
		return nil, fmt.Errorf("open store %q: %w", dir, err)
	}
	return s, nil
}

func open(dir string, opts Options) (*Store, error) {
	fs := opts.fs()
	if opts.ReadOnly {
		fs = noLockFS{fs} // see Options.ReadOnly
	} else {
		fs = noPreallocFS{fs}
	}
	if opts.Meta != nil {
		if err := opts.Meta.checkBuildOptions(); err != nil {
			return nil, err
		}
	}
	canCreate := opts.Meta != nil && !opts.ReadOnly
	kind, err := inspectDir(fs, dir)
	if err != nil {
		return nil, err
	}
	switch kind {
	case dirMissing, dirEmpty:
		if !canCreate {
			return nil, ErrNotExist
		}
		if err := fs.MkdirAll(dir, 0o755); err != nil {
			return nil, err
		}
	case dirForeign:
		return nil, fmt.Errorf("%w: the directory holds files that are not a Pebble database", ErrNotStore)
	}

	lock, err := pebble.LockDirectory(dir, fs)
	if err != nil {
		if isLockContention(err) {
			return nil, fmt.Errorf("%w (%v)", ErrLocked, err)
		}
		return nil, fmt.Errorf("locking: %w", err)
	}
	if kind == dirPebble {
		// Check the merger before Pebble does, for a clearer error.
		if err := checkMergerName(fs, dir); err != nil {
			_ = lock.Close()
			return nil, err
		}
	}

	if !opts.ReadOnly {
		// Pebble treats a failure to write its own files as fatal (it ends
		// the process): make sure the directory takes new entries first,
		// creating the (empty) ingestion directory afresh.
		if err := probeWritable(fs, dir); err != nil {
			_ = lock.Close()
			return nil, fmt.Errorf("the store directory is not writable: %w", err)
		}
	}
	s := &Store{dir: dir, fs: fs, opts: opts, lock: lock}
	s.popts = s.pebbleOptions(kind == dirPebble)
	db, err := pebble.Open(dir, s.popts)
	if err != nil {
		_ = lock.Close()
		if errors.Is(err, pebble.ErrDBDoesNotExist) {
			return nil, ErrNotExist
		}
		return nil, err
	}
	s.db = db
	if err := s.loadMeta(); err != nil {
		_ = s.db.Close()
		_ = s.lock.Close()
		return nil, err
	}
	if opts.ReadOnly {
		if err := s.openTables(); err != nil {
			_ = s.db.Close()
			return nil, err
		}
	}
	if !opts.ReadOnly {
		// Sstables left behind by a run that died before ingesting them.
		if err := fs.RemoveAll(fs.PathJoin(dir, ingestDir)); err != nil {
			_ = s.Close()
			return nil, fmt.Errorf("removing leftover sstables: %w", err)
		}
	}
	return s, nil
}

func (s *Store) pebbleOptions(exists bool) *pebble.Options {
	o := &pebble.Options{
		FS:                 s.fs,
		Lock:               s.lock,
		Merger:             newMerger(),
		ReadOnly:           s.opts.ReadOnly,
		ErrorIfNotExists:   exists,
		CacheSize:          s.opts.CacheSize,
		MemTableSize:       s.opts.MemTableSize,
		FormatMajorVersion: pebble.FormatNewest,
		Logger:             s.opts.Logger,
	}
	if o.CacheSize == 0 {
		o.CacheSize = defaultCacheSize
	}
	if o.MemTableSize == 0 {
		o.MemTableSize = defaultMemTableSize
	}
	if o.Logger == nil {
		o.Logger = quietLogger{}
	}
	// Pebble reports damaged data (a checksum that does not match) to
	// this listener before it returns the error to the read that met it;
	// its default ends the process. A store answers the error instead: a
	// server goes on answering the rest, a command reports it.
	o.EventListener = &pebble.EventListener{DataCorruption: func(pebble.DataCorruptionInfo) {}}
	if s.opts.ReadOnly {
		// A read-only open must not ratchet the format; the store keeps its own.
		o.FormatMajorVersion = pebble.FormatDefault
	}
	n := s.opts.compactionConcurrency()
	o.CompactionConcurrencyRange = func() (int, int) {
		if s.compacting.Load() {
			// A whole-store compaction (Compact) has the machine to itself.
			return 1, max(n, runtime.GOMAXPROCS(0))
		}
		return 1, n
	}
	// Fast compression in the upper levels, zstd in the last ones: a book is
	// written once and read many times, and zstd makes the final store about
	// 15% smaller than Pebble's default (snappy everywhere) at no measurable
	// cost in build time.
	o.ApplyCompressionSettings(func() pebble.DBCompressionSettings { return pebble.DBCompressionGood })
	// Pebble never compacts on its own: the builder decides (see
	// [Meta].Runs and [Store.Compact]). A build commits sorted runs
	// that each span the whole key range; Pebble places each in the
	// lowest level it does not overlap, and then compacted every level
	// above the last into it at once, so adding a small file to a big
	// store rewrote the store (1.8 s for 10k games added to a 337k-game
	// store, 5x what building them alone took). Writes never stall on
	// level 0 either: it holds what the builder leaves there.
	o.DisableAutomaticCompactions = true
	// An ingestion that overlaps the memtable (the Meta record a new
	// store, or a compaction, wrote there) flushes it first, rather than
	// being queued above it as a "flushable": the tables of a queued
	// ingestion are named only in the write-ahead log until the next
	// flush, so that a store whose log is lost loses them (opens empty),
	// and a reader's list of the store's tables misses them. Every commit
	// is then in the manifest when it returns.
	if !s.opts.flushableIngests {
		o.Experimental.DisableIngestAsFlushable = func() bool { return true }
	}
	o.L0CompactionThreshold = 1 << 20
	o.L0StopWritesThreshold = 1 << 20
	o.EnsureDefaults()
	return o
}

// openTables makes Pebble open every sstable of the state a reader
// opened (a seek into each), so that it holds them: a writer's compaction
// may then remove their files, the reader still reads them (through its
// open files) instead of failing on a file it had not opened yet.
func (s *Store) openTables() error {
	levels, err := s.db.SSTables()
	if err != nil {
		return fmt.Errorf("listing sstables: %w", err)
	}
	it, err := s.db.NewIter(nil)
	if err != nil {
		return err
	}
	for _, level := range levels {
		for _, t := range level {
			it.SeekGE(t.Smallest.UserKey)
		}
	}
	// A damaged table is no reason not to open: the reads that meet it
	// report it.
	_ = it.Close()
	return nil
}

// loadMeta reads the Meta record, creating it in a new store, and checks
// it against the options.
func (s *Store) loadMeta() error {
	raw, closer, err := s.db.Get([]byte(metaKey))
	switch {
	case errors.Is(err, pebble.ErrNotFound):
		// A new store, or a creation that died before writing its Meta:
		// either way the database is empty. A database with data but no
		// Meta is not ours.
		empty, err := s.isEmpty()
		if err != nil {
			return err
		}
		if !empty {
			return fmt.Errorf("%w: the Pebble database has no chessbook metadata", ErrNotStore)
		}
		if s.opts.Meta == nil || s.opts.ReadOnly {
			return ErrNotExist
		}
		now := timeNow()
		s.meta = Meta{
			FormatVersion:  FormatVersion,
			KeyFormat:      KeyFormat,
			Variant:        s.opts.Meta.withDefaults().Variant,
			MaxPly:         s.opts.Meta.MaxPly,
			CountMode:      s.opts.Meta.CountMode,
			KeepDuplicates: s.opts.Meta.KeepDuplicates,
			GameIndex:      s.opts.Meta.GameIndex,
			Created:        now,
			Updated:        now,
		}
		b, err := s.meta.marshal()
		if err != nil {
			return err
		}
		if err := s.db.Set([]byte(metaKey), b, pebble.Sync); err != nil {
			return fmt.Errorf("writing store meta: %w", err)
		}
		return nil
	case err != nil:
		return fmt.Errorf("reading store meta: %w", err)
	}
	m, err := unmarshalMeta(raw)
	_ = closer.Close()
	if err != nil {
		return fmt.Errorf("%w: unreadable metadata: %v", ErrNotStore, err)
	}
	if err := m.checkCompatible(s.dir, s.opts.Meta); err != nil {
		return err
	}
	if !s.opts.ReadOnly {
		// An older format this version reads: the first commit, which may
		// add what its readers cannot read, writes the current version.
		m.FormatVersion = FormatVersion
	}
	s.meta = m
	return nil
}

func (s *Store) isEmpty() (bool, error) {
	it, err := s.db.NewIter(nil)
	if err != nil {
		return false, err
	}
	empty := !it.First()
	if err := it.Close(); err != nil {
		return false, err
	}
	return empty, nil
}

// Close closes the store. Batches and writers not committed are discarded.
func (s *Store) Close() error {
	if s.closed.Swap(true) {
		return ErrClosed
	}
	s.mu.Lock() // wait for a commit in progress
	defer s.mu.Unlock()
	var err error
	if !s.opts.ReadOnly {
		// What the memtable holds (a Meta record) goes to a table, so that
		// the manifest names everything and the logs hold nothing the
		// store needs (they are then only Pebble's recycled files).
		if ferr := s.db.Flush(); ferr != nil {
			err = fmt.Errorf("flushing: %w", ferr)
		}
	}
	if cerr := s.db.Close(); err == nil {
		err = cerr
	}
	if !s.opts.ReadOnly {
		// What no commit took from the ingestion directory is dropped.
		if rerr := s.fs.RemoveAll(s.fs.PathJoin(s.dir, ingestDir)); err == nil && rerr != nil {
			err = fmt.Errorf("removing the ingestion directory: %w", rerr)
		}
	}
	if lerr := s.lock.Close(); err == nil {
		err = lerr
	}
	if err != nil {
		return fmt.Errorf("close store %q: %w", s.dir, err)
	}
	return nil
}

// Dir returns the store's directory.
func (s *Store) Dir() string { return s.dir }

// Meta returns a copy of the store's metadata, including every commit so
// far.
func (s *Store) Meta() Meta {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.meta
}

// Flush flushes the memtable to an sstable.
func (s *Store) Flush() error {
	if s.closed.Load() {
		return ErrClosed
	}
	if s.opts.ReadOnly {
		return ErrReadOnly
	}
	if err := s.db.Flush(); err != nil {
		return fmt.Errorf("flush store %q: %w", s.dir, err)
	}
	return nil
}

// Compact flushes the memtable and compacts the whole store, merging every
// position's operands into one value. Run it after a build: it makes reads
// and exports faster and the store smaller.
func (s *Store) Compact(ctx context.Context) error {
	if s.closed.Load() {
		return ErrClosed
	}
	if s.opts.ReadOnly {
		return ErrReadOnly
	}
	s.compacting.Store(true)
	defer s.compacting.Store(false)
	if err := s.db.Compact(ctx, []byte{0}, []byte{0xff}, true); err != nil {
		return fmt.Errorf("compact store %q: %w", s.dir, err)
	}
	if err := s.resetRuns(); err != nil {
		return fmt.Errorf("compact store %q: %w", s.dir, err)
	}
	return nil
}

// resetRuns records in Meta that the store holds one sorted run.
func (s *Store) resetRuns() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.meta.Runs == 0 {
		return nil
	}
	m := s.meta
	m.Runs = 0
	raw, err := m.marshal()
	if err != nil {
		return err
	}
	if err := s.db.Set([]byte(metaKey), raw, pebble.Sync); err != nil {
		return err
	}
	s.meta = m
	return nil
}

// commitMeta writes the data in b and the Meta advanced by games (and
// marked indexed by gameIndex, see advanceMeta) in one atomic Pebble
// batch. b may be empty.
func (s *Store) commitMeta(b *pebble.Batch, games uint64, gameIndex int, sync bool) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	m, raw, err := s.advanceMeta(games, 0, gameIndex, 0)
	if err != nil {
		return err
	}
	if err := b.Set([]byte(metaKey), raw, nil); err != nil {
		return err
	}
	wo := pebble.NoSync
	if sync {
		wo = pebble.Sync
	}
	if err := s.db.Apply(b, wo); err != nil {
		return err
	}
	s.meta = m
	return nil
}

// advanceMeta returns the Meta advanced by games, nextGame and runs sorted
// runs, with its GameIndex set to gameIndex unless that is 0 (see
// SSTWriter.SetGameIndex), and its encoding, for a write that commits it
// with the data it describes. s.mu must be held; the caller stores the
// returned Meta in s.meta once the write succeeded.
func (s *Store) advanceMeta(games, nextGame uint64, gameIndex, runs int) (Meta, []byte, error) {
	if s.closed.Load() {
		return Meta{}, nil, ErrClosed
	}
	m := s.meta
	m.Games += games
	m.NextGame = max(m.NextGame, nextGame)
	m.Runs += runs
	if gameIndex != 0 {
		m.GameIndex = gameIndex
	}
	m.Updated = timeNow()
	raw, err := m.marshal()
	return m, raw, err
}

// Directory kinds found by inspectDir.
const (
	dirMissing = iota
	dirEmpty
	dirPebble
	dirForeign
)

// inspectDir tells what dir holds, without writing to it.
func inspectDir(fs vfs.FS, dir string) (int, error) {
	fi, err := fs.Stat(dir)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return dirMissing, nil
		}
		return 0, err
	}
	if !fi.IsDir() {
		return 0, fmt.Errorf("%w: not a directory", ErrNotStore)
	}
	names, err := fs.List(dir)
	if err != nil {
		return 0, err
	}
	kind := dirEmpty
	for _, name := range names {
		switch {
		case name == "LOCK" || name == ingestDir:
			// Left by a creation or a run that died early.
		case strings.HasPrefix(name, "MANIFEST-") || strings.HasPrefix(name, "marker.manifest.") || name == "CURRENT":
			return dirPebble, nil
		default:
			kind = dirForeign
		}
	}
	return kind, nil
}

// checkMergerName reads the merger name from the newest OPTIONS file of the
// Pebble database in dir and checks it is ours.
func checkMergerName(fs vfs.FS, dir string) error {
	names, err := fs.List(dir)
	if err != nil {
		return err
	}
	newest := ""
	for _, name := range names {
		// OPTIONS-NNNNNN, zero-padded: the longest, then greatest, name is
		// the newest file.
		if strings.HasPrefix(name, "OPTIONS-") &&
			(len(name) > len(newest) || (len(name) == len(newest) && name > newest)) {
			newest = name
		}
	}
	if newest == "" {
		return nil // let Pebble decide
	}
	f, err := fs.Open(fs.PathJoin(dir, newest))
	if err != nil {
		return err
	}
	text, err := io.ReadAll(f)
	_ = f.Close()
	if err != nil {
		return fmt.Errorf("reading %s: %w", newest, err)
	}
	for _, line := range strings.Split(string(text), "\n") {
		name, ok := strings.CutPrefix(strings.TrimSpace(line), "merger=")
		if !ok {
			continue
		}
		switch {
		case name == MergerName:
			return nil
		case strings.HasPrefix(name, "chessbook."):
			return &IncompatibleError{Dir: dir, Field: "merge operator",
				Stored: strconv.Quote(name), Requested: strconv.Quote(MergerName), Hint: rebuildHint}
		default:
			return fmt.Errorf("%w: the Pebble database uses merge operator %q, not %q", ErrNotStore, name, MergerName)
		}
	}
	return nil
}

// probeWritable checks that new entries can be made in dir, by removing
// and making again its ingestion subdirectory (leftover sstables in it are
// removed on every writable open anyway).
func probeWritable(fs vfs.FS, dir string) error {
	sub := fs.PathJoin(dir, ingestDir)
	if err := fs.RemoveAll(sub); err != nil {
		return err
	}
	if err := fs.MkdirAll(sub, 0o755); err != nil {
		return err
	}
	return fs.RemoveAll(sub)
}

// isLockContention reports whether err from pebble.LockDirectory means the
// lock is held (rather than, say, the directory being unwritable).
func isLockContention(err error) bool {
	var pathErr *os.PathError
	if errors.As(err, &pathErr) {
		return false // creating or opening the LOCK file failed
	}
	var errno syscall.Errno
	if errors.As(err, &errno) {
		return errno == syscall.EAGAIN || errno == syscall.EACCES || errno == syscall.EWOULDBLOCK
	}
	// Pebble's in-process check has no error value of its own.
	return strings.Contains(err.Error(), "lock held by current process")
}
