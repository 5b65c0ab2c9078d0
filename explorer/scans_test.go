package explorer

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/internal/querytest"
	"github.com/chessbook/chessbook/keys"
)

// guardWait bounds the waits of these tests for what must happen: reached
// only when the code under test is broken (the tests time nothing).
const guardWait = 30 * time.Second

// hookedServer returns a server over the champions' store with opts and
// hooks, and a test server of its handler.
func hookedServer(t *testing.T, opts HandlerOptions, hooks testHooks) (*server, *httptest.Server) {
	t.Helper()
	s := newServer(championsStore(t), opts)
	s.hooks = hooks
	srv := httptest.NewServer(s.handler())
	t.Cleanup(srv.Close)
	return s, srv
}

// reply is an answer: its status, body and headers.
type reply struct {
	code int
	body string
	hdr  http.Header
}

// getAsync sends GET target in the background.
func getAsync(srv *httptest.Server, target string) <-chan reply {
	out := make(chan reply, 1)
	go func() {
		resp, err := srv.Client().Get(srv.URL + target)
		if err != nil {
			out <- reply{body: err.Error()}
			return
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		out <- reply{code: resp.StatusCode, body: string(b), hdr: resp.Header}
	}()
	return out
}

// waitFor waits until cond holds, failing the test after guardWait.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(guardWait); !cond(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("still waiting after %v: %s", guardWait, what)
		}
	}
}

// TestScanPoolFull: with one scan running (held by a hook) and two
// waiting, the next is answered 503 at once, with Retry-After and a JSON
// error, while the other requests are answered; the held ones are then
// answered in full.
func TestScanPoolFull(t *testing.T) {
	hold := make(chan struct{})
	var started atomic.Int64
	s, srv := hookedServer(t, HandlerOptions{Scans: 1}, testHooks{scanStart: func(ctx context.Context) {
		started.Add(1)
		select {
		case <-hold:
		case <-ctx.Done():
		}
	}})
	const target = "/games?play=e2e4,e7e5&page=1&perPage=3"
	var held []<-chan reply
	for i := range cap(s.scans.tickets) {
		held = append(held, getAsync(srv, target))
		waitFor(t, "the scans to take their places", func() bool { return len(s.scans.tickets) == i+1 })
	}
	if n := started.Load(); n != 1 {
		t.Fatalf("%d scans started, want 1 (the pool has %d slot)", n, cap(s.scans.slots))
	}
	resp, err := srv.Client().Get(srv.URL + target)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	var e errorReply
	retry, _ := strconv.Atoi(resp.Header.Get("Retry-After"))
	if resp.StatusCode != http.StatusServiceUnavailable || retry < 1 || json.Unmarshal(body, &e) != nil || !strings.Contains(e.Error, "busy") {
		t.Errorf("a scan beyond the pool: %d, Retry-After %q, %s; want 503, a Retry-After and a JSON error", resp.StatusCode, resp.Header.Get("Retry-After"), body)
	}
	checkSecurityHeaders(t, "the 503", resp.Header)
	// The other requests, the top games of /games too, are answered.
	for _, light := range []string{"/lichess?play=e2e4", "/games?play=e2e4", "/"} {
		if code, body, _ := querytest.Get(t, srv, light); code != 200 {
			t.Errorf("GET %s while the scans are full: %d %.200s", light, code, body)
		}
	}
	close(hold)
	for i, c := range held {
		a := <-c
		var page GamePage
		if a.code != 200 || json.Unmarshal([]byte(a.body), &page) != nil || len(page.Games) != 3 || page.Games[0].Ply != 2 {
			t.Errorf("held scan %d: %d %.200s", i, a.code, a.body)
		}
	}
	if n := len(s.scans.tickets); n != 0 {
		t.Errorf("%d places still taken after the scans", n)
	}
}

// TestScanCancelled: a client that leaves stops its scan (no game of the
// page is read after it left, the scan ends with context.Canceled and
// frees its place), and a scan past its deadline is answered 503 naming it.
func TestScanCancelled(t *testing.T) {
	started := make(chan struct{})
	ended := make(chan error, 1)
	var found atomic.Int64
	s, srv := hookedServer(t, HandlerOptions{Scans: 1}, testHooks{
		scanGame: func(ctx context.Context) {
			if found.Add(1) == 1 {
				close(started)
				select { // hold the scan at its first game until the client leaves
				case <-ctx.Done():
				case <-time.After(guardWait):
				}
			}
		},
		scanEnd: func(err error) { ended <- err },
	})
	ctx, cancel := context.WithCancel(context.Background())
	req, err := http.NewRequestWithContext(ctx, "GET", srv.URL+"/games?page=1&perPage=500", nil) // every game of the store
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		resp, err := srv.Client().Do(req)
		if err == nil {
			resp.Body.Close()
		}
		done <- err
	}()
	<-started
	cancel() // the client leaves
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("the client's request: %v", err)
	}
	select {
	case err := <-ended:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("the scan ended with %v, want context.Canceled", err)
		}
	case <-time.After(guardWait):
		t.Fatal("the scan goes on after its client left")
	}
	if n := found.Load(); n != 1 {
		t.Errorf("the scan read %d games of the page, %d after its client left", n, n-1)
	}
	waitFor(t, "the scan's place to be freed", func() bool { return len(s.scans.tickets) == 0 })

	// A deadline: the scan held until it passes.
	_, srv2 := hookedServer(t, HandlerOptions{Scans: 1, ScanTimeout: time.Millisecond}, testHooks{scanStart: func(ctx context.Context) { <-ctx.Done() }})
	resp, err := srv2.Client().Get(srv2.URL + "/games?page=1")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" || !strings.Contains(string(body), "took more than 1ms") {
		t.Errorf("a scan past its deadline: %d %q %s", resp.StatusCode, resp.Header.Get("Retry-After"), body)
	}
}

// TestRepeatedParams: a parameter given twice is refused with 400 naming
// it, on every route that takes parameters.
func TestRepeatedParams(t *testing.T) {
	srv := httptest.NewServer(NewHandler(championsStore(t)))
	defer srv.Close()
	id := firstGameID(t, srv)
	for target, name := range map[string]string{
		"/moves?fen=a&fen=b":                          "fen",
		"/moves?play=e2e4&play=e2e4":                  "play",
		"/lichess?moves=1&moves=2":                    "moves",
		"/masters?topGames=1&topGames=1":              "topGames",
		"/lichess/history?since=2000&since=2001":      "since",
		"/games?page=1&page=2":                        "page",
		"/games?speeds=blitz&speeds=rapid":            "speeds",
		"/game/" + id + "?format=pgn&format=json":     "format",
		"/position/AAAA?x=1&x=2":                      "x",
		"/masters/pgn/" + id + "?format=pgn&format=1": "format",
	} {
		code, body, ctype := querytest.Get(t, srv, target)
		var e errorReply
		if code != 400 || ctype != "application/json; charset=utf-8" || json.Unmarshal([]byte(body), &e) != nil || !strings.Contains(e.Error, name) {
			t.Errorf("GET %s: %d %s %s; want 400 naming %s", target, code, ctype, body, name)
		}
	}
	// Once is fine.
	for _, target := range []string{"/moves?fen=&play=e2e4", "/game/" + id + "?format=pgn", "/games?page=1&perPage=2&play=e2e4"} {
		if code, body, _ := querytest.Get(t, srv, target); code != 200 {
			t.Errorf("GET %s: %d %.200s", target, code, body)
		}
	}
}

// firstGameID returns the id of a top game of the start position.
func firstGameID(t *testing.T, srv *httptest.Server) string {
	t.Helper()
	_, body, _ := querytest.Get(t, srv, "/games")
	var g Games
	if err := json.Unmarshal([]byte(body), &g); err != nil || len(g.TopGames) == 0 {
		t.Fatalf("/games: %v %.200s", err, body)
	}
	return g.TopGames[0].ID
}

// checkSecurityHeaders checks the security headers of an answer.
func checkSecurityHeaders(t *testing.T, what string, h http.Header) {
	t.Helper()
	csp := h.Get("Content-Security-Policy")
	for _, want := range []string{"default-src 'self'", "frame-ancestors 'none'", "object-src 'none'", "'sha256-"} {
		if !strings.Contains(csp, want) {
			t.Errorf("%s: Content-Security-Policy %q lacks %q", what, csp, want)
		}
	}
	for name, want := range map[string]string{"X-Content-Type-Options": "nosniff", "X-Frame-Options": "DENY", "Referrer-Policy": "no-referrer", "Access-Control-Allow-Origin": "*"} {
		if got := h.Get(name); got != want {
			t.Errorf("%s: %s %q, want %q", what, name, got, want)
		}
	}
}

// TestHeadersEveryRoute: every route of the table, with every method, and
// the paths no route serves, answer with the security headers, and every
// error is JSON.
func TestHeadersEveryRoute(t *testing.T) {
	s := newServer(championsStore(t), HandlerOptions{})
	srv := httptest.NewServer(s.handler())
	defer srv.Close()
	id := firstGameID(t, srv)
	start := board.StartPosition()
	wildcard := regexp.MustCompile(`\{[^}]*\}`)
	var targets []string
	for _, rt := range s.routes() {
		target := wildcard.ReplaceAllStringFunc(rt.Pattern, func(w string) string {
			switch w {
			case "{id}":
				return id
			case "{code}":
				return keys.Text(keys.Encode(&start))
			}
			return ""
		})
		if strings.HasSuffix(target, "/") && target != "/" {
			target += "app.js"
		}
		targets = append(targets, target, target+"?bogus=1")
	}
	if len(targets) < 2*10 {
		t.Fatalf("only %d targets from the route table", len(targets))
	}
	targets = append(targets, "/nowhere", "/static/missing", "/static", "/static/", "/static/vendor", "/games?page=1&perPage=1", "/moves?fen=bad")
	for _, target := range targets {
		for _, method := range []string{"GET", "HEAD", "POST", "OPTIONS"} {
			req, _ := http.NewRequest(method, srv.URL+target, nil)
			resp, err := srv.Client().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			what := method + " " + target
			checkSecurityHeaders(t, what, resp.Header)
			if resp.StatusCode >= 400 {
				var e errorReply
				if ctype := resp.Header.Get("Content-Type"); ctype != "application/json; charset=utf-8" || method != "HEAD" && (json.Unmarshal(body, &e) != nil || e.Error == "") {
					t.Errorf("%s: %d %s %q; want a JSON error", what, resp.StatusCode, ctype, body)
				}
			}
		}
	}
}
