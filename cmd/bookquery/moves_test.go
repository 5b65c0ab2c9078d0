package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/chessbook/chessbook/book/build"
	"github.com/chessbook/chessbook/explorer"
	"github.com/chessbook/chessbook/ingest"
	"github.com/chessbook/chessbook/internal/querytest"
	"github.com/chessbook/chessbook/store"
)

const championsPGN = "../../testdata/champions500.pgn"

// buildBook builds a book with default options from the PGN files into a
// new directory and returns it.
func buildBook(t *testing.T, inputs ...string) string {
	t.Helper()
	return buildBookCount(t, store.CountGame, inputs...)
}

// buildBookCount builds the book of inputs with count mode mode.
func buildBookCount(t *testing.T, mode store.CountMode, inputs ...string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "book")
	st, err := store.Open(dir, store.Options{Meta: &store.Meta{CountMode: mode}})
	if err != nil {
		t.Fatal(err)
	}
	b := build.NewBuilder(st, build.Options{CountMode: mode}, 2)
	if _, err := ingest.Run(context.Background(), inputs, ingest.Options{Workers: 2}, b.Sink); err != nil {
		t.Fatal(err)
	}
	if err := b.Finish(); err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	return dir
}

// championsBook builds the book of testdata/champions500.pgn (0.1 s).
func championsBook(t *testing.T) string {
	t.Helper()
	return buildBook(t, championsPGN)
}

// pgnCounts are the results, by first move, of the games of a PGN file,
// counted with regular expressions (independently of our parser).
type pgnCounts struct {
	games   int
	byFirst map[string][3]int // SAN -> white wins, draws, black wins
}

func countPGN(t *testing.T, path string) pgnCounts {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	result := regexp.MustCompile(`\[Result "([^"]*)"\]`)
	first := regexp.MustCompile(`(?m)^1\.\s*([A-Za-z][A-Za-z0-9=+#-]*)`)
	c := pgnCounts{byFirst: map[string][3]int{}}
	for _, g := range strings.Split(string(data), "[Event ")[1:] {
		r := result.FindStringSubmatch(g)
		f := first.FindStringSubmatch(g)
		if r == nil || f == nil {
			t.Fatalf("game without result or first move: %.200q", g)
		}
		c.games++
		san := strings.TrimRight(f[1], "+#")
		n := c.byFirst[san]
		switch r[1] {
		case "1-0":
			n[0]++
		case "1/2-1/2":
			n[1]++
		case "0-1":
			n[2]++
		default:
			t.Fatalf("unexpected result %q", r[1])
		}
		c.byFirst[san] = n
	}
	return c
}

func movesJSONOf(t *testing.T, db string, args ...string) explorer.Moves {
	t.Helper()
	out := mustRun(t, append([]string{"-db", db, "moves", "-json"}, args...)...)
	var m explorer.Moves
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatalf("moves -json %q: %v in %q", args, err, out)
	}
	return m
}

func TestMovesStartPosition(t *testing.T) {
	db := championsBook(t)
	want := countPGN(t, championsPGN)
	if want.games != 500 {
		t.Fatalf("counted %d games in %s, want 500", want.games, championsPGN)
	}
	got := movesJSONOf(t, db)
	var sum uint64
	for _, m := range got.Moves {
		sum += m.Games
		w, ok := want.byFirst[m.SAN]
		if !ok {
			t.Errorf("move %s (%s): not a first move in the PGN", m.SAN, m.UCI)
			continue
		}
		if m.White != uint64(w[0]) || m.Draws != uint64(w[1]) || m.Black != uint64(w[2]) || m.Unknown != 0 {
			t.Errorf("move %s: white/draws/black/unknown %d/%d/%d/%d, want %d/%d/%d/0", m.SAN, m.White, m.Draws, m.Black, m.Unknown, w[0], w[1], w[2])
		}
	}
	if sum != 500 || got.White+got.Draws+got.Black != 500 {
		t.Errorf("start position: moves sum to %d games, totals %d/%d/%d; want 500", sum, got.White, got.Draws, got.Black)
	}
	if len(got.Moves) != len(want.byFirst) {
		t.Errorf("%d first moves, want %d (%v)", len(got.Moves), len(want.byFirst), want.byFirst)
	}
	if len(got.Moves) == 0 || got.Moves[0].SAN != "e4" || got.Moves[0].UCI != "e2e4" {
		t.Fatalf("most played first move: %+v, want e4", got.Moves)
	}
	for i := 1; i < len(got.Moves); i++ {
		if got.Moves[i].Games > got.Moves[i-1].Games {
			t.Errorf("moves not sorted by games: %s (%d) after %s (%d)", got.Moves[i].SAN, got.Moves[i].Games, got.Moves[i-1].SAN, got.Moves[i-1].Games)
		}
	}
	if got.Moves[0].LastPlayed == "" || got.Moves[0].Score == nil {
		t.Errorf("e4: no last played date or score: %+v", got.Moves[0])
	}
	if got.Opening != nil {
		t.Errorf("start position named %+v, want no name", got.Opening)
	}

	// -limit lists the most played moves, the totals stay.
	lim := movesJSONOf(t, db, "-limit", "2")
	if len(lim.Moves) != 2 || lim.Moves[0].UCI != "e2e4" || lim.White != got.White || lim.Draws != got.Draws || lim.Black != got.Black {
		t.Errorf("-limit 2: %+v", lim)
	}

	// Text: a header, one row per move, the totals, the opening (with
	// -top 0 -recent 0, no games after them).
	text := mustRun(t, "-db", db, "moves", "-top", "0", "-recent", "0")
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	if len(lines) != 1+1+len(got.Moves)+2 {
		t.Fatalf("text output has %d lines, want %d:\n%s", len(lines), len(got.Moves)+4, text)
	}
	if f := strings.Fields(lines[2]); len(f) < 3 || f[0] != "e4" || f[1] != "e2e4" || f[2] != fmt.Sprint(got.Moves[0].Games) {
		t.Errorf("first move row %q", lines[2])
	}
	if f := strings.Fields(lines[len(lines)-2]); len(f) < 2 || f[0] != "total" || f[1] != "500" {
		t.Errorf("totals row %q, want total 500", lines[len(lines)-2])
	}
	if lines[len(lines)-1] != "Opening: Starting position" {
		t.Errorf("last line %q, want Opening: Starting position", lines[len(lines)-1])
	}

	// -top and -recent: the games after the opening, as many as asked,
	// the same as -json lists.
	for _, n := range [][2]int{{4, 4}, {2, 1}, {0, 3}} {
		top, recent := fmt.Sprint(n[0]), fmt.Sprint(n[1])
		j := movesJSONOf(t, db, "-top", top, "-recent", recent)
		text := mustRun(t, "-db", db, "moves", "-top", top, "-recent", recent)
		_, games, _ := strings.Cut(text, "Opening: Starting position\n")
		var want strings.Builder
		for _, part := range []struct {
			title string
			games []explorer.GameRef
		}{{"top games:", j.TopGames}, {"recent games:", j.RecentGames}} {
			if len(part.games) == 0 {
				continue
			}
			want.WriteString(part.title + "\n")
			for _, g := range part.games {
				fmt.Fprintf(&want, "  %s  %-6s ", g.ID, g.UCI)
				want.WriteString(".*\n")
			}
		}
		want.WriteString("\\(print one with 'bookquery -db .* game ID'\\)\n")
		if len(j.TopGames) != n[0] || len(j.RecentGames) != n[1] || !regexp.MustCompile("^"+want.String()+"$").MatchString(games) {
			t.Errorf("-top %s -recent %s: %d top and %d recent games in -json; text lists\n%s", top, recent, len(j.TopGames), len(j.RecentGames), games)
		}
	}
}

func TestMovesLine(t *testing.T) {
	db := championsBook(t)
	san := mustRun(t, "-db", db, "moves", "-moves", "e4 e5")
	uci := mustRun(t, "-db", db, "moves", "-moves", "e2e4 e7e5")
	if san != uci {
		t.Errorf("-moves \"e4 e5\" and \"e2e4 e7e5\" differ:\n%s\n%s", san, uci)
	}
	if !strings.Contains(san, "\nNf3 ") || !strings.Contains(san, "Opening: C20 King's Pawn Game") {
		t.Errorf("-moves \"e4 e5\":\n%s", san)
	}
	e4 := movesJSONOf(t, db, "-moves", "e4")
	e4e5 := movesJSONOf(t, db, "-moves", "e4 e5")
	var e5 *explorer.Move
	for i := range e4.Moves {
		if e4.Moves[i].SAN == "e5" {
			e5 = &e4.Moves[i]
		}
	}
	if e5 == nil {
		t.Fatalf("no e5 after e4: %+v", e4.Moves)
	}
	// Every game of 1.e4 e5 goes on (none ends after one move each).
	if e4e5.White != e5.White || e4e5.Draws != e5.Draws || e4e5.Black != e5.Black {
		t.Errorf("after 1.e4 e5: %d/%d/%d, but 1...e5 scored %d/%d/%d", e4e5.White, e4e5.Draws, e4e5.Black, e5.White, e5.Draws, e5.Black)
	}
}

func TestMovesJSONShape(t *testing.T) {
	db := championsBook(t)
	out := mustRun(t, "-db", db, "moves", "-json", "-moves", "e4 e5 Nf3 Nc6 Bb5")
	var raw map[string]json.RawMessage
	if err := json.Unmarshal([]byte(out), &raw); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"white", "draws", "black", "moves", "topGames", "recentGames", "opening"} {
		if _, ok := raw[f]; !ok {
			t.Errorf("no %q in %s", f, out)
		}
	}
	var moves []map[string]json.RawMessage
	if err := json.Unmarshal(raw["moves"], &moves); err != nil || len(moves) == 0 {
		t.Fatalf("moves: %v in %s", err, raw["moves"])
	}
	for _, f := range []string{"uci", "san", "averageRating", "white", "draws", "black", "game"} {
		if _, ok := moves[0][f]; !ok {
			t.Errorf("no %q in move %s", f, moves[0])
		}
	}
	// Games: up to 4 top and 4 recent, each a stored game that reaches the
	// position and plays the move it is listed with; a move played once
	// names its game.
	var full explorer.Moves
	if err := json.Unmarshal([]byte(out), &full); err != nil {
		t.Fatal(err)
	}
	if len(full.TopGames) == 0 || len(full.TopGames) > 4 || len(full.RecentGames) == 0 || len(full.RecentGames) > 4 {
		t.Fatalf("topGames %d, recentGames %d: want 1 to 4 each", len(full.TopGames), len(full.RecentGames))
	}
	line := "e4 e5 Nf3 Nc6 Bb5"
	for _, g := range append(full.TopGames, full.RecentGames...) {
		pgn := mustRun(t, "-db", db, "game", g.ID)
		if !strings.Contains(pgn, "1. e4 e5 2. Nf3 Nc6 3. Bb5 ") || !strings.Contains(pgn, "[White \""+g.White.Name+"\"]") {
			t.Errorf("game %s (%s) does not go through %s, or is not %s's:\n%s", g.ID, g.UCI, line, g.White.Name, pgn)
		}
	}
	for _, m := range full.Moves {
		if (m.Games == 1) != (m.Game != nil) {
			t.Errorf("move %s: %d games, game %+v", m.SAN, m.Games, m.Game)
		}
	}
	var o explorer.Opening
	if err := json.Unmarshal(raw["opening"], &o); err != nil || !strings.HasPrefix(o.ECO, "C6") || !strings.Contains(o.Name, "Ruy Lopez") {
		t.Errorf("opening of 1.e4 e5 2.Nf3 Nc6 3.Bb5: %s (%v), want a Ruy Lopez, C6x", raw["opening"], err)
	}
	// Past the named positions, the line's last named one names it.
	deeper := movesJSONOf(t, db, "-moves", "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7 Re1 b5 Bb3 d6 c3 O-O h3 Nb8 d4 Nbd7 Nbd2 Bb7 Bc2 Re8 Nf1 Bf8 Ng3 g6")
	if deeper.Opening == nil || !strings.HasPrefix(deeper.Opening.ECO, "C") || !strings.Contains(deeper.Opening.Name, "Ruy Lopez") {
		t.Errorf("deep Ruy Lopez line named %+v", deeper.Opening)
	}
	// By position: a transposition gets the name too.
	fen := movesJSONOf(t, db, "-fen", "r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3")
	if fen.Opening == nil || *fen.Opening != o {
		t.Errorf("-fen of the Ruy Lopez named %+v, want %+v", fen.Opening, o)
	}
}

func TestMovesNotInBook(t *testing.T) {
	db := championsBook(t)
	got := movesJSONOf(t, db, "-moves", "a4 h5 a5 h4")
	if len(got.Moves) != 0 || got.White+got.Draws+got.Black+got.Unknown != 0 || got.Moves == nil {
		t.Errorf("position not in the book: %+v", got)
	}
	mustRun(t, "-db", db, "moves", "-moves", "a4 h5 a5 h4")
}

// TestGamesRated checks the games text of rated games: the players with
// their ratings, best-rated first (average 2200 before 1600). The moves'
// ratings are checked by explorer's TestMovesRatings.
func TestGamesRated(t *testing.T) {
	pgn := filepath.Join(t.TempDir(), "rated.pgn")
	if err := os.WriteFile(pgn, []byte(querytest.RatedPGN), 0o644); err != nil {
		t.Fatal(err)
	}
	db := buildBook(t, pgn)
	text := mustRun(t, "-db", db, "games", "-moves", "e4")
	if i, j := strings.Index(text, "A (2400) - B (2000)"), strings.Index(text, "C (1500) - D (1700)"); i < 0 || j < i {
		t.Errorf("games after 1.e4:\n%s", text)
	}
	// The same through moves -json.
	got := movesJSONOf(t, db, "-moves", "e4")
	if len(got.Moves) != 2 || got.Moves[0].SAN != "e5" || got.Moves[0].Performance == nil || *got.Moves[0].Performance != 2400 {
		t.Errorf("moves after 1.e4: %+v", got.Moves)
	}
}

func TestMovesErrors(t *testing.T) {
	db := championsBook(t)
	missing := filepath.Join(t.TempDir(), "nobook")
	notStore := t.TempDir()
	if err := os.WriteFile(filepath.Join(notStore, "x.txt"), []byte("hello"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		code int
		want []string
	}{
		{[]string{"-db", db, "moves", "-fen", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1"}, 2, []string{"bad FEN"}},
		{[]string{"-db", db, "moves", "-fen", "nonsense"}, 2, []string{"bad FEN", "nonsense"}},
		{[]string{"-db", db, "moves", "-moves", "e4 e5 Ke3"}, 2, []string{"Ke3"}},
		{[]string{"-db", db, "moves", "-moves", "e2e5"}, 2, []string{"e2e5"}},
		{[]string{"-db", db, "moves", "-limit", "-1"}, 2, []string{"-limit"}},
		{[]string{"-db", db, "moves", "e4"}, 2, []string{"unexpected arguments"}},
		{[]string{"moves"}, 2, []string{"-db"}},
		{[]string{"-db", missing, "moves"}, 1, []string{missing, "no chessbook store"}},
		{[]string{"-db", notStore, "moves"}, 1, []string{notStore, "not a chessbook store"}},
	} {
		out, errOut, code := runCmd(t, tc.args...)
		if code != tc.code || out != "" {
			t.Errorf("bookquery %q: exit status %d, stdout %q; want %d and no output", tc.args, code, out, tc.code)
		}
		if !strings.HasPrefix(errOut, "bookquery: moves: ") || strings.Count(errOut, "\n") != 1 {
			t.Errorf("bookquery %q: stderr %q, want one line starting bookquery: moves: ", tc.args, errOut)
		}
		for _, w := range tc.want {
			if !strings.Contains(errOut, w) {
				t.Errorf("bookquery %q: stderr %q does not mention %q", tc.args, errOut, w)
			}
		}
	}
}

// TestFilterCommands: the filters of moves, history, games and pgn agree
// with each other on the champions book (their counts against the PGN are
// explorer's TestFiltersOracle), and bad filters are input errors.
func TestFilterCommands(t *testing.T) {
	db := championsBook(t)
	all := movesJSONOf(t, db, "-moves", "e4")
	some := movesJSONOf(t, db, "-moves", "e4", "-since", "1870", "-until", "1879")
	sum := func(m explorer.Moves) uint64 { return m.White + m.Draws + m.Black + m.Unknown }
	if sum(some) == 0 || sum(some) >= sum(all) {
		t.Errorf("1.e4 in 1870-1879: %d games of %d", sum(some), sum(all))
	}
	var h explorer.History
	if err := json.Unmarshal([]byte(mustRun(t, "-db", db, "history", "-moves", "e4", "-since", "1870", "-until", "1879", "-json")), &h); err != nil {
		t.Fatal(err)
	}
	var inMonths uint64
	for _, m := range h.History {
		inMonths += m.White + m.Draws + m.Black + m.Unknown
	}
	if inMonths != sum(some) {
		t.Errorf("history 1870-1879 counts %d games, moves %d", inMonths, sum(some))
	}
	if text := mustRun(t, "-db", db, "history", "-moves", "e4"); !strings.Contains(text, "month") || !strings.Contains(text, "1886") {
		t.Errorf("history text:\n%s", text)
	}

	// Every game through 1.e4 e5: pgn writes them, games -page lists them.
	pgnText, errText, code := runCmd(t, "-db", db, "pgn", "-moves", "e4 e5")
	if code != 0 || !strings.Contains(errText, "games through") {
		t.Fatalf("pgn: exit %d, stderr %q", code, errText)
	}
	games := strings.Count(pgnText, "[Event ")
	if games == 0 || strings.Count(pgnText, "\n1. e4 e5 ") != games {
		t.Errorf("pgn -moves \"e4 e5\": %d games, %d starting 1. e4 e5", games, strings.Count(pgnText, "\n1. e4 e5 "))
	}
	listed := 0
	for page := 1; ; page++ {
		var p explorer.GamePage
		if err := json.Unmarshal([]byte(mustRun(t, "-db", db, "games", "-moves", "e4 e5", "-page", fmt.Sprint(page), "-per-page", "100", "-json")), &p); err != nil {
			t.Fatal(err)
		}
		listed += len(p.Games)
		if !p.More {
			break
		}
	}
	if listed != games {
		t.Errorf("games -page lists %d games through 1.e4 e5, pgn writes %d", listed, games)
	}
	if top := movesJSONOf(t, db, "-top", "10", "-recent", "0"); len(top.TopGames) != 10 || len(top.RecentGames) != 0 {
		t.Errorf("-top 10 -recent 0: %d top, %d recent games", len(top.TopGames), len(top.RecentGames))
	}

	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"moves", "-speeds", "fast"}, `unknown speed "fast"`},
		{[]string{"moves", "-ratings", "1500"}, `unknown rating band "1500"`},
		{[]string{"moves", "-since", "2024-13"}, "-since=2024-13"},
		{[]string{"moves", "-top", "16"}, "-top 16"},
		{[]string{"games", "-page", "-1"}, "-page -1"},
		{[]string{"games", "-page", "1", "-per-page", "0"}, "-per-page 0"},
		{[]string{"history", "-until", "x"}, "-until=x"},
		{[]string{"pgn", "-json"}, "pgn writes PGN"},
	} {
		args := append([]string{"-db", db}, tc.args...)
		out, errOut, code := runCmd(t, args...)
		if code != 2 || out != "" || !strings.Contains(errOut, tc.want) {
			t.Errorf("bookquery %q: exit %d, stdout %q, stderr %q; want 2 and %q", args, code, out, errOut, tc.want)
		}
	}
}
