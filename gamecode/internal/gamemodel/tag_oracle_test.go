//go:build oracle

package gamemodel

import (
	"path/filepath"
	"testing"

	"github.com/chessbook/chessbook/internal/testutil"
)

// gamePatterns returns the patterns of the games TestScorerGames replays:
// shared/data's medium, small and tricky files.
func gamePatterns(t *testing.T) []string {
	root := testutil.SharedData(t)
	var out []string
	for _, pat := range []string{"medium/*.pgn*", "small/*", "tricky/*.pgn", "tricky/*/*.pgn"} {
		out = append(out, filepath.Join(root, pat))
	}
	return out
}

// scoreInputs returns the games TestScores adds to the champions':
// shared/data's small/ PGN files.
func scoreInputs(t *testing.T) []string {
	m, _ := filepath.Glob(filepath.Join(testutil.SharedData(t), "small", "*.pgn"))
	return m
}
