package main

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chessbook/chessbook/ingest"
	"github.com/chessbook/chessbook/internal/testutil"
	"github.com/chessbook/chessbook/stats"
	"github.com/chessbook/chessbook/store"
	"github.com/cockroachdb/pebble/v2"
	"github.com/klauspost/compress/zstd"
)

// runMainEnv makes this test binary run bookbuild's main instead of the
// tests: the fault tests that need bookbuild as a separate process (to
// hold a lock, to be signalled, to die of a full disk) run it that way.
const runMainEnv = "CHESSBOOK_TEST_RUN_BOOKBUILD"

func TestMain(m *testing.M) {
	if os.Getenv(runMainEnv) == "1" {
		os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

const champions = "../../testdata/champions500.pgn"

// command returns bookbuild as a separate process with args.
func command(t *testing.T, args ...string) *exec.Cmd {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, append([]string{"-progress", "none"}, args...)...)
	cmd.Env = append(os.Environ(), runMainEnv+"=1")
	return cmd
}

// runProcess runs bookbuild as a separate process and returns its exit
// status and output.
func runProcess(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	cmd := command(t, args...)
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatal(err)
	}
	return cmd.ProcessState.ExitCode(), o.String(), e.String()
}

// noCrash fails the test if stderr shows a panic or a runtime crash.
func noCrash(t *testing.T, stderr string) {
	t.Helper()
	for _, s := range []string{"panic:", "goroutine ", "fatal error:", "SIGSEGV"} {
		if strings.Contains(stderr, s) {
			t.Fatalf("bookbuild crashed:\n%s", stderr)
		}
	}
}

// mountTmpfs mounts a tmpfs of the given size (mount's syntax: 8m, 1g) on a
// new directory, unmounted when the test ends, or skips the test when that
// is not permitted (not root, no CAP_SYS_ADMIN).
func mountTmpfs(t *testing.T, size string) string {
	t.Helper()
	dir := t.TempDir()
	if os.Geteuid() != 0 {
		t.Skipf("mounting a tmpfs needs root; skipping (uid %d)", os.Geteuid())
	}
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size="+size, "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a tmpfs here, skipping: %v: %s", err, bytes.TrimSpace(out))
	}
	t.Cleanup(func() {
		if out, err := exec.Command("umount", dir).CombinedOutput(); err != nil {
			t.Errorf("umount %s: %v: %s", dir, err, out)
		}
	})
	return dir
}

func remount(t *testing.T, dir, opts string) {
	t.Helper()
	if out, err := exec.Command("mount", "-o", "remount,"+opts, dir).CombinedOutput(); err != nil {
		t.Fatalf("remount %s %s: %v: %s", dir, opts, err, out)
	}
}

// storeDigest returns a digest of everything a store holds: every
// position's merged entry, every game record and the games counter.
func storeDigest(t *testing.T, db string) (digest string, positions int) {
	t.Helper()
	st, err := store.Open(db, store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	h := sha256.New()
	it, err := st.NewIter()
	if err != nil {
		t.Fatal(err)
	}
	for ok := it.First(); ok; ok = it.Next() {
		v, err := it.Value()
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(h, "p %x %x\n", it.Key(), v)
		positions++
	}
	if err := it.Close(); err != nil {
		t.Fatal(err)
	}
	if err := st.Games(func(id store.GameID, rec []byte) (bool, error) {
		fmt.Fprintf(h, "g %s %x\n", id, rec)
		return true, nil
	}); err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(h, "games %d\n", st.Meta().Games)
	return fmt.Sprintf("%x", h.Sum(nil)), positions
}

// newGames writes the first n games of champions500.pgn with the White
// player renamed: games that are not in a store built from it.
func newGames(t *testing.T, n int) string {
	t.Helper()
	data, err := os.ReadFile(champions)
	if err != nil {
		t.Fatal(err)
	}
	end := 0
	for range n {
		j := bytes.Index(data[end+1:], []byte("\n[Event "))
		if j < 0 {
			end = len(data)
			break
		}
		end += j + 2
	}
	out := bytes.ReplaceAll(data[:end], []byte(`[White "`), []byte(`[White "Tester, `))
	path := filepath.Join(t.TempDir(), "new.pgn")
	if err := os.WriteFile(path, out, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// buildChampions builds champions500.pgn into db and returns the store's
// digest.
func buildChampions(t *testing.T, db string) string {
	t.Helper()
	if code, out, errOut := runCLI(t, "-db", db, champions); code != 0 || !strings.Contains(out, "games ingested:  500") {
		t.Fatalf("building %s: exit %d: %s %s", db, code, out, errOut)
	}
	d, _ := storeDigest(t, db)
	return d
}

// checkUnchanged checks that db still opens, answers, and holds exactly
// what it held before the fault: the digest want, and games games.
func checkUnchanged(t *testing.T, db, want string, games int64) {
	t.Helper()
	if n := checkStoreAnswers(t, db, games); n != uint64(games) {
		t.Errorf("start position: %d games, want %d", n, games)
	}
	if got, _ := storeDigest(t, db); got != want {
		t.Errorf("the store changed")
	}
}

// TestFaultUnwritable: a store directory that can not be written, either
// new (its parent is read-only) or existing: a clear error naming the
// directory, exit status 1, and the existing store is left as it was.
func TestFaultUnwritable(t *testing.T) {
	var base string
	readOnly := func() {}
	writable := func() {}
	if os.Geteuid() == 0 {
		// chmod does not stop root: a read-only tmpfs does.
		base = mountTmpfs(t, "512m")
		readOnly = func() { remount(t, base, "ro") }
		writable = func() { remount(t, base, "rw") }
	} else {
		base = t.TempDir()
	}
	db := filepath.Join(base, "book")
	want := buildChampions(t, db)
	if os.Geteuid() != 0 {
		readOnly = func() {
			for _, d := range []string{base, db} {
				if err := os.Chmod(d, 0o555); err != nil {
					t.Fatal(err)
				}
			}
		}
		writable = func() {
			for _, d := range []string{base, db} {
				if err := os.Chmod(d, 0o755); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	readOnly()
	t.Cleanup(writable)
	if err := os.WriteFile(filepath.Join(base, "probe"), nil, 0o644); err == nil {
		t.Skipf("%s is still writable after making it read-only; skipping", base)
	}
	for _, tc := range []struct{ name, db string }{
		{"new store", filepath.Join(base, "new")},
		{"existing store", db},
	} {
		code, out, errOut := runCLI(t, "-db", tc.db, newGames(t, 20))
		noCrash(t, errOut)
		if code != 1 || !strings.Contains(errOut, tc.db) ||
			!(strings.Contains(errOut, "read-only file system") || strings.Contains(errOut, "permission denied")) {
			t.Errorf("%s: exit %d, stderr %q, stdout %q: want 1 and the store named with the reason", tc.name, code, errOut, out)
		}
	}
	writable()
	checkUnchanged(t, db, want, 500)
	if _, err := os.Stat(filepath.Join(base, "new")); err == nil {
		t.Errorf("a store was created in the read-only directory")
	}
}

// TestFaultDiskFull builds the medium corpus into an 8 MiB tmpfs: a clear
// "no space left on device" and a non-zero exit, a store that still opens
// and answers, and, with the space grown, a re-run that ends with exactly
// the store of a clean build.
func TestFaultDiskFull(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the medium corpus three times")
	}
	in := filepath.Join(testutil.SharedData(t), "medium", "pgnmentor_world_champions_16players.pgn.zst")
	dir := mountTmpfs(t, "8m")
	db := filepath.Join(dir, "book")
	// A small memory budget: many commits, so the disk fills part way.
	args := []string{"-mem", "256", "-db", db, in}
	code, out, errOut := runProcess(t, args...)
	noCrash(t, errOut)
	if code == 0 || !strings.Contains(errOut, "no space left on device") {
		t.Fatalf("exit %d, stderr %q: want a failure saying no space left on device", code, errOut)
	}
	var first summary
	if strings.Contains(out, "games read:") {
		first = parseSummary(t, out)
		if err := first.reconcile(); err != nil {
			t.Errorf("%v\n%s", err, out)
		}
		if first.uncommitted == 0 {
			t.Errorf("no game reported as not written:\n%s", out)
		}
		checkStoreAnswers(t, db, first.stored)
	} else {
		t.Logf("no summary (exit %d): %s", code, errOut)
		checkStoreAnswers(t, db, -1)
	}
	t.Logf("disk full: exit %d, %d games committed; %s", code, first.stored, strings.TrimSpace(errOut))

	remount(t, dir, "size=1g")
	checkResumed(t, db, in, first, "full disk run")
}

// checkResumed runs the build of in into db again after a run that was
// cut short having stored first.stored games, and checks that it adds
// exactly the rest: the store then equals a clean build's.
func checkResumed(t *testing.T, db, in string, first summary, what string) {
	t.Helper()
	code, out, errOut := runProcess(t, "-mem", "256", "-db", db, in)
	if code != 0 {
		t.Fatalf("re-run after the %s: exit %d: %s", what, code, errOut)
	}
	second := parseSummary(t, out)
	clean := filepath.Join(t.TempDir(), "clean")
	code, out, errOut = runProcess(t, "-mem", "256", "-db", clean, in)
	if code != 0 {
		t.Fatalf("clean build: exit %d: %s", code, errOut)
	}
	want := parseSummary(t, out)
	if first.stored+second.stored != want.stored || second.dups != want.dups+first.stored {
		t.Errorf("%s stored %d, re-run %d (%d duplicates); a clean build %d (%d duplicates)",
			what, first.stored, second.stored, second.dups, want.stored, want.dups)
	}
	got, n := storeDigest(t, db)
	if wantDigest, m := storeDigest(t, clean); got != wantDigest {
		t.Errorf("after the re-run the store differs from a clean build's (%d and %d positions)", n, m)
	}
}

// truncate writes data[:n] to a new file named name.
func truncate(t *testing.T, data []byte, n int, name string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, data[:n], 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// decodedPrefix decodes path as bookbuild does, until the end or the first
// error, and writes what came out to a plain PGN file.
func decodedPrefix(t *testing.T, path string) (prefix string, readErr error) {
	t.Helper()
	rc, err := ingest.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	data, readErr := io.ReadAll(rc)
	return truncate(t, data, len(data), "prefix.pgn"), readErr
}

// TestFaultTruncatedInput: compressed input cut in the middle of a frame
// or block: the games before the cut are ingested, the error names the
// file, exit status 1. Plain PGN cut in the middle of a game: the games
// before it are all there, the cut one too (as far as it goes).
func TestFaultTruncatedInput(t *testing.T) {
	pgn, err := os.ReadFile(champions)
	if err != nil {
		t.Fatal(err)
	}
	var zbuf, gbuf bytes.Buffer
	zw, err := zstd.NewWriter(&zbuf, zstd.WithWindowSize(1<<17))
	if err != nil {
		t.Fatal(err)
	}
	zw.Write(pgn)
	zw.Close()
	gw := gzip.NewWriter(&gbuf)
	gw.Write(pgn)
	gw.Close()
	type input struct{ name, path string }
	inputs := []input{
		{"zstd mid-frame", truncate(t, zbuf.Bytes(), zbuf.Len()*3/5, "cut.pgn.zst")},
		{"gzip mid-block", truncate(t, gbuf.Bytes(), gbuf.Len()*3/5, "cut.pgn.gz")},
	}
	if d := testutil.FindSharedData(); d != "" {
		data, err := os.ReadFile(filepath.Join(d, "medium", "lichess_10k.pgn.zst"))
		if err != nil {
			t.Fatal(err)
		}
		inputs = append(inputs, input{"lichess zstd cut in half", truncate(t, data, len(data)/2, "lichess_10k_cut.pgn.zst")})
	}
	for _, in := range inputs {
		t.Run(in.name, func(t *testing.T) {
			prefix, readErr := decodedPrefix(t, in.path)
			if readErr == nil {
				t.Fatalf("the cut input decodes without an error")
			}
			// What the cut input must give: what its decodable part gives.
			wantDB := filepath.Join(t.TempDir(), "want")
			code, out, errOut := runCLI(t, "-db", wantDB, prefix)
			if code != 0 {
				t.Fatalf("building the decoded part: exit %d: %s", code, errOut)
			}
			want := parseSummary(t, out)
			if want.read < 10 {
				t.Fatalf("only %d games before the cut", want.read)
			}
			db := filepath.Join(t.TempDir(), "db")
			code, out, errOut = runCLI(t, "-db", db, in.path)
			noCrash(t, errOut)
			if code != 1 || !strings.Contains(errOut, in.path) || !strings.Contains(errOut, "unexpected EOF") {
				t.Fatalf("exit %d, stderr %q: want 1 and an error naming the file", code, errOut)
			}
			s := parseSummary(t, out)
			if err := s.reconcile(); err != nil {
				t.Errorf("%v\n%s", err, out)
			}
			// Every game decoded before the cut is read and stored (the
			// last one as far as it goes), exactly as from the plain text.
			if s.read != want.read || s.stored != want.stored || s.skipped != want.skipped || s.uncommitted != 0 {
				t.Errorf("read %d games, stored %d, skipped %d, %d not written; the input holds %d before the cut, %d stored, %d skipped\n%s",
					s.read, s.stored, s.skipped, s.uncommitted, want.read, want.stored, want.skipped, out)
			}
			checkStoreAnswers(t, db, s.stored)
			if got, _ := storeDigest(t, db); got != func() string { d, _ := storeDigest(t, wantDB); return d }() {
				t.Errorf("the store differs from the one built from the decoded text")
			}
		})
	}

	// Plain PGN cut in the movetext of game 250, between two moves or in
	// the middle of one: the 249 games before it are stored; the cut game
	// is stored as far as it goes, or skipped with its file and line.
	at := 0
	for range 250 {
		at += bytes.Index(pgn[at:], []byte("[Event ")) + 1
	}
	at += bytes.Index(pgn[at:], []byte("\n1.")) + 30
	at = bytes.LastIndexByte(pgn[:at], ' ') + 1
	for _, tc := range []struct {
		name    string
		cut     int
		stored  int64
		skipped string
	}{
		{"plain between moves", at, 250, ""},
		{"plain mid-move", at + 3, 249, "PGN syntax error"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := truncate(t, pgn, tc.cut, "cut.pgn")
			db := filepath.Join(t.TempDir(), "db")
			code, out, errOut := runCLI(t, "-db", db, path)
			noCrash(t, errOut)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			s := parseSummary(t, out)
			if s.read != 250 || s.stored != tc.stored || s.reconcile() != nil ||
				(tc.skipped != "" && (s.byReason[tc.skipped] != 1 || !strings.Contains(out, path+":"))) {
				t.Errorf("want 250 games read, %d stored:\n%s", tc.stored, out)
			}
			if n := checkStoreAnswers(t, db, tc.stored); n != uint64(tc.stored) {
				t.Errorf("start position: %d games, want %d", n, tc.stored)
			}
		})
	}
}

// lockHeld reports whether another process holds the POSIX lock on path
// (Pebble's LOCK file), without taking it.
func lockHeld(t *testing.T, path string) bool {
	t.Helper()
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return false
	}
	defer f.Close()
	lk := syscall.Flock_t{Type: syscall.F_WRLCK, Whence: 0}
	if err := syscall.FcntlFlock(f.Fd(), syscall.F_GETLK, &lk); err != nil {
		t.Fatal(err)
	}
	return lk.Type != syscall.F_UNLCK
}

// TestFaultStoreInUse: while one bookbuild holds the store (reading games
// from a pipe that stays open), a second one gets a clear "in use" error
// and exit status 1; the first then completes normally.
func TestFaultStoreInUse(t *testing.T) {
	db := filepath.Join(t.TempDir(), "db")
	want := buildChampions(t, db)
	first := command(t, "-db", db, "-")
	stdin, err := first.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	var out1, err1 bytes.Buffer
	first.Stdout, first.Stderr = &out1, &err1
	if err := first.Start(); err != nil {
		t.Fatal(err)
	}
	defer first.Process.Kill()
	deadline := time.Now().Add(30 * time.Second)
	for !lockHeld(t, filepath.Join(db, "LOCK")) {
		if time.Now().After(deadline) {
			t.Fatalf("the first bookbuild never took the lock: %s", err1.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	for _, runner := range []struct {
		name string
		run  func(args ...string) (int, string, string)
	}{
		{"process", func(args ...string) (int, string, string) { return runProcess(t, args...) }},
		{"in-process", func(args ...string) (int, string, string) { return runCLI(t, args...) }},
	} {
		code, _, errOut := runner.run("-db", db, champions)
		noCrash(t, errOut)
		if code != 1 || !strings.Contains(errOut, "in use") || !strings.Contains(errOut, db) {
			t.Errorf("second bookbuild (%s) while the store is in use: exit %d, %q; want 1 and \"in use\"", runner.name, code, errOut)
		}
	}
	// The first one goes on: 20 new games, then the end of its input.
	newPGN, err := os.ReadFile(newGames(t, 20))
	if err != nil {
		t.Fatal(err)
	}
	stdin.Write(newPGN)
	stdin.Close()
	if err := first.Wait(); err != nil {
		t.Fatalf("first bookbuild: %v: %s", err, err1.String())
	}
	if !strings.Contains(out1.String(), "games ingested:  20") || !strings.Contains(out1.String(), "520 games in all") {
		t.Errorf("first bookbuild:\n%s", out1.String())
	}
	if n := checkStoreAnswers(t, db, 520); n != 520 {
		t.Errorf("start position: %d games, want 520", n)
	}
	if got, _ := storeDigest(t, db); got == want {
		t.Errorf("the store did not change")
	}
}

// setMetaRaw replaces the store's meta record, as another version of the
// program could have written it, and returns the old one. It opens the
// Pebble database directly, with a merge operator of the store's name
// (which merges as the store's does: compactions may run).
func setMetaRaw(t *testing.T, db string, edit func(m map[string]any)) (old []byte) {
	t.Helper()
	merger := &pebble.Merger{
		Name: store.MergerName,
		Merge: func(key, value []byte) (pebble.ValueMerger, error) {
			return &testMerger{buf: append([]byte(nil), value...)}, nil
		},
	}
	pdb, err := pebble.Open(db, &pebble.Options{Merger: merger, Logger: quietPebble{}})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := pdb.Close(); err != nil {
			t.Fatal(err)
		}
	}()
	raw, closer, err := pdb.Get([]byte("m"))
	if err != nil {
		t.Fatal(err)
	}
	old = append([]byte(nil), raw...)
	closer.Close()
	var m map[string]any
	if err := json.Unmarshal(old, &m); err != nil {
		t.Fatal(err)
	}
	edit(m)
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	if err := pdb.Set([]byte("m"), b, pebble.Sync); err != nil {
		t.Fatal(err)
	}
	return old
}

// restoreMeta writes back a meta record setMetaRaw returned.
func restoreMeta(t *testing.T, db string, raw []byte) {
	t.Helper()
	setMetaRaw(t, db, func(m map[string]any) {
		clear(m)
		if err := json.Unmarshal(raw, &m); err != nil {
			t.Fatal(err)
		}
	})
}

type testMerger struct{ buf []byte }

func (m *testMerger) MergeNewer(v []byte) error { return m.merge(v) }
func (m *testMerger) MergeOlder(v []byte) error { return m.merge(v) }
func (m *testMerger) merge(v []byte) error {
	out, err := stats.MergeEncoded(nil, m.buf, v)
	m.buf = out
	return err
}
func (m *testMerger) Finish(bool) ([]byte, io.Closer, error) { return m.buf, nil, nil }

type quietPebble struct{}

func (quietPebble) Infof(string, ...any)         {}
func (quietPebble) Errorf(string, ...any)        {}
func (quietPebble) Fatalf(f string, args ...any) { panic(fmt.Sprintf(f, args...)) }

// TestFaultIncompatibleStore: a store written by another format version,
// and a directory that is not a store: a clear message, exit status 1,
// nothing written; the store opens and answers once its meta is back.
func TestFaultIncompatibleStore(t *testing.T) {
	db := filepath.Join(t.TempDir(), "db")
	want := buildChampions(t, db)
	old := setMetaRaw(t, db, func(m map[string]any) { m["format_version"] = store.FormatVersion + 7 })
	wantMsg := fmt.Sprintf("incompatible format version: the store has %d, this run asks for %d", store.FormatVersion+7, store.FormatVersion)
	code, out, errOut := runCLI(t, "-db", db, newGames(t, 20))
	noCrash(t, errOut)
	if code != 1 || !strings.Contains(errOut, wantMsg) || !strings.Contains(errOut, db) {
		t.Errorf("exit %d, stderr %q, stdout %q; want 1 and %q", code, errOut, out, wantMsg)
	}
	if _, err := store.Open(db, store.Options{ReadOnly: true}); !errors.Is(err, store.ErrIncompatible) {
		t.Errorf("read-only open of a store of another format: %v", err)
	}
	restoreMeta(t, db, old)
	checkUnchanged(t, db, want, 500)

	foreign := t.TempDir()
	if err := os.WriteFile(filepath.Join(foreign, "notes.txt"), []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errOut = runCLI(t, "-db", foreign, champions)
	if code != 1 || !strings.Contains(errOut, "not a chessbook store") || !strings.Contains(errOut, foreign) {
		t.Errorf("a directory that is not a store: exit %d, %q", code, errOut)
	}
	if names, _ := os.ReadDir(foreign); len(names) != 1 {
		t.Errorf("bookbuild wrote into a directory that is not a store: %v", names)
	}
}
