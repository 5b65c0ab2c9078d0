package ingest_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chessbook/chessbook/ingest"
	"github.com/chessbook/chessbook/pgn"
)

// place is where a game starts: its input's index and its line.
type place struct{ input, line int }

// orderedLog is what the orderedSinks of one run share: the games in the
// order their Ordered calls came, and whether two calls ever overlapped.
type orderedLog struct {
	mu      sync.Mutex
	games   []place
	busy    atomic.Int32
	overlap atomic.Bool
	chunks  atomic.Int64
}

// orderedSink logs its chunk's games in its Ordered call; it sleeps now
// and then, so that the workers' chunks finish in every order.
type orderedSink struct {
	log    *orderedLog
	inputs map[string]int
	rng    *rand.Rand
	chunk  []place
	failAt int64 // Unordered fails on this chunk (counted from 1 across the run); 0: never
}

func (s *orderedSink) nap() {
	if s.rng.IntN(50) == 0 {
		time.Sleep(time.Duration(s.rng.IntN(300)) * time.Microsecond)
	}
}

func (s *orderedSink) Game(g *pgn.Game) error {
	s.nap()
	s.chunk = append(s.chunk, place{s.inputs[g.File], g.Line})
	return nil
}

func (s *orderedSink) Skip(*ingest.GameError) {}

func (s *orderedSink) Ordered() error {
	if s.log.busy.Add(1) != 1 {
		s.log.overlap.Store(true)
	}
	s.nap()
	s.log.mu.Lock()
	s.log.games = append(s.log.games, s.chunk...)
	s.log.mu.Unlock()
	s.log.busy.Add(-1)
	return nil
}

func (s *orderedSink) Unordered() error {
	s.chunk = s.chunk[:0]
	s.nap()
	if n := s.log.chunks.Add(1); n == s.failAt {
		return errors.New("the sink failed")
	}
	return nil
}

// bigInput writes champions500.pgn n times over (a few hundred KiB each):
// an input of many chunks.
func bigInput(t *testing.T, n int) string {
	t.Helper()
	data, err := os.ReadFile("../testdata/champions500.pgn")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "big.pgn")
	if err := os.WriteFile(path, bytes.Repeat(data, n), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestOrderedSink: with OrderedSinks, the Ordered calls of all workers
// come one at a time, chunk after chunk in input order (across inputs),
// whatever the number of workers and their scheduling: the games they
// log are every game, in input order.
func TestOrderedSink(t *testing.T) {
	inputs := []string{bigInput(t, 5), "../testdata/champions500.pgn", bigInput(t, 2)}
	index := map[string]int{}
	for i, in := range inputs {
		index[in] = i
	}
	var want []place
	procs := runtime.GOMAXPROCS(0)
	defer runtime.GOMAXPROCS(procs)
	for _, workers := range []int{1, 2, 3, 8} {
		for _, p := range []int{procs, 1} {
			runtime.GOMAXPROCS(p)
			var log orderedLog
			sum, err := ingest.Run(context.Background(), inputs, ingest.Options{Workers: workers}, func(w int) ingest.Sink {
				return &orderedSink{log: &log, inputs: index, rng: rand.New(rand.NewPCG(uint64(workers), uint64(w)))}
			})
			if err != nil {
				t.Fatal(err)
			}
			what := fmt.Sprintf("%d workers, GOMAXPROCS %d", workers, runtime.GOMAXPROCS(0))
			if log.overlap.Load() {
				t.Errorf("%s: two Ordered calls overlapped", what)
			}
			if log.chunks.Load() < 10 {
				t.Errorf("%s: %d chunks; want more", what, log.chunks.Load())
			}
			if int64(len(log.games)) != sum.Ingested || sum.Ingested != 8*500 {
				t.Fatalf("%s: %d games logged, %d ingested; want 4000", what, len(log.games), sum.Ingested)
			}
			if !slices.IsSortedFunc(log.games, func(a, b place) int {
				if a.input != b.input {
					return a.input - b.input
				}
				return a.line - b.line
			}) {
				t.Errorf("%s: the Ordered calls did not come in input order", what)
			}
			if want == nil {
				want = log.games
			} else if !slices.Equal(log.games, want) {
				t.Errorf("%s: other games logged than with one worker", what)
			}
		}
	}
}

// TestOrderedSinkFails: a sink that fails in Unordered stops the run with
// its error; the workers waiting for their turn return.
func TestOrderedSinkFails(t *testing.T) {
	in := bigInput(t, 5)
	for _, failAt := range []int64{1, 3, 6} {
		var log orderedLog
		_, err := ingest.Run(context.Background(), []string{in}, ingest.Options{Workers: 4}, func(w int) ingest.Sink {
			return &orderedSink{log: &log, inputs: map[string]int{in: 0}, rng: rand.New(rand.NewPCG(1, uint64(w))), failAt: failAt}
		})
		if err == nil || err.Error() != "the sink failed" {
			t.Errorf("failing at chunk %d: error %v, want the sink's", failAt, err)
		}
	}
}
