package store

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/pgn"
	"github.com/chessbook/chessbook/stats"
	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/vfs"
)

func buildOpts() Options {
	return Options{Meta: &Meta{MaxPly: 40, CountMode: CountOccurrence}}
}

func mustOpen(t *testing.T, dir string, opts Options) *Store {
	t.Helper()
	s, err := Open(dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func oneGame(move uint16, r pgn.Result) stats.Entry {
	var e stats.Entry
	e.Add(board.Move(move), r, 2000, 20200101)
	return e
}

func TestOpenNotAStore(t *testing.T) {
	t.Run("foreign files", func(t *testing.T) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "games.pgn"), []byte("1. e4 *"), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := Open(dir, buildOpts())
		if !errors.Is(err, ErrNotStore) {
			t.Fatalf("err = %v, want ErrNotStore", err)
		}
		t.Log(err)
		// Open must not have written anything into the directory.
		names, _ := os.ReadDir(dir)
		if len(names) != 1 {
			t.Errorf("Open wrote into a foreign directory: %v", names)
		}
	})
	t.Run("file", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "f")
		if err := os.WriteFile(path, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := Open(path, buildOpts()); !errors.Is(err, ErrNotStore) {
			t.Fatalf("err = %v, want ErrNotStore", err)
		}
	})
	t.Run("other pebble database", func(t *testing.T) {
		dir := t.TempDir()
		db, err := pebble.Open(dir, &pebble.Options{Logger: quietLogger{}})
		if err != nil {
			t.Fatal(err)
		}
		if err := db.Set([]byte("hello"), []byte("world"), pebble.Sync); err != nil {
			t.Fatal(err)
		}
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
		_, err = Open(dir, buildOpts())
		if !errors.Is(err, ErrNotStore) {
			t.Fatalf("err = %v, want ErrNotStore", err)
		}
		t.Log(err)
	})
	t.Run("our merger, no meta", func(t *testing.T) {
		dir := t.TempDir()
		db, err := pebble.Open(dir, &pebble.Options{Logger: quietLogger{}, Merger: newMerger()})
		if err != nil {
			t.Fatal(err)
		}
		if err := db.Set([]byte("p1"), []byte{1}, pebble.Sync); err != nil {
			t.Fatal(err)
		}
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
		_, err = Open(dir, buildOpts())
		if !errors.Is(err, ErrNotStore) {
			t.Fatalf("err = %v, want ErrNotStore", err)
		}
		t.Log(err)
	})
	t.Run("older merger", func(t *testing.T) {
		dir := t.TempDir()
		m := newMerger()
		m.Name = "chessbook.entry.v1" // an older store
		db, err := pebble.Open(dir, &pebble.Options{Logger: quietLogger{}, Merger: m})
		if err != nil {
			t.Fatal(err)
		}
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
		_, err = Open(dir, buildOpts())
		var ie *IncompatibleError
		if !errors.As(err, &ie) || ie.Field != "merge operator" || !errors.Is(err, ErrIncompatible) || !strings.Contains(err.Error(), "rebuild the store") {
			t.Fatalf("err = %v, want an IncompatibleError on the merge operator, asking for a rebuild", err)
		}
		t.Log(err)
	})
}

func TestOpenFormatVersion(t *testing.T) {
	dir := t.TempDir()
	s := mustOpen(t, dir, buildOpts())
	m := s.Meta()
	m.FormatVersion = FormatVersion + 1
	raw, _ := m.marshal()
	if err := s.db.Set([]byte(metaKey), raw, pebble.Sync); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	for _, opts := range []Options{buildOpts(), {}, {ReadOnly: true}} {
		_, err := Open(dir, opts)
		var ie *IncompatibleError
		if !errors.As(err, &ie) || ie.Field != "format version" || !errors.Is(err, ErrIncompatible) {
			t.Fatalf("err = %v, want an IncompatibleError on the format version", err)
		}
		want := fmt.Sprintf("incompatible format version: the store has %d, this run asks for %d", FormatVersion+1, FormatVersion)
		if !strings.Contains(err.Error(), want) {
			t.Errorf("err = %q, want it to contain %q", err, want)
		}
		// One line, that says what to do.
		if msg := err.Error(); !strings.Contains(msg, "rebuild the store") || strings.Contains(msg, "\n") {
			t.Errorf("err = %q, want one line asking for a rebuild", msg)
		}
	}
}

// TestOpenOlderFormat: a store of MinFormatVersion opens for reading and
// writing; it stays at its version until a commit, which upgrades it.
func TestOpenOlderFormat(t *testing.T) {
	dir := t.TempDir()
	s := mustOpen(t, dir, buildOpts())
	m := s.Meta()
	m.FormatVersion = MinFormatVersion
	raw, _ := m.marshal()
	if err := s.db.Set([]byte(metaKey), raw, pebble.Sync); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	stored := func() int {
		r, err := Open(dir, Options{ReadOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		return r.Meta().FormatVersion
	}
	if v := stored(); v != MinFormatVersion {
		t.Fatalf("read-only open: format %d, want %d", v, MinFormatVersion)
	}
	w := mustOpen(t, dir, buildOpts())
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if v := stored(); v != MinFormatVersion {
		t.Fatalf("after opening for writing, no commit: format %d, want %d", v, MinFormatVersion)
	}
	w = mustOpen(t, dir, buildOpts())
	if err := w.commitMeta(w.db.NewBatch(), 1, 0, true); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if v := stored(); v != FormatVersion {
		t.Fatalf("after a commit: format %d, want %d", v, FormatVersion)
	}
}

// TestOpenLocked: a second writer is refused while one has the store
// open; readers are not (see TestReadersBesideWriter).
func TestOpenLocked(t *testing.T) {
	dir := t.TempDir()
	s := mustOpen(t, dir, buildOpts())
	defer s.Close()
	for _, opts := range []Options{buildOpts(), {}} {
		if _, err := Open(dir, opts); !errors.Is(err, ErrLocked) {
			t.Fatalf("second Open: err = %v, want ErrLocked", err)
		} else {
			t.Log(err)
		}
	}
	r := mustOpen(t, dir, Options{ReadOnly: true})
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestOpenLockedByOtherProcess holds the store open in a child process (this
// test binary, re-run as a helper) and checks Open reports ErrLocked.
func TestOpenLockedByOtherProcess(t *testing.T) {
	if dir := os.Getenv("CHESSBOOK_STORE_LOCK_HELPER"); dir != "" {
		s, err := Open(dir, buildOpts())
		if err != nil {
			fmt.Println("error:", err)
			os.Exit(1)
		}
		fmt.Println("open")
		_, _ = bufio.NewReader(os.Stdin).ReadString('\n') // until the parent says
		_ = s.Close()
		os.Exit(0)
	}
	dir := t.TempDir()
	s := mustOpen(t, dir, buildOpts())
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestOpenLockedByOtherProcess$")
	cmd.Env = append(os.Environ(), "CHESSBOOK_STORE_LOCK_HELPER="+dir)
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal("can not start the helper process:", err)
	}
	defer func() {
		_ = stdin.Close()
		_ = cmd.Wait()
	}()
	line, _ := bufio.NewReader(stdout).ReadString('\n')
	if line != "open\n" {
		t.Fatalf("helper: %q", line)
	}
	_, err := Open(dir, Options{})
	if !errors.Is(err, ErrLocked) {
		t.Fatalf("err = %v, want ErrLocked", err)
	}
	t.Log(err)
	r, err := Open(dir, Options{ReadOnly: true})
	if err != nil {
		t.Fatalf("a reader beside the other process's writer: %v", err)
	}
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestReadOnly(t *testing.T) {
	dir := t.TempDir()
	s := mustOpen(t, dir, buildOpts())
	b := s.NewBatch()
	if err := b.MergeEntry([]byte("k"), oneGame(1, pgn.Draw)); err != nil {
		t.Fatal(err)
	}
	if err := b.Commit(false); err != nil { // not synced: the WAL must be replayed
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = mustOpen(t, dir, Options{ReadOnly: true})
	defer s.Close()
	e, ok, err := s.StatsRecord([]byte("k"))
	if err != nil || !ok || e.Games() != 1 {
		t.Fatalf("Get = %+v, %v, %v", e, ok, err)
	}
	if _, err := s.NewSSTWriter(); !errors.Is(err, ErrReadOnly) {
		t.Errorf("NewSSTWriter: %v, want ErrReadOnly", err)
	}
	if err := s.Compact(context.Background()); !errors.Is(err, ErrReadOnly) {
		t.Errorf("Compact: %v, want ErrReadOnly", err)
	}
	b = s.NewBatch()
	defer b.Close()
	_ = b.MergeEntry([]byte("k"), oneGame(1, pgn.Draw))
	if err := b.Commit(true); !errors.Is(err, ErrReadOnly) {
		t.Errorf("Commit: %v, want ErrReadOnly", err)
	}
}

func TestBadWrites(t *testing.T) {
	s := mustOpen(t, t.TempDir(), buildOpts())
	defer s.Close()
	b := s.NewBatch()
	defer b.Close()
	if err := b.Merge([]byte("k"), []byte{2, 3}); !errors.Is(err, stats.ErrCorrupt) {
		t.Errorf("corrupt operand: %v", err)
	}
	if err := b.Merge(nil, []byte{1}); err == nil {
		t.Error("empty key accepted")
	}
	w, err := s.NewSSTWriter()
	if err != nil {
		t.Fatal(err)
	}
	if err := w.MergeEntry([]byte("b"), oneGame(1, pgn.Draw)); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"a", "b"} {
		if err := w.MergeEntry([]byte(k), oneGame(1, pgn.Draw)); !errors.Is(err, ErrUnsorted) {
			t.Errorf("key %q after \"b\": %v, want ErrUnsorted", k, err)
		}
	}
	if err := w.Merge([]byte("c"), []byte{9}); !errors.Is(err, stats.ErrCorrupt) {
		t.Errorf("corrupt operand: %v", err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	// The dropped sstable is gone and wrote nothing.
	names, _ := os.ReadDir(filepath.Join(s.Dir(), ingestDir))
	if len(names) != 0 {
		t.Errorf("leftover files: %v", names)
	}
	if _, ok, _ := s.StatsRecord([]byte("b")); ok {
		t.Error("closed SSTWriter wrote data")
	}
	// An empty SSTWriter still counts its games.
	w, _ = s.NewSSTWriter()
	w.AddGames(7)
	if err := w.Ingest(); err != nil {
		t.Fatal(err)
	}
	if g := s.Meta().Games; g != 7 {
		t.Errorf("games = %d, want 7", g)
	}
}

// TestConcurrentWriters has several goroutines commit batches and ingest
// sstables over the same positions at once: every game is counted once in
// the data and once in Meta.
func TestConcurrentWriters(t *testing.T) {
	s := mustOpen(t, t.TempDir(), buildOpts())
	defer s.Close()
	const writers, rounds, keys = 6, 20, 50
	var wg sync.WaitGroup
	errs := make(chan error, writers)
	for w := 0; w < writers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs <- writeRounds(s, w, rounds, keys)
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	want := uint64(writers * rounds * keys)
	if g := s.Meta().Games; g != want {
		t.Errorf("meta games = %d, want %d", g, want)
	}
	if g := totalGames(t, s); g != want {
		t.Errorf("data games = %d, want %d", g, want)
	}
}

// writeRounds writes rounds of one game per key; odd writers ingest.
func writeRounds(s *Store, w, rounds, keys int) error {
	for r := 0; r < rounds; r++ {
		if w%2 == 0 {
			b := s.NewBatch()
			for k := 0; k < keys; k++ {
				if err := b.MergeEntry(fmt.Appendf(nil, "pos%03d", k), oneGame(uint16(k%3+1), pgn.WhiteWins)); err != nil {
					return err
				}
			}
			b.AddGames(uint64(keys))
			if err := b.Commit(false); err != nil {
				return err
			}
			_ = b.Close()
			continue
		}
		sw, err := s.NewSSTWriter()
		if err != nil {
			return err
		}
		for k := 0; k < keys; k++ {
			if err := sw.MergeEntry(fmt.Appendf(nil, "pos%03d", k), oneGame(uint16(k%3+1), pgn.WhiteWins)); err != nil {
				return err
			}
		}
		sw.AddGames(uint64(keys))
		if err := sw.Ingest(); err != nil {
			return err
		}
	}
	return nil
}

func totalGames(t *testing.T, s *Store) uint64 {
	t.Helper()
	var n uint64
	if err := s.StatsRecords(func(pos []byte, e *stats.Entry) error {
		n += e.Games()
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestCrashAtomicity writes through unsynced batches and ingestions, then
// "crashes" (keeps a random part of what was not synced) and reopens: Meta
// counts exactly the games that survived in the data.
func TestCrashAtomicity(t *testing.T) {
	for seed := uint64(0); seed < 10; seed++ {
		fs := vfs.NewCrashableMem()
		opts := buildOpts()
		opts.FS = fs
		opts.CacheSize = 1 << 20
		opts.MemTableSize = 256 << 10
		s := mustOpen(t, "/db", opts)
		r := rand.New(rand.NewPCG(seed, 1))
		written := 0
		for i := 0; i < 40; i++ {
			n := 1 + r.IntN(200)
			written += n
			if r.IntN(4) == 0 {
				w, err := s.NewSSTWriter()
				if err != nil {
					t.Fatal(err)
				}
				for k := 0; k < n; k++ {
					if err := w.MergeEntry(fmt.Appendf(nil, "p%05d", k*7+i), oneGame(5, pgn.Draw)); err != nil {
						t.Fatal(err)
					}
				}
				w.AddGames(uint64(n))
				if err := w.Ingest(); err != nil {
					t.Fatal(err)
				}
				continue
			}
			b := s.NewBatch()
			for k := 0; k < n; k++ {
				if err := b.MergeEntry(fmt.Appendf(nil, "p%05d", r.IntN(5000)), oneGame(5, pgn.BlackWins)); err != nil {
					t.Fatal(err)
				}
			}
			b.AddGames(uint64(n))
			if err := b.Commit(r.IntN(8) == 0); err != nil {
				t.Fatal(err)
			}
			_ = b.Close()
		}
		crashed := fs.CrashClone(vfs.CrashCloneCfg{UnsyncedDataPercent: 50, RNG: rand.New(rand.NewPCG(seed, 2))})
		_ = s.Close()

		opts.FS = crashed
		s = mustOpen(t, "/db", opts)
		meta, data := s.Meta().Games, totalGames(t, s)
		t.Logf("seed %d: %d of %d games survived", seed, meta, written)
		if meta != data {
			t.Errorf("seed %d: after a crash meta counts %d games, data %d", seed, meta, data)
		}
		_ = s.Close()
	}
}

// TestIngestEqualsBatches writes the same random records once through
// batches and once through sstables and compares the stores, before and
// after a full compaction.
func TestIngestEqualsBatches(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	type rec struct {
		pos []byte
		e   stats.Entry
	}
	var runs [][]rec
	for run := 0; run < 5; run++ {
		var rs []rec
		for i := 0; i < 2000; i++ {
			var e stats.Entry
			e.Add(board.Move(uint16(1+r.IntN(5))), []pgn.Result{pgn.Unknown, pgn.WhiteWins, pgn.Draw, pgn.BlackWins}[r.IntN(4)], r.IntN(3000), stats.NewDate(1900+r.IntN(120), 1+r.IntN(12), 1+r.IntN(28)))
			rs = append(rs, rec{fmt.Appendf(nil, "%06d", r.IntN(3000)), e})
		}
		runs = append(runs, rs)
	}
	viaBatch := mustOpen(t, t.TempDir(), buildOpts())
	defer viaBatch.Close()
	viaSST := mustOpen(t, t.TempDir(), buildOpts())
	defer viaSST.Close()
	for _, rs := range runs {
		b := viaBatch.NewBatch()
		for _, x := range rs {
			if err := b.MergeEntry(x.pos, x.e); err != nil {
				t.Fatal(err)
			}
		}
		if err := b.Commit(false); err != nil {
			t.Fatal(err)
		}
		_ = b.Close()

		// Sort and sum the run, as the builder does for a sorted run.
		sum := map[string]*stats.Entry{}
		for _, x := range rs {
			if sum[string(x.pos)] == nil {
				sum[string(x.pos)] = new(stats.Entry)
			}
			sum[string(x.pos)].Merge(x.e)
		}
		keys := make([]string, 0, len(sum))
		for k := range sum {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		w, err := viaSST.NewSSTWriter()
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range keys {
			if err := w.MergeEntry([]byte(k), *sum[k]); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Ingest(); err != nil {
			t.Fatal(err)
		}
	}
	compare := func(when string) {
		a, b := dump(t, viaBatch), dump(t, viaSST)
		if a != b {
			t.Fatalf("%s: batch and ingest stores differ", when)
		}
		if len(a) == 0 {
			t.Fatal("empty store")
		}
	}
	compare("before compaction")
	for _, s := range []*Store{viaBatch, viaSST} {
		if err := s.Compact(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	compare("after compaction")
}

func dump(t *testing.T, s *Store) string {
	t.Helper()
	var buf bytes.Buffer
	if err := s.StatsRecords(func(pos []byte, e *stats.Entry) error {
		fmt.Fprintf(&buf, "%s %x\n", pos, e.AppendEncode(nil))
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// TestRunsCounted: every ingestion counts one more sorted run in Meta, a
// compaction brings the count back to 0, and the count survives reopening.
func TestRunsCounted(t *testing.T) {
	dir := t.TempDir()
	s := mustOpen(t, dir, buildOpts())
	for i := range 3 {
		w, err := s.NewSSTWriter()
		if err != nil {
			t.Fatal(err)
		}
		if err := w.MergeEntry([]byte{byte(1 + i)}, oneGame(1, pgn.Draw)); err != nil {
			t.Fatal(err)
		}
		w.AddGames(1)
		if err := w.Ingest(); err != nil {
			t.Fatal(err)
		}
		if got := s.Meta().Runs; got != i+1 {
			t.Fatalf("after %d ingestions: %d runs", i+1, got)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = mustOpen(t, dir, buildOpts())
	defer s.Close()
	if got := s.Meta().Runs; got != 3 {
		t.Fatalf("reopened: %d runs, want 3", got)
	}
	if err := s.Compact(context.Background()); err != nil {
		t.Fatal(err)
	}
	if m := s.Meta(); m.Runs != 0 || m.Games != 3 {
		t.Fatalf("compacted: %d runs and %d games, want 0 and 3", m.Runs, m.Games)
	}
}
