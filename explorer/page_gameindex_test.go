//go:build oracle

package explorer

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chessbook/chessbook/internal/querytest"
	"github.com/chessbook/chessbook/store"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// The page's player mode and search panel in a real browser (see
// page_test.go). On the champions book, or CHESSBOOK_PAGE_DB's store;
//
//	CHESSBOOK_PAGE_PLAYER=TEXT          the name typed (default lasker)
//	CHESSBOOK_SCREENSHOT_PLAYER=F.png   a screenshot of the player mode
//	CHESSBOOK_SCREENSHOT_SEARCH=F.png   a screenshot of the search panel
//	CHESSBOOK_SCREENSHOT_PHONE=F.png    the player mode on a phone

// screenshot saves the page to the file the environment variable env
// names, if any.
func screenshot(t *testing.T, ctx context.Context, env string) {
	t.Helper()
	path := os.Getenv(env)
	if path == "" {
		return
	}
	var png []byte
	if err := chromedp.Run(ctx, chromedp.Evaluate(`window.scrollTo(0, 0)`, nil), chromedp.FullScreenshot(&png, 100)); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Fatal(err)
	}
}

// playerRowsOf returns a /player answer's moves: UCI and games.
func playerRowsOf(t *testing.T, srv *httptest.Server, q url.Values) map[string]int {
	t.Helper()
	code, body, _ := querytest.Get(t, srv, "/player?"+q.Encode())
	if code != 200 {
		t.Fatalf("/player?%s: %d %s", q.Encode(), code, body)
	}
	var tree PlayerTree
	if err := json.Unmarshal([]byte(body), &tree); err != nil {
		t.Fatal(err)
	}
	out := map[string]int{}
	for _, m := range tree.Moves {
		out[m.UCI] = m.White + m.Draws + m.Black
	}
	return out
}

// waitPlayerRows waits until the player table shows want.
func waitPlayerRows(t *testing.T, ctx context.Context, want map[string]int, what string) {
	t.Helper()
	var got map[string]int
	for i := 0; i < 100; i++ {
		var rows [][]string
		evalJS(t, ctx, `[...document.querySelectorAll("#player-moves tbody tr")].map(tr => [tr.dataset.uci, tr.children[1].textContent])`, &rows)
		got = map[string]int{}
		for _, r := range rows {
			var n int
			fmt.Sscan(strings.ReplaceAll(strings.Fields(r[1])[0], ",", ""), &n)
			got[r[0]] = n
		}
		if len(want) > 0 && fmt.Sprint(got) == fmt.Sprint(want) {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	var page string
	evalJS(t, ctx, `location.search + " | " + document.querySelector("#player-head").textContent + " | " + document.querySelector("#line").textContent`, &page)
	t.Fatalf("%s: the player table shows %v, /player answers %v (the page: %s)", what, got, want, page)
}

// searchIDs returns the ids of a /search page.
func searchIDs(t *testing.T, srv *httptest.Server, q string) []string {
	t.Helper()
	var p searchPage
	getJSON(t, srv, "/search?"+q, &p)
	var ids []string
	for _, g := range p.Games {
		ids = append(ids, g.ID)
	}
	if len(ids) == 0 {
		t.Fatalf("/search?%s: no games", q)
	}
	return ids
}

// waitSearchIDs waits until the search list shows the games of want.
func waitSearchIDs(t *testing.T, ctx context.Context, want []string, what string) {
	t.Helper()
	var got []string
	for i := 0; i < 100; i++ {
		evalJS(t, ctx, `[...document.querySelectorAll("#search-list li[data-id]")].map(li => li.dataset.id)`, &got)
		if fmt.Sprint(got) == fmt.Sprint(want) {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("%s: the search list shows %v, /search answers %v", what, got, want)
}

// TestPagePlayerAndSearch: the player mode and the search panel ask nothing
// until opened; a name typed completes from the store, picking it shows
// its tree (the table equals /player's answer), the color switch and a
// move played follow, a recent game opens in the viewer; a search lists
// /search's page, pages, sorts, and opens a game.
func TestPagePlayerAndSearch(t *testing.T) {
	ctx := browser(t)
	var st *store.Store
	if dir := os.Getenv("CHESSBOOK_PAGE_DB"); dir != "" {
		st = openStore(t, dir)
	} else {
		st = championsStore(t)
	}
	srv := httptest.NewServer(NewHandler(st))
	defer srv.Close()
	typed := os.Getenv("CHESSBOOK_PAGE_PLAYER")
	if typed == "" {
		typed = "lasker"
	}

	if err := chromedp.Run(ctx, chromedp.Navigate(srv.URL+"/?play=e2e4,e7e5"), chromedp.WaitVisible("#moves tbody tr", chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	waitRows(t, ctx, storeRows(t, st, "e2e4", "e7e5"), "1.e4 e5")
	var asked []string
	evalJS(t, ctx, `performance.getEntriesByType("resource").map(e => new URL(e.name).pathname).filter(p => !p.startsWith("/static/"))`, &asked)
	for _, p := range asked {
		if p != "/moves" && p != "/polyglot" {
			t.Errorf("the first paint asked %s: want /moves (and /polyglot) alone", p)
		}
	}

	// The player mode: type, pick the completion, see /player's tree.
	if err := chromedp.Run(ctx,
		chromedp.Click("#mode-player", chromedp.ByQuery),
		chromedp.WaitVisible("#player-name", chromedp.ByQuery),
		chromedp.SendKeys("#player-name", typed, chromedp.ByQuery),
		chromedp.WaitVisible("#player-complete li", chromedp.ByQuery),
	); err != nil {
		t.Fatal(err)
	}
	var name string
	evalJS(t, ctx, `document.querySelector("#player-complete li").dataset.name`, &name)
	var ps Players
	getJSON(t, srv, "/players?name="+url.QueryEscape(typed)+"&limit=8", &ps)
	if len(ps.Players) == 0 || ps.Players[0].Name != name {
		t.Fatalf("the completion offers %q first; /players answers %+v", name, ps.Players)
	}
	if err := chromedp.Run(ctx, chromedp.Click("#player-complete li", chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	q := url.Values{"player": {name}, "color": {"white"}, "play": {"e2e4,e7e5"}}
	waitPlayerRows(t, ctx, playerRowsOf(t, srv, q), name+" with white after 1.e4 e5")
	var moves bool
	evalJS(t, ctx, `getComputedStyle(document.querySelector("#moves")).display === "none"`, &moves)
	if !moves {
		t.Error("the player mode shows the store's moves table too")
	}
	q.Set("color", "black")
	if err := chromedp.Run(ctx, chromedp.Click("#player-black", chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	waitPlayerRows(t, ctx, playerRowsOf(t, srv, q), name+" with black after 1.e4 e5")
	var href string
	if err := chromedp.Run(ctx, chromedp.Location(&href)); err != nil {
		t.Fatal(err)
	}
	if u, _ := url.Parse(href); u.Query().Get("mode") != "player" || u.Query().Get("player") != name || u.Query().Get("color") != "black" {
		t.Errorf("the URL %s does not hold the player mode", href)
	}
	// A move of the player's table plays it on the board: its first row
	// chosen with the down key and played with Enter, as in the explorer.
	var first string
	evalJS(t, ctx, `document.querySelector("#player-moves tbody tr").dataset.uci`, &first)
	if err := chromedp.Run(ctx, chromedp.Evaluate(`document.activeElement.blur()`, nil), chromedp.KeyEvent(kb.ArrowDown), chromedp.KeyEvent(kb.Enter)); err != nil {
		t.Fatal(err)
	}
	q.Set("play", "e2e4,e7e5,"+first)
	want := playerRowsOf(t, srv, q)
	if len(want) == 0 {
		q.Set("play", "e2e4,e7e5")
		want = playerRowsOf(t, srv, q)
		if err := chromedp.Run(ctx, chromedp.Click("#back", chromedp.ByQuery)); err != nil {
			t.Fatal(err)
		}
	}
	waitPlayerRows(t, ctx, want, name+" with black after "+q.Get("play"))
	// The page's URL reopens the player mode as it was.
	if err := chromedp.Run(ctx, chromedp.Location(&href), chromedp.Reload()); err != nil {
		t.Fatal(err)
	}
	waitPlayerRows(t, ctx, want, "the link "+href)
	screenshot(t, ctx, "CHESSBOOK_SCREENSHOT_PLAYER")
	// A recent game opens in the viewer.
	var id string
	evalJS(t, ctx, `document.querySelector("#player-recent li[data-id]").dataset.id`, &id)
	if err := chromedp.Run(ctx, chromedp.Click("#player-recent li[data-id]", chromedp.ByQuery), chromedp.WaitVisible("#game", chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	waitJS(t, ctx, `new URLSearchParams(location.search).get("game") === `+jsString(id), "a recent game opened")

	// The search panel: a player's games by rating, paged, sorted, opened.
	if err := chromedp.Run(ctx,
		chromedp.Click("#game-close", chromedp.ByQuery),
		chromedp.Click("#mode-search", chromedp.ByQuery),
		chromedp.WaitVisible("#search-form", chromedp.ByQuery),
		chromedp.SendKeys(`#search-form input[name=player]`, typed, chromedp.ByQuery),
		chromedp.SetValue(`#search-form select[name=sort]`, "rating", chromedp.ByQuery),
		chromedp.Click(`#search-form button[type=submit]`, chromedp.ByQuery),
	); err != nil {
		t.Fatal(err)
	}
	base := "player=" + url.QueryEscape(typed) + "&perPage=20"
	waitSearchIDs(t, ctx, searchIDs(t, srv, base+"&sort=rating&page=1"), "a search by rating")
	if err := chromedp.Run(ctx, chromedp.Click("#search-next", chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	waitSearchIDs(t, ctx, searchIDs(t, srv, base+"&sort=rating&page=2"), "its page 2")
	evalJS(t, ctx, `(() => { const s = document.querySelector("#search-form select[name=sort]"); s.value = "plies"; s.dispatchEvent(new Event("change")); return true })()`, new(bool))
	ids := searchIDs(t, srv, base+"&sort=plies&page=1")
	waitSearchIDs(t, ctx, ids, "sorted by plies")
	var where string
	evalJS(t, ctx, `document.querySelector("#search-where").textContent`, &where)
	if !strings.Contains(where, "page 1 of") {
		t.Errorf("the search says %q", where)
	}
	screenshot(t, ctx, "CHESSBOOK_SCREENSHOT_SEARCH")
	if err := chromedp.Run(ctx, chromedp.Click("#search-list li[data-id]", chromedp.ByQuery), chromedp.WaitVisible("#game", chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	waitJS(t, ctx, `new URLSearchParams(location.search).get("game") === `+jsString(ids[0]), "a found game opened")
	var title string
	evalJS(t, ctx, `document.querySelector("#game-title").textContent`, &title)
	if title == "" || strings.HasPrefix(title, "game ") {
		t.Errorf("the opened game's title is %q", title)
	}

	// On a phone neither panel is wider than the screen.
	if err := chromedp.Run(ctx, chromedp.EmulateViewport(390, 844)); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = chromedp.Run(ctx, chromedp.EmulateViewport(1280, 1000)) }()
	for _, mode := range []string{"search", "player"} {
		if err := chromedp.Run(ctx, chromedp.Click("#mode-"+mode, chromedp.ByQuery)); err != nil {
			t.Fatal(err)
		}
		var w []float64
		evalJS(t, ctx, `[document.documentElement.scrollWidth, document.documentElement.clientWidth]`, &w)
		if w[0] > w[1] {
			t.Errorf("on a phone the %s panel makes the page %.0f px wide for a %.0f px screen", mode, w[0], w[1])
		}
	}
	screenshot(t, ctx, "CHESSBOOK_SCREENSHOT_PHONE")
}

// jsString returns s as a JavaScript string literal.
func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
