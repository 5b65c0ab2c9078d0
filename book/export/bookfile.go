package export

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	iofs "io/fs"
	"os"
	"path/filepath"

	"github.com/chessbook/chessbook/internal/scratch"
	"github.com/chessbook/chessbook/polyglot"
)

// CheckBookPath reports whether a book may be written at path (see
// WriteBook): nothing is there yet, or a regular file. Only a regular
// file is replaced: renaming over a symbolic link, a named pipe or a
// device would replace it with a book. Call it before the export's work.
func CheckBookPath(path string) error {
	fi, err := os.Lstat(path)
	switch {
	case errors.Is(err, iofs.ErrNotExist):
		return nil
	case err != nil:
		return fmt.Errorf("writing %s: %w", path, err)
	case !fi.Mode().IsRegular():
		return &NotRegularError{Path: path, Kind: fileKind(fi.Mode())}
	}
	return nil
}

// NotRegularError is CheckBookPath's (and WriteBook's) error for a path
// that holds something other than a regular file.
type NotRegularError struct {
	Path string
	Kind string // "a symbolic link", "a directory", "a named pipe" ...
}

func (e *NotRegularError) Error() string {
	return fmt.Sprintf("%s: not a regular file (%s): give the path of a book file to write", e.Path, e.Kind)
}

// WriteBook writes entries as a Polyglot book at path, atomically: to a
// temporary file in the same directory, renamed over path once complete,
// so that an interrupted export never leaves a truncated book behind. The
// book is readable by all (0644: it is for engines and GUIs to read). It
// fails, writing nothing, when path holds something other than a regular
// file (see CheckBookPath). The entries are sorted as
// polyglot.WriteBook sorts them.
func WriteBook(path string, entries []polyglot.Entry) error {
	return writeAtomic(path, func(w io.Writer) error {
		if err := polyglot.WriteBook(w, entries); err != nil {
			return fmt.Errorf("writing %s: %w", path, err)
		}
		return nil
	})
}

// WriteBookFunc writes a Polyglot book at path as WriteBook does, with the
// entries that write passes to add, which must come in book order
// (polyglot.CompareEntries): the book is streamed to its file, never held
// in memory. An error of write or add leaves nothing at path; write's
// errors are returned as they are (add's name path).
func WriteBookFunc(path string, write func(add func(polyglot.Entry) error) error) error {
	return writeAtomic(path, func(w io.Writer) error {
		bw := bufio.NewWriterSize(w, 64<<10)
		var (
			prev polyglot.Entry
			n    int64
			rec  [polyglot.EntrySize]byte
		)
		err := write(func(e polyglot.Entry) error {
			if n > 0 && polyglot.CompareEntries(prev, e) > 0 {
				return fmt.Errorf("writing %s: entry %d (%v) is out of book order after %v", path, n, e, prev)
			}
			prev, n = e, n+1
			binary.BigEndian.PutUint64(rec[0:], e.Key)
			binary.BigEndian.PutUint16(rec[8:], e.Move)
			binary.BigEndian.PutUint16(rec[10:], e.Weight)
			binary.BigEndian.PutUint32(rec[12:], e.Learn)
			if _, err := bw.Write(rec[:]); err != nil {
				return fmt.Errorf("writing %s: %w", path, err)
			}
			return nil
		})
		if err != nil {
			return err
		}
		if err := bw.Flush(); err != nil {
			return fmt.Errorf("writing %s: %w", path, err)
		}
		return nil
	})
}

// writeAtomic writes the file at path with write, as WriteBook writes a
// book: to a temporary file beside it (outPattern, locked while it is
// written: see package internal/scratch), renamed over path once
// complete, 0644. The temporary files there that killed exports left are
// removed first.
// write's errors are returned as they are.
func writeAtomic(path string, write func(io.Writer) error) error {
	scratch.RemoveStale(filepath.Dir(path), outPattern)
	tmp, err := scratch.CreateLocked(filepath.Dir(path), outPattern, false)
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	// Closed after the rename: the lock keeps another export from taking
	// it for a killed one's until then.
	defer tmp.Close()
	defer os.Remove(tmp.Name())
	if err := write(tmp); err != nil {
		return err
	}
	// CreateTemp makes it 0600.
	if err := tmp.Chmod(0o644); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := tmp.Sync(); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := CheckBookPath(path); err != nil { // appeared meanwhile
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}

// The temporary files of an export (see package internal/scratch): its
// book, beside the output, and its spilled runs, in the system's
// temporary directory.
const (
	outPattern   = ".export-*.bin"
	spillPattern = "chessbook-export-*"
)

// fileKind names the kind of file of mode m, for messages.
func fileKind(m iofs.FileMode) string {
	switch {
	case m&iofs.ModeSymlink != 0:
		return "a symbolic link"
	case m.IsDir():
		return "a directory"
	case m&iofs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&iofs.ModeSocket != 0:
		return "a socket"
	case m&iofs.ModeDevice != 0:
		return "a device"
	}
	return "not a regular file"
}
