//go:build oracle

package ingest_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/chessbook/chessbook/ingest"
	"github.com/chessbook/chessbook/internal/testutil"
)

// TestRunLargeCorpus replays the 412,227-game benchmark corpus: every game
// is read, and exactly the games with illegal moves are skipped.
func TestRunLargeCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("large corpus skipped with -short")
	}
	path := filepath.Join(testutil.SharedData(t), "large", "pgnmentor_players_239files.pgn.zst")
	if _, err := os.Stat(path); err != nil {
		testutil.Missing(t, "shared data: %v", err)
	}
	r := runPipeline(t, 0, path)
	if r.sum.Games != 412227 {
		t.Errorf("games read %d, want 412227", r.sum.Games)
	}
	if got := r.sum.SkippedTotal(); got != r.sum.Skipped[ingest.SkipIllegalMove] || got < 1 || got > 2 {
		t.Errorf("skipped %v, want only the illegal-move games (1 or 2): %v", r.sum.Skipped, r.sum.Errors)
	}
	for _, e := range r.sum.Errors {
		t.Log(e)
	}
	t.Logf("%d games, %d plies in %v", r.sum.Games, r.sum.Plies, r.sum.Elapsed)
}
