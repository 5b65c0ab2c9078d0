package build_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/chessbook/chessbook/book/build"
	"github.com/chessbook/chessbook/book/export"
	"github.com/chessbook/chessbook/internal/storetest"
	"github.com/chessbook/chessbook/store"
)

// runKilled runs the build s, which kills itself at s.KillPoint, in a
// separate process, and reports whether it died of SIGKILL (false: it
// finished before the point came).
func runKilled(t *testing.T, s buildSpec) bool {
	t.Helper()
	cmd := child(t, s)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	noCrash(t, errOut.String())
	var exit *exec.ExitError
	switch {
	case err == nil:
		return false
	case errors.As(err, &exit):
		if ws, ok := exit.Sys().(syscall.WaitStatus); ok && ws.Signaled() && ws.Signal() == syscall.SIGKILL {
			return true
		}
	}
	t.Fatalf("build process: %v: %s", err, errOut.String())
	return false
}

// TestKilledBuildsEqualMakeBook kills -count occurrence -keep-duplicates
// builds with SIGKILL, in a separate process, one to three times in a row,
// each time at a random point: while adding the N-th game (the flusher and
// the committer then are anywhere in their work), or just before or just
// after the N-th ingestion; then it runs the build to its end. Every time
// the store must equal an uninterrupted build's (statistics with first-seen
// stamps, game records, game order index, the game index), and its export must be
// PolyGlot make-book's reference book, byte for byte. -short runs one
// trial of the first case.
func TestKilledBuildsEqualMakeBook(t *testing.T) {
	champions, championsRef, lichess, lichessRef := killInputs(t)
	cases := []struct {
		name, in, ref string
		spec          buildSpec
		export        export.Options
	}{
		{
			name: "world champions, max-ply 20",
			in:   champions,
			ref:  championsRef,
			spec: buildSpec{MaxPly: 20}, export: export.Options{MinGame: 1, MaxPly: 20},
		},
		{
			name: "lichess 10k",
			in:   lichess,
			ref:  lichessRef,
			spec: buildSpec{MaxPly: 1024, StandardStartOnly: true}, export: export.Options{MinGame: 3},
		},
	}
	trials := 3
	if testing.Short() {
		trials, cases = 1, cases[:1]
	}
	rng := rand.New(rand.NewPCG(27, 1))
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			spec := c.spec
			spec.Inputs = []string{c.in}
			spec.CountMode, spec.KeepDuplicates = store.CountOccurrence, true
			// A small budget, a commit per flush: a dozen commits, and
			// kills between and during them.
			spec.MemBudget, spec.CommitRuns, spec.Compact = killBudget, 1, true
			clean := spec
			clean.Dir = filepath.Join(t.TempDir(), "clean")
			first, err := build.Run(context.Background(), clean.options())
			if err != nil {
				t.Fatal(err)
			}
			stored, commits := first.Stats.Games, first.Stats.Commits
			if commits < 5 {
				t.Fatalf("the clean build made %d commits; want several", commits)
			}
			again, err := build.Run(context.Background(), clean.options()) // a re-run adds nothing
			if err != nil || again.Stats.Games != 0 || again.Stats.Duplicates != stored {
				t.Fatalf("re-run of the clean build: %v, %+v", err, again.Stats)
			}
			want, _, _ := storetest.Digest(t, clean.Dir)
			wantIndex := storetest.IndexDigest(t, clean.Dir)
			for trial := range trials {
				s := spec
				s.Dir = filepath.Join(t.TempDir(), fmt.Sprint("trial", trial))
				kills := 1 + rng.IntN(3)
				var log []string
				for range kills {
					s.KillPoint, s.KillAt = build.HookAdd, 1+rng.Int64N(stored)
					switch rng.IntN(4) {
					case 0:
						s.KillPoint, s.KillAt = build.HookCommit, 1+rng.Int64N(commits)
					case 1:
						s.KillPoint, s.KillAt = build.HookCommitted, 1+rng.Int64N(commits)
					}
					killed := runKilled(t, s)
					log = append(log, fmt.Sprintf("%s #%d: killed %v", s.KillPoint, s.KillAt, killed))
				}
				s.KillAt = 0
				final, err := runBuild(t, context.Background(), s)
				if err != nil {
					t.Fatalf("trial %d, after %v: %v", trial, log, err)
				}
				t.Logf("trial %d: %v; the last run stored %d games", trial, log, final.Stored)
				if got, _, _ := storetest.Digest(t, s.Dir); got != want {
					t.Errorf("trial %d, after %v: the store differs from an uninterrupted build's", trial, log)
				}
				// The game index went with the games: whole, and the
				// same as the uninterrupted build's (games named by id).
				if got := storetest.IndexDigest(t, s.Dir); got != wantIndex {
					t.Errorf("trial %d, after %v: the game index differs from an uninterrupted build's", trial, log)
				}
				st, err := store.Open(s.Dir, store.Options{ReadOnly: true})
				if err != nil {
					t.Fatal(err)
				}
				storetest.CompareExport(t, st, c.ref, c.export)
				st.Close()
			}
		})
	}
}
