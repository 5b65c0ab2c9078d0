package book_test

import (
	"bytes"
	"context"
	"fmt"
	"github.com/chessbook/chessbook/internal/pgnoracle"
	"github.com/chessbook/chessbook/internal/storetest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/book"
	"github.com/chessbook/chessbook/book/build"
	"github.com/chessbook/chessbook/stats"
	"github.com/chessbook/chessbook/store"
)

// filterGame is what the filter oracle reads of a game's tags, with its
// own parsing (package pgnoracle's, not package book's).
type filterGame struct {
	text        string
	speed       string // lichess's; "" when the TimeControl is missing or unusable
	band        int    // index of the band of the mean rating; -1: no band
	year, month int    // 0: unknown
}

// filterGames reads the games of PGN text and each one's speed, rating
// band and month as the lichess explorer's rules state them.
func filterGames(t *testing.T, text string) []filterGame {
	t.Helper()
	var games []filterGame
	for _, g := range pgnoracle.Parse([]byte(text)) {
		fg := filterGame{text: g.Text, speed: g.Speed(), band: g.Band()}
		fg.year, fg.month, _ = g.Date()
		games = append(games, fg)
	}
	return games
}

// filterCase is a selection, given both as book.Selection and as the
// oracle's predicate over a game.
type filterCase struct {
	name string
	sel  book.Selection
	keep func(g filterGame) bool
}

// selectionCase is what TestSelectedOracle builds and selects: PGN files
// (the first built alone, then the others), and the months of its
// selections (year, month).
type selectionCase struct {
	files           []string
	from, to, since [2]int
}

// TestSelectedOracle: book.Filtered on a store of every game equals, for
// every position and move, book.Lookup on a store built from only the games
// a script over the PGN text selects (its tags read independently), for
// speeds, rating bands, months and their combinations; with no filter it
// equals book.Lookup on the store itself.
func TestSelectedOracle(t *testing.T) {
	in := selectionInput(t)
	var text strings.Builder
	tmp := t.TempDir()
	var runs [][]string // two builds into the store of every game: histories merged in the store too
	for i, f := range in.files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		text.Write(b)
		text.WriteString("\n\n")
		if i == 0 {
			runs = append(runs, []string{f})
		} else if i == 1 {
			runs = append(runs, nil)
		}
		if i > 0 {
			runs[1] = append(runs[1], f)
		}
	}
	games := filterGames(t, text.String())
	dirAll := storetest.BuildRuns(t, build.Options{}, runs...)
	stAll, err := store.Open(dirAll, store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer stAll.Close()

	period := func(y, m int) stats.Period { return stats.Period(y<<4 | m) }
	inMonths := func(g filterGame, since, until stats.Period) bool {
		p := period(g.year, g.month)
		return g.year != 0 && (since == 0 || p >= since) && (until == 0 || p <= until)
	}
	bullet, _ := stats.ParseSpeeds("bullet")
	blitzRapid, _ := stats.ParseSpeeds("blitz,rapid")
	cases := []filterCase{
		{"none", book.Selection{}, func(filterGame) bool { return true }},
		{"bullet", book.Selection{Speeds: bullet}, func(g filterGame) bool { return g.speed == "bullet" }},
		{"blitz,rapid", book.Selection{Speeds: blitzRapid}, func(g filterGame) bool { return g.speed == "blitz" || g.speed == "rapid" }},
		{"ratings 2000+", book.Selection{Bands: 1<<6 | 1<<7 | 1<<8}, func(g filterGame) bool { return g.band >= 6 }},
		{"ratings 2000,2200", book.Selection{Bands: 1<<6 | 1<<7}, func(g filterGame) bool { return g.band == 6 || g.band == 7 }},
		{"three months", book.Selection{Since: stats.NewDate(in.from[0], in.from[1], 0), Until: stats.NewDate(in.to[0], in.to[1], 31)}, func(g filterGame) bool {
			return inMonths(g, period(in.from[0], in.from[1]), period(in.to[0], in.to[1]))
		}},
		{"until 1990", book.Selection{Until: stats.NewDate(1990, 12, 31)}, func(g filterGame) bool { return inMonths(g, 0, period(1990, 12)) }},
		{"bullet, 2200+, since a month", book.Selection{Speeds: bullet, Bands: 1<<7 | 1<<8, Since: stats.NewDate(in.since[0], in.since[1], 0)},
			func(g filterGame) bool {
				return g.speed == "bullet" && g.band >= 7 && inMonths(g, period(in.since[0], in.since[1]), 0)
			}},
	}
	if testing.Short() {
		cases = []filterCase{cases[0], cases[1], cases[len(cases)-1]}
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var sub strings.Builder
			n := 0
			for _, g := range games {
				if c.keep(g) {
					sub.WriteString(g.text)
					n++
				}
			}
			if c.name != "none" && (n == 0 || n == len(games)) {
				t.Fatalf("the oracle keeps %d of %d games: the case tests nothing", n, len(games))
			}
			in := filepath.Join(tmp, strings.NewReplacer(" ", "_", ",", "_").Replace(c.name)+".pgn")
			if err := os.WriteFile(in, []byte(sub.String()), 0o644); err != nil {
				t.Fatal(err)
			}
			dirSub := storetest.BuildRuns(t, build.Options{}, []string{in})
			stSub, err := store.Open(dirSub, store.Options{ReadOnly: true})
			if err != nil {
				t.Fatal(err)
			}
			defer stSub.Close()
			positions, kept := 0, 0
			err = book.Positions(context.Background(), stAll, 0, func(pos []byte, _ *stats.Entry) error {
				if store.SingleHash(pos)%4 != 0 {
					return nil // a sample, for time
				}
				positions++
				res, err := book.Select(stAll, pos, c.sel)
				if err != nil {
					return err
				}
				want, _, err := book.Lookup(stSub, pos)
				if err != nil {
					return err
				}
				got := describeSelected(res.Moves)
				if w := describeEntry(want); got != w {
					return fmt.Errorf("position %x: filtered %s, want %s", pos, got, w)
				}
				var total, byMonth uint64
				for _, m := range res.Moves {
					total += m.Games()
				}
				for _, m := range res.Months {
					byMonth += m.Games()
				}
				if total != byMonth {
					return fmt.Errorf("position %x: %d games by move, %d by month", pos, total, byMonth)
				}
				if total > 0 {
					kept++
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%d of %d games, %d of %d positions", n, len(games), kept, positions)
		})
	}
}

// describeSelected and describeEntry print per-move counts alike.
func describeSelected(moves []book.SelectedMove) string {
	var b bytes.Buffer
	for _, m := range moves {
		if m.Games() > 0 {
			fmt.Fprintf(&b, "%v:%d/%d/%d/%d r%d/%d ", m.Move, m.WhiteWins, m.Draws, m.BlackWins, m.Unknown, m.RatingSum, m.RatingCount)
		}
	}
	return b.String()
}

func describeEntry(e stats.Entry) string {
	var b bytes.Buffer
	for _, m := range e.Moves {
		s := m.MoveStats
		if s.Games() > 0 {
			fmt.Fprintf(&b, "%v:%d/%d/%d/%d r%d/%d ", board.Move(m.Move), s.WhiteWins, s.Draws, s.BlackWins, s.Unknown, s.RatingSum, s.RatingCount)
		}
	}
	return b.String()
}
