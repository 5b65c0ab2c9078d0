//go:build oracle

package build_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chessbook/chessbook/internal/storetest"
	"github.com/chessbook/chessbook/internal/testutil"
)

// TestBuildDiskFull builds the medium corpus into an 8 MiB tmpfs, in a
// separate process: a "no space left on device" error, no crash, a store
// that still opens and answers, and, with the space grown, a re-run that
// ends with exactly the store of a clean build.
func TestBuildDiskFull(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the medium corpus three times")
	}
	in := filepath.Join(testutil.SharedData(t), "medium", "pgnmentor_world_champions_16players.pgn.zst")
	dir := mountTmpfs(t, "8m")
	db := filepath.Join(dir, "book")
	code, first, errOut := runChild(t, buildSpec{Dir: db, Inputs: []string{in}, MemBudget: smallBudget})
	if code != 1 || !strings.Contains(errOut, "no space left on device") {
		t.Fatalf("exit %d, stderr %q: want a failure saying no space left on device", code, errOut)
	}
	if first.Ran {
		if err := first.reconcile(); err != nil {
			t.Errorf("%v: %+v", err, first)
		}
		if first.Uncommitted == 0 {
			t.Errorf("no game reported as not written: %+v", first)
		}
		storetest.CheckAnswers(t, db, first.Stored)
	} else {
		t.Logf("the store did not open: %s", errOut)
		storetest.CheckAnswers(t, db, -1)
	}
	t.Logf("disk full: %d games committed; %s", first.Stored, strings.TrimSpace(errOut))

	remount(t, dir, "size=1g")
	checkResumed(t, db, in, first, "full disk run")
}

// TestBuildInterruptLarge cancels a build of the large corpus after 2 s:
// it stops within maxStop with build.ErrInterrupted, keeping what was
// committed, and the store opens and answers.
func TestBuildInterruptLarge(t *testing.T) {
	if testing.Short() {
		t.Skip("reads the large corpus")
	}
	in := filepath.Join(testutil.SharedData(t), "large", "pgnmentor_players_239files.pgn.zst")
	db := filepath.Join(t.TempDir(), "db")
	ctx, cancel := context.WithCancel(context.Background())
	var cancelled time.Time
	timer := time.AfterFunc(2*time.Second, func() { cancelled = time.Now(); cancel() })
	defer timer.Stop()
	o, _ := runBuild(t, ctx, buildSpec{Dir: db, Inputs: []string{in}})
	stop := time.Since(cancelled)
	checkInterrupted(t, db, o, stop)
	t.Logf("stopped %v after the cancellation; %d games read, %d committed, %d not written", stop, o.Read, o.Stored, o.Uncommitted)
}
