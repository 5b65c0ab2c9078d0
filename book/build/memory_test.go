package build

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chessbook/chessbook/ingest"
	"github.com/chessbook/chessbook/internal/tally"
	"github.com/chessbook/chessbook/store"
)

// TestPlanMemoryAddsUp checks that the parts of a memory plan add up to
// the whole-process budget, for budgets from the smallest to far more
// than a build needs and for worker counts from 1 to 100,000: every part
// is there, the workers are those asked for or, when the budget cannot
// afford them, as many as leave each its minimal table and buffers, and
// the Go limit is the budget less what Go does not count.
func TestPlanMemoryAddsUp(t *testing.T) {
	for _, mib := range []int64{256, 257, 300, 384, 512, 768, 1024, 2048, 4096, 64 << 10} {
		for _, workers := range []int{0, 1, 2, 3, 4, 8, 16, 64, 1000, 100000} {
			for _, runs := range []int{0, 1, 8, 64, 100000} {
				total := mib << 20
				p, err := PlanMemory(total, workers, runs)
				name := fmt.Sprintf("%d MiB, %d workers, %d runs", mib, workers, runs)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				if p.Sum() != total {
					t.Errorf("%s: the parts add up to %d, not %d: %s", name, p.Sum(), total, p.String())
				}
				for _, part := range []int64{p.Fixed, p.Cache, p.MemTable, p.Chunks, p.HugeGame, p.Scratch, p.Flush, p.Commit, p.Pending, p.Headroom, p.Tables} {
					if part <= 0 {
						t.Errorf("%s: a part is %d: %s", name, part, p.String())
					}
				}
				asked := max(workers, 1)
				if p.Requested != asked || p.Workers < 1 || p.Workers > asked || p.Reduced() != (p.Workers < asked) {
					t.Errorf("%s: %d workers of %d asked for (reduced %v)", name, p.Workers, p.Requested, p.Reduced())
				}
				if p.Tables != int64(p.Workers+1)*p.TableBytes || p.Spare < 0 || p.Spare > int64(p.Workers) ||
					p.TableBytes < minTableBytes || int64(p.TableRecords)*tally.RecordBytes > p.TableBytes {
					t.Errorf("%s: tables %d = %d x %d (%d records), spare %d", name, p.Tables, p.Workers+1, p.TableBytes, p.TableRecords, p.Spare)
				}
				// Reduced: one worker more would leave the tables under
				// their minimum.
				if p.Reduced() && p.Tables+p.Spare-perWorkerCost() >= int64(p.Workers+2)*minTableBytes {
					t.Errorf("%s: reduced to %d workers, but %d would fit", name, p.Workers, p.Workers+1)
				}
				if p.ChunkBuffers != chunkBuffersPerWorker*p.Workers || p.Chunks != int64(p.ChunkBuffers)*ingest.ChunkBufferSize {
					t.Errorf("%s: %d chunk buffers (%d bytes) for %d workers", name, p.ChunkBuffers, p.Chunks, p.Workers)
				}
				if runs > 0 && p.CommitRuns > runs || p.CommitRuns < 1 || p.Commit != int64(p.CommitRuns+p.Workers+1)*runReaderBytes+3*sstWriterBytes {
					t.Errorf("%s: commit of %d runs: %d bytes", name, p.CommitRuns, p.Commit)
				}
				if p.CommitGames < 1 || p.Pending != int64(p.CommitGames)*pendingGameBytes {
					t.Errorf("%s: %d games pending in %d bytes", name, p.CommitGames, p.Pending)
				}
				if p.GoLimit != total-p.Cache-p.MemTable-codeBytes || p.GoLimit <= p.Tables {
					t.Errorf("%s: Go limit %d", name, p.GoLimit)
				}
			}
		}
	}
	// The default budget runs a machine's usual workers as asked, and
	// commits every 64 runs.
	if p, _ := PlanMemory(0, 8, 0); p.Total != DefaultMemory || p.Reduced() || p.CommitRuns != 64 {
		t.Errorf("default plan for 8 workers: %s", p.String())
	}
}

// perWorkerCost is what each worker costs besides its table.
func perWorkerCost() int64 {
	return chunkBuffersPerWorker*ingest.ChunkBufferSize + perWorkerScratch + runWriterBytes + runReaderBytes
}

// TestPlanMemoryTooSmall: a budget under MinMemory is refused, with both
// figures named.
func TestPlanMemoryTooSmall(t *testing.T) {
	_, err := PlanMemory(MinMemory-1, 1, 0)
	if err == nil || !strings.Contains(err.Error(), "255 MiB") || !strings.Contains(err.Error(), "256 MiB") {
		t.Errorf("err = %v", err)
	}
}

// TestBuildClampsWorkers: a build asked for 100,000 workers in 256 MiB
// runs the workers the plan affords, builds every game, and leaves the
// process's Go memory limit as it found it.
func TestBuildClampsWorkers(t *testing.T) {
	if old := debug.SetMemoryLimit(-1); old != math.MaxInt64 {
		t.Skipf("the test process has a Go memory limit (%d)", old) // Run leaves it alone then
	}
	// The goroutines while it runs: a few per worker.
	var most atomic.Int64
	stop, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		for {
			if n := int64(runtime.NumGoroutine()); n > most.Load() {
				most.Store(n)
			}
			select {
			case <-stop:
				return
			case <-time.After(time.Millisecond):
			}
		}
	}()
	in := filepath.Join("..", "..", "testdata", "champions500.pgn")
	res, err := Run(context.Background(), RunOptions{Options: Options{Inputs: []string{in}, Memory: MinMemory},
		Dir: filepath.Join(t.TempDir(), "db"), Workers: 100000})
	close(stop)
	<-stopped
	if err != nil {
		t.Fatal(err)
	}
	if most.Load() > 200 {
		t.Errorf("%d goroutines during the build", most.Load())
	}
	want, _ := PlanMemory(MinMemory, 100000, 0)
	if res.Plan != want || !res.Plan.Reduced() || res.Plan.Workers > 16 {
		t.Errorf("plan %s, want %s", res.Plan.String(), want.String())
	}
	if res.Stats.Games != 500 || res.Summary.Games != 500 {
		t.Errorf("%d games stored of %d read, want 500", res.Stats.Games, res.Summary.Games)
	}
	if l := debug.SetMemoryLimit(-1); l != math.MaxInt64 {
		t.Errorf("the Go memory limit is %d after the build", l)
	}
}

// TestUnitGamesBounded: games without moves add nothing to a table, but
// their records are held until a flush: a unit is handed over when they
// take their share of it, so a stream of them is flushed run by run.
func TestUnitGamesBounded(t *testing.T) {
	var b strings.Builder
	const n = 5000
	for i := range n {
		fmt.Fprintf(&b, "[White \"player %d\"]\n[Black \"B\"]\n[Event \"an event name long enough to weigh\"]\n\n*\n\n", i)
	}
	in := filepath.Join(t.TempDir(), "tags.pgn")
	if err := os.WriteFile(in, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := Run(context.Background(), RunOptions{Options: Options{Inputs: []string{in}, MemBudget: 1 << 20},
		Dir: filepath.Join(t.TempDir(), "db"), Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	// 1 MiB across 3 tables: a unit holds about 30 KB of games, some 300.
	if res.Stats.Games != n || res.Stats.Flushes < 10 {
		t.Errorf("%d games stored in %d flushes; want %d in more than 10", res.Stats.Games, res.Stats.Flushes, n)
	}
}

// TestCommitOnPendingGames: however many runs a commit may take, a commit
// is made once the runs waiting hold CommitGames games.
func TestCommitOnPendingGames(t *testing.T) {
	in := filepath.Join("..", "..", "testdata", "champions500.pgn")
	for _, tc := range []struct {
		games   int
		commits func(int64) bool
	}{
		{1 << 30, func(n int64) bool { return n == 1 }}, // all at the end
		{100, func(n int64) bool { return n >= 3 }},
	} {
		st, err := store.Open(filepath.Join(t.TempDir(), "db"), store.Options{Meta: &store.Meta{CountMode: store.CountGame}})
		if err != nil {
			t.Fatal(err)
		}
		b := NewBuilder(st, Options{CountMode: store.CountGame, MemBudget: 1 << 20, CommitRuns: 1000, Inputs: []string{in}}, 2)
		b.commitGames = tc.games
		if _, err := ingest.Run(context.Background(), []string{in}, ingest.Options{Workers: 2}, b.Sink); err != nil {
			t.Fatal(err)
		}
		if err := b.Finish(); err != nil {
			t.Fatal(err)
		}
		s := b.Stats()
		if err := st.Close(); err != nil {
			t.Fatal(err)
		}
		if s.Games != 500 || !tc.commits(s.Commits) || s.Flushes < 5 {
			t.Errorf("commit at %d games: %d games in %d flushes, %d commits", tc.games, s.Games, s.Flushes, s.Commits)
		}
	}
}
