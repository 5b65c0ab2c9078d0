package merge

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/chessbook/chessbook/store"
)

// The sources of a merge: the stores given, opened read-only, and the
// scratch stores the replayed ones are rebuilt into.

// mergeSource is one store merged: the store as given, or the scratch
// store it was rebuilt into (replayed).
type mergeSource struct {
	dir    string
	st     *store.Store
	meta   store.Meta
	replay bool // shares games with an earlier store: rebuilt
	// rebuilt is the scratch store of a replayed source, its stamps moved
	// already; scratch its directory.
	rebuilt *store.Store
	scratch string
	// maxInput is the largest input index its stamps hold, shift what is
	// added to them, numOff what is added to its game numbers.
	maxInput uint64
	shift    uint64
	numOff   uint64
}

// copied returns the store whose records are copied: the rebuilt one of
// a replayed source.
func (s *mergeSource) copied() *store.Store {
	if s.rebuilt != nil {
		return s.rebuilt
	}
	return s.st
}

// copyShift returns the shift of the copied store's stamps: a rebuilt
// store's are moved already.
func (s *mergeSource) copyShift() uint64 {
	if s.rebuilt != nil {
		return 0
	}
	return s.shift
}

func (s *mergeSource) close() {
	if s.rebuilt != nil {
		_ = s.rebuilt.Close()
		s.rebuilt = nil
		_ = os.RemoveAll(s.scratch)
	}
	if s.st != nil {
		_ = s.st.Close()
		s.st = nil
	}
}

func (s *mergeSource) originalStore() *store.Store { return s.st }

// sameStore returns the source among earlier whose directory is dir, or
// nil.
func sameStore(earlier []*mergeSource, dir string) *mergeSource {
	fi, err := os.Stat(dir)
	if err != nil {
		return nil
	}
	for _, e := range earlier {
		if ei, err := os.Stat(e.dir); err == nil && os.SameFile(fi, ei) {
			return e
		}
	}
	return nil
}

// damagedSource names in err, an error from damaged data, the store it
// was read from: a source's directory (or dst, for its scratch stores),
// found by the damaged file's path; err as it is when none is.
func damagedSource(err error, dst string, sources []*mergeSource) error {
	file := store.DamagedFile(err)
	if file == "" {
		return err
	}
	in := func(dir string) bool {
		a, err1 := os.Stat(filepath.Dir(file))
		b, err2 := os.Stat(dir)
		return err1 == nil && err2 == nil && os.SameFile(a, b)
	}
	inner := strings.TrimPrefix(err.Error(), "merge: ")
	for _, s := range sources {
		if in(s.dir) {
			return &wrapErr{fmt.Sprintf("merge: store %s is damaged (in its file %s; 'bookquery -db %s check' lists what): %s", s.dir, filepath.Base(file), s.dir, inner), err}
		}
	}
	return &wrapErr{fmt.Sprintf("merge: damaged data in %s (of %s): %s", file, dst, inner), err}
}

// wrapErr is an error whose message says more than the error it wraps.
type wrapErr struct {
	msg string
	err error
}

func (e *wrapErr) Error() string { return e.msg }
func (e *wrapErr) Unwrap() error { return e.err }
