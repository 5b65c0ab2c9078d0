package main

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chessbook/chessbook/internal/storetest"
	"github.com/chessbook/chessbook/store"
)

// The build's failures themselves (unwritable store, full disk, truncated
// input, store in use, incompatible store, interruption and re-run) are
// tested on build.Run, in book/build/build_fault_test.go. These tests check
// what the command makes of them: exit status, message, summary.

// runMainEnv makes this test binary run bookbuild's main instead of the
// tests: the tests that signal bookbuild run it that way.
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

// noCrash fails the test if stderr shows a panic or a runtime crash.
func noCrash(t *testing.T, stderr string) {
	t.Helper()
	for _, s := range []string{"panic:", "goroutine ", "fatal error:", "SIGSEGV"} {
		if strings.Contains(stderr, s) {
			t.Fatalf("bookbuild crashed:\n%s", stderr)
		}
	}
}

// maxStop is how long bookbuild may take to exit after SIGTERM.
const maxStop = 3 * time.Second

var interruptedRE = regexp.MustCompile(`^bookbuild: interrupted: the store keeps what was committed before \((\d+) games in all\); ` +
	`the last (\d+) games read were not written: run the same command again to add them \(the games stored are skipped\)\n$`)

// TestExitInterrupted sends SIGTERM to bookbuild while it waits for more
// of its input (a pipe that stays open): exit status 130, the summary of
// what was read, and a message saying what the store keeps and what a
// re-run adds; without a store, just "interrupted".
func TestExitInterrupted(t *testing.T) {
	pgn, err := os.ReadFile(champions)
	if err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(t.TempDir(), "db")
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"store", []string{"-db", db, "-"}},
		{"no store", []string{"-"}},
		// With progress lines: the lines stop where the reading was, with
		// no "done in" after them.
		{"progress", []string{"-progress", "lines", "-db", filepath.Join(t.TempDir(), "db"), "-"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cmd := command(t, tc.args...)
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
			// More than a chunk (ingest.DefaultChunkSize): games are read.
			if _, err := stdin.Write(append(append(pgn, '\n'), pgn[:len(pgn)/2]...)); err != nil {
				t.Fatal(err)
			}
			time.Sleep(1500 * time.Millisecond) // the pipe stays open: bookbuild waits for more
			t0 := time.Now()
			if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
				t.Fatal(err)
			}
			_ = cmd.Wait() // the exit status is checked below
			if stop := time.Since(t0); stop > maxStop {
				t.Errorf("bookbuild took %v to stop after SIGTERM, want under %v", stop, maxStop)
			}
			noCrash(t, errOut.String())
			if code := cmd.ProcessState.ExitCode(); code != 130 {
				t.Fatalf("exit %d, stderr %q: want 130", code, errOut.String())
			}
			if tc.name == "no store" {
				if errOut.String() != "bookbuild: interrupted\n" || !regexp.MustCompile(`games read: +[1-9]`).MatchString(out.String()) ||
					!strings.Contains(out.String(), "games replayed:") || strings.Contains(out.String(), "store:") {
					t.Errorf("stderr %q, stdout:\n%s", errOut.String(), out.String())
				}
				return
			}
			s := parseSummary(t, out.String())
			if s.read == 0 {
				t.Errorf("no game read before the interruption:\n%s", out.String())
			}
			if err := s.reconcile(); err != nil {
				t.Errorf("%v\n%s", err, out.String())
			}
			stderr := errOut.String()
			if tc.name == "progress" {
				if !strings.Contains(stderr, "-: ") || strings.Contains(stderr, "done in") || strings.Contains(stderr, "writing the store") {
					t.Errorf("progress: want lines of the reading and no \"done in\" or phase after them: %q", stderr)
				}
				lines := strings.SplitAfter(strings.TrimSuffix(stderr, "\n"), "\n")
				stderr = lines[len(lines)-1] + "\n"
			}
			m := interruptedRE.FindStringSubmatch(stderr)
			if m == nil || m[1] != fmt.Sprint(s.storeGames) || m[2] != fmt.Sprint(s.uncommitted) || s.uncommitted == 0 {
				t.Errorf("stderr %q does not explain the interruption of this summary:\n%s", errOut.String(), out.String())
			}
			storetest.CheckAnswers(t, db, s.stored)
		})
	}
}

// TestExitStoreInUse: a store another Store has open: exit status 1 and a
// message naming the store, no summary.
func TestExitStoreInUse(t *testing.T) {
	db := filepath.Join(t.TempDir(), "db")
	st, err := store.Open(db, store.Options{Meta: &store.Meta{CountMode: store.CountGame}})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	code, out, errOut := runCLI(t, "-db", db, champions)
	noCrash(t, errOut)
	if code != 1 || !strings.HasPrefix(errOut, "bookbuild: ") || !strings.Contains(errOut, "in use") || !strings.Contains(errOut, db) || out != "" {
		t.Errorf("exit %d, stderr %q, stdout %q: want 1, \"in use\" naming the store, and no summary", code, errOut, out)
	}
}

// TestExitTruncatedInput: an input that ends in the middle of a gzip
// block: exit status 1, an error naming the file, and the summary of the
// games read before the cut, all stored but the one the cut falls in,
// skipped as cut off.
func TestExitTruncatedInput(t *testing.T) {
	pgn, err := os.ReadFile(champions)
	if err != nil {
		t.Fatal(err)
	}
	var gz bytes.Buffer
	gw := gzip.NewWriter(&gz)
	gw.Write(pgn)
	gw.Close()
	path := filepath.Join(t.TempDir(), "cut.pgn.gz")
	if err := os.WriteFile(path, gz.Bytes()[:gz.Len()*3/5], 0o644); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(t.TempDir(), "db")
	code, out, errOut := runCLI(t, "-db", db, path)
	noCrash(t, errOut)
	if code != 1 || !strings.HasPrefix(errOut, "bookbuild: ") || !strings.Contains(errOut, path) || !strings.Contains(errOut, "unexpected EOF") {
		t.Fatalf("exit %d, stderr %q: want 1 and an error naming the file", code, errOut)
	}
	s := parseSummary(t, out)
	if err := s.reconcile(); err != nil {
		t.Errorf("%v\n%s", err, out)
	}
	if s.read < 100 || s.stored != s.read-1 || s.skipped != 1 || s.storeGames != s.stored || !strings.Contains(out, "the input ends inside this game") {
		t.Errorf("want the games before the cut read and stored, the cut one skipped:\n%s", out)
	}
	storetest.CheckAnswers(t, db, s.stored)
}

// TestExitNotWritable: a store directory that can not be created: exit
// status 1 and the reason, naming the directory.
func TestExitNotWritable(t *testing.T) {
	parent := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(parent, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(parent, "db") // under a regular file
	code, out, errOut := runCLI(t, "-db", db, champions)
	if code != 1 || !strings.Contains(errOut, db) || !strings.Contains(errOut, "not a directory") || out != "" {
		t.Errorf("exit %d, stderr %q, stdout %q: want 1 and the store named with the reason", code, errOut, out)
	}
}
