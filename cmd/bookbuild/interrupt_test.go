package main

import (
	"bytes"
	"io"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chessbook/chessbook/ingest"
	"github.com/chessbook/chessbook/internal/testutil"
)

// maxStop is how long bookbuild may take to exit after SIGTERM.
const maxStop = 3 * time.Second

// terminate sends SIGTERM to a running bookbuild and returns how long it
// took to exit.
func terminate(t *testing.T, cmd *exec.Cmd) time.Duration {
	t.Helper()
	t0 := time.Now()
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait() // the exit status is checked by the caller
	return time.Since(t0)
}

// checkInterrupted checks an interrupted run's exit status, message and
// summary, and that the store opens and holds what it says was committed.
func checkInterrupted(t *testing.T, db string, code int, stop time.Duration, out, errOut string) summary {
	t.Helper()
	noCrash(t, errOut)
	if code != 130 || !strings.Contains(errOut, "bookbuild: interrupted") || !strings.Contains(errOut, "run the same command again") {
		t.Fatalf("exit %d, stderr %q: want 130 and the interruption explained", code, errOut)
	}
	if stop > maxStop {
		t.Errorf("bookbuild took %v to stop after SIGTERM, want under %v", stop, maxStop)
	}
	s := parseSummary(t, out)
	if err := s.reconcile(); err != nil {
		t.Errorf("%v\n%s", err, out)
	}
	checkStoreAnswers(t, db, s.stored)
	return s
}

// TestInterruptLarge sends SIGTERM to a build of the large corpus after
// 2 s: it stops within maxStop with exit status 130, keeping what was
// committed, and the store opens and answers.
func TestInterruptLarge(t *testing.T) {
	if testing.Short() {
		t.Skip("reads the large corpus")
	}
	in := filepath.Join(testutil.SharedData(t), "large", "pgnmentor_players_239files.pgn.zst")
	db := filepath.Join(t.TempDir(), "db")
	cmd := command(t, "-db", db, in)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	time.Sleep(2 * time.Second)
	stop := terminate(t, cmd)
	s := checkInterrupted(t, db, cmd.ProcessState.ExitCode(), stop, out.String(), errOut.String())
	t.Logf("stopped %v after SIGTERM; %d games read, %d committed, %d not written", stop, s.read, s.stored, s.uncommitted)
}

// TestInterruptResume interrupts a build of the medium corpus fed through
// a pipe, while it waits for more input (a stalled pipe must not delay
// the stop), then runs the build again on the whole file: the result is
// exactly the store of an uninterrupted build, nothing counted twice.
func TestInterruptResume(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the medium corpus twice")
	}
	in := filepath.Join(testutil.SharedData(t), "medium", "pgnmentor_world_champions_16players.pgn.zst")
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
	// A small memory budget: the first half of the input makes several
	// commits.
	cmd := command(t, "-mem", "256", "-db", db, "-")
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
	time.Sleep(1500 * time.Millisecond) // the pipe stays open: bookbuild waits for more
	stop := terminate(t, cmd)
	first := checkInterrupted(t, db, cmd.ProcessState.ExitCode(), stop, out.String(), errOut.String())
	t.Logf("stopped %v after SIGTERM; %d games read, %d committed, %d not written", stop, first.read, first.stored, first.uncommitted)

	checkResumed(t, db, in, first, "interrupted run")
}
