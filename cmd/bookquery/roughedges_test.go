package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/book"
	"github.com/chessbook/chessbook/explorer"
	"github.com/chessbook/chessbook/polyglot"
	"github.com/chessbook/chessbook/stats"
)

// datedPGN writes a PGN file of games 1.e4 e5 (or 1.d4 d5) with the given
// dates and results, and returns its path.
func datedPGN(t *testing.T, games [][3]string) string {
	t.Helper()
	var b strings.Builder
	for i, g := range games {
		b.WriteString("[Event \"E\"]\n[Site \"S\"]\n[Date \"" + g[0] + "\"]\n[Round \"" + strconv.Itoa(i+1) + "\"]\n")
		b.WriteString("[White \"W" + strconv.Itoa(i) + "\"]\n[Black \"B\"]\n[Result \"" + g[1] + "\"]\n\n")
		b.WriteString("1. " + g[2] + " " + g[1] + "\n\n")
	}
	path := filepath.Join(t.TempDir(), "dated.pgn")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestHistoryLayout: history prints each year's total, then its months
// indented under it (and its games dated to the year only as "no month"),
// then the total of the dated games and the undated ones; -by year prints
// the years alone. Before, year rows ("1920") and month rows ("1920-05")
// were mixed with no year totals.
func TestHistoryLayout(t *testing.T) {
	db := buildBook(t, datedPGN(t, [][3]string{
		{"1919.??.??", "1-0", "e4 e5"},
		{"1920.05.03", "1-0", "e4 e5"},
		{"1920.05.20", "1/2-1/2", "e4 e5"},
		{"1920.??.??", "0-1", "e4 e5"},
		{"1920.07.01", "0-1", "e4 e5"},
		{"1921.02.01", "*", "e4 e5"},
		{"????.??.??", "1-0", "e4 e5"},
		{"1921.02.11", "1-0", "d4 d5"},
	}))
	got := mustRun(t, "-db", db, "history", "-moves", "e4")
	want := `position rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1
each year's games, then its months under it
year/month  games  white  draws  black  unknown
1919            1      1      0      0        0
1920            4      1      1      2        0
  1920-05       2      1      1      0        0
  1920-07       1      0      0      1        0
  no month      1      0      0      1        0
1921            1      0      0      0        1
  1921-02       1      0      0      0        1
total           6      2      1      2        1
undated games, left out: 1
`
	if got != want {
		t.Errorf("history:\n%s\nwant:\n%s", got, want)
	}
	got = mustRun(t, "-db", db, "history", "-moves", "e4", "-by", "year")
	want = `position rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1
year   games  white  draws  black  unknown
1919       1      1      0      0        0
1920       4      1      1      2        0
1921       1      0      0      0        1
total      6      2      1      2        1
undated games, left out: 1
`
	if got != want {
		t.Errorf("history -by year:\n%s\nwant:\n%s", got, want)
	}
	// -json keeps the lichess explorer's months; -by year gives years.
	got = mustRun(t, "-db", db, "history", "-moves", "e4", "-json")
	if !strings.Contains(got, `"history":[{"month":"1919","white":1,"draws":0,"black":0,"unknown":0},{"month":"1920","white":0,"draws":0,"black":1,"unknown":0},{"month":"1920-05",`) {
		t.Errorf("history -json: %s", got)
	}
	got = mustRun(t, "-db", db, "history", "-moves", "e4", "-json", "-by", "year")
	if !strings.Contains(got, `"history":[{"month":"1919","white":1,"draws":0,"black":0,"unknown":0},{"month":"1920","white":1,"draws":1,"black":2,"unknown":0},{"month":"1921","white":0,"draws":0,"black":0,"unknown":1}]`) {
		t.Errorf("history -json -by year: %s", got)
	}
	for _, c := range []struct{ args, want string }{
		{"a4", "position rnbqkbnr/pppppppp/8/8/P7/8/1PPPPPPP/RNBQKBNR b KQkq a3 0 1\nno dated games in the book go on from this position\n"},
		{"e4 -since 1950", "position rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1\nno dated games the filters select go on from this position\n"},
	} {
		moves, flags, _ := strings.Cut(c.args, " ")
		args := []string{"-db", db, "history", "-moves", moves}
		if flags != "" {
			args = append(args, strings.Fields(flags)...)
		}
		if got := mustRun(t, args...); got != c.want {
			t.Errorf("history %s:\n%s\nwant:\n%s", c.args, got, c.want)
		}
	}
	if _, errOut, code := runCmd(t, "-db", db, "history", "-by", "day"); code != 2 || !strings.Contains(errOut, "-by") {
		t.Errorf("-by day: exit %d, %q", code, errOut)
	}
}

// TestHistorySums: on champions500, each year's row is the sum of its
// month rows, the total row the sum of the years, and it is the games of
// the position (every game is dated).
func TestHistorySums(t *testing.T) {
	db := championsBook(t)
	text := mustRun(t, "-db", db, "history")
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	num := func(f []string) [5]uint64 {
		var n [5]uint64
		for i := range n {
			v, err := strconv.ParseUint(f[len(f)-5+i], 10, 64)
			if err != nil {
				t.Fatalf("row %q: %v", f, err)
			}
			n[i] = v
		}
		return n
	}
	var year, months, total [5]uint64
	inYear, monthRows, years := false, 0, 0
	endYear := func() {
		if inYear && monthRows > 0 && months != year {
			t.Errorf("a year %v, its months sum to %v", year, months)
		}
		months, monthRows = [5]uint64{}, 0
	}
	var last []string
	for _, l := range lines[3:] {
		f := strings.Fields(l)
		switch {
		case f[0] == "total":
			endYear()
			last = f
		case strings.HasPrefix(l, "  "):
			monthRows++
			n := num(f)
			for i := range n {
				months[i] += n[i]
			}
		default:
			endYear()
			years++
			inYear, year = true, num(f)
			if year[0] != year[1]+year[2]+year[3]+year[4] {
				t.Errorf("year row %q: games are not white + draws + black + unknown", l)
			}
			for i := range year {
				total[i] += year[i]
			}
		}
	}
	if last == nil || num(last) != total || total[0] != 500 || years < 10 {
		t.Errorf("total row %q, years sum to %v (%d years), want 500 games", last, total, years)
	}
	// -by year: the same year rows and total.
	byYear := mustRun(t, "-db", db, "history", "-by", "year")
	var want strings.Builder
	for _, l := range lines[3:] {
		if !strings.HasPrefix(l, "  ") {
			want.WriteString(strings.Join(strings.Fields(l), " ") + "\n")
		}
	}
	var got strings.Builder
	for _, l := range strings.Split(strings.TrimSuffix(byYear, "\n"), "\n")[2:] {
		got.WriteString(strings.Join(strings.Fields(l), " ") + "\n")
	}
	if got.String() != want.String() {
		t.Errorf("-by year rows:\n%s\nwant the year rows of -by month:\n%s", got.String(), want.String())
	}
	var h explorer.History
	if err := json.Unmarshal([]byte(mustRun(t, "-db", db, "history", "-json")), &h); err != nil {
		t.Fatal(err)
	}
	var n uint64
	for _, m := range h.History {
		n += m.White + m.Draws + m.Black + m.Unknown
	}
	if n != 500 {
		t.Errorf("history -json: %d games, want 500", n)
	}
}

// TestOpeningStartPosition: the start position is "Starting position"
// (before: "Opening: unknown"), however it is given; an unnamed position
// away from it stays unknown; -json keeps the lichess explorer's null.
func TestOpeningStartPosition(t *testing.T) {
	db := championsBook(t)
	for _, args := range [][]string{
		{"moves"},
		{"moves", "-fen", board.StartFEN},
		{"moves", "-fen", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 5 9"},
		{"player", "-name", "Steinitz, William", "-color", "white"},
	} {
		text := mustRun(t, append([]string{"-db", db}, args...)...)
		if !strings.Contains(text, "\nOpening: Starting position\n") {
			t.Errorf("%q: no \"Opening: Starting position\" line:\n%s", args, text)
		}
	}
	if m := movesJSONOf(t, db); m.Opening != nil {
		t.Errorf("moves -json names the start position %+v, want null as lichess", m.Opening)
	}
	// A position no line names: Black to move in the start position.
	text := mustRun(t, "-db", db, "moves", "-fen", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1")
	if !strings.HasSuffix(text, "\nOpening: unknown\n") {
		t.Errorf("unnamed position:\n%s", text)
	}
}

// TestPlayerTable: the game column (a move played once) is aligned left,
// one column each for the game's id, players and date, whatever the width
// of the ids; before, the game was one right-aligned cell under a header
// far to its right.
func TestPlayerTable(t *testing.T) {
	pos := board.StartPosition()
	out := &explorer.PlayerTree{White: 4, Draws: 1, Black: 1, Moves: []explorer.PlayerMove{
		{UCI: "e2e4", SAN: "e4", White: 3, Draws: 1, AverageOpponentRating: 2600, Performance: 2800},
		{UCI: "d2d4", SAN: "d4", White: 1, AverageOpponentRating: 2500, Performance: 3300,
			Game: &explorer.PlayerGameRef{ID: "abc", White: explorer.Player{Name: "Me"}, Black: explorer.Player{Name: "You, A"}, Month: "2019-06"}},
		{UCI: "g1f3", SAN: "Nf3", Black: 1,
			Game: &explorer.PlayerGameRef{ID: "0123456789abcdef", White: explorer.Player{Name: "Me"}, Black: explorer.Player{Name: "Vachier Lagrave,M"}, Month: "1990"}},
	}}
	got := playerText(out, &pos, "Me", "white", "DB")
	want := `Me with white, position rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1
move   uci   games   white   draw   black   opp  perf  game              players                 date
e4     e2e4      4   75.0%  25.0%    0.0%  2600  2800
d4     d2d4      1  100.0%   0.0%    0.0%  2500  3300  abc               Me - You, A             2019-06
Nf3    g1f3      1    0.0%   0.0%  100.0%     -     -  0123456789abcdef  Me - Vachier Lagrave,M  1990
total            6   66.7%  16.7%   16.7%
Opening: Starting position
`
	if got != want {
		t.Errorf("player text:\n%s\nwant:\n%s", got, want)
	}
	// No move played once: no game columns.
	out.Moves = out.Moves[:1]
	out.White, out.Draws, out.Black = 3, 1, 0
	got = playerText(out, &pos, "Me", "white", "DB")
	if lines := strings.Split(got, "\n"); lines[1] != "move   uci   games  white   draw  black   opp  perf" {
		t.Errorf("player text without games:\n%s", got)
	}
}

// TestProbeCheckOwnExport: probe -check on export's own book does not call
// its rook moves e1-c1 and e8-c8 suspicious castling: the book writes
// castling the PolyGlot way (e1h1, e8h8), so they are rook moves, as the
// games played them (before: "2 entries move from e1/e8 to g1/c1/g8/c8,
// suspicious: ...").
func TestProbeCheckOwnExport(t *testing.T) {
	var b strings.Builder
	for i := range 3 {
		b.WriteString("[Event \"E\"]\n[Site \"S\"]\n[Date \"2000.01.01\"]\n[Round \"" + strconv.Itoa(i+1) + "\"]\n")
		b.WriteString("[White \"W" + strconv.Itoa(i) + "\"]\n[Black \"B\"]\n[Result \"1/2-1/2\"]\n\n")
		b.WriteString("1. d4 d5 2. Nf3 Nf6 3. e3 e6 4. Bd3 Bd6 5. O-O O-O 6. Re1 Re8 7. Bd2 Bd7 8. Qe2 Qe7 9. Rc1 Rc8 1/2-1/2\n\n")
	}
	dir := t.TempDir()
	pgnPath := filepath.Join(dir, "rooks.pgn")
	if err := os.WriteFile(pgnPath, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	db := buildBook(t, pgnPath)
	bin := filepath.Join(dir, "rooks.bin")
	mustRun(t, "-db", db, "export", "-q", "-o", bin)
	// The keys of the positions where the rooks go e1-c1 and e8-c8, from
	// the games, and the entries of those moves in the book.
	p := board.StartPosition()
	var rookKeys []uint64
	for _, san := range strings.Fields("d4 d5 Nf3 Nf6 e3 e6 Bd3 Bd6 O-O O-O Re1 Re8 Bd2 Bd7 Qe2 Qe7 Rc1 Rc8") {
		m, err := p.ParseMove([]byte(san))
		if err != nil {
			t.Fatal(err)
		}
		if san == "Rc1" || san == "Rc8" {
			if pc := p.PieceAt(m.From()); pc != board.WhiteRook && pc != board.BlackRook {
				t.Fatalf("%s moves %v", san, pc)
			}
			rookKeys = append(rookKeys, polyglot.Key(&p))
		}
		p.Play(m)
	}
	pb, err := polyglot.OpenBook(bin)
	if err != nil {
		t.Fatal(err)
	}
	var ex []string
	for i, e := range pb.Entries() {
		if slices.Contains(rookKeys, e.Key) {
			if s := polyglot.MoveString(e.Move); s != "e1c1" && s != "e8c8" {
				t.Fatalf("entry %d %s: want a rook move e1c1 or e8c8", i, e)
			}
			ex = append(ex, fmt.Sprintf("entry %d %s", i, e))
		}
	}
	if len(ex) != 2 {
		t.Fatalf("%d entries of the rook moves in the book, want 2: %q", len(ex), ex)
	}
	got := mustRun(t, "probe", "-book", bin, "-check")
	want := "book " + bin + " (288 bytes)\n" +
		"info: 2 entries move from e1/e8 to g1/c1/g8/c8: rook or queen moves, not castling, as the book writes castling the PolyGlot way, " +
		"king takes rook (e1h1, e1a1, e8h8, e8a8: 2 entries): " + strings.Join(ex, "; ") + "\n" +
		"info: 18 entries (288 bytes), 18 positions\n" +
		"0 errors, 0 warnings\n"
	if got != want {
		t.Errorf("probe -check:\n%s\nwant:\n%s", got, want)
	}
	// make-book writes the same book (testdata/reference/generate.sh; run
	// here with -tags oracle), which -check reads the same way.
	ours, _ := os.ReadFile(bin)
	theirs := makeBookOf(t, pgnPath, "rooks_makebook_default.bin")
	if !bytes.Equal(ours, theirs) {
		t.Errorf("export's book (%d bytes) differs from make-book's (%d bytes)", len(ours), len(theirs))
	}
}

// progressCall is one call of a PositionsOptions.Progress.
type progressCall struct {
	what        string
	done, total int64
}

// TestPositionsProgress: the positions dump's progress counts the games it
// replays against the games it needs to replay (before: against every
// game of the store, "games replayed: 2 of 336863 (0.0%)" and done), and
// the replay of every game for the positions one game reached is a step
// of its own, counted against the store's games.
func TestPositionsProgress(t *testing.T) {
	db := championsBook(t)
	st, err := openBook(db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	games := int64(st.Meta().Games)
	for _, minGames := range []uint64{0, 2, 20} {
		var calls []progressCall
		o := book.PositionsOptions{MinGames: minGames, Progress: func(what string, done, total int64) {
			calls = append(calls, progressCall{what, done, total})
		}}
		if err := book.PositionsWith(context.Background(), st, o, func([]byte, *stats.Entry) error { return nil }); err != nil {
			t.Fatal(err)
		}
		last := map[string]progressCall{}
		var steps []string
		for _, c := range calls {
			if c.total > 0 && c.done > c.total {
				t.Errorf("-min-games %d: %s: %d of %d", minGames, c.what, c.done, c.total)
			}
			if p, ok := last[c.what]; ok && (p.total != c.total || p.done > c.done) {
				t.Errorf("-min-games %d: %s: %d of %d after %d of %d", minGames, c.what, c.done, c.total, p.done, p.total)
			}
			if len(steps) == 0 || steps[len(steps)-1] != c.what {
				steps = append(steps, c.what)
			}
			last[c.what] = c
		}
		replay, ok := last["games replayed"]
		if !ok || replay.done != replay.total || replay.total <= 0 || replay.total >= games {
			t.Errorf("-min-games %d: games replayed ends at %+v, want all of the games needed, fewer than the store's %d (steps %q)", minGames, replay, games, steps)
		}
		single, ok := last["games replayed for the positions one game reached"]
		if (minGames <= 1) != ok || ok && (single.done != games || single.total != games) {
			t.Errorf("-min-games %d: the replay of every game ends at %+v (steps %q)", minGames, single, steps)
		}
		// Each step once: no step starts again after another.
		seen := map[string]bool{}
		for _, s := range steps {
			if seen[s] {
				t.Errorf("-min-games %d: step %q again in %q", minGames, s, steps)
			}
			seen[s] = true
		}
	}
}
