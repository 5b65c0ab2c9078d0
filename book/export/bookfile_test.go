package export_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/chessbook/chessbook/book/export"
	"github.com/chessbook/chessbook/polyglot"
	"github.com/chessbook/chessbook/store"
)

// TestWriteBook: WriteBook writes a book that polyglot.OpenBook reads
// back entry for entry, readable by all (0644), in place of a regular file
// that was there; it refuses a symbolic link, a named pipe and a
// directory, leaving each as it was, and leaves no temporary file behind.
func TestWriteBook(t *testing.T) {
	dir := t.TempDir()
	entries := []polyglot.Entry{{Key: 1, Move: 0x31c, Weight: 7}, {Key: 1, Move: 0x2db, Weight: 3}, {Key: 9, Move: 0x1a, Weight: 1}}
	out := filepath.Join(dir, "book.bin")
	if err := os.WriteFile(out, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := export.CheckBookPath(out); err != nil {
		t.Fatalf("CheckBookPath(a regular file): %v", err)
	}
	if err := export.WriteBook(out, entries); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(out)
	if err != nil || fi.Mode().Perm() != 0o644 || fi.Size() != int64(len(entries))*polyglot.EntrySize {
		t.Fatalf("the book: %v, %v; want %d bytes, mode 0644", fi, err, len(entries)*polyglot.EntrySize)
	}
	bk, err := polyglot.OpenBook(out)
	if err != nil {
		t.Fatal(err)
	}
	if got := bk.Entries(); len(got) != len(entries) || got[0] != entries[0] || got[2] != entries[2] {
		t.Fatalf("read back %v, wrote %v", got, entries)
	}

	link := filepath.Join(dir, "link.bin")
	if err := os.Symlink(out, link); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo.bin")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	for path, kind := range map[string]string{link: "a symbolic link", fifo: "a named pipe", sub: "a directory"} {
		for name, err := range map[string]error{"CheckBookPath": export.CheckBookPath(path), "WriteBook": export.WriteBook(path, entries)} {
			var nr *export.NotRegularError
			if !errors.As(err, &nr) || nr.Kind != kind || !strings.Contains(err.Error(), "not a regular file") {
				t.Errorf("%s(%s): %v; want a NotRegularError naming %s", name, filepath.Base(path), err, kind)
			}
		}
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced: %v, %v", fi, err)
	}
	left, _ := filepath.Glob(filepath.Join(dir, ".export-*"))
	if len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

// TestOptionsCheck: a -max-ply under the build's is refused on a
// -count occurrence store (all plies, or more than asked for), and taken
// when it is at least the build's or the store counts games; the flags
// that exclude each other or are out of range are refused.
func TestOptionsCheck(t *testing.T) {
	occ := func(maxPly int) store.Meta { return store.Meta{CountMode: store.CountOccurrence, MaxPly: maxPly} }
	cases := []struct {
		o    export.Options
		m    store.Meta
		want string // "" for no error
	}{
		{export.Options{MaxPly: 20}, occ(0), "all plies"},
		{export.Options{MaxPly: 20}, occ(40), "the first 40 plies"},
		{export.Options{MaxPly: 40}, occ(40), ""},
		{export.Options{MaxPly: 60}, occ(40), ""},
		{export.Options{}, occ(0), ""},
		{export.Options{MaxPly: 20}, store.Meta{CountMode: store.CountGame}, ""},
		{export.Options{OnlyWhite: true, OnlyBlack: true}, occ(0), "exclude each other"},
		{export.Options{MaxPly: -1}, occ(0), "-max-ply -1"},
		{export.Options{MinScore: 101}, occ(0), "-min-score 101"},
	}
	for _, c := range cases {
		err := c.o.Check(c.m)
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%+v on %+v: %v; want %q", c.o, c.m, err, c.want)
		}
	}
	if d := export.DiffersFromMakeBook(store.Meta{CountMode: store.CountOccurrence, KeepDuplicates: true}); d != "" {
		t.Errorf("a make-book store differs: %s", d)
	}
	if d := export.DiffersFromMakeBook(store.Meta{CountMode: store.CountGame}); !strings.Contains(d, "-count game") || !strings.Contains(d, "duplicates dropped") {
		t.Errorf("a -count game store without duplicates: %q", d)
	}
}
