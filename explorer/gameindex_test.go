package explorer

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/chessbook/chessbook/internal/lichessschema"
	"github.com/chessbook/chessbook/internal/querytest"
)

// getJSON GETs target and decodes its 200 answer into v.
func getJSON(t *testing.T, srv *httptest.Server, target string, v any) {
	t.Helper()
	code, body, _ := querytest.Get(t, srv, target)
	if code != 200 {
		t.Fatalf("GET %s: %d %.300s", target, code, body)
	}
	if err := json.Unmarshal([]byte(body), v); err != nil {
		t.Fatalf("GET %s: %v in %.300s", target, err, body)
	}
}

// topSpelling returns the spelling with the most games among those that
// contain text and whose normalized form no other spelling contains (so
// that a search's "contains" and a tree's exact name select the same
// games).
func topSpelling(t *testing.T, srv *httptest.Server, text string) PlayerName {
	t.Helper()
	var ps Players
	getJSON(t, srv, "/players?name="+url.QueryEscape(text)+"&limit=5", &ps)
	if len(ps.Players) == 0 {
		t.Fatalf("/players?name=%s: none", text)
	}
	for _, top := range ps.Players {
		var same Players
		getJSON(t, srv, "/players?name="+url.QueryEscape(top.Normal), &same)
		if len(same.Players) == 1 && same.Players[0].Name == top.Name {
			return top
		}
	}
	t.Fatalf("/players?name=%s: every spelling's name is in another's: %+v", text, ps.Players)
	return PlayerName{}
}

// getPlayer GETs a /player target and checks its answer's form.
func getPlayer(t *testing.T, v *lichessschema.Validator, srv *httptest.Server, target string) *PlayerTree {
	t.Helper()
	code, body, ctype := querytest.Get(t, srv, target)
	if code != 200 || ctype != "application/x-ndjson" {
		t.Fatalf("GET %s: %d %s %.300s", target, code, ctype, body)
	}
	if !strings.HasSuffix(body, "\n") || strings.Count(body, "\n") != 1 {
		t.Fatalf("GET %s: want one NDJSON line, got %.300q", target, body)
	}
	if err := v.Validate(lichessschema.Player, []byte(body)); err != nil {
		t.Errorf("GET %s: %v", target, err)
	}
	var tree PlayerTree
	if err := json.Unmarshal([]byte(body), &tree); err != nil {
		t.Fatal(err)
	}
	if tree.QueuePosition != 0 {
		t.Errorf("GET %s: queuePosition %d", target, tree.QueuePosition)
	}
	var w, d, b int
	moves := map[string]bool{}
	for _, m := range tree.Moves {
		w, d, b = w+m.White, d+m.Draws, b+m.Black
		moves[m.UCI] = true
		if (m.Game != nil) != (m.White+m.Draws+m.Black == 1) {
			t.Errorf("GET %s: move %s of %d games has game %v", target, m.UCI, m.White+m.Draws+m.Black, m.Game)
		}
	}
	q, _ := url.ParseQuery(strings.SplitN(target, "?", 2)[1])
	if q.Get("moves") == "" && (w != tree.White || d != tree.Draws || b != tree.Black) {
		t.Errorf("GET %s: the moves add up to %d/%d/%d, the totals are %d/%d/%d", target, w, d, b, tree.White, tree.Draws, tree.Black)
	}
	for _, g := range tree.RecentGames {
		if q.Get("moves") == "" && !moves[g.UCI] {
			t.Errorf("GET %s: recent game %s plays %s, not among the moves", target, g.ID, g.UCI)
		}
	}
	if want := q.Get("recentGames"); want == "0" && len(tree.RecentGames) != 0 || len(tree.RecentGames) > MaxPlayerRecent {
		t.Errorf("GET %s: %d recent games", target, len(tree.RecentGames))
	}
	return &tree
}

// checkAgainstSearch: the tree's totals are the results of the games
// /search finds with the player's color, at the position, within the
// dates, that go on from it.
func checkAgainstSearch(t *testing.T, srv *httptest.Server, target string, tree *PlayerTree, q url.Values) {
	t.Helper()
	s := url.Values{}
	s.Set(q.Get("color"), q.Get("player"))
	for _, p := range []string{"fen", "play", "since", "until"} {
		if q.Get(p) != "" {
			s.Set(p, q.Get(p))
		}
	}
	if s.Get("fen") == "" && s.Get("play") == "" {
		s.Set("fen", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
	}
	s.Set("perPage", fmt.Sprint(MaxPerPage))
	var w, d, b int
	for page := 1; ; page++ {
		s.Set("page", fmt.Sprint(page))
		var res struct {
			Total int `json:"total"`
			Games []struct {
				Result string `json:"result"`
				Plies  int    `json:"plies"`
				Ply    *int   `json:"ply"`
			} `json:"games"`
		}
		getJSON(t, srv, "/search?"+s.Encode(), &res)
		for _, g := range res.Games {
			if g.Ply == nil {
				t.Fatalf("/search?%s: a position search's game has no ply", s.Encode())
			}
			if *g.Ply >= g.Plies {
				continue // ends there: no move from it
			}
			switch g.Result {
			case "1-0":
				w++
			case "0-1":
				b++
			case "1/2-1/2":
				d++
			}
		}
		if page*MaxPerPage >= res.Total {
			break
		}
	}
	if w != tree.White || d != tree.Draws || b != tree.Black {
		t.Errorf("GET %s: %d/%d/%d; /search?%s finds %d/%d/%d", target, tree.White, tree.Draws, tree.Black, s.Encode(), w, d, b)
	}
	if w+d+b == 0 && q.Get("play") == "" && q.Get("since") == "" {
		t.Errorf("GET %s: no games: the check checks nothing", target)
	}
}

// TestPlayerBadParams: /player refuses what it cannot answer, naming the
// parameter.
func TestPlayerBadParams(t *testing.T) {
	srv := httptest.NewServer(NewHandler(championsStore(t)))
	defer srv.Close()
	for target, want := range map[string]string{
		"/player?color=white":                             "player=",
		"/player?player=Tal":                              "color=",
		"/player?player=Tal&color=red":                    "color=red",
		"/player?player=Tal&color=white&recentGames=9":    "recentGames=9",
		"/player?player=Tal&color=white&speeds=fast":      "speeds=fast",
		"/player?player=Tal&color=white&modes=ranked":     "modes=ranked",
		"/player?player=Tal&color=white&since=2020-13":    "since=2020-13",
		"/player?player=Tal&color=white&play=e2e5":        "play",
		"/player?player=Tal&color=white&variant=chess960": "variant=chess960",
		"/player?player=Tal&color=white&topGames=3":       "unknown parameter",
		"/player?player=Tal&player=Fischer&color=white":   "given 2 times",
	} {
		code, body, _ := querytest.Get(t, srv, target)
		var e errorReply
		if code != 400 || json.Unmarshal([]byte(body), &e) != nil || !strings.Contains(e.Error, want) {
			t.Errorf("GET %s: %d %s; want 400 naming %s", target, code, body, want)
		}
	}
	// since after until keeps no game: refused, as /search and /lichess do.
	if code, body, _ := querytest.Get(t, srv, "/player?player=Tal&color=white&since=2021&until=2020"); code != 400 || !strings.Contains(body, "since 2021 is after until 2020") {
		t.Errorf("GET /player since 2021 until 2020: %d %s; want 400", code, body)
	}
}

// searchPage is /search's JSON as a client reads it.
type searchPage struct {
	Total   int `json:"total"`
	Page    int `json:"page"`
	PerPage int `json:"per_page"`
	Games   []struct {
		ID       string `json:"id"`
		White    string `json:"white"`
		Black    string `json:"black"`
		WhiteElo int    `json:"white_elo"`
		BlackElo int    `json:"black_elo"`
		Result   string `json:"result"`
		Date     string `json:"date"`
		ECO      string `json:"eco"`
		Plies    int    `json:"plies"`
	} `json:"games"`
	Suggestions []PlayerName `json:"suggestions"`
}

// TestSearchAnswers checks /search's pages against what they claim: every
// game matches the filters, pages are disjoint and sorted, the PGN form
// holds the page's games, and an unknown name gets suggestions.
func TestSearchAnswers(t *testing.T) {
	srv := httptest.NewServer(NewHandler(championsStore(t)))
	defer srv.Close()
	var all searchPage
	getJSON(t, srv, "/search?perPage=500", &all)
	if all.Total != 500 || len(all.Games) != 500 {
		t.Fatalf("every game: total %d, %d listed; want the 500 games", all.Total, len(all.Games))
	}
	// Sorted by rating, paged: disjoint pages, the mean rating never rising.
	seen := map[string]bool{}
	last := 1 << 30
	var total int
	for page := 1; page <= 3; page++ {
		var p searchPage
		getJSON(t, srv, fmt.Sprintf("/search?player=lasker&sort=rating&perPage=7&page=%d", page), &p)
		if total == 0 {
			total = p.Total
		} else if p.Total != total {
			t.Errorf("page %d: total %d, page 1 said %d", page, p.Total, total)
		}
		if p.Page != page || p.PerPage != 7 || len(p.Games) != 7 {
			t.Fatalf("page %d: %+v", page, p)
		}
		for _, g := range p.Games {
			if seen[g.ID] {
				t.Errorf("page %d: game %s listed twice", page, g.ID)
			}
			seen[g.ID] = true
			if !strings.Contains(strings.ToLower(g.White+g.Black), "lasker") {
				t.Errorf("page %d: %s - %s is not Lasker's", page, g.White, g.Black)
			}
			mean := 0
			if g.WhiteElo > 0 && g.BlackElo > 0 {
				mean = (g.WhiteElo + g.BlackElo) / 2
			}
			if mean > last {
				t.Errorf("page %d: mean rating %d after %d", page, mean, last)
			}
			last = mean
		}
	}
	// Filters hold on every game listed.
	var p searchPage
	getJSON(t, srv, "/search?result=1-0&eco=B20-B99&minPlies=40&sort=plies&perPage=500", &p)
	if p.Total == 0 || p.Total != len(p.Games) {
		t.Fatalf("result, eco, minPlies: total %d, %d listed", p.Total, len(p.Games))
	}
	for i, g := range p.Games {
		if g.Result != "1-0" || g.ECO < "B20" || g.ECO > "B99" || g.Plies < 40 || i > 0 && g.Plies > p.Games[i-1].Plies {
			t.Errorf("result=1-0&eco=B20-B99&minPlies=40&sort=plies: game %d %+v", i, g)
		}
	}
	// The PGN form holds the page's games.
	getJSON(t, srv, "/search?result=1-0&minPlies=40&sort=plies&perPage=10", &p)
	if len(p.Games) != 10 {
		t.Fatalf("result=1-0&minPlies=40: %d games", len(p.Games))
	}
	code, body, ctype := querytest.Get(t, srv, "/search?result=1-0&minPlies=40&sort=plies&perPage=5&page=2&format=pgn")
	if code != 200 || ctype != "application/x-chess-pgn" || strings.Count(body, "[Event ") != 5 {
		t.Fatalf("format=pgn: %d %s, %d games", code, ctype, strings.Count(body, "[Event "))
	}
	for _, g := range p.Games[5:10] {
		if !strings.Contains(body, fmt.Sprintf("[White %q]", g.White)) || !strings.Contains(body, fmt.Sprintf("[Black %q]", g.Black)) {
			t.Errorf("format=pgn: page 2 lacks %s's game %s", g.White, g.ID)
		}
	}
	// An unknown name: no games, the closest names.
	getJSON(t, srv, "/search?white=Laskre", &p)
	if p.Total != 0 || len(p.Games) != 0 || len(p.Suggestions) == 0 || !strings.Contains(p.Suggestions[0].Name, "Lasker") {
		t.Errorf("white=Laskre: %+v", p)
	}
	// Bad parameters are refused, naming them.
	for target, want := range map[string]string{
		"/search?minRating=-1":                  "minRating=-1",
		"/search?minRating=2700&maxRating=2600": "minRating 2700 is above maxRating 2600",
		"/search?result=2-0":                    "result=2-0",
		"/search?eco=Z99":                       "eco=Z99",
		"/search?sort=name":                     "sort=name",
		"/search?page=0":                        "page=0",
		"/search?perPage=501":                   "perPage=501",
		"/search?format=xml":                    "format=xml",
		"/search?since=yesterday":               "since=yesterday",
		"/search?player=%3F":                    "player=",
		"/search?modes=ranked":                  "modes=ranked",
		"/search?moves=e4+e4":                   "moves",
		"/search?name=Tal":                      "unknown parameter",
		"/search?eco=B20&eco=B99":               "given 2 times",
	} {
		code, body, _ := querytest.Get(t, srv, target)
		var e errorReply
		if code != 400 || json.Unmarshal([]byte(body), &e) != nil || !strings.Contains(e.Error, want) {
			t.Errorf("GET %s: %d %s; want 400 naming %s", target, code, body, want)
		}
	}
}

// TestSearchScanPool: every search reads what grows with the store (the
// names' postings, or every summary without a name), and /players the
// whole dictionary, so they wait for the scan pool: with the pool full
// they are answered 503 with Retry-After, while the other routes answer.
func TestSearchScanPool(t *testing.T) {
	s := newServer(championsStore(t), HandlerOptions{Scans: 1})
	srv := httptest.NewServer(s.handler())
	defer srv.Close()
	for range cap(s.scans.tickets) {
		s.scans.tickets <- struct{}{}
	}
	for _, target := range []string{"/search?eco=B20-B99", "/search?player=lasker&eco=C20-C99", "/search?player=a", "/search?event=ch", "/players?name=kas"} {
		resp, err := srv.Client().Get(srv.URL + target)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" {
			t.Errorf("GET %s with the pool full: %d, Retry-After %q", target, resp.StatusCode, resp.Header.Get("Retry-After"))
		}
	}
	for _, target := range []string{"/player?player=Lasker,+Emanuel&color=white", "/lichess"} {
		if code, body, _ := querytest.Get(t, srv, target); code != 200 {
			t.Errorf("GET %s with the pool full: %d %.200s", target, code, body)
		}
	}
	for range cap(s.scans.tickets) {
		<-s.scans.tickets
	}
	for _, target := range []string{"/search?eco=B20-B99", "/search?player=a", "/players?name=kas"} {
		if code, body, _ := querytest.Get(t, srv, target); code != 200 {
			t.Errorf("GET %s with the pool free: %d %.200s", target, code, body)
		}
	}
}
