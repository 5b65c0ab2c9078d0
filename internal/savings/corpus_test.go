package savings

import (
	"context"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/ingest"
	"github.com/chessbook/chessbook/pgn"
)

// testGame is a replayed game kept by a test.
type testGame struct {
	start board.Position
	moves []board.Move
}

// gameCollector keeps copies of the games.
type gameCollector struct {
	mu    *sync.Mutex
	games *[]testGame
}

func (c gameCollector) add(g *pgn.Game) error {
	c.mu.Lock()
	*c.games = append(*c.games, testGame{start: g.Start, moves: slices.Clone(g.Moves)})
	c.mu.Unlock()
	return nil
}

// loadGames replays the PGN files and returns their games.
func loadGames(tb testing.TB, files ...string) []testGame {
	tb.Helper()
	var mu sync.Mutex
	var games []testGame
	_, err := ingest.Run(context.Background(), files, ingest.Options{}, func(int) ingest.Sink {
		return ingest.SinkFunc(gameCollector{&mu, &games}.add)
	})
	if err != nil {
		tb.Fatal(err)
	}
	if len(games) == 0 {
		tb.Fatalf("no games in %v", files)
	}
	return games
}

// positionsOf returns every position before a move of the games (the
// positions the report measures), and each final position, every step-th.
func positionsOf(games []testGame, step int) []board.Position {
	var out []board.Position
	i := 0
	for _, g := range games {
		p := g.start
		for k := 0; k <= len(g.moves); k++ {
			if i%step == 0 {
				out = append(out, p)
			}
			i++
			if k < len(g.moves) {
				p.Play(g.moves[k])
			}
		}
	}
	return out
}

// championsPGN is the repository's own PGN.
var championsPGN = filepath.Join("..", "..", "testdata", "champions500.pgn")

// testFiles returns the repository's own PGN, plus with -tags oracle
// (not with -short) the shared small/ corpus.
func testFiles(tb testing.TB) []string {
	files := []string{championsPGN}
	if !testing.Short() {
		files = append(files, sharedSmall(tb)...)
	}
	return files
}

// identity returns what an encoding keeping k must give back of p: the
// FEN fields of the position identity, and the clocks it keeps.
func identity(p *board.Position, k keeps) string {
	q := normalize(p)
	f := strings.Fields(q.FEN())
	switch k {
	case keepsHalfMove:
		return strings.Join(f[:4], " ") + " " + strconv.Itoa(min(p.HalfMoveClock(), 100))
	case keepsClocks:
		return strings.Join(f, " ")
	}
	return strings.Join(f[:4], " ")
}
