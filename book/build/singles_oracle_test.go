//go:build oracle

package build_test

import (
	"path/filepath"
	"testing"

	"github.com/chessbook/chessbook/book/build"
	"github.com/chessbook/chessbook/internal/testutil"
	"github.com/chessbook/chessbook/store"
)

// TestSinglesOracle: a store that keeps the positions of one game as
// single references answers every position exactly as a store built from
// the same runs with a statistics record for every position (the oracle):
// the same positions, each once, with the same statistics, through
// book.Positions and book.Lookup (every position of at least 2 or 3 games
// also when asked for those only); and it holds far fewer records. Runs
// split an input in two builds into the same store (single references of
// both runs, and positions that are single in one run and counted in the
// other), a move limit cuts games, games start from FEN tags, and in
// -count occurrence mode every visit counts, with its first-seen stamp,
// and duplicate games too. These are the shared corpora; the committed
// test data make TestSinglesOracleTestdata.
func TestSinglesOracle(t *testing.T) {
	t.Parallel() // beside the other long oracles of the package: the build alone does not keep two cores busy
	data := testutil.SharedData(t)
	twic := filepath.Join(data, "small", "notnil_twic0920.pgn")
	cao := filepath.Join(data, "small", "allancao_games.pgn")
	dfrc := filepath.Join(data, "tricky", "tcec_S24_DFRC2_League1.pgn")
	cases := []singlesCase{
		{"one run", build.Options{}, [][]string{{twic, cao, dfrc}}},
		{"two runs", build.Options{}, [][]string{{twic}, {cao, dfrc}}},
		{"max-ply 20, two runs", build.Options{MaxPly: 20}, [][]string{{cao}, {twic}}},
		{"occurrence, duplicates kept", build.Options{CountMode: store.CountOccurrence, KeepDuplicates: true, MaxPly: 1024},
			[][]string{{twic, cao}, {cao, dfrc}}},
	}
	if !testing.Short() {
		cases = append(cases, singlesCase{"lichess_10k after champions", build.Options{}, [][]string{
			{filepath.Join(data, "medium", "pgnmentor_world_champions_16players.pgn.zst")},
			{filepath.Join(data, "medium", "lichess_10k.pgn.zst")}}})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { t.Parallel(); checkSingles(t, c) })
	}
}
