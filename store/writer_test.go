//go:build linux

package store

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestWriterOf: a store no writer holds has none; one this process opened
// for writing is held by this process, and asking does not release the
// lock (closing any descriptor of the lock file would: POSIX locks), as
// another process sees; after Close none holds it.
func TestWriterOf(t *testing.T) {
	if dir := os.Getenv("STORE_WRITER_OF"); dir != "" {
		// The other process: print what it sees.
		w, err := WriterOf(dir)
		switch {
		case err != nil:
			fmt.Printf("error %v\n", err)
		case w == nil:
			fmt.Println("none")
		default:
			fmt.Printf("pid %d self %v\n", w.PID, w.Self)
		}
		return
	}
	other := func(dir string) string {
		cmd := exec.Command(os.Args[0], "-test.run=^TestWriterOf$")
		cmd.Env = append(os.Environ(), "STORE_WRITER_OF="+dir)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("the other process: %v: %s", err, out)
		}
		line, _, _ := strings.Cut(string(out), "\n")
		return line
	}
	dir := filepath.Join(t.TempDir(), "s")
	if w, err := WriterOf(dir); w != nil || err != nil {
		t.Errorf("WriterOf(no store) = %+v, %v; want none", w, err)
	}
	s, err := Open(dir, buildOpts())
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if w, err := WriterOf(dir); err != nil || w == nil || !w.Self || w.PID != os.Getpid() {
			t.Errorf("WriterOf(a store open here) = %+v, %v; want this process", w, err)
		}
	}
	if got, want := other(dir), "pid "+strconv.Itoa(os.Getpid())+" self false"; got != want {
		t.Errorf("another process sees %q, want %q (the lock was released?)", got, want)
	}
	if r, err := Open(dir, Options{ReadOnly: true}); err != nil {
		t.Fatal(err)
	} else if w, err := WriterOf(dir); err != nil || w == nil || !w.Self {
		t.Errorf("WriterOf with a reader open too = %+v, %v; want this process", w, err)
	} else {
		r.Close()
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if w, err := WriterOf(dir); w != nil || err != nil {
		t.Errorf("WriterOf(a closed store) = %+v, %v; want none", w, err)
	}
	if got := other(dir); got != "none" {
		t.Errorf("another process sees %q after Close, want none", got)
	}
}

// TestCheckDirBesideWriter: while a writer holds the lock, CheckDir lists
// the files of the ingestion directory as its work in progress, not as
// leftovers; once the writer is gone (killed), they are leftovers.
func TestCheckDirBesideWriter(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "s")
	s, err := Open(dir, buildOpts())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, ingestDir), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ingestDir, "run-1.sst"), make([]byte, 10000), 0o644); err != nil {
		t.Fatal(err)
	}
	rep, err := CheckDir(context.Background(), dir, CheckOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Writer == nil || !rep.Writer.Self || len(rep.Leftovers) != 0 || len(rep.InProgress) != 1 || rep.InProgress[0].File != ingestDir+"/" || rep.Damaged != 0 {
		t.Errorf("CheckDir beside a writer: writer %+v, leftovers %+v, in progress %+v, %d damaged", rep.Writer, rep.Leftovers, rep.InProgress, rep.Damaged)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	// Close removes the ingestion directory: as a killed writer, leave it.
	if err := os.MkdirAll(filepath.Join(dir, ingestDir), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ingestDir, "run-1.sst"), make([]byte, 10000), 0o644); err != nil {
		t.Fatal(err)
	}
	rep, err = CheckDir(context.Background(), dir, CheckOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Writer != nil || len(rep.Leftovers) != 1 || len(rep.InProgress) != 0 {
		t.Errorf("CheckDir after the writer: writer %+v, leftovers %+v, in progress %+v", rep.Writer, rep.Leftovers, rep.InProgress)
	}
}
