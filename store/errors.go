package store

import (
	"errors"
	"fmt"
)

// Errors returned, wrapped with the directory and details, by [Open] and the
// Store's methods. Test for them with errors.Is.
var (
	// ErrNotExist: there is no store in the directory, and Open was asked
	// to open one read-only or was given no Meta to create one with.
	ErrNotExist = errors.New("no chessbook store here")

	// ErrNotStore: the directory holds something else: files that are not
	// a Pebble database, or a Pebble database that chessbook did not write.
	ErrNotStore = errors.New("not a chessbook store")

	// ErrIncompatible: the store was written with another format version,
	// or built with other build options than the ones asked for. The error
	// is an [*IncompatibleError] that names both values.
	ErrIncompatible = errors.New("incompatible chessbook store")

	// ErrLocked: another writer (another process, or another Store in this
	// process, not opened read-only) has the store open.
	ErrLocked = errors.New("store is in use by another process")

	// ErrReadOnly: a write to a store opened with Options.ReadOnly.
	ErrReadOnly = errors.New("store is open read-only")

	// ErrClosed: a call on a closed Store.
	ErrClosed = errors.New("store is closed")

	// ErrUnsorted: SSTWriter.Merge was given a position key not greater than
	// the previous one.
	ErrUnsorted = errors.New("position keys not strictly increasing")
)

// IncompatibleError reports a store that can not be used as asked: its
// format version is not the one this program reads, or it was built with
// other build options. errors.Is(err, ErrIncompatible) is true for it.
type IncompatibleError struct {
	Dir       string // the store directory
	Field     string // what differs: "format version", "key format", "variant", "max-ply", "count mode", "merge operator"
	Stored    string // the value the store has
	Requested string // the value this program or run asks for
	Hint      string // what to do about it, or ""
}

// Error names the field and both values, then the hint if any, on one
// line. (Open's error, which wraps it, names the directory.)
func (e *IncompatibleError) Error() string {
	msg := fmt.Sprintf("incompatible %s: the store has %s, this run asks for %s",
		e.Field, e.Stored, e.Requested)
	if e.Hint != "" {
		msg += " (" + e.Hint + ")"
	}
	return msg
}

// Is reports whether target is ErrIncompatible.
func (e *IncompatibleError) Is(target error) bool { return target == ErrIncompatible }
