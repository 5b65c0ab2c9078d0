package store

import (
	"io/fs"
	"path/filepath"
)

// DirSize returns the bytes dir takes on disk, as du counts them: the
// blocks allocated to each file and directory under it (a file's apparent
// size where the system does not tell), each file once however many links
// it has. It is a store's size on disk; the blocks, not the apparent
// sizes, are what the disk gives up, and they differ where a file has
// blocks allocated past its end (a preallocated log) or holes.
func DirSize(dir string) int64 {
	var n int64
	seen := map[fileID]bool{}
	_ = filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		fi, err := d.Info()
		if err != nil {
			return nil
		}
		size, id, ok := diskBlocks(fi)
		if !ok {
			if !d.IsDir() {
				n += fi.Size()
			}
			return nil
		}
		if !seen[id] {
			seen[id] = true
			n += size
		}
		return nil
	})
	return n
}

// diskSize returns the bytes the file described by fi takes on disk (see
// DirSize).
func diskSize(fi fs.FileInfo) int64 {
	if size, _, ok := diskBlocks(fi); ok {
		return size
	}
	return fi.Size()
}
