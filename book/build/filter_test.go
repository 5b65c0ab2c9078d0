package build_test

import (
	"bytes"
	"io"
	"regexp"
	"strconv"
	"testing"

	"github.com/chessbook/chessbook/book/build"
	"github.com/chessbook/chessbook/ingest"
	"github.com/chessbook/chessbook/stats"
	"github.com/chessbook/chessbook/store"
)

// tagGame is a game's tags as read by regular expressions straight from the
// file: the oracle the build filters are checked against.
type tagGame struct {
	white, black int
	date         string
	tc           string
	fen          bool
}

func scanTags(t *testing.T, path string) []tagGame {
	rc, err := ingest.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	data, err := io.ReadAll(rc)
	if err != nil {
		t.Fatal(err)
	}
	tag := regexp.MustCompile(`^\[(\w+) "([^"]*)"\]`)
	var games []tagGame
	for _, line := range bytes.Split(data, []byte("\n")) {
		m := tag.FindSubmatch(bytes.TrimRight(line, "\r"))
		if m == nil {
			continue
		}
		if string(m[1]) == "Event" {
			games = append(games, tagGame{})
		}
		g := &games[len(games)-1]
		v := string(m[2])
		switch string(m[1]) {
		case "WhiteElo":
			g.white, _ = strconv.Atoi(v)
		case "BlackElo":
			g.black, _ = strconv.Atoi(v)
		case "Date", "UTCDate":
			if g.date == "" {
				g.date = v
			}
		case "TimeControl":
			g.tc = v
		case "FEN":
			g.fen = true
		}
	}
	return games
}

// TestFilters builds the lichess games (testdata's lichess2k; lichess_10k
// with -tags oracle) with each filter and compares the games kept with a
// count made from the tags by regular expressions.
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
		{"min-rating 2000", build.Options{MinRating: 2000}, func(g tagGame) bool { return g.white >= 2000 && g.black >= 2000 }},
		{"since 2024.06", build.Options{Since: stats.NewDate(2024, 6, 1)}, func(g tagGame) bool { return g.date >= "2024.06.01" }},
		{"until 2024.03.31", build.Options{Until: stats.NewDate(2024, 3, 31)}, func(g tagGame) bool { return g.date != "" && g.date[0] != '?' && g.date <= "2024.03.31" }},
		{"bullet", build.Options{Speeds: 1 << stats.Bullet}, func(g tagGame) bool {
			s, ok := stats.SpeedOf([]byte(g.tc))
			return ok && s == stats.Bullet
		}},
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
