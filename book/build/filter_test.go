package build_test

import (
	"testing"

	"github.com/chessbook/chessbook/book/build"
	"github.com/chessbook/chessbook/filter"
	"github.com/chessbook/chessbook/internal/pgnoracle"
	"github.com/chessbook/chessbook/stats"
	"github.com/chessbook/chessbook/store"
)

// tagGame is a game's tags as package pgnoracle reads them straight from
// the file: the oracle the build filters are checked against.
type tagGame struct {
	white, black int
	date         string // Date, else UTCDate
	speed        string // lichess's, from TimeControl
	fen          bool
}

func scanTags(t *testing.T, path string) []tagGame {
	var games []tagGame
	for _, g := range pgnoracle.Read(t, path) {
		tg := tagGame{white: pgnoracle.Elo(g.Tags["WhiteElo"]), black: pgnoracle.Elo(g.Tags["BlackElo"]), date: g.Tags["Date"], speed: g.Speed()}
		if tg.date == "" {
			tg.date = g.Tags["UTCDate"]
		}
		_, tg.fen = g.Tags["FEN"]
		games = append(games, tg)
	}
	return games
}

// TestFilters builds the lichess games (testdata's lichess2k; lichess_10k
// with -tags oracle) with each filter and compares the games kept with a
// count made from the tags by package pgnoracle.
func TestFilters(t *testing.T) {
	path, n := lichessInput(t)
	games := scanTags(t, path)
	if len(games) != n {
		t.Fatalf("oracle read %d games", len(games))
	}
	count := func(keep func(g tagGame) bool) int64 {
		var n int64
		for _, g := range games {
			if !g.fen && keep(g) { // FEN games: -standard-start-only in every case below
				n++
			}
		}
		return n
	}
	for _, c := range []struct {
		name string
		opts build.Options
		keep func(g tagGame) bool
	}{
		{"min-rating 2000", build.Options{Filter: filter.Filter{MinRating: 2000}}, func(g tagGame) bool { return g.white >= 2000 && g.black >= 2000 }},
		{"since 2024.06", build.Options{Filter: filter.Filter{Since: stats.NewDate(2024, 6, 1)}}, func(g tagGame) bool { return g.date >= "2024.06.01" }},
		{"until 2024.03.31", build.Options{Filter: filter.Filter{Until: stats.NewDate(2024, 3, 31)}}, func(g tagGame) bool { return g.date != "" && g.date[0] != '?' && g.date <= "2024.03.31" }},
		{"bullet", build.Options{Filter: filter.Filter{Speeds: 1 << stats.Bullet}}, func(g tagGame) bool { return g.speed == "bullet" }},
	} {
		t.Run(c.name, func(t *testing.T) {
			c.opts.StandardStartOnly = true
			c.opts.CountMode = store.CountGame
			_, _, bs := buildBook(t, c.opts, path)
			want := count(c.keep)
			if bs.Games != want || want == 0 {
				t.Fatalf("kept %d games, the tags say %d", bs.Games, want)
			}
			t.Logf("kept %d games, filtered %v", bs.Games, bs.Filtered)
		})
	}
}
