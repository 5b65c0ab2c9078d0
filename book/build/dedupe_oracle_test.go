//go:build oracle

package build

import (
	"context"
	"crypto/sha256"
	"path/filepath"
	"sync"
	"testing"

	"github.com/chessbook/chessbook/ingest"
	"github.com/chessbook/chessbook/internal/testutil"
	"github.com/chessbook/chessbook/pgn"
)

// TestDuplicatesLarge counts the duplicates of the large corpus two ways:
// by this builder's identity (players, date, round, result, moves) and by
// moves alone, which is pgn-extract -D's criterion (its documentation:
// "games are only considered to be duplicates on the basis of the moves
// played", through a hash of the end position and of the move sequence).
// The moves-only count must be pgn-extract's 336,329 unique games; the
// difference to ours is the games with the same moves and different
// players, dates, rounds or results, which this builder keeps apart.
func TestDuplicatesLarge(t *testing.T) {
	if testing.Short() {
		t.Skip("large corpus skipped with -short")
	}
	data := testutil.SharedData(t)
	in := filepath.Join(data, "large", "pgnmentor_players_239files.pgn.zst")
	var mu sync.Mutex
	content := map[[32]byte]bool{}
	moves := map[[32]byte]bool{}
	sum, err := ingest.Run(context.Background(), []string{in}, ingest.Options{Workers: 2}, func(int) ingest.Sink {
		h := newContentHasher()
		return ingest.SinkFunc(func(g *pgn.Game) error {
			c := h.content(g)
			m := sha256.New()
			m.Write([]byte(g.Start.FEN()))
			for _, mv := range g.Moves {
				m.Write([]byte{byte(mv), byte(mv >> 8)})
			}
			var ms [32]byte
			m.Sum(ms[:0])
			mu.Lock()
			content[c], moves[ms] = true, true
			mu.Unlock()
			return nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d games replayed (%d skipped): %d unique by content, %d by moves alone", sum.Ingested, sum.SkippedTotal(), len(content), len(moves))
	if len(moves) != 336329 {
		t.Errorf("unique by moves alone: %d, pgn-extract -D finds 336329", len(moves))
	}
	if len(content) != 336863 {
		t.Errorf("unique by content: %d, want 336863", len(content))
	}
}

// storedInputs returns the files TestStoredGamesRoundTrip builds:
// shared/data's medium/ (testdata's champions500 and lichess2k without
// -tags oracle).
func storedInputs(t *testing.T) []string {
	inputs, err := filepath.Glob(filepath.Join(testutil.SharedData(t), "medium", "*.pgn.zst"))
	if err != nil || len(inputs) == 0 {
		t.Fatalf("no medium corpus: %v", err)
	}
	return inputs
}
