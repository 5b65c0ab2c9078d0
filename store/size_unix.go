//go:build unix

package store

import (
	"io/fs"
	"syscall"
)

// fileID names a file (its inode) so that DirSize counts hard links once.
type fileID struct{ dev, ino uint64 }

// diskBlocks returns the bytes of the blocks allocated to the file fi
// describes (st_blocks, in 512-byte units, as du counts them) and its
// identity; ok is false when fi does not come from stat(2).
func diskBlocks(fi fs.FileInfo) (size int64, id fileID, ok bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, fileID{}, false
	}
	return int64(st.Blocks) * 512, fileID{uint64(st.Dev), uint64(st.Ino)}, true
}
