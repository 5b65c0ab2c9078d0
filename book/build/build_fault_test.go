package build_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/chessbook/chessbook/book/build"
	"github.com/chessbook/chessbook/filter"
	"github.com/chessbook/chessbook/ingest"
	"github.com/chessbook/chessbook/internal/storetest"
	"github.com/chessbook/chessbook/stats"
	"github.com/chessbook/chessbook/store"
	"github.com/cockroachdb/pebble/v2"
	"github.com/klauspost/compress/zstd"
)

// runBuildEnv, when set to a buildSpec (JSON), makes this test binary run
// build.Run instead of the tests, stopped by SIGINT or SIGTERM: the fault
// tests that need a build as a separate process (to hold a lock, to be
// signalled, to die of a full disk) run it that way.
const runBuildEnv = "CHESSBOOK_TEST_RUN_BUILD"

func TestMain(m *testing.M) {
	if spec := os.Getenv(runBuildEnv); spec != "" {
		os.Exit(buildMain(spec))
	}
	storetest.Main(m) // m.Run, then the shared stores removed
}

// buildSpec is the build a child process runs.
type buildSpec struct {
	Dir       string
	Inputs    []string
	MemBudget int64
	// Options other than the defaults, and Compact (see build.RunOptions).
	MaxPly, CommitRuns                         int
	CountMode                                  store.CountMode
	KeepDuplicates, StandardStartOnly, Compact bool
	// KillAt, when above 0, makes the build kill itself (SIGKILL) when it
	// reaches KillPoint (see build.WithHook) for the KillAt-th time.
	KillAt    int64
	KillPoint build.HookPoint
}

// smallBudget is the aggregation memory of the fault tests' builds: many
// commits, so a fault lands between, and during, several of them.
const smallBudget = 64 << 20

func (s buildSpec) options() build.RunOptions {
	o := build.RunOptions{Options: build.Options{Inputs: s.Inputs, MemBudget: s.MemBudget, MaxPly: s.MaxPly, CommitRuns: s.CommitRuns,
		CountMode: s.CountMode, KeepDuplicates: s.KeepDuplicates, Filter: filter.Filter{StandardStartOnly: s.StandardStartOnly}}, Dir: s.Dir, Compact: s.Compact}
	if s.KillAt > 0 {
		var n atomic.Int64
		o.Options = build.WithHook(o.Options, 1, func(p build.HookPoint, _ *rand.Rand) {
			if p == s.KillPoint && n.Add(1) == s.KillAt {
				_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
				select {} // until the signal lands
			}
		})
	}
	return o
}

// buildMain runs the build spec (JSON) asks for, writes its outcome to
// stdout (JSON) and its error to stderr, and returns the exit status: 0
// done, 1 failed, 130 interrupted.
func buildMain(spec string) int {
	var s buildSpec
	if err := json.Unmarshal([]byte(spec), &s); err != nil {
		fmt.Fprintln(os.Stderr, "bad build spec:", err)
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	res, err := build.Run(ctx, s.options())
	if err := json.NewEncoder(os.Stdout).Encode(outcomeOf(res, err)); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	switch {
	case err == nil:
		return 0
	case errors.Is(err, build.ErrInterrupted):
		fmt.Fprintln(os.Stderr, err)
		return 130
	}
	fmt.Fprintln(os.Stderr, err)
	return 1
}

// outcome is the gist of a build's result.
type outcome struct {
	Ran                                                  bool // the pipeline ran: the counts below are set
	Read, Ingested, Stored, Uncommitted, Dups, NotStored int64
	Filtered, Skipped, StoreGames                        int64
	Err                                                  string
	Interrupted                                          bool
	ByReason                                             map[string]int64
	firstError                                           *ingest.GameError // the first skipped game (in-process only)
}

func outcomeOf(res *build.Result, err error) outcome {
	o := outcome{StoreGames: -1, ByReason: map[string]int64{}}
	if err != nil {
		o.Err = err.Error()
		o.Interrupted = errors.Is(err, build.ErrInterrupted)
	}
	if s := res.Summary; s != nil {
		o.Ran = true
		o.Read, o.Ingested, o.Skipped = s.Games, s.Ingested, s.SkippedTotal()
		for r, n := range s.Skipped {
			if n > 0 {
				o.ByReason[ingest.SkipReason(r).String()] = n
			}
		}
		if len(s.Errors) > 0 {
			o.firstError = s.Errors[0]
		}
	}
	if bs := res.Stats; bs != nil {
		o.Stored, o.Uncommitted, o.Dups, o.NotStored, o.Filtered = bs.Games, bs.Uncommitted, bs.Duplicates, bs.Unstorable, bs.FilteredTotal()
	}
	if res.Store != nil {
		o.StoreGames = int64(res.Store.Meta.Games)
	}
	return o
}

// reconcile checks that every game read is accounted for exactly once:
// read = stored + not written + duplicates + not stored + filtered +
// skipped, and that the store holds what the run says.
func (o outcome) reconcile() error {
	if !o.Ran {
		return fmt.Errorf("the pipeline did not run (%s)", o.Err)
	}
	if got := o.Stored + o.Uncommitted + o.Dups + o.NotStored + o.Filtered + o.Skipped; got != o.Read || o.Read-o.Skipped != o.Ingested {
		return fmt.Errorf("games read %d (%d ingested) != stored %d + not written %d + duplicates %d + not stored %d + filtered %d + skipped %d = %d",
			o.Read, o.Ingested, o.Stored, o.Uncommitted, o.Dups, o.NotStored, o.Filtered, o.Skipped, got)
	}
	return nil
}

// runBuild runs build.Run in this process.
func runBuild(t *testing.T, ctx context.Context, s buildSpec) (outcome, error) {
	t.Helper()
	res, err := build.Run(ctx, s.options())
	if res == nil {
		t.Fatalf("Run returned no result (%v)", err)
	}
	return outcomeOf(res, err), err
}

// child returns a process that runs the build s.
func child(t *testing.T, s buildSpec) *exec.Cmd {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	spec, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), runBuildEnv+"="+string(spec))
	return cmd
}

// childOutcome reads what a child process wrote and its exit status.
func childOutcome(t *testing.T, cmd *exec.Cmd, stdout, stderr string) (code int, o outcome) {
	t.Helper()
	noCrash(t, stderr)
	code = cmd.ProcessState.ExitCode()
	if code == 2 || stdout == "" {
		t.Fatalf("build process: exit %d, no outcome: %s", code, stderr)
	}
	if err := json.Unmarshal([]byte(stdout), &o); err != nil {
		t.Fatalf("build process: %v: %q", err, stdout)
	}
	return code, o
}

// runChild runs the build s in a separate process.
func runChild(t *testing.T, s buildSpec) (code int, o outcome, stderr string) {
	t.Helper()
	cmd := child(t, s)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatal(err)
	}
	code, o = childOutcome(t, cmd, out.String(), errOut.String())
	return code, o, errOut.String()
}

// noCrash fails the test if stderr shows a panic or a runtime crash.
func noCrash(t *testing.T, stderr string) {
	t.Helper()
	for _, s := range []string{"panic:", "goroutine ", "fatal error:", "SIGSEGV"} {
		if strings.Contains(stderr, s) {
			t.Fatalf("the build crashed:\n%s", stderr)
		}
	}
}

const champions = "../../testdata/champions500.pgn"

// mountTmpfs mounts a tmpfs of the given size (mount's syntax: 8m, 1g) on a
// new directory, unmounted when the test ends, or fails the test when that
// is not permitted (not root, no CAP_SYS_ADMIN).
func mountTmpfs(t *testing.T, size string) string {
	t.Helper()
	dir := t.TempDir()
	if os.Geteuid() != 0 {
		t.Fatalf("mounting a tmpfs needs root (uid %d)", os.Geteuid())
	}
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size="+size, "tmpfs", dir).CombinedOutput(); err != nil {
		t.Fatalf("cannot mount a tmpfs here: %v: %s", err, bytes.TrimSpace(out))
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
	if o, err := runBuild(t, context.Background(), buildSpec{Dir: db, Inputs: []string{champions}}); err != nil || o.Stored != 500 {
		t.Fatalf("building %s: %v, %+v", db, err, o)
	}
	d, _, _ := storetest.Digest(t, db)
	return d
}

// checkUnchanged checks that db still opens, answers, and holds exactly
// what it held before the fault: the digest want, and games games.
func checkUnchanged(t *testing.T, db, want string, games int64) {
	t.Helper()
	if n := storetest.CheckAnswers(t, db, games); n != uint64(games) {
		t.Errorf("start position: %d games, want %d", n, games)
	}
	if got, _, _ := storetest.Digest(t, db); got != want {
		t.Errorf("the store changed")
	}
}

// TestBuildUnwritable: a store directory that can not be written, either
// new (its parent is read-only) or existing: an error naming the directory
// and the reason, and the existing store is left as it was.
func TestBuildUnwritable(t *testing.T) {
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
		t.Fatalf("%s is still writable after making it read-only", base)
	}
	for _, tc := range []struct{ name, db string }{
		{"new store", filepath.Join(base, "new")},
		{"existing store", db},
	} {
		o, err := runBuild(t, context.Background(), buildSpec{Dir: tc.db, Inputs: []string{newGames(t, 20)}})
		if err == nil || o.Interrupted || !strings.Contains(err.Error(), tc.db) ||
			!(strings.Contains(err.Error(), "read-only file system") || strings.Contains(err.Error(), "permission denied")) {
			t.Errorf("%s: error %v (%+v): want the store named with the reason", tc.name, err, o)
		}
		if o.Stored != 0 {
			t.Errorf("%s: %d games stored", tc.name, o.Stored)
		}
	}
	writable()
	checkUnchanged(t, db, want, 500)
	if _, err := os.Stat(filepath.Join(base, "new")); err == nil {
		t.Errorf("a store was created in the read-only directory")
	}
}

// checkResumed runs the build of in into db again after a run that was
// cut short having stored first.Stored games, and checks that it adds
// exactly the rest: the store then equals a clean build's.
func checkResumed(t *testing.T, db, in string, first outcome, what string) {
	t.Helper()
	second, err := runBuild(t, context.Background(), buildSpec{Dir: db, Inputs: []string{in}, MemBudget: smallBudget})
	if err != nil {
		t.Fatalf("re-run after the %s: %v", what, err)
	}
	clean := filepath.Join(t.TempDir(), "clean")
	want, err := runBuild(t, context.Background(), buildSpec{Dir: clean, Inputs: []string{in}, MemBudget: smallBudget})
	if err != nil {
		t.Fatalf("clean build: %v", err)
	}
	if first.Stored+second.Stored != want.Stored || second.Dups != want.Dups+first.Stored {
		t.Errorf("%s stored %d, re-run %d (%d duplicates); a clean build %d (%d duplicates)",
			what, first.Stored, second.Stored, second.Dups, want.Stored, want.Dups)
	}
	got, n, _ := storetest.Digest(t, db)
	if wantDigest, m, _ := storetest.Digest(t, clean); got != wantDigest {
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

// decodedPrefix decodes path as the build does, until the end or the
// first error, and writes what came out to a plain PGN file.
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

// TestBuildTruncatedInput: compressed input cut in the middle of a frame
// or block: the games before the cut are stored, the error names the
// file. Plain PGN cut in the middle of a game: the games before it are all
// there, the cut one too (as far as it goes).
func TestBuildTruncatedInput(t *testing.T) {
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
	{
		data, err := os.ReadFile(lichessZst(t)) // testdata's lichess2k; lichess_10k with -tags oracle
		if err != nil {
			t.Fatal(err)
		}
		inputs = append(inputs, input{"lichess zstd cut in half", truncate(t, data, len(data)/2, "lichess_cut.pgn.zst")})
	}
	ctx := context.Background()
	for _, in := range inputs {
		t.Run(in.name, func(t *testing.T) {
			prefix, readErr := decodedPrefix(t, in.path)
			if readErr == nil {
				t.Fatalf("the cut input decodes without an error")
			}
			// What the cut input must give: what its decodable part gives.
			wantDB := filepath.Join(t.TempDir(), "want")
			want, err := runBuild(t, ctx, buildSpec{Dir: wantDB, Inputs: []string{prefix}})
			if err != nil {
				t.Fatalf("building the decoded part: %v", err)
			}
			if want.Read < 10 {
				t.Fatalf("only %d games before the cut", want.Read)
			}
			db := filepath.Join(t.TempDir(), "db")
			got, err := runBuild(t, ctx, buildSpec{Dir: db, Inputs: []string{in.path}})
			if err == nil || got.Interrupted || !strings.Contains(err.Error(), in.path) || !errors.Is(err, io.ErrUnexpectedEOF) {
				t.Fatalf("error %v: want an unexpected EOF naming the file", err)
			}
			if err := got.reconcile(); err != nil {
				t.Errorf("%v: %+v", err, got)
			}
			// Every game decoded before the cut is read and stored (the
			// last one as far as it goes), exactly as from the plain text.
			if got.Read != want.Read || got.Stored != want.Stored || got.Skipped != want.Skipped || got.Uncommitted != 0 {
				t.Errorf("read %d games, stored %d, skipped %d, %d not written; the input holds %d before the cut, %d stored, %d skipped",
					got.Read, got.Stored, got.Skipped, got.Uncommitted, want.Read, want.Stored, want.Skipped)
			}
			storetest.CheckAnswers(t, db, got.Stored)
			gotDigest, _, _ := storetest.Digest(t, db)
			if wantDigest, _, _ := storetest.Digest(t, wantDB); gotDigest != wantDigest {
				t.Errorf("the store differs from the one built from the decoded text")
			}
		})
	}

	// Plain PGN cut in the movetext of game 250, between two moves or in
	// the middle of one: the 249 games before it are stored; the cut game
	// (no result marker, the input ends inside a line) is skipped with its
	// file and line: a cut input adds no partial game.
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
		{"plain between moves", at, 249, "PGN syntax error"},
		{"plain mid-move", at + 3, 249, "PGN syntax error"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := truncate(t, pgn, tc.cut, "cut.pgn")
			db := filepath.Join(t.TempDir(), "db")
			o, err := runBuild(t, ctx, buildSpec{Dir: db, Inputs: []string{path}})
			if err != nil {
				t.Fatal(err)
			}
			if o.Read != 250 || o.Stored != tc.stored || o.reconcile() != nil ||
				(tc.skipped != "" && (o.ByReason[tc.skipped] != 1 || o.firstError == nil || o.firstError.File != path)) {
				t.Errorf("want 250 games read, %d stored: %+v", tc.stored, o)
			}
			if n := storetest.CheckAnswers(t, db, tc.stored); n != uint64(tc.stored) {
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

// TestBuildStoreInUse: while one build holds the store (a process reading
// games from a pipe that stays open), a second one, in another process or
// in this one, gets store.ErrLocked naming the store; the first then
// completes normally.
func TestBuildStoreInUse(t *testing.T) {
	db := filepath.Join(t.TempDir(), "db")
	want := buildChampions(t, db)
	first := child(t, buildSpec{Dir: db, Inputs: []string{"-"}})
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
			t.Fatalf("the first build never took the lock: %s", err1.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	s := buildSpec{Dir: db, Inputs: []string{champions}}
	code, o, errOut := runChild(t, s)
	if code != 1 || o.Ran || !strings.Contains(errOut, "in use") || !strings.Contains(errOut, db) {
		t.Errorf("second build (process) while the store is in use: exit %d, %q; want 1 and \"in use\"", code, errOut)
	}
	o, err = runBuild(t, context.Background(), s)
	if !errors.Is(err, store.ErrLocked) || o.Ran || !strings.Contains(err.Error(), db) {
		t.Errorf("second build (in-process) while the store is in use: %v; want store.ErrLocked naming the store", err)
	}
	// The first one goes on: 20 new games, then the end of its input.
	newPGN, err := os.ReadFile(newGames(t, 20))
	if err != nil {
		t.Fatal(err)
	}
	stdin.Write(newPGN)
	stdin.Close()
	if err := first.Wait(); err != nil {
		t.Fatalf("first build: %v: %s", err, err1.String())
	}
	if _, o := childOutcome(t, first, out1.String(), err1.String()); o.Stored != 20 || o.StoreGames != 520 {
		t.Errorf("first build: %+v, want 20 games stored, 520 in all", o)
	}
	if n := storetest.CheckAnswers(t, db, 520); n != 520 {
		t.Errorf("start position: %d games, want 520", n)
	}
	if got, _, _ := storetest.Digest(t, db); got == want {
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

// TestBuildIncompatibleStore: a store written by another format version,
// and a directory that is not a store: store.ErrIncompatible or
// store.ErrNotStore with a clear message, nothing written; the store opens
// and answers once its meta is back.
func TestBuildIncompatibleStore(t *testing.T) {
	db := filepath.Join(t.TempDir(), "db")
	want := buildChampions(t, db)
	old := setMetaRaw(t, db, func(m map[string]any) { m["format_version"] = store.FormatVersion + 7 })
	wantMsg := fmt.Sprintf("incompatible format version: the store has %d, this run asks for %d", store.FormatVersion+7, store.FormatVersion)
	o, err := runBuild(t, context.Background(), buildSpec{Dir: db, Inputs: []string{newGames(t, 20)}})
	if !errors.Is(err, store.ErrIncompatible) || !strings.Contains(err.Error(), wantMsg) || !strings.Contains(err.Error(), db) || o.Ran {
		t.Errorf("error %v, %+v; want store.ErrIncompatible and %q", err, o, wantMsg)
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
	_, err = runBuild(t, context.Background(), buildSpec{Dir: foreign, Inputs: []string{champions}})
	if !errors.Is(err, store.ErrNotStore) || !strings.Contains(err.Error(), "not a chessbook store") || !strings.Contains(err.Error(), foreign) {
		t.Errorf("a directory that is not a store: %v", err)
	}
	if names, _ := os.ReadDir(foreign); len(names) != 1 {
		t.Errorf("the build wrote into a directory that is not a store: %v", names)
	}
}

// maxStop is how long a build may take to stop once interrupted: it
// commits the runs it wrote already (at most commitInterval of work, far
// less in these tests) and drops the rest.
const maxStop = 10 * time.Second

// checkInterrupted checks an interrupted build's outcome, and that the
// store opens and holds what it says was committed.
func checkInterrupted(t *testing.T, db string, o outcome, stop time.Duration) {
	t.Helper()
	if !o.Interrupted {
		t.Fatalf("%+v: want build.ErrInterrupted", o)
	}
	if stop > maxStop {
		t.Errorf("the build took %v to stop once interrupted, want under %v", stop, maxStop)
	}
	if err := o.reconcile(); err != nil {
		t.Errorf("%v: %+v", err, o)
	}
	if o.StoreGames != o.Stored {
		t.Errorf("the store counts %d games, the build committed %d to a new store", o.StoreGames, o.Stored)
	}
	storetest.CheckAnswers(t, db, o.Stored)
}

// TestBuildCancelled: a build whose context is cancelled before it starts
// stores nothing, returns build.ErrInterrupted (which is also the context's
// error), and leaves a store that opens.
func TestBuildCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	db := filepath.Join(t.TempDir(), "db")
	o, err := runBuild(t, ctx, buildSpec{Dir: db, Inputs: []string{champions}})
	if !errors.Is(err, build.ErrInterrupted) || !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v: want build.ErrInterrupted and context.Canceled", err)
	}
	checkInterrupted(t, db, o, 0)
	if o.Stored != 0 {
		t.Errorf("%d games stored after a cancellation", o.Stored)
	}
}

// TestBuildInterruptResume sends SIGTERM to a build of the medium corpus
// fed through a pipe, while it waits for more input (a stalled pipe must
// not delay the stop), then runs the build again on the whole file: the
// result is exactly the store of an uninterrupted build, nothing counted
// twice.
func TestBuildInterruptResume(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the medium corpus twice")
	}
	in := mediumInput(t) // testdata's champions500; the world champions' corpus with -tags oracle
	rc, err := ingest.Open(in)
	if err != nil {
		t.Fatal(err)
	}
	pgn, err := io.ReadAll(rc)
	rc.Close()
	if err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(t.TempDir(), "db")
	cmd := child(t, buildSpec{Dir: db, Inputs: []string{"-"}, MemBudget: smallBudget})
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	defer stdin.Close()
	if _, err := stdin.Write(pgn[:len(pgn)/2]); err != nil {
		t.Fatal(err)
	}
	time.Sleep(1500 * time.Millisecond) // the pipe stays open: the build waits for more
	t0 := time.Now()
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait() // the exit status is checked below
	stop := time.Since(t0)
	code, first := childOutcome(t, cmd, out.String(), errOut.String())
	if code != 130 {
		t.Errorf("exit %d: want 130 (interrupted): %s", code, errOut.String())
	}
	checkInterrupted(t, db, first, stop)
	t.Logf("stopped %v after SIGTERM; %d games read, %d committed, %d not written", stop, first.Read, first.Stored, first.Uncommitted)

	checkResumed(t, db, in, first, "interrupted run")
}

// TestInterruptCommitsRunsWritten interrupts a build at its 300th game
// of 500, with several runs written (a tiny budget) and none committed
// yet (a commit only every 1000 runs): the runs written are committed
// before the build stops (build.Builder.Interrupt), so the store keeps
// games; the games dropped are counted; running the build again ends with
// the store of an uninterrupted build.
func TestInterruptCommitsRunsWritten(t *testing.T) {
	db := filepath.Join(t.TempDir(), "db")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	o := buildSpec{Dir: db, Inputs: []string{champions}, MemBudget: 1 << 20, CommitRuns: 1000}.options()
	var added atomic.Int64
	o.Options = build.WithHook(o.Options, 1, func(p build.HookPoint, _ *rand.Rand) {
		if p == build.HookAdd && added.Add(1) == 300 {
			cancel()
		}
	})
	res, err := build.Run(ctx, o)
	first := outcomeOf(res, err)
	checkInterrupted(t, db, first, 0)
	if first.Stored == 0 || first.Uncommitted == 0 || res.Stats.Flushes < 3 {
		t.Fatalf("interrupted at the 300th game after %d flushes: %d games committed, %d not written; want some of each",
			res.Stats.Flushes, first.Stored, first.Uncommitted)
	}
	t.Logf("%d games read, %d committed in %d commits, %d not written", first.Read, first.Stored, res.Stats.Commits, first.Uncommitted)
	checkResumed(t, db, champions, first, "interrupted run")
}

// TestTimedCommits: a build commits at least every commitEvery while it
// adds games, whatever its runs' size: with a 20 ms interval, tables too
// big to fill and a build slowed to a few milliseconds a game, a build
// makes several commits, and its store equals a build's that commits
// once. Interrupted once a commit was made, it keeps the games committed,
// and the build run again ends with that same store.
func TestTimedCommits(t *testing.T) {
	spec := buildSpec{Inputs: []string{champions}, MemBudget: 256 << 20, CommitRuns: 1000}
	slow := func(o build.Options) build.Options {
		return build.WithHook(o, 1, func(p build.HookPoint, _ *rand.Rand) {
			if p == build.HookAdd {
				time.Sleep(2 * time.Millisecond)
			}
		})
	}
	once := spec
	once.Dir = filepath.Join(t.TempDir(), "once")
	o := once.options()
	o.Options = build.WithCommitEvery(o.Options, -1)
	res, err := build.Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if res.Stats.Commits != 1 {
		t.Fatalf("without timed commits: %d commits, want 1 (the tables never fill)", res.Stats.Commits)
	}
	want, _, _ := storetest.Digest(t, once.Dir)

	timed := spec
	timed.Dir = filepath.Join(t.TempDir(), "timed")
	o = timed.options()
	o.Options = slow(build.WithCommitEvery(o.Options, 20*time.Millisecond))
	var reported atomic.Int64
	o.Committed = func(games int64) { reported.Store(games) }
	res, err = build.Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if res.Stats.Commits < 3 || reported.Load() != res.Stats.Games || res.Stats.Games != 500 {
		t.Errorf("20 ms commits: %d commits, %d games reported committed of %d; want several, all", res.Stats.Commits, reported.Load(), res.Stats.Games)
	}
	if got, _, _ := storetest.Digest(t, timed.Dir); got != want {
		t.Errorf("the store of %d timed commits differs from one commit's", res.Stats.Commits)
	}
	t.Logf("%d timed commits", res.Stats.Commits)

	// Interrupted once a commit is made: the games committed stay.
	cut := spec
	cut.Dir = filepath.Join(t.TempDir(), "cut")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	o = cut.options()
	o.Options = slow(build.WithCommitEvery(o.Options, 20*time.Millisecond))
	o.Committed = func(int64) { cancel() }
	res, err = build.Run(ctx, o)
	first := outcomeOf(res, err)
	checkInterrupted(t, cut.Dir, first, 0)
	if first.Stored == 0 || first.Uncommitted == 0 {
		t.Fatalf("interrupted after a timed commit: %d games committed, %d not written; want some of each", first.Stored, first.Uncommitted)
	}
	t.Logf("interrupted after a timed commit: %d games read, %d committed, %d not written", first.Read, first.Stored, first.Uncommitted)
	again, err := runBuild(t, context.Background(), cut)
	if err != nil {
		t.Fatal(err)
	}
	if first.Stored+again.Stored != 500 || again.Dups < first.Stored {
		t.Errorf("interrupted run stored %d, re-run %d (%d duplicates); one build stores 500", first.Stored, again.Stored, again.Dups)
	}
	if got, _, _ := storetest.Digest(t, cut.Dir); got != want {
		t.Errorf("after the re-run the store differs from an uninterrupted build's")
	}
}

// TestInterruptedDuringLastCommit: a build cancelled as it makes its last
// commit (the input read to its end, every table written) completes that
// commit: every game is stored and the build is done, without
// build.ErrInterrupted.
func TestInterruptedDuringLastCommit(t *testing.T) {
	db := filepath.Join(t.TempDir(), "db")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	o := buildSpec{Dir: db, Inputs: []string{champions}}.options()
	o.Options = build.WithHook(o.Options, 1, func(p build.HookPoint, _ *rand.Rand) {
		if p == build.HookCommit {
			cancel()
		}
	})
	res, err := build.Run(ctx, o)
	if err != nil || res.Stats.Games != 500 || res.Stats.Uncommitted != 0 || res.Store.Meta.Games != 500 {
		t.Fatalf("cancelled during the last commit: %v, %d games stored, %d not written; want done, 500 stored", err, res.Stats.Games, res.Stats.Uncommitted)
	}
	storetest.CheckAnswers(t, db, 500)
}
