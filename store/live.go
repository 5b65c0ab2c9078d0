package store

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/cockroachdb/pebble/v2/vfs"
)

// Live is a read-only view of a store that follows its writer. It keeps
// the store open read-only (see Options.ReadOnly: no lock, so a build may
// run meanwhile), and Refresh, when a writer has committed since, opens the
// store's new state: the reads that start after it see the new state, the
// reads under way finish on the old one, which is closed when the last of
// them is done. A server calls Refresh every few seconds, and when a read
// fails (a compaction by the writer may have removed a file the old state
// had not opened yet). A Live is safe for concurrent use.
type Live struct {
	dir  string
	opts Options

	refresh sync.Mutex // one Refresh at a time
	mu      sync.Mutex // guards cur and closed
	cur     *liveState
	closed  bool
	// writer is the writer that held the store's lock at the last open
	// or Refresh (nil: none).
	writer atomic.Pointer[Writer]
}

// liveState is one opened state of a Live's store.
type liveState struct {
	st   *Store
	mark string       // the manifest it was opened at (manifestMark)
	refs atomic.Int64 // reads under way, plus one while it is current
}

func (s *liveState) release() {
	if s.refs.Add(-1) == 0 {
		_ = s.st.Close()
	}
}

// OpenLive opens the store in dir read-only (opts.ReadOnly is implied) and
// returns a Live over it.
func OpenLive(dir string, opts Options) (*Live, error) {
	opts.ReadOnly = true
	l := &Live{dir: dir, opts: opts}
	s, err := l.open()
	if err != nil {
		return nil, err
	}
	l.cur = s
	l.lookForWriter()
	return l, nil
}

// lookForWriter records whether a writer holds the store's lock (on the
// operating system's file system only).
func (l *Live) lookForWriter() {
	if l.opts.FS != nil && l.opts.FS != vfs.Default {
		return
	}
	w, err := WriterOf(l.dir)
	if err != nil {
		return // keep what was known
	}
	l.writer.Store(w)
}

// Writer returns the writer (a build, merge, reindex or compaction) that
// held the store's lock when the Live was opened or last refreshed, nil
// when none did: the store the reads see is what it had committed.
func (l *Live) Writer() *Writer { return l.writer.Load() }

// open opens the store's current state.
func (l *Live) open() (*liveState, error) {
	// The mark first: a commit between the two is seen by the next Refresh.
	mark, err := manifestMark(l.opts.fs(), l.dir)
	if err != nil {
		return nil, fmt.Errorf("open store %q: %w", l.dir, err)
	}
	st, err := Open(l.dir, l.opts)
	if err != nil {
		return nil, err
	}
	s := &liveState{st: st, mark: mark}
	s.refs.Store(1)
	return s, nil
}

// Acquire returns the store's current state for one read, and the function
// to call when the read is done (the Store must not be used after it).
func (l *Live) Acquire() (*Store, func()) {
	l.mu.Lock()
	s := l.cur
	s.refs.Add(1)
	l.mu.Unlock()
	return s.st, s.release
}

// Refresh opens the store's new state when a writer has committed since
// the current one was opened, and reports whether it did. On an error the
// current state stays. It also looks again whether a writer holds the
// store's lock (Writer).
func (l *Live) Refresh() (bool, error) {
	l.refresh.Lock()
	defer l.refresh.Unlock()
	l.lookForWriter()
	l.mu.Lock()
	cur, closed := l.cur, l.closed
	l.mu.Unlock()
	if closed {
		return false, ErrClosed
	}
	mark, err := manifestMark(l.opts.fs(), l.dir)
	if err != nil {
		return false, fmt.Errorf("store %q: %w", l.dir, err)
	}
	if mark == cur.mark {
		return false, nil
	}
	s, err := l.open()
	if err != nil {
		return false, err
	}
	l.mu.Lock()
	if l.closed {
		l.mu.Unlock()
		s.release()
		return false, ErrClosed
	}
	l.cur = s
	l.mu.Unlock()
	cur.release()
	return true, nil
}

// Dir returns the store's directory.
func (l *Live) Dir() string { return l.dir }

// Close closes the store once the reads under way are done.
func (l *Live) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return ErrClosed
	}
	l.closed = true
	l.cur.release()
	return nil
}

// manifestMark names the state of the store in dir: Pebble's manifests
// and write-ahead logs with their sizes, and its marker files (which name
// the current manifest and format). An ingestion appends to the current
// manifest (or starts a new one), a batch to the log, so the mark changes
// with every commit.
func manifestMark(fs vfs.FS, dir string) (string, error) {
	names, err := fs.List(dir)
	if err != nil {
		return "", err
	}
	slices.Sort(names)
	var b strings.Builder
	found := false
	for _, name := range names {
		switch {
		case strings.HasPrefix(name, "marker."):
			b.WriteString(name)
			b.WriteByte(' ')
		case strings.HasPrefix(name, "MANIFEST-"), strings.HasSuffix(name, ".log"):
			fi, err := fs.Stat(fs.PathJoin(dir, name))
			if errors.Is(err, os.ErrNotExist) {
				continue // an old file removed meanwhile
			}
			if err != nil {
				return "", err
			}
			fmt.Fprintf(&b, "%s:%d ", name, fi.Size())
			found = found || strings.HasPrefix(name, "MANIFEST-")
		}
	}
	if !found {
		return "", ErrNotExist
	}
	return b.String(), nil
}

// Acquire returns s and a function that does nothing: a Store is a
// source of itself for the readers that take either a Store or a Live
// (see package explorer).
func (s *Store) Acquire() (*Store, func()) { return s, func() {} }
