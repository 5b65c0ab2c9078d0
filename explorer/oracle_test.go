package explorer

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/book"
	"github.com/chessbook/chessbook/internal/pgnoracle"
	"github.com/chessbook/chessbook/stats"
	"github.com/chessbook/chessbook/store"
)

// The filters of /lichess and /masters against an oracle that knows no
// chess: a script over the PGN text itself (regexps for the tags, the
// first SAN tokens of the movetext) counts, for every filter combination,
// the games that start with a few given moves and the move each played
// next, by result. Positions two plies deep or less are reached by one
// move order only, so counting move prefixes counts the positions.

// oracleGame is what the oracle reads of one game.
type oracleGame struct {
	first  []string // the first SAN moves, without check marks or annotations
	fen    string   // the FEN tag's placement, side and castling, of a game set up from a position
	result string   // the Result tag
	speed  string   // lichess's speed from TimeControl, "" when none
	band   int      // lichess's band of the mean rating, -1 when unrated
	year   int      // from Date, 0 when unknown
	month  int      // 0 when unknown
}

// oracleGames reads the games of PGN files with package pgnoracle: every
// game, deduplicated by text (as the builder drops exact copies).
func oracleGames(t *testing.T, paths ...string) []oracleGame {
	var out []oracleGame
	seen := map[string]bool{}
	for _, pg := range pgnoracle.Read(t, paths...) {
		text := strings.TrimSpace(pg.Text)
		if seen[text] {
			continue
		}
		seen[text] = true
		g := oracleGame{result: pg.Tags["Result"], speed: pg.Speed(), band: pg.Band()}
		if pg.FromPosition() {
			g.fen = strings.Join(strings.Fields(pg.Tags["FEN"] + " x x x")[:3], " ")
		}
		g.first = pg.Moves[:min(len(pg.Moves), 3)]
		g.year, g.month, _ = pg.Date()
		out = append(out, g)
	}
	if len(out) == 0 {
		t.Fatal("the oracle read no games")
	}
	return out
}

// oracleCase is one filter combination: the query's parameters and the
// oracle's test of a game.
type oracleCase struct {
	params url.Values
	keep   func(g *oracleGame) bool
}

// oracleCounts are a move's counts: white, draws, black, unknown.
type oracleCounts [4]uint64

// oracleCount counts, over the games keep keeps that start with prefix and
// play on, the next move's results.
func oracleCount(games []oracleGame, prefix []string, keep func(*oracleGame) bool) map[string]oracleCounts {
	out := map[string]oracleCounts{}
	for i := range games {
		g := &games[i]
		if g.fen != "" || len(g.first) <= len(prefix) || !keep(g) {
			continue
		}
		match := true
		for j, m := range prefix {
			match = match && g.first[j] == m
		}
		if !match {
			continue
		}
		c := out[g.first[len(prefix)]]
		switch g.result {
		case "1-0":
			c[0]++
		case "1/2-1/2":
			c[1]++
		case "0-1":
			c[2]++
		default:
			c[3]++
		}
		out[g.first[len(prefix)]] = c
	}
	return out
}

func TestFiltersOracle(t *testing.T) {
	lichess, masters := filtersInputs(t) // testdata's slices; shared/data's with -tags oracle
	games := oracleGames(t, lichess, masters)

	period := func(y, m int) int { return y<<4 | m }
	inRange := func(g *oracleGame, since, until int) bool {
		p := period(g.year, g.month)
		return g.year != 0 && (since == 0 || p >= since) && (until == 0 || p <= until)
	}
	speeds := []string{"", "ultraBullet", "bullet", "blitz", "rapid", "classical", "correspondence", "blitz,rapid", "bullet,blitz,classical"}
	ratings := []string{"", "0", "1000", "1200", "1400", "1600", "1800", "2000", "2200", "2500", "2000,2200,2500", "0,1000,1200"}
	months := []struct {
		since, until string
		s, u         int
	}{{"", "", 0, 0}, {"2024-06", "", period(2024, 6), 0}, {"", "2024-03", 0, period(2024, 3)}, {"2024-01", "2024-06", period(2024, 1), period(2024, 6)}}
	var lichessCases []oracleCase
	for _, sp := range speeds {
		for _, ra := range ratings {
			for _, mo := range months {
				v := url.Values{}
				if sp != "" {
					v.Set("speeds", sp)
				}
				if ra != "" {
					v.Set("ratings", ra)
				}
				if mo.since != "" {
					v.Set("since", mo.since)
				}
				if mo.until != "" {
					v.Set("until", mo.until)
				}
				spSet := strings.Split(sp, ",")
				var bands []int
				for _, r := range strings.Split(ra, ",") {
					if n, err := strconv.Atoi(r); err == nil {
						for i, f := range pgnoracle.BandFloors {
							if f == n {
								bands = append(bands, i)
							}
						}
					}
				}
				mo := mo
				lichessCases = append(lichessCases, oracleCase{v, func(g *oracleGame) bool {
					if sp != "" && !contains(spSet, g.speed) {
						return false
					}
					if ra != "" && !containsInt(bands, g.band) {
						return false
					}
					if mo.s != 0 || mo.u != 0 {
						return inRange(g, mo.s, mo.u)
					}
					return true
				}})
			}
		}
	}
	var mastersCases []oracleCase
	for _, yr := range [][2]int{{0, 0}, {1990, 0}, {0, 1960}, {1970, 1985}, {2024, 2024}} {
		v := url.Values{}
		if yr[0] != 0 {
			v.Set("since", strconv.Itoa(yr[0]))
		}
		if yr[1] != 0 {
			v.Set("until", strconv.Itoa(yr[1]))
		}
		s, u := 0, 0
		if yr[0] != 0 {
			s = period(yr[0], 0)
		}
		if yr[1] != 0 {
			u = period(yr[1], 12)
		}
		mastersCases = append(mastersCases, oracleCase{v, func(g *oracleGame) bool {
			return (s == 0 && u == 0) || inRange(g, s, u)
		}})
	}
	st := openStore(t, buildStore(t, lichess, masters))
	h := NewHandler(st)
	t.Run("through", func(t *testing.T) { testThroughOracle(t, st, games) })

	prefixes := [][]string{{}, {"e4"}, {"d4"}, {"e4", "c5"}, {"d4", "Nf6"}}
	if testing.Short() {
		prefixes = prefixes[:3]
	}
	checked := 0
	for _, ep := range []struct {
		path  string
		cases []oracleCase
	}{{"/lichess", lichessCases}, {"/masters", mastersCases}} {
		for _, c := range ep.cases {
			for _, prefix := range prefixes {
				want := oracleCount(games, prefix, c.keep)
				v := url.Values{}
				for k, vs := range c.params {
					v[k] = vs
				}
				u := ep.path + "?" + v.Encode()
				if len(prefix) > 0 {
					u += "&play=" + sanToUCI(t, prefix)
				}
				got := oracleRequest(t, h, u)
				name := fmt.Sprintf("%s after %v", u, prefix)
				var total oracleCounts
				for _, c := range want {
					for i := range total {
						total[i] += c[i]
					}
				}
				if g := (oracleCounts{got.White, got.Draws, got.Black, got.Unknown}); g != total {
					t.Errorf("%s: totals %v, the PGN has %v", name, g, total)
				}
				seen := map[string]bool{}
				for _, m := range got.Moves {
					san := strings.TrimRight(m.SAN, "+#")
					seen[san] = true
					if g := (oracleCounts{m.White, m.Draws, m.Black, m.Unknown}); g != want[san] {
						t.Errorf("%s: %s %v, the PGN has %v", name, san, g, want[san])
					}
				}
				for san := range want {
					if !seen[san] {
						t.Errorf("%s: %s missing (the PGN has %v)", name, san, want[san])
					}
				}
				checked++
				if t.Failed() {
					t.FailNow()
				}
			}
		}
	}
	t.Logf("%d queries agree with the PGN (%d games)", checked, len(games))
}

// testThroughOracle compares the games GamesPage lists through a few
// positions, filtered and not, with the games of the PGN that start with
// the position's moves.
func testThroughOracle(t *testing.T, st *store.Store, games []oracleGame) {
	x := New(st)
	blitz, _ := stats.ParseSpeeds("blitz")
	for _, prefix := range [][]string{{"e4", "c5"}, {"d4", "Nf6"}, {"c4", "e5"}} {
		line, err := ParseLine(board.StartPosition(), strings.Join(prefix, " "), LineOptions{Notation: Movetext})
		if err != nil {
			t.Fatal(err)
		}
		fen3 := strings.Join(strings.Fields(line[len(line)-1].FEN())[:3], " ")
		for _, sel := range []book.Selection{{}, {Speeds: blitz}} {
			want, fromFEN := 0, 0
			for i := range games {
				g := &games[i]
				if sel.Speeds != 0 && g.speed != "blitz" {
					continue
				}
				if g.fen == "" && len(g.first) >= len(prefix) && slices.Equal(g.first[:len(prefix)], prefix) {
					want++
				}
				if g.fen != "" && g.fen == fen3 {
					fromFEN++
					want++
				}
			}
			var ids []string
			p := line[len(line)-1]
			err := book.GamesThrough(context.Background(), st, &p, book.ThroughOptions{Sel: sel}, func(id store.GameID, _ []byte, ply int) (bool, error) {
				if ply != len(prefix) && ply != 0 {
					t.Errorf("%v: game %s reaches the position at ply %d", prefix, id, ply)
				}
				ids = append(ids, id.String())
				return true, nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if len(ids) != want || want == 0 {
				t.Errorf("%v %+v: %d games through the position, the PGN has %d (%d set up from it)", prefix, sel, len(ids), want, fromFEN)
			}
			if !slices.IsSorted(ids) {
				t.Errorf("%v: games not in id order", prefix)
			}
			// Pages 2 and 3 of 7 games are the scan's 8th to 21st games.
			for page := 2; page <= 3; page++ {
				out, err := x.GamesPage(context.Background(), p, sel, page, 7, nil)
				if err != nil {
					t.Fatal(err)
				}
				var got []string
				for _, g := range out.Games {
					got = append(got, g.ID)
				}
				end := min(len(ids), page*7)
				if wantPage := ids[min(len(ids), (page-1)*7):end]; !slices.Equal(got, wantPage) || out.More != (len(ids) > end) {
					t.Errorf("%v page %d: %v more=%v, want %v", prefix, page, got, out.More, wantPage)
				}
			}
		}
	}
}

// oracleRequest answers GET u through h and decodes the answer.
func oracleRequest(t *testing.T, h http.Handler, u string) *Moves {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, u, nil))
	if rec.Code != http.StatusOK {
		t.Fatalf("GET %s: %d %s", u, rec.Code, rec.Body)
	}
	var out Moves
	if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil {
		t.Fatalf("GET %s: %v", u, err)
	}
	return &out
}

// sanToUCI returns the UCI list of SAN moves from the start position.
func sanToUCI(t *testing.T, sans []string) string {
	p, err := ParseFEN("")
	if err != nil {
		t.Fatal(err)
	}
	line, err := ParseLine(p, strings.Join(sans, " "), LineOptions{Notation: Movetext})
	if err != nil {
		t.Fatal(err)
	}
	var ucis []string
	for i := 1; i < len(line); i++ {
		prev := line[i-1]
		for _, m := range prev.LegalMoves(nil) {
			q := prev
			q.Play(m)
			if q.FEN() == line[i].FEN() {
				ucis = append(ucis, m.String())
			}
		}
	}
	return strings.Join(ucis, ",")
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func containsInt(list []int, n int) bool {
	for _, x := range list {
		if x == n {
			return true
		}
	}
	return false
}
