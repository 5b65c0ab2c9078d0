package corpus

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/ingest"
)

// The replay itself (SAN, FEN tags, comments, variations, ...) is tested in
// package ingest, including a differential test against notnil/chess over
// shared/data small/ and medium/; these tests check what this package adds:
// the expansion into positions and the Game fields.

const testPGN = `[Event "one"]

1. e4 e5 2. Nf3 {a comment} (2. f4 exf4) Nc6 1-0

[Event "from a FEN"]
[SetUp "1"]
[FEN "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"]

1. e4 Kd7 *

[Event "illegal"]

1. e4 e5 2. Ke3 *

[Event "no moves"]

*
`

// wantFENs are the positions of the games of testPGN by start line; nil
// marks a game that cannot be replayed (its Line is that of the bad move).
var wantFENs = map[int][]string{
	1: {
		board.StartFEN,
		"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
		"rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2",
		"rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2",
		"r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
	},
	5: {
		"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",
		"4k3/8/8/8/4P3/8/8/4K3 b - e3 0 1",
		"8/3k4/8/8/4P3/8/8/4K3 w - - 1 2",
	},
	13: nil,
	15: {board.StartFEN},
}

func writePGN(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "test.pgn")
	if err := os.WriteFile(path, []byte(testPGN), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func fens(ps []board.Position) []string {
	out := make([]string, len(ps))
	for i := range ps {
		out[i] = ps[i].FEN()
	}
	return out
}

func checkGames(t *testing.T, got map[int][]string, errs map[int]error) {
	t.Helper()
	if len(got)+len(errs) != len(wantFENs) {
		t.Errorf("%d games replayed and %d failed, want %d games", len(got), len(errs), len(wantFENs))
	}
	for line, want := range wantFENs {
		if want == nil {
			var ge *ingest.GameError
			if !errors.As(errs[line], &ge) || ge.Reason != ingest.SkipIllegalMove {
				t.Errorf("game at line %d: err %v, want an illegal-move *ingest.GameError", line, errs[line])
			}
			continue
		}
		if !slices.Equal(got[line], want) {
			t.Errorf("game at line %d:\n got %q\nwant %q", line, got[line], want)
		}
	}
}

// TestReplayOrdered checks that one worker hands the games over in file
// order (keys' benchmarks and the measure tool take "the first games"),
// with their lines and positions.
func TestReplayOrdered(t *testing.T) {
	path := writePGN(t)
	var lines []int
	got, errs := map[int][]string{}, map[int]error{}
	err := Replay(path, 1, func(g Game) {
		lines = append(lines, g.Line)
		if g.Err != nil {
			if len(g.Positions) != 0 {
				t.Errorf("line %d: failed game with %d positions", g.Line, len(g.Positions))
			}
			errs[g.Line] = g.Err
			return
		}
		got[g.Line] = fens(g.Positions)
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := []int{1, 5, 13, 15}; !slices.Equal(lines, want) {
		t.Errorf("games at lines %v, want %v (file order)", lines, want)
	}
	checkGames(t, got, errs)
}

// TestReplayParallel checks that several workers deliver the same games,
// each game's positions intact although the slice is reused per worker.
func TestReplayParallel(t *testing.T) {
	path := writePGN(t)
	var mu sync.Mutex
	got, errs := map[int][]string{}, map[int]error{}
	err := Replay(path, 4, func(g Game) {
		f := fens(g.Positions)
		mu.Lock()
		defer mu.Unlock()
		if g.Err != nil {
			errs[g.Line] = g.Err
		} else {
			got[g.Line] = f
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	checkGames(t, got, errs)
}

func TestReplayMissingFile(t *testing.T) {
	err := Replay(filepath.Join(t.TempDir(), "nope.pgn"), 0, func(Game) { t.Error("game from a missing file") })
	if err == nil || !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Replay(missing file) = %v, want an error wrapping os.ErrNotExist", err)
	}
}

func TestFiles(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "sub")
	if err := os.MkdirAll(filepath.Join(sub, "d.pgn"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"b.pgn.zst", "a.PGN", "c.pgn.bz2", "notes.txt", "e.pgn.gz"} {
		if err := os.WriteFile(filepath.Join(sub, n), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := Files(dir, "sub")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{filepath.Join(sub, "a.PGN"), filepath.Join(sub, "b.pgn.zst"), filepath.Join(sub, "c.pgn.bz2")}
	if !slices.Equal(got, want) {
		t.Errorf("Files = %q, want %q", got, want)
	}
	if _, err := Files(dir, "missing"); err == nil {
		t.Error("Files(missing dir): no error")
	}
}
