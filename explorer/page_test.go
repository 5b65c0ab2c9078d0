//go:build oracle

package explorer

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/filter"
	"github.com/chessbook/chessbook/internal/querytest"
	"github.com/chessbook/chessbook/internal/testutil"
	"github.com/chessbook/chessbook/polyglot"
	"github.com/chessbook/chessbook/store"
	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// The explorer page in a real browser: headless Chromium (Debian's
// chromium package) driven by chromedp: an oracle test (-tags oracle),
// which fails where no Chromium is installed.
//
//	CHESSBOOK_PAGE_DB=DIR        run it on the store in DIR (the large
//	                             store, say) instead of the champions book
//	CHESSBOOK_SCREENSHOT=F.png   save a screenshot of the page after 1.e4 c5

// chromium returns the path of a Chromium binary, failing the test if none
// (or with CHESSBOOK_NO_TOOLS=1, see testutil.NeedTool).
func chromium(t *testing.T) string {
	for _, name := range []string{"chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil && os.Getenv(testutil.NoToolsEnv) != "1" {
			return p
		}
	}
	return testutil.NeedTool(t, "chromium", "apt-get install chromium: the page is not tested in a browser")
}

// browser starts a headless Chromium for the test and returns its context.
func browser(t *testing.T) context.Context {
	// Not t.TempDir: Chromium may still write to its profile while the
	// test's directories are removed.
	profile, err := os.MkdirTemp("", "chessbook-chromium-")
	if err != nil {
		t.Fatal(err)
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromium(t)),
		chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true), // small /dev/shm in containers
		chromedp.UserDataDir(profile),
		chromedp.WindowSize(1280, 1000),
	)
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelCtx := chromedp.NewContext(actx)
	ctx, cancelTimeout := context.WithTimeout(ctx, 90*time.Second)
	t.Cleanup(func() {
		_ = chromedp.Cancel(ctx) // closes the browser and waits for it
		cancelTimeout()
		cancelCtx()
		cancelAlloc()
		_ = os.RemoveAll(profile)
	})
	return ctx
}

// pageRows returns the moves table's rows: UCI and games.
func pageRows(t *testing.T, ctx context.Context) map[string]uint64 {
	t.Helper()
	var rows [][]string
	js := `[...document.querySelectorAll("#moves tbody tr")].map(tr => [tr.dataset.uci, tr.children[1].textContent])`
	if err := chromedp.Run(ctx, chromedp.Evaluate(js, &rows)); err != nil {
		t.Fatal(err)
	}
	out := map[string]uint64{}
	for _, r := range rows {
		n, err := strconv.ParseUint(strings.ReplaceAll(strings.Fields(r[1])[0], ",", ""), 10, 64)
		if err != nil {
			t.Fatalf("row %q: %v", r, err)
		}
		out[r[0]] = n
	}
	return out
}

// storeRows returns what the store says of the position after the UCI
// moves: games by move.
func storeRows(t *testing.T, st *store.Store, uci ...string) map[string]uint64 {
	t.Helper()
	line, err := ParseLine(board.StartPosition(), strings.Join(uci, " "), LineOptions{Notation: Movetext})
	if err != nil {
		t.Fatal(err)
	}
	m, err := New(st).Moves(line, NewQuery())
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]uint64{}
	for _, mv := range m.Moves {
		out[mv.UCI] = mv.Games
	}
	return out
}

// waitRows waits until the moves table shows want.
func waitRows(t *testing.T, ctx context.Context, want map[string]uint64, what string) {
	t.Helper()
	var got map[string]uint64
	for i := 0; i < 100; i++ {
		got = pageRows(t, ctx)
		if fmt.Sprint(got) == fmt.Sprint(want) {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("%s: the page shows %v, the store has %v", what, got, want)
}

// watchCSP makes every document of the browser record the violations of
// its Content-Security-Policy in window.cspViolations.
func watchCSP(t *testing.T, ctx context.Context) {
	js := `window.cspViolations = []; document.addEventListener("securitypolicyviolation", e => window.cspViolations.push(e.violatedDirective + " blocked " + (e.blockedURI || "inline") + " at " + e.sourceFile + ":" + e.lineNumber))`
	if err := chromedp.Run(ctx, chromedp.ActionFunc(func(ctx context.Context) error {
		_, err := page.AddScriptToEvaluateOnNewDocument(js).Do(ctx)
		return err
	})); err != nil {
		t.Fatal(err)
	}
}

// cspViolations returns the violations of the Content-Security-Policy that
// the page recorded, and forgets them.
func cspViolations(t *testing.T, ctx context.Context) []string {
	t.Helper()
	var v []string
	if err := chromedp.Run(ctx, chromedp.Evaluate(`(() => { const v = window.cspViolations || ["no watch"]; window.cspViolations = []; return v })()`, &v)); err != nil {
		t.Fatal(err)
	}
	return v
}

func TestPage(t *testing.T) {
	ctx := browser(t)
	watchCSP(t, ctx)
	var st *store.Store
	if dir := os.Getenv("CHESSBOOK_PAGE_DB"); dir != "" {
		st = openStore(t, dir)
	} else {
		st = championsStore(t)
	}
	var opts HandlerOptions
	if b, err := polyglot.OpenBook(testutil.SharedFile(t, filepath.Join("books", "scid_gm2600.bin"))); err == nil {
		opts.Book, opts.BookName = b, "scid_gm2600.bin"
	}
	srv := httptest.NewServer(NewHandlerWith(st, opts))
	defer srv.Close()

	// The page loads with the start position and the store's counts.
	var firstPaint float64
	start := time.Now()
	if err := chromedp.Run(ctx,
		chromedp.Navigate(srv.URL+"/"),
		chromedp.WaitVisible("#moves tbody tr", chromedp.ByQuery),
		chromedp.Poll(`window.chessbookFirstPaint`, &firstPaint),
	); err != nil {
		t.Fatal(err)
	}
	t.Logf("first paint (the moves table drawn): %.0f ms after navigation start (%v in all, with the browser's start)", firstPaint, time.Since(start).Round(time.Millisecond))
	if err := chromedp.Run(ctx,
		chromedp.Reload(),
		chromedp.WaitVisible("#moves tbody tr", chromedp.ByQuery),
		chromedp.Poll(`window.chessbookFirstPaint`, &firstPaint),
	); err != nil {
		t.Fatal(err)
	}
	t.Logf("first paint on a reload: %.0f ms", firstPaint)
	waitRows(t, ctx, storeRows(t, st), "start position")
	// The page runs under its Content-Security-Policy: nothing of it is
	// blocked (its inline script included), and what the policy forbids is.
	if v := cspViolations(t, ctx); len(v) > 0 {
		t.Errorf("the page broke its Content-Security-Policy: %q", v)
	}
	var ran bool
	if err := chromedp.Run(ctx, chromedp.Evaluate(`(() => { const s = document.createElement("script"); s.textContent = "window.injected = true"; document.head.appendChild(s); return !!window.injected })()`, &ran)); err != nil {
		t.Fatal(err)
	}
	if v := cspViolations(t, ctx); ran || len(v) != 1 || !strings.HasPrefix(v[0], "script-src") {
		t.Errorf("an injected inline script: ran %v, violations %q; want it blocked, one script-src violation", ran, v)
	}

	// Playing e2e4 on the board (click e2, click e4) shows 1.e4's moves.
	var box []float64
	if err := chromedp.Run(ctx, chromedp.Evaluate(`(() => { const r = document.querySelector("#board svg").getBoundingClientRect(); return [r.left, r.top, r.width] })()`, &box)); err != nil {
		t.Fatal(err)
	}
	square := func(sq string) (float64, float64) {
		size := box[2] / 8
		file, rank := float64(sq[0]-'a'), float64(sq[1]-'1')
		return box[0] + (file+0.5)*size, box[1] + (7-rank+0.5)*size
	}
	for _, sq := range []string{"e2", "e4"} {
		x, y := square(sq)
		if err := chromedp.Run(ctx, chromedp.MouseClickXY(x, y)); err != nil {
			t.Fatal(err)
		}
		time.Sleep(100 * time.Millisecond)
	}
	waitRows(t, ctx, storeRows(t, st, "e2e4"), "after 1.e4 on the board")

	// Clicking a move in the table plays it; the URL holds the line and
	// the position's key, and reopens it.
	if err := chromedp.Run(ctx, chromedp.Click(`#moves tbody tr[data-uci="c7c5"]`, chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	want := storeRows(t, st, "e2e4", "c7c5")
	waitRows(t, ctx, want, "after 1.e4 c5")
	var href, opening string
	for i := 0; i < 50 && !strings.Contains(href, "pos="); i++ {
		time.Sleep(50 * time.Millisecond)
		if err := chromedp.Run(ctx, chromedp.Location(&href), chromedp.Text("#opening", &opening, chromedp.ByQuery)); err != nil {
			t.Fatal(err)
		}
	}
	u, err := url.Parse(href)
	if err != nil {
		t.Fatal(err)
	}
	if u.Query().Get("play") != "e2e4,c7c5" || u.Query().Get("pos") == "" || !strings.Contains(opening, "Sicilian Defense") {
		t.Errorf("after 1.e4 c5: URL %s, opening %q", href, opening)
	}
	if path := os.Getenv("CHESSBOOK_SCREENSHOT"); path != "" {
		var png []byte
		if err := chromedp.Run(ctx, chromedp.FullScreenshot(&png, 100)); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// The position's key alone reopens the position.
	if err := chromedp.Run(ctx, chromedp.Navigate(srv.URL+"/?pos="+u.Query().Get("pos"))); err != nil {
		t.Fatal(err)
	}
	waitRows(t, ctx, want, "the link ?pos=KEY")
	// So does the whole URL, and back goes to the position before.
	if err := chromedp.Run(ctx, chromedp.Navigate(href)); err != nil {
		t.Fatal(err)
	}
	waitRows(t, ctx, want, "the link "+href)
	if err := chromedp.Run(ctx, chromedp.KeyEvent(kb.ArrowLeft)); err != nil {
		t.Fatal(err)
	}
	waitRows(t, ctx, storeRows(t, st, "e2e4"), "arrow left")
	if err := chromedp.Run(ctx, chromedp.NavigateBack()); err != nil {
		t.Fatal(err)
	}
	waitRows(t, ctx, want, "back")

	// The game viewer keeps the board in view and drives the explorer.
	pageGameViewer(t, ctx, srv.URL, st)

	// A bad FEN shows an error naming the reason, not the FEN again, and
	// keeps the position.
	var errText string
	if err := chromedp.Run(ctx,
		chromedp.SetValue("#fen", "nonsense", chromedp.ByQuery),
		chromedp.Click("#fen-form button", chromedp.ByQuery),
		chromedp.WaitVisible("#error", chromedp.ByQuery),
		chromedp.Text("#error", &errText, chromedp.ByQuery),
	); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(errText, "FEN cannot be read") || !strings.Contains(errText, "fields") || strings.Contains(errText, "nonsense") {
		t.Errorf("a bad FEN shows %q: want the reason (its fields) without the FEN", errText)
	}
	waitRows(t, ctx, want, "after a bad FEN")

	pageShares(t, ctx, srv.URL, st)
	pagePaging(t, ctx, srv.URL, st)
	pagePromotion(t, ctx, srv.URL)
	pageHoverAndKeys(t, ctx, srv.URL, st)
	pageFiltered(t, ctx, srv.URL, st)
	pageUnavailableFilters(t, ctx, srv.URL, st)
	pageNarrow(t, ctx, srv.URL, st)
	if v := cspViolations(t, ctx); len(v) > 0 {
		t.Errorf("the page broke its Content-Security-Policy: %q", v)
	}
}

// evalJS evaluates expr in the page into out.
func evalJS(t *testing.T, ctx context.Context, expr string, out any) {
	t.Helper()
	if err := chromedp.Run(ctx, chromedp.Evaluate(expr, out)); err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
}

// waitJS waits until expr is true in the page.
func waitJS(t *testing.T, ctx context.Context, expr, what string) {
	t.Helper()
	var ok bool
	for i := 0; i < 200; i++ {
		evalJS(t, ctx, "Boolean("+expr+")", &ok)
		if ok {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	var page string
	evalJS(t, ctx, `location.search + " error: " + document.querySelector("#error").textContent + " rows: " + document.querySelectorAll("#moves tbody tr").length`, &page)
	t.Fatalf("%s: %s is still false (the page: %s)", what, expr, page)
}

// clickSelector clicks the centre of the element of a CSS selector with
// the mouse (chromedp.Click scrolls it into view first; this does not).
func clickSelector(t *testing.T, ctx context.Context, sel string) {
	t.Helper()
	var r []float64
	evalJS(t, ctx, `(() => { const r = document.querySelector(`+strconv.Quote(sel)+`).getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2] })()`, &r)
	if err := chromedp.Run(ctx, chromedp.MouseClickXY(r[0], r[1])); err != nil {
		t.Fatal(err)
	}
}

// boardInView fails the test unless the whole board is inside the viewport.
func boardInView(t *testing.T, ctx context.Context, what string) {
	t.Helper()
	var r []float64
	evalJS(t, ctx, `(() => { const r = document.querySelector("#board").getBoundingClientRect(); return [r.top, r.bottom, r.left, r.right, innerHeight, innerWidth] })()`, &r)
	if r[0] < -1 || r[1] > r[4]+1 || r[2] < -1 || r[3] > r[5]+1 {
		t.Errorf("%s: the board is at top %.0f bottom %.0f left %.0f right %.0f of a %.0fx%.0f viewport: not in view", what, r[0], r[1], r[2], r[3], r[5], r[4])
	}
}

// lineAfter plays the SAN moves from the start position and returns the
// position reached.
func lineAfter(t *testing.T, moves []string) board.Position {
	t.Helper()
	line, err := ParseLine(board.StartPosition(), strings.Join(moves, " "), LineOptions{Notation: Movetext})
	if err != nil {
		t.Fatal(err)
	}
	return line[len(line)-1]
}

// gameJSON reads a game from the server the page uses.
func gameJSON(t *testing.T, base, id string) Game {
	t.Helper()
	resp, err := http.Get(base + "/game/" + id)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var g Game
	if err := json.NewDecoder(resp.Body).Decode(&g); err != nil {
		t.Fatal(err)
	}
	return g
}

// pageGameViewer opens a top game at 1.e4 c5 and steps through it: the
// board stays in view, and the moves table, the FEN box and the URL follow
// the game's position; Escape goes back to the line.
func pageGameViewer(t *testing.T, ctx context.Context, base string, st *store.Store) {
	var id, title, current string
	if err := chromedp.Run(ctx,
		chromedp.AttributeValue("#top-games li[data-id]", "data-id", &id, nil, chromedp.ByQuery),
		chromedp.Click("#top-games li[data-id]", chromedp.ByQuery), // scrolls the list into view
		chromedp.WaitVisible("#game", chromedp.ByQuery),
		chromedp.Text("#game-title", &title, chromedp.ByQuery),
		chromedp.AttributeValue("#line .current", "data-ply", &current, nil, chromedp.ByQuery),
	); err != nil {
		t.Fatal(err)
	}
	if current != "2" || title == "" {
		t.Errorf("the top game %q opens at ply %s, want 2", title, current)
	}
	boardInView(t, ctx, "a top game opened")
	var eventTag string
	evalJS(t, ctx, `[...document.querySelectorAll("#game-tags tr")].filter(tr => tr.children[0].textContent === "Event").map(tr => tr.children[1].textContent).join("")`, &eventTag)
	if eventTag == "" {
		t.Error("the open game's tags show no Event")
	}
	var download string
	if err := chromedp.Run(ctx, chromedp.AttributeValue("#game-download", "href", &download, nil, chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(download, id) || !strings.Contains(download, "format=pgn") {
		t.Errorf("download link %q for game %s", download, id)
	}

	g := gameJSON(t, base, id)
	const steps = 4
	if len(g.Moves) < 2+steps {
		t.Fatalf("game %s has %d moves", id, len(g.Moves))
	}
	for i := 0; i < steps; i++ {
		if err := chromedp.Run(ctx, chromedp.KeyEvent(kb.ArrowRight)); err != nil {
			t.Fatal(err)
		}
	}
	plies := g.Moves[:2+steps]
	p := lineAfter(t, plies)
	waitJS(t, ctx, `document.querySelector("#moves").dataset.fen === `+strconv.Quote(p.FEN()), "the moves table after "+strings.Join(plies, " "))
	waitRows(t, ctx, storeRows(t, st, plies...), "the moves table following game "+id)
	var fen, href string
	if err := chromedp.Run(ctx,
		chromedp.AttributeValue("#line .current", "data-ply", &current, nil, chromedp.ByQuery),
		chromedp.Value("#fen", &fen, chromedp.ByQuery),
		chromedp.Location(&href),
	); err != nil {
		t.Fatal(err)
	}
	if current != strconv.Itoa(2+steps) {
		t.Errorf("after %d steps in the game: ply %s, want %d", steps, current, 2+steps)
	}
	if strings.Join(strings.Fields(fen)[:2], " ") != strings.Join(strings.Fields(p.FEN())[:2], " ") {
		t.Errorf("the FEN box shows %q, the game is at %q", fen, p.FEN())
	}
	if u, err := url.Parse(href); err != nil || u.Query().Get("game") != id || u.Query().Get("ply") != strconv.Itoa(2+steps) {
		t.Errorf("the URL %s does not hold game %s at ply %d", href, id, 2+steps)
	}
	boardInView(t, ctx, "after stepping through the game")
	// The PGN box holds the game's line.
	var pgnText string
	if err := chromedp.Run(ctx, chromedp.Value("#pgn", &pgnText, chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(pgnText, "1. "+g.Moves[0]+" "+g.Moves[1]+" 2. "+g.Moves[2]) || !strings.Contains(pgnText, `[Event "`) {
		t.Errorf("the PGN box of the game: %q", pgnText)
	}
	// Escape closes the game and goes back to the line from before.
	if err := chromedp.Run(ctx, chromedp.KeyEvent(kb.Escape)); err != nil {
		t.Fatal(err)
	}
	waitJS(t, ctx, `document.querySelector("#game").hidden`, "escape closes the game")
	waitRows(t, ctx, storeRows(t, st, "e2e4", "c7c5"), "back to the line after closing the game")
}

// wantShare is how the page writes n games of total: whole percents from
// 1 to 99, one decimal below and above, never 0% for a move played.
func wantShare(n, total uint64) string {
	p := 100 * float64(n) / float64(total)
	switch {
	case n == total:
		return "100%"
	case n > 0 && p < 0.1:
		return "<0.1%"
	case p > 99.9:
		return ">99.9%"
	case p < 1 || p > 99:
		return fmt.Sprintf("%.1f%%", p)
	}
	return fmt.Sprintf("%.0f%%", p)
}

// pageShares checks the shares of the start position's moves.
func pageShares(t *testing.T, ctx context.Context, base string, st *store.Store) {
	if err := chromedp.Run(ctx, chromedp.Navigate(base+"/")); err != nil {
		t.Fatal(err)
	}
	m, err := New(st).Moves([]board.Position{board.StartPosition()}, NewQuery())
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]uint64{}
	for _, mv := range m.Moves {
		want[mv.UCI] = mv.Games
	}
	waitRows(t, ctx, want, "start position")
	total := m.White + m.Draws + m.Black + m.Unknown
	var shares map[string]string
	evalJS(t, ctx, `Object.fromEntries([...document.querySelectorAll("#moves tbody tr")].map(tr => [tr.dataset.uci, tr.querySelector(".share").textContent]))`, &shares)
	small := 0
	for _, mv := range m.Moves {
		w := " (" + wantShare(mv.Games, total) + ")"
		if shares[mv.UCI] != w {
			t.Errorf("%s: %d of %d games shows %q, want %q", mv.SAN, mv.Games, total, shares[mv.UCI], w)
		}
		if strings.Contains(shares[mv.UCI], "(0%)") || strings.Contains(shares[mv.UCI], "(0.0%)") {
			t.Errorf("%s, played in %d games, shows %q", mv.SAN, mv.Games, shares[mv.UCI])
		}
		if 100*mv.Games < total {
			small++
		}
	}
	if small == 0 {
		t.Error("no move of the start position has under 1% of the games: the shares below 1% are not tested")
	}
}

// pagePaging asks for more top and recent games, then pages through every
// game of the start position.
func pagePaging(t *testing.T, ctx context.Context, base string, st *store.Store) {
	x := New(st)
	q := NewQuery()
	q.TopGames, q.RecentGames = MaxGames, MaxGames
	more, err := x.Games(board.StartPosition(), q)
	if err != nil {
		t.Fatal(err)
	}
	if len(more.TopGames) <= DefaultGames {
		t.Fatalf("the start position has %d top games: no more to page to", len(more.TopGames))
	}
	ids := func(gs []GameRef) []string {
		out := []string{}
		for _, g := range gs {
			out = append(out, g.ID)
		}
		return out
	}
	listed := func(sel string) string {
		var got []string
		evalJS(t, ctx, `[...document.querySelectorAll(`+strconv.Quote(sel+" li[data-id]")+`)].map(li => li.dataset.id)`, &got)
		return fmt.Sprint(got)
	}
	var n int
	evalJS(t, ctx, `document.querySelectorAll("#top-games li[data-id]").length`, &n)
	if n != DefaultGames {
		t.Errorf("the start position lists %d top games, want %d", n, DefaultGames)
	}
	if err := chromedp.Run(ctx, chromedp.Click("#games-more", chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	waitJS(t, ctx, `document.querySelectorAll("#top-games li[data-id]").length === `+strconv.Itoa(len(more.TopGames)), "more top games")
	if got, want := listed("#top-games"), fmt.Sprint(ids(more.TopGames)); got != want {
		t.Errorf("more top games: the page lists %s, the store %s", got, want)
	}
	if got, want := listed("#recent-games"), fmt.Sprint(ids(more.RecentGames)); got != want {
		t.Errorf("more recent games: the page lists %s, the store %s", got, want)
	}
	// Every game through the position, a page at a time.
	if err := chromedp.Run(ctx, chromedp.Click("#all-games-open", chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	for page := 1; page <= 2; page++ {
		gp, err := x.GamesPage(context.Background(), board.StartPosition(), q.Sel, page, 20, nil)
		if err != nil {
			t.Fatal(err)
		}
		want := fmt.Sprint(ids(gp.Games))
		for i := 0; i < 200 && listed("#all-games-list") != want; i++ {
			time.Sleep(50 * time.Millisecond)
		}
		if got := listed("#all-games-list"); got != want || len(gp.Games) == 0 {
			t.Fatalf("page %d of every game: the page lists %s, the store %s", page, got, want)
		}
		var where string
		evalJS(t, ctx, `document.querySelector("#all-games-where").textContent`, &where)
		if first := (page-1)*20 + 1; !strings.Contains(where, fmt.Sprintf("page %d, games %d–%d", page, first, first+len(gp.Games)-1)) {
			t.Errorf("page %d of every game is headed %q", page, where)
		}
		if page == 1 {
			if !gp.More {
				t.Fatal("the start position has one page of games")
			}
			if err := chromedp.Run(ctx, chromedp.Click("#all-games-next", chromedp.ByQuery)); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// pagePromotion promotes a pawn to a knight with the board's dialog.
func pagePromotion(t *testing.T, ctx context.Context, base string) {
	const fen = "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1"
	if err := chromedp.Run(ctx, chromedp.Navigate(base+"/?fen="+url.QueryEscape(fen))); err != nil {
		t.Fatal(err)
	}
	waitJS(t, ctx, `document.querySelector("#moves").dataset.fen === `+strconv.Quote(fen), "the promotion position")
	var box []float64
	evalJS(t, ctx, `(() => { const r = document.querySelector("#board svg").getBoundingClientRect(); return [r.left, r.top, r.width] })()`, &box)
	for _, sq := range []string{"b7", "b8"} {
		size := box[2] / 8
		x, y := box[0]+(float64(sq[0]-'a')+0.5)*size, box[1]+(7-float64(sq[1]-'1')+0.5)*size
		if err := chromedp.Run(ctx, chromedp.MouseClickXY(x, y)); err != nil {
			t.Fatal(err)
		}
		time.Sleep(100 * time.Millisecond)
	}
	waitJS(t, ctx, `document.querySelector(".promotion-dialog-button[data-piece=wn]")`, "the promotion dialog")
	clickSelector(t, ctx, ".promotion-dialog-button[data-piece=wn]")
	waitJS(t, ctx, `document.querySelector("#line .current") && document.querySelector("#line .current").textContent === "b8=N"`, "b8=N in the line")
	var got, href string
	if err := chromedp.Run(ctx, chromedp.Value("#fen", &got, chromedp.ByQuery), chromedp.Location(&href)); err != nil {
		t.Fatal(err)
	}
	if got != "1N2k3/8/8/8/8/8/8/4K3 b - - 0 1" || !strings.Contains(href, "play=b7b8n") {
		t.Errorf("after b8=N: FEN %q, URL %s", got, href)
	}
}

// pageHoverAndKeys checks a move's arrow on hover, the keys' help and the
// up, down and enter keys of the moves table, and the copy button.
func pageHoverAndKeys(t *testing.T, ctx context.Context, base string, st *store.Store) {
	if err := chromedp.Run(ctx, chromedp.Navigate(base+"/?play=e2e4")); err != nil {
		t.Fatal(err)
	}
	waitRows(t, ctx, storeRows(t, st, "e2e4"), "1.e4")
	var first string
	evalJS(t, ctx, `document.querySelector("#moves tbody tr").dataset.uci`, &first)
	var r []float64
	evalJS(t, ctx, `(() => { const r = document.querySelector("#moves tbody tr").getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2] })()`, &r)
	if err := chromedp.Run(ctx, chromedp.MouseEvent("mouseMoved", r[0], r[1])); err != nil {
		t.Fatal(err)
	}
	waitJS(t, ctx, `document.querySelector(`+strconv.Quote(`#board .arrows [data-arrow="`+first[:4]+`"]`)+`)`, "the arrow of "+first+" on hover")
	if err := chromedp.Run(ctx, chromedp.MouseEvent("mouseMoved", 1, 1)); err != nil {
		t.Fatal(err)
	}
	waitJS(t, ctx, `!document.querySelector("#board .arrows [data-arrow]")`, "no arrow once the mouse leaves")

	// ? shows the keys; they are what the page handles.
	if err := chromedp.Run(ctx, chromedp.KeyEvent("?")); err != nil {
		t.Fatal(err)
	}
	waitJS(t, ctx, `!document.querySelector("#help").hidden`, "? shows the help")
	var help string
	evalJS(t, ctx, `document.querySelector("#help-keys").textContent`, &help)
	for _, k := range []string{"←", "→", "Home", "End", "flip", "Esc", "copy", "Enter"} {
		if !strings.Contains(help, k) {
			t.Errorf("the keys' help does not name %q: %q", k, help)
		}
	}
	if err := chromedp.Run(ctx, chromedp.KeyEvent(kb.Escape)); err != nil {
		t.Fatal(err)
	}
	waitJS(t, ctx, `document.querySelector("#help").hidden`, "escape hides the help")

	// Down twice and Enter play the table's second move.
	var second string
	evalJS(t, ctx, `document.querySelectorAll("#moves tbody tr")[1].dataset.uci`, &second)
	if err := chromedp.Run(ctx, chromedp.KeyEvent(kb.ArrowDown), chromedp.KeyEvent(kb.ArrowDown)); err != nil {
		t.Fatal(err)
	}
	waitJS(t, ctx, `document.querySelector(`+strconv.Quote(`#board .arrows [data-arrow="`+second[:4]+`"]`)+`)`, "the arrow of the move chosen with the down key")
	if err := chromedp.Run(ctx, chromedp.KeyEvent(kb.Enter)); err != nil {
		t.Fatal(err)
	}
	waitRows(t, ctx, storeRows(t, st, "e2e4", second), "enter plays the move chosen")

	// The PGN box shows the line, and copy puts it on the clipboard.
	var pgnText string
	if err := chromedp.Run(ctx, chromedp.Value("#pgn", &pgnText, chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	san := map[string]string{}
	evalJS(t, ctx, `Object.fromEntries([...document.querySelectorAll("#line .san")].map(s => [s.dataset.ply, s.textContent]))`, &san)
	if want := "1. e4 " + san["2"] + " *"; pgnText != want || san["1"] != "e4" {
		t.Errorf("the PGN box shows %q, want %q", pgnText, want)
	}
	if err := chromedp.Run(ctx, cdpbrowser.GrantPermissions([]cdpbrowser.PermissionType{cdpbrowser.PermissionTypeClipboardReadWrite, cdpbrowser.PermissionTypeClipboardSanitizedWrite}).WithOrigin(base)); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Run(ctx, chromedp.Click("#pgn-copy", chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	waitJS(t, ctx, `document.querySelector("#pgn-copied").textContent === "copied"`, "copy says copied")
	var clip string
	if err := chromedp.Run(ctx, chromedp.Evaluate(`navigator.clipboard.readText()`, &clip, func(p *runtime.EvaluateParams) *runtime.EvaluateParams { return p.WithAwaitPromise(true) })); err != nil {
		t.Fatal(err)
	}
	if clip != pgnText {
		t.Errorf("the clipboard holds %q, the PGN box %q", clip, pgnText)
	}
}

// pageFiltered checks that a filtered table says why it has no
// performance and dates.
func pageFiltered(t *testing.T, ctx context.Context, base string, st *store.Store) {
	if err := chromedp.Run(ctx, chromedp.Navigate(base+"/?play=e2e4&until=2100-12")); err != nil {
		t.Fatal(err)
	}
	waitJS(t, ctx, `document.querySelector("#moves .not-kept")`, "the filtered table's note")
	var note string
	var dashes int
	evalJS(t, ctx, `document.querySelector("#moves .not-kept").textContent`, &note)
	evalJS(t, ctx, `[...document.querySelectorAll("#moves tbody td")].filter(td => td.textContent === "–" && td.cellIndex >= 4).length`, &dashes)
	if !strings.Contains(note, "not kept per filter") || dashes != 0 {
		t.Errorf("a filtered table reads %q with %d bare dashes for performance and dates", note, dashes)
	}
}

// pageNarrow checks the phone layout: the moves table on the first
// screen right under the board, the boxes after it, nothing wider than
// the screen, and the board in view once a game opens.
func pageNarrow(t *testing.T, ctx context.Context, base string, st *store.Store) {
	if err := chromedp.Run(ctx, chromedp.EmulateViewport(390, 844), chromedp.Navigate(base+"/?play=e2e4,c7c5")); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = chromedp.Run(ctx, chromedp.EmulateViewport(1280, 1000)) }()
	waitRows(t, ctx, storeRows(t, st, "e2e4", "c7c5"), "1.e4 c5 on a phone")
	var r []float64
	evalJS(t, ctx, `(() => { const top = (s) => document.querySelector(s).getBoundingClientRect().top; return [top("#board"), top("#moves"), top("#moves tbody tr"), top("#fen"), top("#pgn"), innerHeight, document.documentElement.scrollWidth, document.documentElement.clientWidth] })()`, &r)
	board, moves, row, fen, pgn, height, scrollW, clientW := r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7]
	if !(board < moves && row+40 < height && moves < fen && moves < pgn) {
		t.Errorf("on a phone: board at %.0f, moves table %.0f (first row %.0f), FEN %.0f, PGN %.0f, screen height %.0f: want the table's first row on the first screen, right under the board, the boxes after it", board, moves, row, fen, pgn, height)
	}
	if scrollW > clientW {
		t.Errorf("on a phone the page is %.0f px wide for a %.0f px screen", scrollW, clientW)
	}
	if err := chromedp.Run(ctx, chromedp.Click("#top-games li[data-id]", chromedp.ByQuery), chromedp.WaitVisible("#game", chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	boardInView(t, ctx, "a top game opened on a phone")
	if err := chromedp.Run(ctx, chromedp.KeyEvent(kb.ArrowRight), chromedp.KeyEvent(kb.ArrowRight)); err != nil {
		t.Fatal(err)
	}
	boardInView(t, ctx, "stepping through the game on a phone")
}

// pageUnavailableFilters: opening the filters greys out the speed boxes
// exactly when no game of the store has a speed (the champions' games
// have no TimeControl), with the server's notice as the reason.
func pageUnavailableFilters(t *testing.T, ctx context.Context, base string, st *store.Store) {
	t.Helper()
	f, err := filter.Parse(filter.Values{Speeds: strings.Join([]string{"ultraBullet", "bullet", "blitz", "rapid", "classical", "correspondence"}, ",")},
		filter.History, filter.FromParams)
	if err != nil {
		t.Fatal(err)
	}
	sel := f
	line, err := requestLine("", "", "")
	if err != nil {
		t.Fatal(err)
	}
	m, err := New(st).Moves(line, Query{Sel: sel})
	if err != nil {
		t.Fatal(err)
	}
	want := m.White+m.Draws+m.Black+m.Unknown == 0
	if err := chromedp.Run(ctx, chromedp.Navigate(base+"/"), chromedp.WaitVisible("#moves tbody tr", chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	clickSelector(t, ctx, "#filters summary")
	if want {
		waitJS(t, ctx, `document.querySelector("#speeds").classList.contains("unavailable") && document.querySelector("input[name=speed]").disabled`, "the speed boxes greyed out")
		var title string
		evalJS(t, ctx, `document.querySelector("#speeds").title`, &title)
		if !strings.Contains(title, "no TimeControl") {
			t.Errorf("greyed speed boxes say %q: want the reason", title)
		}
	} else {
		time.Sleep(300 * time.Millisecond) // the probe's answer
		var greyed bool
		evalJS(t, ctx, `document.querySelector("#speeds").classList.contains("unavailable")`, &greyed)
		if greyed {
			t.Error("speed boxes greyed out on a store with speeds")
		}
	}
}

// TestPageLayout: the page's geometry at 1280x900 (and a phone's 390 px),
// each a rough edge users met: a move's row is one line, its opening
// named short; the top games are on the first screen; with -book the
// Polyglot book sits beside the store's moves; the player box's
// suggestions are all in view; a move number is never at a line's end
// without its move; the player's head says its figures plainly; and rows
// and buttons clicked faster than the server answers throw nothing.
func TestPageLayout(t *testing.T) {
	ctx := browser(t)
	var mu sync.Mutex
	var thrown []string
	chromedp.ListenTarget(ctx, func(ev any) {
		if e, ok := ev.(*runtime.EventExceptionThrown); ok {
			d := e.ExceptionDetails
			msg := d.Text
			if d.Exception != nil {
				msg += " " + d.Exception.Description
			}
			mu.Lock()
			thrown = append(thrown, msg)
			mu.Unlock()
		}
	})
	exceptions := func() []string {
		mu.Lock()
		defer mu.Unlock()
		out := thrown
		thrown = nil
		return out
	}
	// The champions' games, and two games of each first move: a start
	// position of 20 moves, a long table.
	var st *store.Store
	if dir := os.Getenv("CHESSBOOK_PAGE_DB"); dir != "" {
		st = openStore(t, dir)
	} else {
		var pgn strings.Builder
		for i, san := range []string{"a3", "a4", "b3", "b4", "c3", "c4", "d3", "d4", "e3", "e4", "f3", "f4", "g3", "g4", "h3", "h4", "Na3", "Nc3", "Nf3", "Nh3"} {
			for j, result := range []string{"1-0", "1/2-1/2"} {
				fmt.Fprintf(&pgn, "[Event \"Openers\"]\n[Date \"2001.01.%02d\"]\n[White \"Opener %d\"]\n[Black \"Replier %d\"]\n[Result \"%s\"]\n\n1. %s Nf6 %s\n\n", i+1, i, j, result, san, result)
			}
		}
		wide := filepath.Join(t.TempDir(), "openers.pgn")
		if err := os.WriteFile(wide, []byte(pgn.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		st = openStore(t, buildStore(t, championsPGN, wide))
	}
	// A real book (Scid's).
	b, err := polyglot.OpenBook(testutil.SharedFile(t, filepath.Join("books", "scid_gm2600.bin")))
	if err != nil {
		t.Fatal(err)
	}
	opts := HandlerOptions{Book: b, BookName: "scid_gm2600.bin"}
	srv := httptest.NewServer(NewHandlerWith(st, opts))
	defer srv.Close()
	if err := chromedp.Run(ctx, chromedp.EmulateViewport(1280, 900)); err != nil {
		t.Fatal(err)
	}

	t.Run("rows", func(t *testing.T) {
		for _, play := range [][]string{{}, {"e2e4"}, {"e2e4", "c7c5"}, {"d2d4", "g8f6", "c2c4"}} {
			loadPosition(t, ctx, srv.URL+"/?play="+strings.Join(play, ","), st, play...)
			pageRowsOneLine(t, ctx, strings.Join(play, ","))
		}
	})

	t.Run("top games on the first screen", func(t *testing.T) {
		loadPosition(t, ctx, srv.URL+"/", st)
		if opts.Book != nil {
			waitJS(t, ctx, `!document.querySelector("#book").hidden && document.querySelectorAll("#book tbody tr").length > 1`, "the Polyglot book")
		}
		var r []float64
		evalJS(t, ctx, `(() => { const li = document.querySelector("#top-games li[data-id]"); return [li.getBoundingClientRect().bottom, innerHeight, document.querySelectorAll("#moves tbody tr").length] })()`, &r)
		if r[0] > r[1] {
			t.Errorf("the start position's first top game ends at %.0f px, below the first screen (%.0f px) of %d moves", r[0], r[1], int(r[2]))
		}
		// The moves after the first ones are a click away, and back.
		rows := len(pageRows(t, ctx))
		if rows <= 14 {
			t.Fatalf("the start position has %d moves: no long table to fold", rows)
		}
		var shown int
		evalJS(t, ctx, `[...document.querySelectorAll("#moves tbody tr")].filter(tr => tr.getBoundingClientRect().height > 0).length`, &shown)
		var label string
		evalJS(t, ctx, `document.querySelector("#moves .more-moves button").textContent`, &label)
		if shown != 12 || !strings.HasPrefix(label, fmt.Sprintf("%d more moves (", rows-12)) {
			t.Errorf("a table of %d moves shows %d with %q: want 12 and the others behind \"%d more moves\"", rows, shown, label, rows-12)
		}
		clickSelector(t, ctx, "#moves .more-moves button")
		evalJS(t, ctx, `[...document.querySelectorAll("#moves tbody tr")].filter(tr => tr.getBoundingClientRect().height > 0).length`, &shown)
		if shown != rows {
			t.Errorf("after %q the table shows %d of %d moves", label, shown, rows)
		}
		clickSelector(t, ctx, "#moves .more-moves button")
	})

	t.Run("book beside the moves", func(t *testing.T) {
		if opts.Book == nil {
			testutil.Missing(t, "no shared data: no Polyglot book to show")
		}
		loadPosition(t, ctx, srv.URL+"/?play=e2e4", st, "e2e4")
		waitJS(t, ctx, `!document.querySelector("#book").hidden && document.querySelectorAll("#book tbody tr").length > 1`, "the Polyglot book")
		var r map[string]float64
		evalJS(t, ctx, `(() => { const m = document.querySelector("#moves").getBoundingClientRect(), b = document.querySelector("#book").getBoundingClientRect(), g = document.querySelector("#top-games").getBoundingClientRect(); return {movesRight: m.right, movesTop: m.top, movesBottom: m.bottom, bookLeft: b.left, bookTop: b.top, bookBottom: b.bottom, bookRight: b.right, gamesTop: g.top, width: innerWidth} })()`, &r)
		if r["bookLeft"] < r["movesRight"] || r["bookTop"] >= r["movesBottom"] || r["bookBottom"] <= r["movesTop"] || r["bookRight"] > r["width"] || r["bookTop"] > r["gamesTop"] {
			t.Errorf("the Polyglot book is at %v: want it beside the moves table (right of it, over the same lines), above the games", r)
		}
	})

	t.Run("suggestions in view", func(t *testing.T) {
		if err := chromedp.Run(ctx, chromedp.Navigate(srv.URL+"/?mode=player"), chromedp.WaitVisible("#player-name", chromedp.ByQuery), chromedp.SendKeys("#player-name", "an", chromedp.ByQuery)); err != nil {
			t.Fatal(err)
		}
		waitJS(t, ctx, `document.querySelectorAll("#player-complete li").length === 8`, "8 names offered")
		var hidden []string
		evalJS(t, ctx, `[...document.querySelectorAll("#player-complete li")].filter(li => {
			const r = li.getBoundingClientRect()
			const seen = (y) => { const e = document.elementFromPoint(r.left + r.width / 2, y); return e && li.contains(e) }
			return !(r.bottom <= innerHeight && seen(r.top + 3) && seen(r.bottom - 3))
		}).map(li => li.dataset.name)`, &hidden)
		if len(hidden) > 0 {
			t.Errorf("of the 8 names offered, %q are cut off or hidden", hidden)
		}
	})

	t.Run("move numbers", func(t *testing.T) {
		line := []string{"e2e4", "c7c5", "g1f3", "d7d6", "d2d4", "c5d4", "f3d4", "g8f6", "b1c3", "a7a6", "c1e3", "e7e5", "d4b3", "c8e6", "f2f3", "f8e7", "d1d2", "e8g8", "e1c1", "b8d7", "g2g4", "b7b5", "g4g5", "b5b4"}
		if err := chromedp.Run(ctx, chromedp.Navigate(srv.URL+"/?play="+strings.Join(line, ","))); err != nil {
			t.Fatal(err)
		}
		waitJS(t, ctx, `document.querySelectorAll("#line .san").length === `+strconv.Itoa(len(line)), "the line drawn")
		// At every width of the line's box from 150 to 480 px, each
		// number is on the line of its move.
		var split []string
		evalJS(t, ctx, `(() => {
			const box = document.querySelector("#line"), out = []
			for (let w = 150; w <= 480; w += 3) {
				box.style.width = w + "px"
				for (const n of box.querySelectorAll(".num")) {
					let s = n.nextElementSibling || n.parentElement.nextElementSibling
					while (s && !s.classList.contains("san")) s = s.querySelector(".san") || s.nextElementSibling
					if (s && Math.abs(n.getBoundingClientRect().top - s.getBoundingClientRect().top) > 2) out.push(w + "px: " + n.textContent + " " + s.textContent)
				}
			}
			box.style.width = ""
			return out
		})()`, &split)
		if len(split) > 0 {
			t.Errorf("move numbers at a line's end, their move on the next: %q", split)
		}
	})

	t.Run("player head", func(t *testing.T) {
		var ps Players
		getJSON(t, srv, "/players?name=lasker&limit=1", &ps)
		if len(ps.Players) == 0 {
			t.Fatal("no Lasker in the store")
		}
		name := ps.Players[0].Name
		for _, play := range []string{"", "e2e4", "e2e4,e7e5"} {
			q := url.Values{"player": {name}, "color": {"white"}}
			if play != "" {
				q.Set("play", play)
			}
			var tree PlayerTree
			code, body, _ := querytest.Get(t, srv, "/player?"+q.Encode())
			if code != 200 || json.Unmarshal([]byte(body), &tree) != nil {
				t.Fatalf("/player?%s: %d %s", q.Encode(), code, body)
			}
			through := tree.White + tree.Draws + tree.Black
			want := fmt.Sprintf("%s · %s games with white", name, thousands(tree.PlayerGames))
			switch {
			case through == 0:
				want += " · none through this position"
			case through < tree.PlayerGames:
				want += fmt.Sprintf(" · %s of them (%s) through this position", thousands(through), wantShare(uint64(through), uint64(tree.PlayerGames)))
			}
			q.Set("mode", "player")
			if err := chromedp.Run(ctx, chromedp.Navigate(srv.URL+"/?"+q.Encode())); err != nil {
				t.Fatal(err)
			}
			waitJS(t, ctx, `document.querySelector("#player-head strong") || document.querySelector("#player-head").textContent.includes("games go on")`, "the player's head")
			var head string
			evalJS(t, ctx, `document.querySelector("#player-head").textContent`, &head)
			if head != want {
				t.Errorf("at %q the player's head reads %q, want %q", play, head, want)
			}
		}
	})

	t.Run("rapid clicks", func(t *testing.T) {
		exceptions()
		loadPosition(t, ctx, srv.URL+"/?play=e2e4", st, "e2e4")
		if opts.Book != nil {
			waitJS(t, ctx, `document.querySelectorAll("#book tbody tr").length > 1`, "the Polyglot book")
		}
		// Two clicks on a row before the next position's rows come: the
		// second is the old position's move.
		evalJS(t, ctx, `(() => { const tr = document.querySelector("#moves tbody tr"); tr.click(); tr.click(); return true })()`, new(bool))
		evalJS(t, ctx, `(() => { document.querySelector("#back").click(); const tr = document.querySelector("#book tbody tr[data-uci], #book tbody tr"); tr.click(); tr.click(); return true })()`, new(bool))
		evalJS(t, ctx, `(() => { const b = document.querySelector("#back"), f = document.querySelector("#forward"); for (let i = 0; i < 5; i++) { b.click(); document.querySelector("#moves tbody tr").click(); f.click(); document.querySelector("#moves tbody tr").click() } return true })()`, new(bool))
		// And with the mouse, as fast as the browser takes the events.
		var r []float64
		evalJS(t, ctx, `(() => { const r = document.querySelector("#moves").getBoundingClientRect(); return [r.left + 30, r.top + 50, document.querySelector("#back").getBoundingClientRect().left + 5, document.querySelector("#back").getBoundingClientRect().top + 5] })()`, &r)
		for i := 0; i < 6; i++ {
			if err := chromedp.Run(ctx, chromedp.MouseClickXY(r[0], r[1]), chromedp.MouseClickXY(r[0], r[1]), chromedp.MouseClickXY(r[2], r[3])); err != nil {
				t.Fatal(err)
			}
		}
		// The page settles on a position whose rows are the store's.
		var play string
		for i := 0; i < 40; i++ {
			time.Sleep(50 * time.Millisecond)
			evalJS(t, ctx, `new URLSearchParams(location.search).get("play") || ""`, &play)
		}
		uci := []string{}
		if play != "" {
			uci = strings.Split(play, ",")
		}
		var ply string
		evalJS(t, ctx, `new URLSearchParams(location.search).get("ply") || ""`, &ply)
		if n, err := strconv.Atoi(ply); err == nil && n < len(uci) {
			uci = uci[:n]
		}
		waitRows(t, ctx, storeRows(t, st, uci...), "after rapid clicks")
		if e := exceptions(); len(e) > 0 {
			t.Errorf("rapid clicks threw %d uncaught errors: %q", len(e), e)
		}
	})

	t.Run("phone", func(t *testing.T) {
		if err := chromedp.Run(ctx, chromedp.EmulateViewport(390, 844)); err != nil {
			t.Fatal(err)
		}
		defer func() { _ = chromedp.Run(ctx, chromedp.EmulateViewport(1280, 900)) }()
		for _, play := range [][]string{{}, {"e2e4", "c7c5"}} {
			loadPosition(t, ctx, srv.URL+"/?play="+strings.Join(play, ","), st, play...)
			pageRowsOneLine(t, ctx, "on a phone, "+strings.Join(play, ","))
			var w []float64
			evalJS(t, ctx, `[document.documentElement.scrollWidth, document.documentElement.clientWidth]`, &w)
			if w[0] > w[1] {
				t.Errorf("on a phone the page is %.0f px wide for a %.0f px screen", w[0], w[1])
			}
		}
	})
	if e := exceptions(); len(e) > 0 {
		t.Errorf("the page threw %q", e)
	}
}

// loadPosition loads url and waits for the moves table of the position after the
// UCI moves.
func loadPosition(t *testing.T, ctx context.Context, url string, st *store.Store, uci ...string) {
	t.Helper()
	if err := chromedp.Run(ctx, chromedp.Navigate(url)); err != nil {
		t.Fatal(err)
	}
	waitRows(t, ctx, storeRows(t, st, uci...), url)
}

// pageRowsOneLine fails the test unless every move's row shown is one line
// tall (as the total's row) and the openings are named without the
// position's own opening's name.
func pageRowsOneLine(t *testing.T, ctx context.Context, what string) {
	t.Helper()
	var r struct {
		One     float64
		Rows    []float64
		Names   []string
		Parent  string
		Visible []bool
	}
	evalJS(t, ctx, `(() => {
		const rows = [...document.querySelectorAll("#moves tbody tr")]
		const foot = [...document.querySelectorAll("#moves tfoot tr")].pop()
		return {
			one: foot.getBoundingClientRect().height,
			rows: rows.map(tr => tr.getBoundingClientRect().height).filter(h => h > 0),
			names: [...document.querySelectorAll("#moves tbody .name")].map(n => n.textContent),
			parent: document.querySelector("#opening").childNodes.length > 1 ? document.querySelector("#opening").lastChild.textContent : "",
		}
	})()`, &r)
	if len(r.Names) == 0 {
		t.Fatalf("%s: no move names an opening: nothing to test", what)
	}
	for i, h := range r.Rows {
		if h > r.One+1 {
			t.Errorf("%s: row %d is %.0f px tall, more than a line (%.0f px)", what, i+1, h, r.One)
		}
	}
	for _, n := range r.Names {
		if r.Parent != "" && (strings.HasPrefix(n, r.Parent+":") || strings.HasPrefix(n, r.Parent+",")) {
			t.Errorf("%s: a move is named %q, repeating the position's opening %q", what, n, r.Parent)
		}
	}
}

// thousands writes n as the page does (toLocaleString in English).
func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// TestPageBuildNotice: while the server says a build is in progress on the
// store (the Chessbook-Build header), the page says so with the games
// committed, and hides the notice once answers come without it.
func TestPageBuildNotice(t *testing.T) {
	ctx := browser(t)
	st := championsStore(t)
	h := NewHandlerWith(st, HandlerOptions{})
	var building sync.Mutex
	live := true
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		building.Lock()
		on := live
		building.Unlock()
		if on {
			w.Header().Set(BuildHeader, "in progress; 12345 games committed so far")
		}
		h.ServeHTTP(w, r)
	}))
	defer srv.Close()
	var text string
	var hidden bool
	if err := chromedp.Run(ctx,
		chromedp.Navigate(srv.URL+"/"),
		chromedp.WaitVisible("#build", chromedp.ByQuery),
		chromedp.Text("#build", &text, chromedp.ByQuery),
	); err != nil {
		t.Fatal(err)
	}
	if want := "the answers are from the 12,345 games it has committed so far"; !strings.Contains(text, want) {
		t.Errorf("the notice says %q, want it to say %q", text, want)
	}
	building.Lock()
	live = false
	building.Unlock()
	// The next answer (a move played) comes without the header.
	if err := chromedp.Run(ctx,
		chromedp.Click("#moves tbody tr", chromedp.ByQuery),
		chromedp.Poll(`document.getElementById("build").hidden`, &hidden, chromedp.WithPollingTimeout(10*time.Second)),
	); err != nil {
		t.Fatalf("the notice stays once the build is over: %v", err)
	}
}

// smallBook returns a Polyglot book of a few main lines: moves, with
// falling weights, at the start position and after 1.e4, 1.d4, 1.e4 c5
// and 1.d4 Nf6 2.c4.
func smallBook(t *testing.T) *polyglot.Book {
	t.Helper()
	lines := map[string][]string{
		"":               {"e2e4", "d2d4", "c2c4", "g1f3", "b2b3"},
		"e2e4":           {"c7c5", "e7e5", "e7e6", "c7c6"},
		"d2d4":           {"g8f6", "d7d5", "e7e6"},
		"e2e4 c7c5":      {"g1f3", "b1c3", "c2c3"},
		"d2d4 g8f6 c2c4": {"e7e6", "g7g6", "c7c5"},
	}
	var entries []polyglot.Entry
	for line, moves := range lines {
		p := board.StartPosition()
		for _, u := range strings.Fields(line) {
			m, err := p.ParseUCI(u)
			if err != nil {
				t.Fatal(err)
			}
			p.Play(m)
		}
		for i, u := range moves {
			m, err := p.ParseUCI(u)
			if err != nil {
				t.Fatal(err)
			}
			entries = append(entries, polyglot.Entry{Key: polyglot.Key(&p), Move: polyglot.EncodeMove(&p, m), Weight: uint16(100 - 15*i)})
		}
	}
	polyglot.SortEntries(entries)
	return polyglot.NewBook(entries)
}
