package ingest_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/chessbook/chessbook/ingest"
	"github.com/chessbook/chessbook/internal/testutil"
	"github.com/chessbook/chessbook/pgn"
)

// plySink counts the plies of the games it gets.
type plySink struct {
	mu    *sync.Mutex
	games *int
	plies *int
	skips *[]*ingest.GameError
}

func (s plySink) Game(g *pgn.Game) error {
	s.mu.Lock()
	*s.games++
	*s.plies += len(g.Moves)
	s.mu.Unlock()
	return nil
}

func (s plySink) Skip(e *ingest.GameError) {
	s.mu.Lock()
	*s.skips = append(*s.skips, e)
	s.mu.Unlock()
}

type runResult struct {
	sum          *ingest.Summary
	games, plies int
	skips        []*ingest.GameError
}

func runPipeline(t *testing.T, workers int, inputs ...string) runResult {
	t.Helper()
	var r runResult
	var mu sync.Mutex
	sum, err := ingest.Run(context.Background(), inputs, ingest.Options{Workers: workers},
		func(int) ingest.Sink { return plySink{&mu, &r.games, &r.plies, &r.skips} })
	if err != nil {
		t.Fatal(err)
	}
	r.sum = sum
	return r
}

// notnilPlies counts games and the plies notnil/chess accepts, game by
// game (notnil's own Scanner stops a whole file at its first complaint,
// such as a PGN that writes "+" for a mate).
func notnilPlies(t *testing.T, path string) (games, plies int) {
	t.Helper()
	for _, g := range collectSANs(t, path) {
		n, d := checkGame(g)
		if d != "" {
			t.Fatal(d)
		}
		games++
		plies += n
	}
	return games, plies
}

func TestRunCountsMatchNotnil(t *testing.T) {
	const path = "../testdata/champions500.pgn"
	wantGames, wantPlies := notnilPlies(t, path)
	if wantGames != 500 {
		t.Fatalf("notnil read %d games, want 500", wantGames)
	}
	for _, workers := range []int{1, 2, 4} {
		r := runPipeline(t, workers, path)
		if r.sum.Games != 500 || r.sum.Ingested != 500 || r.games != 500 {
			t.Errorf("workers=%d: games read %d, ingested %d, sink got %d; want 500", workers, r.sum.Games, r.sum.Ingested, r.games)
		}
		if int(r.sum.Plies) != wantPlies || r.plies != wantPlies {
			t.Errorf("workers=%d: plies %d (sink %d), notnil says %d", workers, r.sum.Plies, r.plies, wantPlies)
		}
		if len(r.skips) != 0 {
			t.Errorf("workers=%d: unexpected skips %v", workers, r.skips)
		}
	}
}

func TestRunSkipsIllegalMoveWithLine(t *testing.T) {
	path := testutil.Testdata(t, filepath.Join("tricky", "pgnmentor_Gelfand_illegal_move_31Qxe1.pgn"))
	// The same file twice, with a good game between: the bad game is
	// skipped both times and the good one kept.
	r := runPipeline(t, 2, path, "../testdata/champions500.pgn", path)
	if r.sum.Games != 502 || r.sum.Ingested != 500 {
		t.Fatalf("games %d ingested %d, want 502 and 500", r.sum.Games, r.sum.Ingested)
	}
	if got := r.sum.Skipped[ingest.SkipIllegalMove]; got != 2 {
		t.Fatalf("illegal-move skips = %d, want 2 (%v)", got, r.sum.Errors)
	}
	for _, e := range r.skips {
		msg := e.Error()
		if e.Line != 16 || !strings.Contains(msg, "pgnmentor_Gelfand_illegal_move_31Qxe1.pgn:16: illegal move") || !strings.Contains(msg, "Qxe1") {
			t.Errorf("error %q: want file:16: illegal move ... Qxe1", msg)
		}
	}
}

func TestRunMissingInput(t *testing.T) {
	_, err := ingest.Run(context.Background(), []string{"testdata/does-not-exist.pgn"}, ingest.Options{},
		func(int) ingest.Sink { return plySink{} })
	if err == nil || !strings.Contains(err.Error(), "does-not-exist.pgn") {
		t.Fatalf("err = %v, want one naming the file", err)
	}
}

func TestRunCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var mu sync.Mutex
	var g, p int
	var s []*ingest.GameError
	_, err := ingest.Run(ctx, []string{"../testdata/champions500.pgn"}, ingest.Options{},
		func(int) ingest.Sink { return plySink{&mu, &g, &p, &s} })
	if err == nil {
		t.Fatal("cancelled run returned no error")
	}
}

// TestRunWarnings: a game whose variation is never closed (the next game's
// tags, or the end of the input, end it) and one whose Result tag
// contradicts its result marker are ingested with a warning each, naming
// file and line; the same unclosed variation at the end of an input cut
// inside a line is a skipped game (it may be cut off).
func TestRunWarnings(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "w.pgn")
	in := "[Event \"a\"]\n[Result \"1-0\"]\n\n1. e4 (1. d4 d5 2. c4 *\n\n" +
		"[Event \"b\"]\n[Result \"1-0\"]\n\n1. d4 d5 0-1\n\n" +
		"[Event \"c\"]\n[Result \"1/2-1/2\"]\n\n1. c4 c5 1/2-1/2\n\n" +
		"[Event \"d\"]\n\n1. e4 (1. d4 d5 *\n"
	if err := os.WriteFile(path, []byte(in), 0o644); err != nil {
		t.Fatal(err)
	}
	r := runPipeline(t, 1, path)
	if r.sum.Games != 4 || r.sum.Ingested != 4 {
		t.Fatalf("games %d, ingested %d, skipped %v; want 4 and 4", r.sum.Games, r.sum.Ingested, r.sum.Skipped)
	}
	if r.sum.Warned != 3 || len(r.sum.Warnings) != 3 {
		t.Fatalf("%d warnings %v, want 3", r.sum.Warned, r.sum.Warnings)
	}
	for i, want := range []string{"w.pgn:4: unclosed variation", "w.pgn:6: the Result tag says 1-0, the result marker 0-1", "w.pgn:18: unclosed variation"} {
		if got := r.sum.Warnings[i].String(); !strings.Contains(got, want) {
			t.Errorf("warning %d: %q, want %q", i, got, want)
		}
	}
	cut := filepath.Join(dir, "cut.pgn")
	if err := os.WriteFile(cut, []byte(strings.TrimSuffix(in, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	r = runPipeline(t, 1, cut)
	if r.sum.Ingested != 3 || r.sum.Skipped[ingest.SkipSyntax] != 1 {
		t.Fatalf("cut inside the last line: ingested %d, skipped %v; want 3 and one syntax error", r.sum.Ingested, r.sum.Skipped)
	}
	if e := r.sum.Errors[0]; e.Line != 18 || !strings.Contains(e.Detail, "variation opened at line 18") {
		t.Errorf("skip report %v: want line 18 and the variation named", e)
	}
}

// TestRunHugeGame: a game longer than pgn.DefaultMaxGameSize (a tag of
// 40 or 120 MiB) is skipped with its line and the reason, without holding
// it in memory (what the run allocates does not grow with the game); the
// games around it are ingested.
func TestRunHugeGame(t *testing.T) {
	var allocs []uint64
	for _, mib := range []int{40, 120} {
		path := filepath.Join(t.TempDir(), "huge.pgn")
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		game := "[Event \"%s\"]\n\n1. e4 e5 2. Nf3 1-0\n\n"
		fmt.Fprintf(f, game, "before")
		fmt.Fprintf(f, "[Event \"huge\"]\n[Annotator \"")
		chunk := strings.Repeat("x", 1<<20)
		for range mib {
			f.WriteString(chunk)
		}
		fmt.Fprintf(f, "\"]\n\n1. d4 d5 1/2-1/2\n\n")
		fmt.Fprintf(f, game, "after")
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		r := runPipeline(t, 2, path)
		runtime.ReadMemStats(&after)
		allocs = append(allocs, after.TotalAlloc-before.TotalAlloc)
		if r.sum.Games != 3 || r.sum.Ingested != 2 || r.sum.Skipped[ingest.SkipTooLong] != 1 {
			t.Fatalf("%d MiB: games %d, ingested %d, skipped %v; want 3, 2 and one too long", mib, r.sum.Games, r.sum.Ingested, r.sum.Skipped)
		}
		if e := r.sum.Errors[0]; e.Line != 5 || !strings.Contains(e.Error(), "game too long") {
			t.Errorf("%d MiB: skip report %v: want line 5, game too long", mib, e)
		}
	}
	if allocs[1] > allocs[0]+pgn.DefaultMaxGameSize || allocs[1] > 8*pgn.DefaultMaxGameSize {
		t.Errorf("the runs allocated %d and %d MiB for games of 40 and 120 MiB: want it bounded by the game size limit (%d MiB)",
			allocs[0]>>20, allocs[1]>>20, pgn.DefaultMaxGameSize>>20)
	}
	t.Logf("allocated %d and %d MiB", allocs[0]>>20, allocs[1]>>20)
}
