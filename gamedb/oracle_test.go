package gamedb_test

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/notnil/chess"
	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/book/build"
	"github.com/chessbook/chessbook/filter"
	"github.com/chessbook/chessbook/gamedb"
	"github.com/chessbook/chessbook/internal/pgnoracle"
	"github.com/chessbook/chessbook/internal/testutil"
	"github.com/chessbook/chessbook/pgn"
	"github.com/chessbook/chessbook/stats"
	"github.com/chessbook/chessbook/store"
)

// The oracle: a script over the PGN text that reads the tags with a
// regular expression and the moves as SAN tokens, deduplicates the games
// by their content as the store does (players, date, round, result, start
// position and moves: the first copy is kept), and counts what the index
// answers. Moves are replayed with notnil/chess, only for the player
// trees.

// oGame is a game as the oracle reads it.
type oGame struct {
	tags   map[string]string
	norms  map[string]string // oNorm of the White, Black and Event tags
	sans   []string          // the moves, SAN without check marks
	result string            // "1-0", "0-1", "1/2-1/2", "*" or ""
}

// readOracle reads the games of PGN text with package pgnoracle,
// deduplicated.
func readOracle(t *testing.T, text []byte) []oGame {
	t.Helper()
	var games []oGame
	seen := map[string]bool{}
	for _, pg := range pgnoracle.Parse(text) {
		g := oGame{tags: pg.Tags, sans: pg.Moves, result: pg.Termination}
		if g.result == "" {
			g.result = g.tags["Result"]
			if !slices.Contains([]string{"1-0", "0-1", "1/2-1/2", "*"}, g.result) {
				g.result = ""
			}
		}
		v := strings.ToLower(g.tags["Variant"])
		if v != "" && v != "standard" && v != "chess" && v != "from position" && v != "fromposition" && v != "normal" {
			continue
		}
		fen := ""
		if pg.FromPosition() {
			fen = g.tags["FEN"]
		}
		if fen != "" && !oLegalFEN(fen) {
			continue
		}
		key := strings.Join([]string{g.tags["White"], g.tags["Black"], g.tags["Date"], g.tags["Round"], g.result, fen,
			strings.Join(g.sans, " ")}, "\x00")
		if seen[key] {
			continue
		}
		seen[key] = true
		g.norms = map[string]string{}
		for _, tag := range []string{"White", "Black", "Event"} {
			g.norms[tag] = oNorm(g.tags[tag])
		}
		games = append(games, g)
	}
	return games
}

// oLegalFEN reports whether a FEN's placement is a legal position's: one
// king, at most 8 pawns and 16 men a side (the PGN reader skips the others
// as bad FENs).
func oLegalFEN(fen string) bool {
	f := strings.Fields(fen)
	if len(f) == 0 {
		return false
	}
	for _, side := range []string{"PNBRQK", "pnbrqk"} {
		men, pawns, kings := 0, 0, 0
		for _, c := range f[0] {
			if strings.ContainsRune(side, c) {
				men++
				pawns += strings.Count(side[:1], string(c))
				kings += strings.Count(side[5:], string(c))
			}
		}
		if kings != 1 || pawns > 8 || men > 16 {
			return false
		}
	}
	return true
}

// oNorm is the oracle's normalized name: the letters and digits, lower
// case, without marks (NFD, marks removed), the few letters that do not
// decompose folded as the package documentation says.
func oNorm(s string) string {
	s, _, _ = transform.String(transform.Chain(norm.NFD, runes.Remove(runes.In(unicode.Mn))), s)
	s = strings.NewReplacer("ø", "o", "Ø", "o", "ł", "l", "Ł", "l", "đ", "d", "Đ", "d", "ð", "d", "Ð", "d", "ß", "ss",
		"æ", "ae", "Æ", "ae", "œ", "oe", "Œ", "oe", "ı", "i", "þ", "th", "Þ", "th").Replace(s)
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
		}
	}
	out := b.String()
	for len(out) > 200 {
		_, n := utf8.DecodeLastRuneInString(out)
		out = out[:len(out)-n]
	}
	return out
}

// oSite is what the index keeps of a Site tag: a URL's host.
func oSite(s string) string {
	s = strings.TrimSpace(s)
	if strings.Contains(s, "://") {
		if u, err := url.Parse(s); err == nil {
			return strings.TrimPrefix(u.Host, "www.")
		}
	}
	return s
}

// oDate reads a Date tag as yyyymmdd, unknown parts 0.
func oDate(s string) int {
	y, m, d := pgnoracle.Date(s)
	return y*10000 + m*100 + d
}

// oName is what the oracle counts for one spelling.
type oName struct {
	white, black, lo, hi, first, last int
}

func (n *oName) add(color, elo, date int) {
	if color == 0 {
		n.white++
	} else {
		n.black++
	}
	if elo > 0 && (n.lo == 0 || elo < n.lo) {
		n.lo = elo
	}
	n.hi = max(n.hi, elo)
	if date > 0 && (n.first == 0 || date < n.first) {
		n.first = date
	}
	n.last = max(n.last, date)
}

// buildStore builds a store of the PGN files and opens its index.
func buildStore(t *testing.T, files ...string) (*store.Store, *gamedb.DB) {
	t.Helper()
	dir := t.TempDir()
	_, err := build.Run(context.Background(), build.RunOptions{Options: build.Options{Inputs: files, Memory: build.MinMemory}, Dir: dir, Workers: 2, Compact: true})
	if err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(dir, store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	db, err := gamedb.Open(st)
	if err != nil {
		t.Fatal(err)
	}
	return st, db
}

// oracleData is the oracle's test of one input.
// trees players (the most games first) get their trees checked; with
// deep, also at a position past the summaries' plies, and with a position
// search (the oracle replays every game of the player: slow on big inputs).
func oracleData(t *testing.T, path string, trees int, deep bool) {
	text, err := pgnoracle.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	games := readOracle(t, text)
	st, db := buildStore(t, path)
	ctx := context.Background()
	if got := st.Meta().Games; got != uint64(len(games)) {
		t.Fatalf("the store holds %d games, the oracle reads %d distinct ones", got, len(games))
	}
	rep, err := gamedb.Check(ctx, st, func(p string) { t.Errorf("check: %s", p) })
	if err != nil || rep.Problems != 0 || rep.Summaries != len(games) {
		t.Fatalf("check: %+v, %v", rep, err)
	}

	// Every spelling of every player, event and site.
	players := map[string]*oName{}
	events := map[string]*oName{}
	sites := map[string]*oName{}
	get := func(m map[string]*oName, k string) *oName {
		if m[k] == nil {
			m[k] = &oName{}
		}
		return m[k]
	}
	for _, g := range games {
		date := oDate(g.tags["Date"])
		for c, tag := range []string{"White", "Black"} {
			if raw := strings.TrimSpace(g.tags[tag]); oNorm(raw) != "" {
				get(players, raw).add(c, pgnoracle.Elo(g.tags[tag+"Elo"]), date)
			}
		}
		if raw := strings.TrimSpace(g.tags["Event"]); oNorm(raw) != "" {
			get(events, raw).add(0, 0, date)
		}
		if raw := oSite(g.tags["Site"]); oNorm(raw) != "" {
			get(sites, raw).add(0, 0, date)
		}
	}
	for _, kind := range []struct {
		kind gamedb.NameKind
		want map[string]*oName
	}{{gamedb.Players, players}, {gamedb.Events, events}, {gamedb.Sites, sites}} {
		names, err := db.Names(ctx, kind.kind, "", 0)
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]*oName{}
		for _, n := range names {
			got[n.Name] = &oName{n.White, n.Black, n.MinRating, n.MaxRating, int(n.First), int(n.Last)}
			if n.Normal != oNorm(n.Name) {
				t.Errorf("%q normalized %q, the oracle %q", n.Name, n.Normal, oNorm(n.Name))
			}
		}
		if len(got) != len(kind.want) {
			t.Errorf("kind %c: %d spellings, the oracle %d", kind.kind, len(got), len(kind.want))
		}
		bad := 0
		for _, k := range slices.Sorted(maps.Keys(kind.want)) {
			if w, g := *kind.want[k], got[k]; g == nil || *g != w {
				if bad++; bad <= 5 {
					t.Errorf("kind %c, %q: index %+v, oracle %+v", kind.kind, k, g, w)
				}
			}
		}
	}

	// Searches: totals against the oracle's counts.
	top := slices.SortedFunc(maps.Keys(players), func(a, b string) int {
		return cmp.Or(cmp.Compare(players[b].white+players[b].black, players[a].white+players[a].black), strings.Compare(a, b))
	})
	count := func(keep func(g *oGame) bool) int {
		n := 0
		for i := range games {
			if keep(&games[i]) {
				n++
			}
		}
		return n
	}
	has := func(tag, text string) func(g *oGame) bool {
		want := oNorm(text)
		return func(g *oGame) bool { return strings.Contains(g.norms[tag], want) }
	}
	search := func(what string, q gamedb.Query, want int) {
		t.Helper()
		q.Limit = 5
		res, err := db.Search(ctx, q)
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if res.Total != want {
			t.Errorf("%s: %d games, the oracle %d", what, res.Total, want)
		}
		if len(res.Games) != min(5, want) {
			t.Errorf("%s: a page of %d games of %d", what, len(res.Games), want)
		}
	}
	for _, name := range top[:min(3, len(top))] {
		short := strings.Fields(strings.NewReplacer(",", " ").Replace(name))[0] // the family name
		search("player "+short, gamedb.Query{Player: short}, count(func(g *oGame) bool { return has("White", short)(g) || has("Black", short)(g) }))
		search("white "+short, gamedb.Query{White: short}, count(has("White", short)))
		search("black "+short+" since 2000", gamedb.Query{Black: short, Filter: filter.Filter{Since: 20000101}},
			count(func(g *oGame) bool { return has("Black", short)(g) && oDate(g.tags["Date"]) >= 20000101 }))
		search("white "+short+" winning", gamedb.Query{White: short, Result: pgn.WhiteWins},
			count(func(g *oGame) bool { return has("White", short)(g) && g.result == "1-0" }))
	}
	for _, r := range []struct {
		r    pgn.Result
		text string
	}{{pgn.WhiteWins, "1-0"}, {pgn.BlackWins, "0-1"}, {pgn.Draw, "1/2-1/2"}} {
		search("result "+r.text, gamedb.Query{Result: r.r}, count(func(g *oGame) bool { return g.result == r.text }))
	}
	mid := oDate(games[len(games)/2].tags["Date"]) / 10000 * 10000
	search(fmt.Sprintf("until %d", mid/10000), gamedb.Query{Filter: filter.Filter{Until: stats.Date(mid + 1231)}},
		count(func(g *oGame) bool { d := oDate(g.tags["Date"]); return d > 0 && d <= mid+1231 }))
	search(fmt.Sprintf("since %d", mid/10000), gamedb.Query{Filter: filter.Filter{Since: stats.Date(mid)}},
		count(func(g *oGame) bool { return oDate(g.tags["Date"]) >= mid }))
	ev := slices.SortedFunc(maps.Keys(events), func(a, b string) int { return cmp.Compare(events[b].white, events[a].white) })[0]
	search("event "+ev, gamedb.Query{Event: ev}, count(has("Event", ev)))
	search("eco B20-B99", gamedb.Query{ECOFrom: gamedb.ParseECO([]byte("B20")), ECOTo: gamedb.ParseECO([]byte("B99"))},
		count(func(g *oGame) bool { e := g.tags["ECO"]; return len(e) == 3 && e >= "B20" && e <= "B99" }))
	search("min-rating 2500", gamedb.Query{Filter: filter.Filter{MinRating: 2500}},
		count(func(g *oGame) bool {
			return pgnoracle.Elo(g.tags["WhiteElo"]) >= 2500 && pgnoracle.Elo(g.tags["BlackElo"]) >= 2500
		}))
	search("min-plies 100", gamedb.Query{Filter: filter.Filter{MinPlies: 100}}, count(func(g *oGame) bool { return len(g.sans) >= 100 }))

	// Player trees, at the start and after the player's most common
	// line of two plies.
	for _, name := range top[:min(trees, len(top))] {
		for color, tag := range []string{"White", "Black"} {
			var mine []*oGame
			lines := map[string]int{}
			for i := range games {
				g := &games[i]
				if g.norms[tag] == oNorm(name) && g.tags["FEN"] == "" {
					mine = append(mine, g)
					if len(g.sans) >= 2 {
						lines[g.sans[0]+" "+g.sans[1]]++
					}
				}
			}
			if len(mine) == 0 {
				continue
			}
			line := slices.SortedFunc(maps.Keys(lines), func(a, b string) int { return cmp.Or(cmp.Compare(lines[b], lines[a]), strings.Compare(a, b)) })[0]
			// And a position past the summaries' plies, on the player's
			// longest game: the game records tell.
			long := slices.MaxFunc(mine, func(a, b *oGame) int { return cmp.Compare(len(a.sans), len(b.sans)) })
			targets := [][]string{nil, strings.Fields(line)}
			if deep {
				targets = append(targets, long.sans[:min(len(long.sans), gamedb.SummaryPlies+6)])
			}
			for _, sans := range targets {
				oracleTree(t, db, name, color, sans, mine)
			}
			if !deep {
				continue
			}
			// A player and position search: the games with either
			// color that reach the position, at any ply.
			sans := long.sans[:min(len(long.sans), 12)]
			target := newOTarget(t, sans)
			pos := playSAN(t, sans)
			short := strings.Fields(strings.NewReplacer(",", " ").Replace(name))[0]
			search(fmt.Sprintf("player %s at %v", short, sans), gamedb.Query{Player: short, Position: &pos},
				count(func(g *oGame) bool {
					if !has("White", short)(g) && !has("Black", short)(g) {
						return false
					}
					ok, _ := target.reaches(g)
					return ok
				}))
		}
	}
}

// oTarget is a position the oracle looks for: its FEN's first three
// fields (placement, side to move, castling rights) and its men.
type oTarget struct {
	key string
	men int
}

func oKey(p *chess.Position) string { return strings.Join(strings.Fields(p.String())[:3], " ") }

func oMen(p *chess.Position) int {
	n := 0
	for _, c := range strings.Fields(p.String())[0] {
		if unicode.IsLetter(c) {
			n++
		}
	}
	return n
}

// newOTarget returns the position after sans from the start.
func newOTarget(t *testing.T, sans []string) oTarget {
	pos := chess.StartingPosition()
	for _, s := range sans {
		m, err := chess.AlgebraicNotation{}.Decode(pos, s)
		if err != nil {
			t.Fatal(err)
		}
		pos = pos.Update(m)
	}
	return oTarget{oKey(pos), oMen(pos)}
}

// reaches replays game g until it first reaches the target, and returns
// whether it does and the move it plays there ("": the game ends there).
// It stops once the game has fewer men than the target.
func (o oTarget) reaches(g *oGame) (bool, string) {
	pos := chess.StartingPosition()
	if fen := g.tags["FEN"]; fen != "" {
		f, err := chess.FEN(fen)
		if err != nil {
			return false, ""
		}
		pos = chess.NewGame(f).Position()
	}
	for _, s := range g.sans {
		if oKey(pos) == o.key {
			return true, s
		}
		m, err := chess.AlgebraicNotation{}.Decode(pos, s)
		if oMen(pos) < o.men || err != nil {
			return false, ""
		}
		pos = pos.Update(m)
	}
	return oKey(pos) == o.key, ""
}

// oracleTree compares the player tree of name with color after the moves
// sans with what the oracle replays of the player's games (those from the
// standard start: the tree's position is one of the first plies, which a
// game from a FEN does not reach here).
func oracleTree(t *testing.T, db *gamedb.DB, name string, color int, sans []string, games []*oGame) {
	t.Helper()
	target := newOTarget(t, sans)
	type row struct{ w, d, b int }
	wantRows := map[string]row{}
	for _, g := range games {
		ok, s := target.reaches(g)
		if !ok || s == "" {
			continue
		}
		r := wantRows[s]
		switch g.result {
		case "1-0":
			r.w++
		case "0-1":
			r.b++
		default:
			r.d++
		}
		wantRows[s] = r
	}
	pos := playSAN(t, sans)
	tree, err := db.PlayerTree(context.Background(), gamedb.TreeQuery{Player: name, Color: color, Position: &pos, Recent: 8})
	if err != nil {
		t.Fatal(err)
	}
	gotRows := map[string]row{}
	for _, m := range tree.Moves {
		gotRows[strings.TrimRight(pos.SAN(m.Move), "+#")] = row{m.White, m.Draws, m.Black}
		if (m.Game != nil) != (m.Games() == 1) {
			t.Errorf("%s %d %v: move %v of %d games, game %v", name, color, sans, m.Move, m.Games(), m.Game)
		}
	}
	if !maps.Equal(gotRows, wantRows) {
		t.Errorf("%s, color %d, after %v: tree %v, oracle %v", name, color, sans, gotRows, wantRows)
	}
	if len(tree.Recent) != min(8, len(games)) && len(sans) == 0 {
		t.Errorf("%s, color %d: %d recent games", name, color, len(tree.Recent))
	}
	for i := 1; i < len(tree.Recent); i++ {
		if tree.Recent[i].Date > tree.Recent[i-1].Date {
			t.Errorf("%s: recent games out of date order: %v after %v", name, tree.Recent[i].Date, tree.Recent[i-1].Date)
		}
	}
}

// playSAN returns the position after sans from the start.
func playSAN(t *testing.T, sans []string) board.Position {
	t.Helper()
	pos := board.StartPosition()
	for _, s := range sans {
		m, err := pos.ParseMove([]byte(s))
		if err != nil {
			t.Fatal(err)
		}
		pos.Play(m)
	}
	return pos
}

// TestOracleTestdata runs the oracle on the committed inputs: master
// games and lichess games (speeds, casual games, URL sites, games from a
// FEN), and the lichess slice as TestOracleShared runs lichess_10k.
func TestOracleTestdata(t *testing.T) {
	for _, f := range []string{"../testdata/champions500.pgn", "testdata/lichess200.pgn"} {
		t.Run(filepath.Base(f), func(t *testing.T) { oracleData(t, f, 3, true) })
	}
	t.Run("lichess2k.pgn.zst", func(t *testing.T) { oracleData(t, testutil.Testdata(t, "lichess2k.pgn.zst"), 2, false) })
}
