package store

import (
	"fmt"
	"path/filepath"
)

// Writer is the writer that holds a store's lock: a build, a merge, a
// reindex or a compaction (bookbuild), at work on the store now.
type Writer struct {
	// PID is the writer's process id, as this process's system sees it;
	// 0 when not known.
	PID int `json:"pid,omitempty"`
	// Self says the writer is this process.
	Self bool `json:"self,omitempty"`
}

// WriterOf returns the writer that holds the lock of the store in dir, or
// nil when none does (or when this system cannot tell: see lockHolder).
// It neither takes the lock nor waits for it, and it never releases a
// lock this process holds (it does not open the lock file when this
// process has it open). Readers call it to say that a build is in
// progress, Check not to take a build's files for leftovers.
func WriterOf(dir string) (*Writer, error) {
	w, err := lockHolder(filepath.Join(dir, "LOCK"))
	if err != nil {
		return nil, fmt.Errorf("store %q: reading its lock: %w", dir, err)
	}
	return w, nil
}
