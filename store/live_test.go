package store

import (
	"context"
	"errors"
	"io"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/keys"
	"github.com/chessbook/chessbook/pgn"
	"github.com/cockroachdb/pebble/v2/vfs"
)

// commitGames commits one batch of n games played from key k to s.
func commitGames(t *testing.T, s *Store, k string, n int) {
	t.Helper()
	b := s.NewBatch()
	defer b.Close()
	for range n {
		if err := b.MergeEntry([]byte(k), oneGame(1, pgn.Draw)); err != nil {
			t.Fatal(err)
		}
	}
	b.AddGames(uint64(n))
	if err := b.Commit(true); err != nil {
		t.Fatal(err)
	}
}

func gamesAt(t *testing.T, s *Store, k string) uint64 {
	t.Helper()
	e, _, err := s.StatsRecord([]byte(k))
	if err != nil {
		t.Fatal(err)
	}
	return e.Games()
}

// TestReadersBesideWriter: any number of readers open a store while a
// writer has it open and commits; each sees the state it opened.
func TestReadersBesideWriter(t *testing.T) {
	dir := t.TempDir()
	w := mustOpen(t, dir, buildOpts())
	defer w.Close()
	commitGames(t, w, "k", 2)
	var readers []*Store
	for range 3 {
		readers = append(readers, mustOpen(t, dir, Options{ReadOnly: true}))
	}
	commitGames(t, w, "k", 5)
	for i, r := range readers {
		if got := gamesAt(t, r, "k"); got != 2 {
			t.Errorf("reader %d: %d games, want the 2 committed when it opened", i, got)
		}
		if err := r.Close(); err != nil {
			t.Fatal(err)
		}
	}
	r := mustOpen(t, dir, Options{ReadOnly: true})
	defer r.Close()
	if got := gamesAt(t, r, "k"); got != 7 {
		t.Errorf("a reader opened after the second commit: %d games, want 7", got)
	}
}

// writeRefusingFS fails every call that would write or lock, as a
// directory the user cannot write does.
type writeRefusingFS struct{ vfs.FS }

var errRefused = errors.New("permission denied (test)")

func (writeRefusingFS) Create(string, vfs.DiskWriteCategory) (vfs.File, error) {
	return nil, errRefused
}
func (writeRefusingFS) Lock(string) (io.Closer, error)     { return nil, errRefused }
func (writeRefusingFS) MkdirAll(string, os.FileMode) error { return errRefused }
func (writeRefusingFS) Remove(string) error                { return errRefused }
func (writeRefusingFS) RemoveAll(string) error             { return errRefused }
func (writeRefusingFS) Rename(string, string) error        { return errRefused }
func (writeRefusingFS) Link(string, string) error          { return errRefused }
func (writeRefusingFS) OpenReadWrite(string, vfs.DiskWriteCategory, ...vfs.OpenOption) (vfs.File, error) {
	return nil, errRefused
}
func (writeRefusingFS) ReuseForWrite(string, string, vfs.DiskWriteCategory) (vfs.File, error) {
	return nil, errRefused
}

// TestReadOnlyDirectory: a reader needs no write access: it opens and
// reads a store on a file system that refuses every write and lock.
func TestReadOnlyDirectory(t *testing.T) {
	dir := t.TempDir()
	w := mustOpen(t, dir, buildOpts())
	commitGames(t, w, "k", 3)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	r, err := Open(dir, Options{ReadOnly: true, FS: writeRefusingFS{vfs.Default}})
	if err != nil {
		t.Fatalf("read-only open of an unwritable store: %v", err)
	}
	defer r.Close()
	if got := gamesAt(t, r, "k"); got != 3 {
		t.Errorf("%d games, want 3", got)
	}
	if _, err := Open(dir, Options{FS: writeRefusingFS{vfs.Default}}); err == nil {
		t.Error("a writer opened an unwritable store")
	}
}

// TestLive: a Live sees a writer's commits after Refresh, and a read
// under way keeps the state it acquired until it releases it.
func TestLive(t *testing.T) {
	dir := t.TempDir()
	w := mustOpen(t, dir, buildOpts())
	defer w.Close()
	commitGames(t, w, "k", 1)
	l, err := OpenLive(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if fresh, err := l.Refresh(); err != nil || fresh {
		t.Fatalf("Refresh with no commit = %v, %v; want false, nil", fresh, err)
	}
	old, release := l.Acquire()
	commitGames(t, w, "k", 4)
	if fresh, err := l.Refresh(); err != nil || !fresh {
		t.Fatalf("Refresh after a commit = %v, %v; want true, nil", fresh, err)
	}
	if got := gamesAt(t, old, "k"); got != 1 {
		t.Errorf("the state acquired before: %d games, want 1", got)
	}
	release()
	st, release := l.Acquire()
	defer release()
	if got := gamesAt(t, st, "k"); got != 5 {
		t.Errorf("after Refresh: %d games, want 5", got)
	}
	if got := st.Meta().Games; got != 5 {
		t.Errorf("after Refresh: Meta.Games %d, want 5", got)
	}
}

// TestDamagedBlock flips a byte inside an sstable's data: a read that
// meets it gets an error (the process goes on: Pebble's default would
// exit), reads elsewhere still answer, and Check names the file.
func TestDamagedBlock(t *testing.T) {
	dir := t.TempDir()
	w := mustOpen(t, dir, buildOpts())
	sst, err := w.NewSSTWriter()
	if err != nil {
		t.Fatal(err)
	}
	// Enough records for several data blocks, incompressible enough that
	// the flipped byte lands in one.
	keysWritten := randomPositionKeys(20000)
	for _, k := range keysWritten {
		e := oneGame(uint16(1+len(k)), pgn.Draw)
		if err := sst.MergeEntry([]byte(k), e); err != nil {
			t.Fatal(err)
		}
	}
	if err := sst.Ingest(); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	ssts, _ := filepath.Glob(filepath.Join(dir, "*.sst"))
	var big string
	var size int64
	for _, p := range ssts {
		if fi, err := os.Stat(p); err == nil && fi.Size() > size {
			big, size = p, fi.Size()
		}
	}
	if size < 16<<10 {
		t.Fatalf("largest sstable %s has %d bytes: too small to damage one block", big, size)
	}
	f, err := os.OpenFile(big, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	var b [1]byte
	if _, err := f.ReadAt(b[:], size/3); err != nil {
		t.Fatal(err)
	}
	b[0] ^= 0x5a
	if _, err := f.WriteAt(b[:], size/3); err != nil {
		t.Fatal(err)
	}
	f.Close()

	r := mustOpen(t, dir, Options{ReadOnly: true})
	defer r.Close()
	bad, good := 0, 0
	for _, k := range keysWritten {
		if _, _, err := r.StatsRecord([]byte(k)); err != nil {
			bad++
		} else {
			good++
		}
	}
	if bad == 0 || good == 0 {
		t.Fatalf("%d reads failed, %d answered: want both", bad, good)
	}
	var damage []Damage
	cs, err := r.Check(context.Background(), CheckOptions{Report: func(d Damage) { damage = append(damage, d) }})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range damage {
		t.Log(d.File, "|", d)
	}
	if cs.Damaged == 0 || len(damage) == 0 || damage[0].File != filepath.Base(big) {
		t.Fatalf("Check: %+v, damage %v; want the damage in %s", cs, damage, filepath.Base(big))
	}
	t.Logf("%d reads failed, %d answered; Check: %v", bad, good, damage)
}

// randomPositionKeys returns n distinct position keys, sorted: positions
// of random games.
func randomPositionKeys(n int) []string {
	rng := rand.New(rand.NewPCG(3, 4))
	seen := map[string]bool{}
	var moves []board.Move
	for len(seen) < n {
		p := board.StartPosition()
		for range 60 {
			moves = p.LegalMoves(moves[:0])
			if len(moves) == 0 {
				break
			}
			p.Play(moves[rng.IntN(len(moves))])
			seen[string(keys.Encode(&p))] = true
		}
	}
	return slices.Sorted(maps.Keys(seen))
}

// TestReaderBesideCompaction: a reader keeps reading the state it opened
// after the writer compacted the store, removing every table of that
// state: it holds them open from the start.
func TestReaderBesideCompaction(t *testing.T) {
	dir := t.TempDir()
	w := mustOpen(t, dir, buildOpts())
	defer w.Close()
	positions := randomPositionKeys(3000)
	for part := range 3 {
		sst, err := w.NewSSTWriter()
		if err != nil {
			t.Fatal(err)
		}
		for i, k := range positions {
			if i%3 == part {
				if err := sst.MergeEntry([]byte(k), oneGame(uint16(1+part), pgn.Draw)); err != nil {
					t.Fatal(err)
				}
			}
		}
		if err := sst.Ingest(); err != nil {
			t.Fatal(err)
		}
	}
	r := mustOpen(t, dir, Options{ReadOnly: true})
	defer r.Close()
	if err := w.Compact(context.Background()); err != nil {
		t.Fatal(err)
	}
	ssts, _ := filepath.Glob(filepath.Join(dir, "*.sst"))
	t.Logf("%d sstables after the compaction", len(ssts))
	for _, k := range positions {
		e, ok, err := r.StatsRecord([]byte(k))
		if err != nil || !ok || e.Games() != 1 {
			t.Fatalf("the reader opened before the compaction: Get = %v, %v, %v", e.Games(), ok, err)
		}
	}
}
