package polyglot

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/chessbook/chessbook/internal/testutil"
)

// sharedBookSeeds returns fuzz seeds from ../shared/data (none when it is
// missing): the head and the tail of every real book under books/ (some
// end with out-of-order duplicates), whole when small, the HTML page named
// .bin, and the heads of the files under tricky/, which are not books at
// all (PGN, text, Scala).
func sharedBookSeeds() [][]byte {
	d := testutil.FindSharedData()
	if d == "" {
		return nil
	}
	var seeds [][]byte
	_ = filepath.WalkDir(filepath.Join(d, "books"), func(path string, e fs.DirEntry, err error) error {
		if err != nil || !e.Type().IsRegular() || !strings.HasSuffix(path, ".bin") {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return nil
		}
		seeds = append(seeds, data[:min(len(data), 1024)])
		if len(data) > 1024 {
			tail := data[len(data)-512:]
			if len(data)%EntrySize == 0 {
				tail = data[len(data)-32*EntrySize:]
			}
			seeds = append(seeds, tail)
		}
		return nil
	})
	n := 0
	_ = filepath.WalkDir(filepath.Join(d, "tricky"), func(path string, e fs.DirEntry, err error) error {
		if err != nil || !e.Type().IsRegular() || n >= 16 {
			return nil
		}
		if data, err := os.ReadFile(path); err == nil {
			seeds = append(seeds, data[:min(len(data), 512)])
			n++
		}
		return nil
	})
	return seeds
}
