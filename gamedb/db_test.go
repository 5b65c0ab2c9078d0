package gamedb_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/chessbook/chessbook/book/build"
	"github.com/chessbook/chessbook/book/merge"
	"github.com/chessbook/chessbook/gamedb"
	"github.com/chessbook/chessbook/internal/storetest"
	"github.com/chessbook/chessbook/store"
)

var testInputs = []string{"../testdata/champions500.pgn", "testdata/lichess200.pgn"}

// build builds the inputs into a new store in dir.
func buildDB(t *testing.T, dir string, inputs ...string) {
	t.Helper()
	if _, err := build.Run(context.Background(), build.RunOptions{Options: build.Options{Inputs: inputs, Memory: build.MinMemory}, Dir: dir, Workers: 2}); err != nil {
		t.Fatal(err)
	}
}

// unindex makes the store in dir look written before the index: no
// index record, Meta.GameIndex 0.
func unindex(t *testing.T, dir string) {
	t.Helper()
	st, err := store.Open(dir, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := st.ClearIndex(); err != nil {
		t.Fatal(err)
	}
	if _, err := gamedb.Open(st); !errors.Is(err, gamedb.ErrNoIndex) {
		t.Errorf("an unindexed store opens: %v", err)
	} else if !strings.Contains(err.Error(), "bookbuild -db "+dir+" -reindex") {
		t.Errorf("the error does not name the fix: %v", err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestReindex: a store indexed after the fact holds the index a build
// writes; a build into a store without an index indexes its games first.
func TestReindex(t *testing.T) {
	base := t.TempDir()
	whole := filepath.Join(base, "whole")
	buildDB(t, whole, testInputs...)
	want := storetest.IndexDigest(t, whole)

	re := filepath.Join(base, "reindexed")
	buildDB(t, re, testInputs...)
	unindex(t, re)
	st, err := store.Open(re, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var last, total uint64
	if err := merge.Reindex(context.Background(), st, func(done, all uint64) { last, total = done, all }); err != nil {
		t.Fatal(err)
	}
	if last != total || total != st.Meta().Games || st.Meta().GameIndex != gamedb.Version {
		t.Errorf("reindex: progress %d of %d, %d games, index version %d", last, total, st.Meta().Games, st.Meta().GameIndex)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	if got := storetest.IndexDigest(t, re); got != want {
		t.Error("the reindexed store's index differs from a build's")
	}

	added := filepath.Join(base, "added")
	buildDB(t, added, testInputs[0])
	unindex(t, added)
	buildDB(t, added, testInputs[1]) // indexes the first input's games first
	if got := storetest.IndexDigest(t, added); got != want {
		t.Error("a store indexed by the build that added to it differs from one built at once")
	}
}

// TestSearchPages: pages put together are the whole list, in each sort
// order; the orders hold.
func TestSearchPages(t *testing.T) {
	dir := t.TempDir()
	buildDB(t, dir, testInputs...)
	st, err := store.Open(dir, store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	db, err := gamedb.Open(st)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, o := range []gamedb.Sort{gamedb.ByDate, gamedb.ByRating, gamedb.ByPlies} {
		q := gamedb.Query{Sort: o, ECOFrom: gamedb.ParseECO([]byte("B00")), ECOTo: gamedb.ParseECO([]byte("C99"))}
		all, err := db.Search(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		if all.Total < 100 || len(all.Games) != all.Total {
			t.Fatalf("sort %d: %d games of %d", o, len(all.Games), all.Total)
		}
		var paged []string
		for q.Offset, q.Limit = 0, 7; q.Offset < all.Total+7; q.Offset += 7 {
			page, err := db.Search(ctx, q)
			if err != nil {
				t.Fatal(err)
			}
			if page.Total != all.Total || len(page.Games) > 7 {
				t.Fatalf("sort %d, offset %d: %d games of %d", o, q.Offset, len(page.Games), page.Total)
			}
			for _, g := range page.Games {
				paged = append(paged, g.ID.String())
			}
		}
		var ids []string
		for i, g := range all.Games {
			ids = append(ids, g.ID.String())
			if g.ECO < "B00" || g.ECO > "C99" {
				t.Errorf("sort %d: game %s has ECO %q", o, g.ID, g.ECO)
			}
			if i == 0 {
				continue
			}
			p := all.Games[i-1]
			mean := func(g gamedb.GameRef) int {
				if g.WhiteElo == 0 || g.BlackElo == 0 {
					return 0
				}
				return (g.WhiteElo + g.BlackElo) / 2
			}
			switch {
			case o == gamedb.ByDate && g.Date > p.Date,
				o == gamedb.ByRating && mean(g) > mean(p),
				o == gamedb.ByPlies && g.Plies > p.Plies:
				t.Errorf("sort %d: game %d (%+v) after (%+v)", o, i, g, p)
			}
		}
		if !slices.Equal(paged, ids) {
			t.Errorf("sort %d: the pages differ from the whole list", o)
		}
	}
	if _, err := db.Search(ctx, gamedb.Query{Player: "Carlsn"}); !errors.Is(err, gamedb.ErrNoName) {
		t.Errorf("a player no name contains: %v", err)
	}
	sug, err := db.Suggest(ctx, gamedb.Players, "Stenitz", 1)
	if err != nil || len(sug) != 1 || !strings.HasPrefix(sug[0].Name, "Steinitz") {
		t.Errorf("closest to Stenitz: %+v, %v", sug, err)
	}
}

// TestTreeFilters: the player tree's speeds and modes keep the games the
// tags say (speeds from TimeControl with lichess's bounds, casual games
// by their Event), at the start: every game of the player from the start
// with a move.
func TestTreeFilters(t *testing.T) {
	dir := t.TempDir()
	buildDB(t, dir, testInputs[1])
	st, err := store.Open(dir, store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	db, err := gamedb.Open(st)
	if err != nil {
		t.Fatal(err)
	}
	text, err := os.ReadFile(testInputs[1])
	if err != nil {
		t.Fatal(err)
	}
	games := readOracle(t, text)
	speed := func(tc string) int { // lichess's: ultraBullet 0 ... classical 4
		base, inc, _ := strings.Cut(tc, "+")
		b, err1 := strconv.Atoi(base)
		i, err2 := strconv.Atoi(inc)
		if err1 != nil || err2 != nil {
			return -1
		}
		est := b + 40*i
		for s, bound := range []int{30, 180, 480, 1500} {
			if est < bound {
				return s
			}
		}
		return 4
	}
	const player = "EricRosen"
	for _, c := range []struct {
		f    gamedb.Filter
		keep func(g *oGame) bool
	}{
		{gamedb.Filter{}, func(*oGame) bool { return true }},
		{gamedb.Filter{Speeds: 1 << 2}, func(g *oGame) bool { return speed(g.tags["TimeControl"]) == 2 }},
		{gamedb.Filter{Speeds: 1<<0 | 1<<1}, func(g *oGame) bool { s := speed(g.tags["TimeControl"]); return s == 0 || s == 1 }},
		{gamedb.Filter{Modes: gamedb.Casual}, func(g *oGame) bool { return strings.HasPrefix(g.tags["Event"], "Casual") }},
		{gamedb.Filter{Modes: gamedb.Rated}, func(g *oGame) bool { return !strings.HasPrefix(g.tags["Event"], "Casual") }},
		{gamedb.Filter{Since: 20240101}, func(g *oGame) bool { return oDate(g.tags["Date"]) >= 20240101 }},
	} {
		for color, tag := range []string{"White", "Black"} {
			want := 0
			for i := range games {
				g := &games[i]
				if g.tags[tag] == player && g.tags["FEN"] == "" && len(g.sans) > 0 && c.keep(g) {
					want++
				}
			}
			tree, err := db.PlayerTree(context.Background(), gamedb.TreeQuery{Player: player, Color: color, Filter: c.f})
			if err != nil {
				t.Fatal(err)
			}
			if got := tree.White + tree.Draws + tree.Black; got != want || tree.PlayerGames == 0 {
				t.Errorf("filter %+v, %s: the tree counts %d games, the tags %d", c.f, tag, got, want)
			}
		}
	}
}

// TestSearchFullWidth: a name written in full-width forms is found by its
// plain letters, and a full-width query finds the plain spellings.
func TestSearchFullWidth(t *testing.T) {
	pgn := filepath.Join(t.TempDir(), "fw.pgn")
	const games = `[White "Ｃａｒｌｓｅｎ，Ｍａｇｎｕｓ"]
[Black "Anand, V"]
[Result "1-0"]

1. e4 e5 1-0

[White "Carlsen, Magnus"]
[Black "Anand, V"]
[Result "0-1"]

1. d4 d5 0-1
`
	if err := os.WriteFile(pgn, []byte(games), 0o644); err != nil {
		t.Fatal(err)
	}
	_, db := buildStore(t, pgn)
	for _, name := range []string{"carlsen", "Ｃａｒｌｓｅｎ", "ＣＡＲＬＳＥＮ ＭＡＧＮＵＳ"} {
		res, err := db.Search(context.Background(), gamedb.Query{Player: name})
		if err != nil || res.Total != 2 {
			t.Errorf("player %q: %v, %v; want 2 games", name, res, err)
		}
	}
	names, err := db.Names(context.Background(), gamedb.Players, "carlsen", 0)
	if err != nil || len(names) != 2 {
		t.Errorf("players carlsen: %v, %v; want both spellings", names, err)
	}
}
