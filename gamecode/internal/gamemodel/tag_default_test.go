//go:build !oracle

package gamemodel

import (
	"path/filepath"
	"testing"

	"github.com/chessbook/chessbook/internal/testutil"
)

// gamePatterns returns the patterns of the games TestScorerGames replays:
// testdata's (with -tags oracle, shared/data's).
func gamePatterns(t *testing.T) []string {
	td := filepath.Join(testutil.RepoRoot(t), "testdata")
	return []string{filepath.Join(td, "*.pgn*"), filepath.Join(td, "tricky", "*.pgn"), filepath.Join(td, "tricky", "*", "*.pgn")}
}

// scoreInputs returns the games TestScores adds to the champions':
// testdata's lichess slice (with -tags oracle, shared/data's small/).
func scoreInputs(t *testing.T) []string { return []string{testutil.Testdata(t, "lichess2k.pgn.zst")} }
