package store

import (
	"fmt"

	"github.com/cockroachdb/pebble/v2/vfs"
)

// CreateScratch creates a new, empty file in the store's scratch
// directory (where sstables are written before their ingestion), for a
// writer's temporary data, and returns it with its path. The caller
// removes it with [Store.RemoveScratch]; files a crashed run left behind
// are removed by the next writable [Open].
func (s *Store) CreateScratch() (vfs.File, string, error) {
	if s.closed.Load() {
		return nil, "", ErrClosed
	}
	if s.opts.ReadOnly {
		return nil, "", ErrReadOnly
	}
	dir := s.fs.PathJoin(s.dir, ingestDir)
	if err := s.fs.MkdirAll(dir, 0o755); err != nil {
		return nil, "", fmt.Errorf("store: scratch directory: %w", err)
	}
	path := s.fs.PathJoin(dir, fmt.Sprintf("%06d.run", s.tmpSeq.Add(1)))
	f, err := s.fs.Create(path, vfs.WriteCategoryUnspecified)
	if err != nil {
		return nil, "", fmt.Errorf("store: scratch file: %w", err)
	}
	return f, path, nil
}

// OpenScratch opens a file made by [Store.CreateScratch] for reading.
func (s *Store) OpenScratch(path string) (vfs.File, error) {
	f, err := s.fs.Open(path)
	if err != nil {
		return nil, fmt.Errorf("store: scratch file: %w", err)
	}
	return f, nil
}

// RemoveScratch removes a file made by [Store.CreateScratch].
func (s *Store) RemoveScratch(path string) error {
	if err := s.fs.Remove(path); err != nil {
		return fmt.Errorf("store: scratch file: %w", err)
	}
	return nil
}
