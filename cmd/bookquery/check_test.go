package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestExportRegularFilesOnly: export refuses to replace a symbolic link, a
// named pipe or a directory (exit 2, nothing written), and writes books
// with mode 0644.
func TestExportRegularFilesOnly(t *testing.T) {
	db := championsBook(t)
	dir := t.TempDir()
	target := filepath.Join(dir, "target.bin")
	if err := os.WriteFile(target, []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.bin")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo.bin")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, out := range []string{link, fifo, dir} {
		checkBadInput(t, []string{"-db", db, "export", "-o", out}, "not a regular file")
	}
	if b, err := os.ReadFile(target); err != nil || string(b) != "keep" {
		t.Errorf("the symlink's target: %q, %v; want it untouched", b, err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the symlink: %v, %v; want it kept", fi, err)
	}
	book := filepath.Join(dir, "book.bin")
	mustRun(t, "-db", db, "export", "-q", "-o", book)
	if fi, err := os.Stat(book); err != nil || fi.Mode().Perm() != 0o644 || fi.Size() == 0 {
		t.Errorf("the book: %v, %v; want a non-empty file with mode 0644", fi, err)
	}
}

// TestCheck: check on a sound store reports no damage (exit 0); with a
// byte flipped in an sstable it names the damage in the file and exits 1,
// in one line on stderr.
func TestCheck(t *testing.T) {
	db := championsBook(t)
	out := mustRun(t, "-db", db, "check")
	if !strings.Contains(out, "no damage found") || !strings.Contains(out, "position") || !strings.Contains(out, "game") {
		t.Fatalf("check on a sound store: %q", out)
	}
	ssts, _ := filepath.Glob(filepath.Join(db, "*.sst"))
	var big string
	var size int64
	for _, p := range ssts {
		if fi, err := os.Stat(p); err == nil && fi.Size() > size {
			big, size = p, fi.Size()
		}
	}
	f, err := os.OpenFile(big, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	var b [1]byte
	if _, err := f.ReadAt(b[:], size/2); err != nil {
		t.Fatal(err)
	}
	b[0] ^= 0xff
	if _, err := f.WriteAt(b[:], size/2); err != nil {
		t.Fatal(err)
	}
	f.Close()
	out, errOut, code := runCmd(t, "-db", db, "check")
	if code != 1 || !strings.Contains(out, "damaged: "+filepath.Base(big)) || strings.Count(errOut, "\n") != 1 {
		t.Errorf("check on a damaged store: exit %d, stdout %q, stderr %q; want 1, the damage in %s, one line", code, out, errOut, filepath.Base(big))
	}
}
