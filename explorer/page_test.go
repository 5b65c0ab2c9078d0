package explorer

import (
	"context"
	"fmt"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/internal/testutil"
	"github.com/chessbook/chessbook/polyglot"
	"github.com/chessbook/chessbook/store"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// The explorer page in a real browser: headless Chromium (Debian's
// chromium package) driven by chromedp. The test skips where no Chromium
// is installed (fails with CHESSBOOK_REQUIRE_DATA=1).
//
//	CHESSBOOK_PAGE_DB=DIR        run it on the store in DIR (the large
//	                             store, say) instead of the champions book
//	CHESSBOOK_SCREENSHOT=F.png   save a screenshot of the page after 1.e4 c5

// chromium returns the path of a Chromium binary, skipping the test if none.
func chromium(t *testing.T) string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "/usr/bin/chromium"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	testutil.Missing(t, "no Chromium installed (apt-get install chromium): the page is not tested in a browser")
	return ""
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
	if data := testutil.SharedDataIfAny(t); data != "" {
		b, err := polyglot.OpenBook(filepath.Join(data, "books", "scid_gm2600.bin"))
		if err == nil {
			opts.Book, opts.BookName = b, "scid_gm2600.bin"
		}
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

	// A top game opens where it reaches the position and steps on.
	var title, current string
	if err := chromedp.Run(ctx,
		chromedp.Click("#top-games li[data-id]", chromedp.ByQuery),
		chromedp.WaitVisible("#game", chromedp.ByQuery),
		chromedp.Text("#game-title", &title, chromedp.ByQuery),
		chromedp.AttributeValue("#game-moves .current", "data-ply", &current, nil, chromedp.ByQuery),
	); err != nil {
		t.Fatal(err)
	}
	var eventTag string
	if err := chromedp.Run(ctx, chromedp.Evaluate(`[...document.querySelectorAll("#game-tags tr")].filter(tr => tr.children[0].textContent === "Event").map(tr => tr.children[1].textContent).join("")`, &eventTag)); err != nil {
		t.Fatal(err)
	}
	if eventTag == "" {
		t.Error("the open game's tags show no Event")
	}
	if current != "2" || title == "" {
		t.Errorf("the top game %q opens at ply %s, want 2", title, current)
	}
	if err := chromedp.Run(ctx,
		chromedp.KeyEvent(kb.ArrowRight),
		chromedp.AttributeValue("#game-moves .current", "data-ply", &current, nil, chromedp.ByQuery),
	); err != nil {
		t.Fatal(err)
	}
	if current != "3" {
		t.Errorf("arrow right in the game: ply %s, want 3", current)
	}
	var download string
	if err := chromedp.Run(ctx, chromedp.AttributeValue("#game-download", "href", &download, nil, chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(download, "format=pgn") {
		t.Errorf("download link %q", download)
	}

	// A bad FEN shows an error and keeps the position.
	var errText string
	if err := chromedp.Run(ctx,
		chromedp.SetValue("#fen", "nonsense", chromedp.ByQuery),
		chromedp.Click("#fen-form button", chromedp.ByQuery),
		chromedp.WaitVisible("#error", chromedp.ByQuery),
		chromedp.Text("#error", &errText, chromedp.ByQuery),
	); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(errText, "bad FEN") {
		t.Errorf("a bad FEN shows %q", errText)
	}
	if v := cspViolations(t, ctx); len(v) > 0 {
		t.Errorf("the page broke its Content-Security-Policy: %q", v)
	}
}
