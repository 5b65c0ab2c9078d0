package ingest_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/chessbook/chessbook/ingest"
	"github.com/chessbook/chessbook/pgn"
)

// A SinkFunc counts the plies of a file's games, whichever worker reads
// them.
func ExampleSinkFunc() {
	dir, err := os.MkdirTemp("", "sinkfunc")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "games.pgn")
	games := "[Event \"a\"]\n\n1. e4 e5 2. Nf3 1-0\n\n[Event \"b\"]\n\n1. d4 d5 1/2-1/2\n\n[Event \"c\"]\n\n1. e4 e4 0-1\n"
	if err := os.WriteFile(path, []byte(games), 0o644); err != nil {
		fmt.Println(err)
		return
	}
	var mu sync.Mutex
	plies := 0
	sum, err := ingest.Run(context.Background(), []string{path}, ingest.Options{Workers: 2}, func(int) ingest.Sink {
		return ingest.SinkFunc(func(g *pgn.Game) error {
			mu.Lock()
			plies += len(g.Moves)
			mu.Unlock()
			return nil
		})
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d games, %d plies, %d skipped\n", sum.Games, plies, sum.SkippedTotal())
	// Output: 3 games, 5 plies, 1 skipped
}
