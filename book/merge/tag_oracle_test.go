//go:build oracle

package merge_test

import (
	"testing"

	"github.com/chessbook/chessbook/internal/testutil"
)

// championsGames is the number of games of the world champions' corpus
// (medium/pgnmentor_world_champions_16players.pgn.zst).
const championsGames = 32601

// mergeData returns the folder of the real games the merge tests build:
// ../shared/data (see tag_default_test.go for the default tests').
func mergeData(t *testing.T) string { return testutil.SharedData(t) }
