// Package scratch makes the temporary files and directories of a process
// that does not own the directory they go in (an export's book beside its
// output, a reader's sorted runs in the system's temporary directory) so
// that what a killed process left can be told from what a running one
// uses: each holds an exclusive lock (flock) on its file or directory
// while its process runs, and the lock goes with the process, however it
// ends. RemoveStale removes the files and directories of a name whose
// lock it can take: a killed process's, never a running one's.
package scratch

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// CreateLocked creates a new file (dir false) or directory (dir true) in
// parent, named as pattern (os.CreateTemp's), and locks it. It returns
// the file open (for writing, a file) holding the lock: closing it
// releases the lock.
func CreateLocked(parent, pattern string, dir bool) (*os.File, error) {
	for {
		var f *os.File
		var err error
		if dir {
			var path string
			if path, err = os.MkdirTemp(parent, pattern); err == nil {
				if f, err = os.Open(path); errors.Is(err, fs.ErrNotExist) {
					// Another process's RemoveStale took it before it
					// was locked: make another.
					continue
				} else if err != nil {
					_ = os.Remove(path)
				}
			}
		} else {
			f, err = os.CreateTemp(parent, pattern)
		}
		if err != nil {
			return nil, err
		}
		if err := lockFile(f, true); err != nil {
			f.Close()
			_ = os.Remove(f.Name())
			return nil, fmt.Errorf("locking %s: %w", f.Name(), err)
		}
		// Another export may have found it before it was locked, taken it
		// for a killed export's and removed it: then make another.
		if same(f) {
			return f, nil
		}
		f.Close()
	}
}

// same reports whether f's path still names f's file.
func same(f *os.File) bool {
	a, err := f.Stat()
	if err != nil {
		return false
	}
	b, err := os.Lstat(f.Name())
	return err == nil && os.SameFile(a, b)
}

// RemoveStale removes the files and directories in parent named as
// pattern (a filepath.Match pattern) whose lock it can take: what killed
// processes left. It returns how many it removed and their bytes.
func RemoveStale(parent, pattern string) (n int, bytes int64) {
	paths, _ := filepath.Glob(filepath.Join(parent, pattern))
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			continue
		}
		if lockFile(f, false) == nil && same(f) {
			size := treeSize(p)
			if os.RemoveAll(p) == nil {
				n++
				bytes += size
			}
		}
		f.Close()
	}
	return n, bytes
}

// treeSize returns the bytes of the regular files at or under path.
func treeSize(path string) int64 {
	var size int64
	_ = filepath.WalkDir(path, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if fi, err := d.Info(); err == nil {
				size += fi.Size()
			}
		}
		return nil
	})
	return size
}
