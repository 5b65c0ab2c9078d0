package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chessbook/chessbook/book/build"
	"github.com/chessbook/chessbook/explorer"
	"github.com/chessbook/chessbook/ingest"
	"github.com/chessbook/chessbook/internal/testutil"
	"github.com/chessbook/chessbook/store"
)

// TestBuildInProgress runs the readers and check beside a build that
// holds the store's lock and has not committed its games yet: check calls
// none of its files leftovers and says a build is at work, each reader
// says what the build has committed, a name not in the store yet says it
// too, and serve's answers carry the Chessbook-Build header. Once the
// build is done, none of it is said.
func TestBuildInProgress(t *testing.T) {
	db := buildBook(t, "../../testdata/ep_pinned.pgn")
	st, err := store.Open(db, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	committed := st.Meta().Games
	if committed == 0 {
		t.Fatal("the first build stored no game")
	}
	// A build at work: its aggregation tables flush often (sorted runs in
	// the ingestion directory), and it has not committed them.
	b := build.NewBuilder(st, build.Options{MemBudget: 64 << 10, CommitRuns: 1 << 20}, 2)
	if _, err := ingest.Run(context.Background(), []string{championsPGN}, ingest.Options{Workers: 2}, b.Sink); err != nil {
		t.Fatal(err)
	}
	pending, err := os.ReadDir(filepath.Join(db, "chessbook-ingest"))
	if err != nil || len(pending) == 0 {
		t.Fatalf("the build wrote nothing in its ingestion directory yet (%v): the test needs its files", err)
	}
	note := explorer.BuildNote(committed)
	if want := "a build is in progress on this store (12 games committed so far)"; committed == 12 && note != want {
		t.Errorf("BuildNote(12) = %q, want %q", note, want)
	}

	out, errOut, code := runCmd(t, "-db", db, "check")
	if code != 0 || strings.Contains(out, "leftovers:") || strings.Contains(out, "safe to delete") ||
		!strings.Contains(out, note+": this process holds the store's lock") ||
		!strings.Contains(out, "the build's work not committed yet: not leftovers, do not delete them") ||
		!strings.Contains(out, "chessbook-ingest/") {
		t.Errorf("check beside a build: exit status %d\n%s%s", code, out, errOut)
	}
	out, errOut, code = runCmd(t, "-db", db, "check", "-json")
	var rep storeCheckJSON
	if err := json.Unmarshal([]byte(out), &rep); err != nil || code != 0 || rep.Writer == nil || len(rep.Leftovers) != 0 || len(rep.InProgress) == 0 {
		t.Errorf("check -json beside a build: exit status %d, %v\n%s%s", code, err, out, errOut)
	}

	out, errOut, code = runCmd(t, "-db", db, "search", "-player", "carlsen")
	if want := `bookquery: search: player "carlsen": no such name (closest: "A", "B"); ` + note + "\n"; code != 2 || errOut != want {
		t.Errorf("search -player carlsen beside a build: exit status %d, stderr %q, want 2, %q", code, errOut, want)
	}
	out, errOut, code = runCmd(t, "-db", db, "moves")
	if want := "bookquery: moves: note: " + note + ": this answer is from those\n"; code != 0 || errOut != want ||
		!strings.Contains(out, "total") {
		t.Errorf("moves beside a build: exit status %d, stderr %q, want %q\n%s", code, errOut, want, out)
	}
	out, errOut, code = runCmd(t, "-db", db, "moves", "-json")
	if code != 0 || !strings.Contains(errOut, note) || !json.Valid([]byte(out)) {
		t.Errorf("moves -json beside a build: exit status %d, stderr %q\n%s", code, errOut, out)
	}

	live, err := store.OpenLive(db, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer live.Close()
	h := explorer.NewHandler(live)
	header := func() string {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/moves", nil))
		if rec.Code != http.StatusOK {
			t.Errorf("GET /moves: %d %s", rec.Code, rec.Body)
		}
		return rec.Header().Get(explorer.BuildHeader)
	}
	if got, want := header(), "in progress; 12 games committed so far"; got != want {
		t.Errorf("GET /moves beside a build: %s: %q, want %q", explorer.BuildHeader, got, want)
	}

	if err := b.Finish(); err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	out, errOut, code = runCmd(t, "-db", db, "check")
	if code != 0 || strings.Contains(out, "in progress") || strings.Contains(out, "leftovers:") {
		t.Errorf("check after the build: exit status %d\n%s%s", code, out, errOut)
	}
	if _, errOut, code = runCmd(t, "-db", db, "moves"); code != 0 || errOut != "" {
		t.Errorf("moves after the build: exit status %d, stderr %q", code, errOut)
	}
	if _, err := live.Refresh(); err != nil {
		t.Fatal(err)
	}
	if got := header(); got != "" {
		t.Errorf("GET /moves after the build: %s: %q, want none", explorer.BuildHeader, got)
	}
}

// TestBuildInProgressBinary runs bookbuild, reading its games from a pipe
// the test holds open: while it waits for more, it holds the store's
// lock, and check and the readers (other processes than the build) name
// it by its process id; once its input ends and it exits, they say
// nothing of a build.
func TestBuildInProgressBinary(t *testing.T) {
	gobin := testutil.GoTool(t)
	bin := filepath.Join(t.TempDir(), "bookbuild")
	if out, err := exec.Command(gobin, "build", "-o", bin, "../bookbuild").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	db := buildBook(t, "../../testdata/ep_pinned.pgn")
	cmd := exec.Command(bin, "-db", db, "-q", "-")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		stdin.Close()
		cmd.Process.Kill()
		cmd.Wait()
	}()
	games, err := os.ReadFile(championsPGN)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := stdin.Write(games[:len(games)/2]); err != nil {
		t.Fatal(err)
	}
	// Wait (at most a minute) for the build to take the lock.
	var w *store.Writer
	for i := 0; i < 600 && w == nil; i++ {
		if w, err = store.WriterOf(db); err != nil {
			t.Fatal(err)
		}
		if w == nil {
			time.Sleep(100 * time.Millisecond)
		}
	}
	if w == nil || w.PID != cmd.Process.Pid || w.Self {
		t.Fatalf("WriterOf while bookbuild (pid %d) runs: %+v", cmd.Process.Pid, w)
	}
	note := explorer.BuildNote(12)
	out, errOut, code := runCmd(t, "-db", db, "check")
	if want := fmt.Sprintf("%s: process %d holds the store's lock", note, cmd.Process.Pid); code != 0 ||
		!strings.Contains(out, want) || strings.Contains(out, "leftovers:") {
		t.Errorf("check beside bookbuild: exit status %d, want 0 and %q, no leftovers\n%s%s", code, want, out, errOut)
	}
	if _, errOut, code = runCmd(t, "-db", db, "search", "-player", "zzz"); code != 2 || !strings.HasSuffix(errOut, "; "+note+"\n") {
		t.Errorf("search -player zzz beside bookbuild: exit status %d, stderr %q", code, errOut)
	}
	if _, err := stdin.Write(games[len(games)/2:]); err != nil {
		t.Fatal(err)
	}
	stdin.Close()
	if err := cmd.Wait(); err != nil {
		t.Fatalf("bookbuild: %v\n%s", err, stderr.String())
	}
	if w, err := store.WriterOf(db); w != nil || err != nil {
		t.Errorf("WriterOf after the build: %+v, %v", w, err)
	}
	out, errOut, code = runCmd(t, "-db", db, "check")
	if code != 0 || strings.Contains(out, "in progress") || !strings.Contains(out, "512 games counted") {
		t.Errorf("check after bookbuild: exit status %d\n%s%s", code, out, errOut)
	}
}
