package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/chessbook/chessbook/store"
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

// TestCheckLeftoversAndLoss: a compaction's output the store does not
// reference (a copy of one of its tables) is a leftover: listed with its
// size, exit 0, also in -json; the store's write-ahead logs are not
// needed (deleting them changes nothing); with a table the store names
// gone, check exits 1 and says which.
func TestCheckLeftoversAndLoss(t *testing.T) {
	db := championsBook(t)
	logs, _ := filepath.Glob(filepath.Join(db, "*.log"))
	for _, l := range logs {
		if err := os.Remove(l); err != nil {
			t.Fatal(err)
		}
	}
	ssts, _ := filepath.Glob(filepath.Join(db, "*.sst"))
	var big string
	var size int64
	for _, p := range ssts {
		if fi, err := os.Stat(p); err == nil && fi.Size() > size {
			big, size = p, fi.Size()
		}
	}
	b, err := os.ReadFile(big)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(db, "000999.sst"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	out := mustRun(t, "-db", db, "check")
	if !strings.Contains(out, "no damage found") || !strings.Contains(out, "leftovers: 1 file") || !strings.Contains(out, "000999.sst") {
		t.Fatalf("check with a leftover: %q", out)
	}
	var rep struct {
		Tables    []struct{ File string }
		Leftovers []struct {
			File  string
			Bytes int64
		}
		Records map[string]int
		Damaged int
		Damage  []string
	}
	if err := json.Unmarshal([]byte(mustRun(t, "-db", db, "check", "-json")), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Damaged != 0 || len(rep.Damage) != 0 || len(rep.Tables) != len(ssts) || len(rep.Leftovers) != 1 ||
		rep.Leftovers[0].File != "000999.sst" || rep.Leftovers[0].Bytes < size || rep.Records["game"] == 0 {
		t.Fatalf("check -json with a leftover: %+v", rep)
	}

	if err := os.Remove(big); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := runCmd(t, "-db", db, "check")
	if code != 1 || !strings.Contains(out, "damaged: "+filepath.Base(big)+": missing") || strings.Count(errOut, "\n") != 1 {
		t.Errorf("check with a table gone: exit %d, stdout %q, stderr %q; want 1, the table named missing", code, out, errOut)
	}
}

// TestCheckLimit: -limit bounds the problems listed, not those counted;
// a store that does not open is described, not refused.
func TestCheckLimit(t *testing.T) {
	db := championsBook(t)
	ssts, _ := filepath.Glob(filepath.Join(db, "*.sst"))
	for _, p := range ssts {
		if err := os.Remove(p); err != nil {
			t.Fatal(err)
		}
	}
	out, _, code := runCmd(t, "-db", db, "check", "-limit", "1")
	if code != 1 || strings.Count(out, "damaged: ") != 1 || !strings.Contains(out, "more (-limit 0 lists them all)") {
		t.Errorf("check -limit 1 with %d tables gone: exit %d, %q", len(ssts), code, out)
	}
	out, _, _ = runCmd(t, "-db", db, "check", "-limit", "0")
	if n := strings.Count(out, ": missing"); n != len(ssts) {
		t.Errorf("check -limit 0 lists %d missing tables; want %d: %q", n, len(ssts), out)
	}
	manifests, _ := filepath.Glob(filepath.Join(db, "MANIFEST-*"))
	for _, p := range manifests {
		if err := os.Remove(p); err != nil {
			t.Fatal(err)
		}
	}
	out, errOut, code := runCmd(t, "-db", db, "check")
	if code != 1 || !strings.Contains(out, "does not open") || !strings.Contains(out, "no manifest") || strings.Contains(errOut, "lists what") {
		t.Errorf("check without a manifest: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	checkBadInput(t, []string{"-db", db, "check", "-limit", "-1"}, "-limit")
}

// TestExportQuiet: export -q writes the book and prints nothing (only
// errors and warnings, as its help and bookbuild's -q say); without -q it
// prints its one-line summary.
func TestExportQuiet(t *testing.T) {
	db := buildBookCount(t, store.CountOccurrence, championsPGN)
	dir := t.TempDir()
	quiet := filepath.Join(dir, "q.bin")
	if out := mustRun(t, "-db", db, "export", "-q", "-o", quiet); out != "" {
		t.Errorf("export -q printed %q", out)
	}
	loud := filepath.Join(dir, "l.bin")
	// (stderr has the note on how a store that drops duplicates differs
	// from make-book's; -q left it out.)
	if out, _, code := runCmd(t, "-db", db, "export", "-o", loud); code != 0 || !strings.Contains(out, " entries (") {
		t.Errorf("export: exit %d, printed %q: want its summary", code, out)
	}
	a, errA := os.ReadFile(quiet)
	b, errB := os.ReadFile(loud)
	if errA != nil || errB != nil || len(a) == 0 || !bytes.Equal(a, b) {
		t.Errorf("export -q wrote %d bytes (%v), export %d (%v): want the same book", len(a), errA, len(b), errB)
	}
}
