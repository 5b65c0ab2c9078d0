package gamedb

import (
	"testing"

	"github.com/chessbook/chessbook/gamecode"
	"github.com/chessbook/chessbook/pgn"
	"github.com/chessbook/chessbook/stats"
)

// entryInputs returns the champions sample's games with the facts the
// builder gives AppendEntry: the move numbers of the record's coding.
func entryInputs(tb testing.TB) ([]*pgn.Game, []Facts) {
	games := readGames(tb, "../testdata/champions500.pgn")
	facts := make([]Facts, len(games))
	for i, g := range games {
		nums := make([]gamecode.MoveNumber, SummaryPlies)
		_, k, err := gamecode.AppendGameCodedNumbered(nil, g, gamecode.Indexed, nums)
		if err != nil {
			tb.Fatal(err)
		}
		facts[i] = Facts{WhiteElo: 2500, BlackElo: 2400, Date: stats.NewDate(1990, 1, 1), Moves: nums[:k]}
	}
	return games, facts
}

// TestAppendEntryAllocs: the builder calls AppendEntry for every game it
// stores; with ASCII names and a buffer that has room it allocates
// nothing, with the coding's move numbers or without.
func TestAppendEntryAllocs(t *testing.T) {
	games, facts := entryInputs(t)
	var ix gamecode.MoveIndexer
	buf := make([]byte, 0, 4096)
	for i, g := range games[:50] {
		if n := testing.AllocsPerRun(10, func() { buf = AppendEntry(buf[:0], g, facts[i], &ix) }); n != 0 {
			t.Fatalf("game at line %d: AppendEntry allocates %v times", g.Line, n)
		}
		f := facts[i]
		f.Moves = nil
		if n := testing.AllocsPerRun(10, func() { buf = AppendEntry(buf[:0], g, f, &ix) }); n != 0 {
			t.Fatalf("game at line %d: AppendEntry without move numbers allocates %v times", g.Line, n)
		}
	}
}

// BenchmarkAppendEntry: the builder's per-game cost of the game index
// entry (worker.Game), with the move numbers the record's coding gives.
func BenchmarkAppendEntry(b *testing.B) {
	games, facts := entryInputs(b)
	var ix gamecode.MoveIndexer
	var buf []byte
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		k := i % len(games)
		buf = AppendEntry(buf[:0], games[k], facts[k], &ix)
	}
}
