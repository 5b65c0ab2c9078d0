package build_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/chessbook/chessbook/book/build"
)

// TestBuildSizeIsDu: the size a build reports for its store is what du
// says the directory takes, and, the store's logs holding nothing
// preallocated, within a few blocks of its sstables.
func TestBuildSizeIsDu(t *testing.T) {
	db := filepath.Join(t.TempDir(), "db")
	res, err := build.Run(context.Background(), build.RunOptions{Options: build.Options{Inputs: []string{champions}}, Dir: db, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("du", "-s", "-B1", db).Output()
	if err != nil {
		t.Fatalf("du: %v", err)
	}
	du, err := strconv.ParseInt(strings.Fields(string(out))[0], 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	if res.Store.Size != du {
		t.Errorf("the build reports %d bytes on disk, du says %d", res.Store.Size, du)
	}
	var tables int64
	ssts, _ := filepath.Glob(filepath.Join(db, "*.sst"))
	for _, p := range ssts {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		tables += fi.Size()
	}
	if du > tables+64<<10 {
		t.Errorf("the store takes %d bytes on disk, its sstables %d", du, tables)
	}
}
