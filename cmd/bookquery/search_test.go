package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/chessbook/chessbook/ingest"
	"github.com/chessbook/chessbook/pgn"
	"github.com/chessbook/chessbook/store"
)

// countTags counts the games of a PGN file whose tag holds text (a regexp
// over the file's tag lines, independent of the index).
func countTags(t *testing.T, path, tag, text string) int {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return len(regexp.MustCompile(`(?m)^\[`+tag+` "[^"]*`+regexp.QuoteMeta(text)+`[^"]*"\]`).FindAll(data, -1))
}

// TestPlayersAndSearch: players and search on the champions sample,
// their text, JSON and PGN, against counts of its tags.
func TestPlayersAndSearch(t *testing.T) {
	db := championsBook(t)
	var players playersJSON
	if err := json.Unmarshal([]byte(mustRun(t, "-db", db, "players", "-name", "STEINITZ", "-json")), &players); err != nil {
		t.Fatal(err)
	}
	white, black := countTags(t, championsPGN, "White", "Steinitz"), countTags(t, championsPGN, "Black", "Steinitz")
	var gotW, gotB int
	for _, p := range players.Players {
		gotW += p.White
		gotB += p.Black
		if p.Games != p.White+p.Black || p.Normal != "steinitzwilliam" && !strings.Contains(p.Normal, "steinitz") {
			t.Errorf("players: %+v", p)
		}
	}
	if gotW != white || gotB != black || white == 0 {
		t.Errorf("players -name STEINITZ: %d+%d games, the file %d+%d", gotW, gotB, white, black)
	}
	text := mustRun(t, "-db", db, "players", "-name", "steinitz")
	if !strings.Contains(text, "Steinitz, William") || !strings.Contains(text, "games") {
		t.Errorf("players text:\n%s", text)
	}
	none := mustRun(t, "-db", db, "players", "-name", "Stenitz")
	if !strings.Contains(none, "no player's name contains") || !strings.Contains(none, "Steinitz, William") {
		t.Errorf("players for a name with no games:\n%s", none)
	}

	var res searchJSON
	if err := json.Unmarshal([]byte(mustRun(t, "-db", db, "search", "-white", "steinitz", "-result", "1-0", "-per-page", "3", "-json")), &res); err != nil {
		t.Fatal(err)
	}
	if res.Total == 0 || len(res.Games) != 3 || res.Page != 1 {
		t.Fatalf("search -white steinitz -result 1-0: %+v", res)
	}
	for _, g := range res.Games {
		if !strings.Contains(g.White, "Steinitz") || g.Result != pgn.WhiteWins {
			t.Errorf("search -white steinitz -result 1-0 found %+v", g)
		}
	}
	var raw map[string]any
	if err := json.Unmarshal([]byte(mustRun(t, "-db", db, "search", "-player", "steinitz", "-format", "json")), &raw); err != nil {
		t.Fatal(err)
	}
	if raw["total"].(float64) != float64(white+black) {
		t.Errorf("search -player steinitz: total %v, the file %d", raw["total"], white+black)
	}
	g0 := raw["games"].([]any)[0].(map[string]any)
	for _, k := range []string{"id", "white", "black", "white_elo", "black_elo", "result", "date", "event", "site", "eco", "opening", "plies"} {
		if _, ok := g0[k]; !ok {
			t.Errorf("search -json: a game lacks %q: %v", k, g0)
		}
	}
	// PGN: the page's games, whole.
	out := mustRun(t, "-db", db, "search", "-black", "steinitz", "-moves", "e4 e5", "-per-page", "4", "-format", "pgn")
	var games []*pgn.Game
	path := filepath.Join(t.TempDir(), "out.pgn")
	if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := ingest.Run(context.Background(), []string{path}, ingest.Options{Workers: 1}, func(int) ingest.Sink {
		return ingest.SinkFunc(func(g *pgn.Game) error { games = append(games, g.Clone()); return nil })
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(games) != 4 {
		t.Fatalf("search -format pgn: %d games, want 4:\n%s", len(games), out)
	}
	for _, g := range games {
		if !strings.Contains(string(g.Tag("Black")), "Steinitz") || g.Moves[0].String() != "e2e4" || g.Moves[1].String() != "e7e5" {
			t.Errorf("search -black steinitz -moves 'e4 e5' printed %s-%s %v", g.Tag("White"), g.Tag("Black"), g.Moves[:2])
		}
	}
	text = mustRun(t, "-db", db, "search", "-event", "london", "-sort", "plies")
	if !strings.Contains(text, "longest first") || !strings.Contains(text, "London") {
		t.Errorf("search -event london:\n%s", text)
	}
	tree := mustRun(t, "-db", db, "player", "-name", "Steinitz, William", "-color", "white", "-moves", "e4 e5")
	if !strings.Contains(tree, "total") || !strings.Contains(tree, "recent games") {
		t.Errorf("player:\n%s", tree)
	}
	var pj playerJSON
	if err := json.Unmarshal([]byte(mustRun(t, "-db", db, "player", "-name", "steinitz william", "-color", "black", "-json")), &pj); err != nil {
		t.Fatal(err)
	}
	sum := 0
	for _, m := range pj.Moves {
		sum += m.White + m.Draws + m.Black
	}
	if sum != pj.White+pj.Draws+pj.Black || sum == 0 || len(pj.RecentGames) != 8 {
		t.Errorf("player -json: %d games in moves, %d in all, %d recent", sum, pj.White+pj.Draws+pj.Black, len(pj.RecentGames))
	}
}

// TestSearchBadInput: bad flag values exit 2 naming the flag; a name no
// game has proposes the closest.
func TestSearchBadInput(t *testing.T) {
	db := championsBook(t)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"search", "-result", "2-0"}, "-result"},
		{[]string{"search", "-eco", "Z00"}, "-eco"},
		{[]string{"search", "-eco", "C99-B00"}, "ends before it starts"},
		{[]string{"search", "-sort", "elo"}, "-sort"},
		{[]string{"search", "-since", "2020-13"}, "month 13"},
		{[]string{"search", "-since", "2020", "-until", "2019"}, "after -until"},
		{[]string{"search", "-page", "0"}, "-page"},
		{[]string{"search", "-per-page", "-1"}, "-per-page"},
		{[]string{"search", "-player", "a", "-page", "201", "-per-page", "500"}, "-page 201: a search lists its first 100000 games at most (this page ends at game 100500)"},
		{[]string{"search", "-modes", "fast"}, "unknown mode"},
		{[]string{"search", "-speeds", "slow"}, "unknown speed"},
		{[]string{"search", "-min-rating", "2600", "-max-rating", "2500"}, "above -max-rating"},
		{[]string{"search", "-player", "?"}, "letter or a digit"},
		{[]string{"search", "-moves", "e4 e4"}, "illegal move"},
		{[]string{"search", "-format", "xml"}, "-format"},
		{[]string{"search", "-player", "stenitz"}, `closest: "Steinitz, William"`},
		{[]string{"players"}, "-name"},
		{[]string{"players", "-name", "-", "-limit", "3"}, "letter or a digit"},
		{[]string{"player", "-name", "Steinitz, William", "-color", "green"}, "-color"},
		{[]string{"player", "-name", "Stenitz", "-color", "white"}, "closest"},
		{[]string{"player", "-name", "Steinitz, William", "-color", "white", "-recent", "9"}, "-recent"},
	} {
		checkBadInput(t, append([]string{"-db", db}, c.args...), c.want)
	}
}

// TestUnindexedStore: the commands that read the game index refuse a
// store without one, naming the fix; check notes it.
func TestUnindexedStore(t *testing.T) {
	db := championsBook(t)
	st, err := store.Open(db, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := st.ClearIndex(); err != nil {
		t.Fatal(err)
	}
	st.Close()
	for _, args := range [][]string{{"players", "-name", "x"}, {"search"}, {"player", "-name", "x", "-color", "white"}} {
		out, errOut, code := runCmd(t, append([]string{"-db", db}, args...)...)
		if code != 1 || out != "" || !strings.Contains(errOut, "no game index") || !strings.Contains(errOut, "bookbuild -db "+db+" -reindex") {
			t.Errorf("%v on a store without an index: exit %d, %q, %q", args, code, out, errOut)
		}
	}
	out := mustRun(t, "-db", db, "check", "-q")
	if !strings.Contains(out, "no game index") || !strings.Contains(out, "no damage found") {
		t.Errorf("check of a store without an index:\n%s", out)
	}
	if bytes.Contains([]byte(out), []byte("game index:")) {
		t.Errorf("check reports an index it did not check:\n%s", out)
	}
}

// TestCheckIndex: check verifies the game index and reports a posting of
// a game the store does not hold as damage.
func TestCheckIndex(t *testing.T) {
	db := championsBook(t)
	out := mustRun(t, "-db", db, "check", "-q")
	if !strings.Contains(out, "game index: 500 games numbered, 500 summaries") || !strings.Contains(out, "no damage found") {
		t.Errorf("check:\n%s", out)
	}
	st, err := store.Open(db, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	w, err := st.NewSSTWriter()
	if err != nil {
		t.Fatal(err)
	}
	// A posting list of the player "ghost" with White: game 999999.
	key := append([]byte("pghost\x00\x00"), 0, 0, 0, 0, 0, 0x0f, 0x42, 0x3f)
	if err := w.SetIndex(key, []byte{0, 2}); err != nil {
		t.Fatal(err)
	}
	if err := w.IngestWith(); err != nil {
		t.Fatal(err)
	}
	st.Close()
	out, errOut, code := runCmd(t, "-db", db, "check", "-q")
	if code != 1 || !strings.Contains(out, "game number 999999 is not a stored game") || !strings.Contains(out, `player "ghost"`) {
		t.Errorf("check of a damaged index: exit %d\n%s%s", code, out, errOut)
	}
}
