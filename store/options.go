package store

import (
	"io"
	"runtime"

	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/vfs"
)

// Options configures [Open]. The zero Options opens an existing store for
// reading and writing, with default sizes, and does not create one.
type Options struct {
	// ReadOnly opens the store for reading only. The store must exist.
	// A reader takes no lock and writes nothing: any number of readers may
	// open a store at once, also one the user cannot write, and also while
	// a writer (a build) has it open. A reader sees the store as it was
	// when it opened it; [Live] follows a writer's commits.
	ReadOnly bool

	// Meta, when set, holds the build options (MaxPly and CountMode) of the
	// run. A missing or empty directory is then made into a new store with
	// them, and an existing store must have been built with the same ones
	// or Open fails with an [*IncompatibleError]. The other fields of Meta
	// are ignored. Leave Meta nil to open an existing store whatever its
	// build options (bookquery).
	Meta *Meta

	// CacheSize is the size in bytes of the block cache. Zero means 64 MiB.
	CacheSize int64

	// MemTableSize is the size in bytes of a memtable. Zero means 64 MiB.
	MemTableSize uint64

	// CompactionConcurrency is the most compactions Pebble runs at once.
	// Zero means half the CPUs, between 1 and 4.
	CompactionConcurrency int

	// Logger receives Pebble's log messages. Nil drops its informational
	// messages and sends errors to the standard library's log package.
	Logger pebble.Logger

	// FS is the file system the store lives on. Nil means the operating
	// system's; tests use vfs.NewMem or vfs.NewCrashableMem.
	FS vfs.FS

	// flushableIngests lets Pebble queue an ingestion that overlaps the
	// memtable as a flushable, named only in the write-ahead log until the
	// next flush, as chessbook let it before it kept every commit in the
	// manifest: tests make such stores with it.
	flushableIngests bool
}

const (
	defaultCacheSize    = 64 << 20
	defaultMemTableSize = 64 << 20
)

func (o *Options) fs() vfs.FS {
	if o.FS == nil {
		return vfs.Default
	}
	return o.FS
}

func (o *Options) compactionConcurrency() int {
	if o.CompactionConcurrency > 0 {
		return o.CompactionConcurrency
	}
	return min(4, max(1, runtime.GOMAXPROCS(0)/2))
}

// quietLogger drops Pebble's informational messages.
type quietLogger struct{}

// Infof drops the message.
func (quietLogger) Infof(format string, args ...any) {}

// Errorf logs the message with Pebble's default logger.
func (quietLogger) Errorf(format string, args ...any) {
	pebble.DefaultLogger.Errorf(format, args...)
}

// Fatalf reports an error Pebble can not go on from (it can not write its
// write-ahead log or manifest: a full disk, a file system gone read-only)
// and exits with status 1, as Pebble requires. What was committed before
// stays in the store: the next open recovers it.
func (quietLogger) Fatalf(format string, args ...any) {
	pebble.DefaultLogger.Fatalf("chessbook store: fatal storage error, stopping (everything committed before is kept; "+
		"fix the cause and run again): "+format, args...)
}

// noLockFS is a file system whose Lock takes no lock: read-only opens use
// it, so that readers neither wait for a writer nor block one, and a store
// in a directory the reader cannot write can be read.
type noLockFS struct{ vfs.FS }

// Lock returns a lock that locks nothing.
func (noLockFS) Lock(string) (io.Closer, error) { return noLock{}, nil }

type noLock struct{}

func (noLock) Close() error { return nil }

// noPreallocFS is a file system whose files never preallocate: Pebble
// preallocates every write-ahead log by 110% of the memtable size (70 MiB
// with the default), blocks that stay allocated, though unused, as long as
// the file lives (and Pebble keeps old logs for reuse); a store's logs
// hold a few small records (the Meta of a new store, of a compaction: the
// builder ingests tables), so writable opens use it to keep them at their
// size.
type noPreallocFS struct{ vfs.FS }

// Create creates the file, without preallocation.
func (fs noPreallocFS) Create(name string, category vfs.DiskWriteCategory) (vfs.File, error) {
	f, err := fs.FS.Create(name, category)
	return noPreallocFile(f, err)
}

// OpenReadWrite opens the file, without preallocation.
func (fs noPreallocFS) OpenReadWrite(name string, category vfs.DiskWriteCategory, opts ...vfs.OpenOption) (vfs.File, error) {
	f, err := fs.FS.OpenReadWrite(name, category, opts...)
	return noPreallocFile(f, err)
}

// ReuseForWrite reuses the file (a recycled log), without preallocation.
func (fs noPreallocFS) ReuseForWrite(oldname, newname string, category vfs.DiskWriteCategory) (vfs.File, error) {
	f, err := fs.FS.ReuseForWrite(oldname, newname, category)
	return noPreallocFile(f, err)
}

// Unwrap returns the file system wrapped.
func (fs noPreallocFS) Unwrap() vfs.FS { return fs.FS }

func noPreallocFile(f vfs.File, err error) (vfs.File, error) {
	if err != nil {
		return nil, err
	}
	return noPrealloc{f}, nil
}

// noPrealloc is a file whose Preallocate does nothing.
type noPrealloc struct{ vfs.File }

// Preallocate does nothing.
func (noPrealloc) Preallocate(offset, length int64) error { return nil }
