package explorer

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chessbook/chessbook/ingest"
	"github.com/chessbook/chessbook/internal/querytest"
)

// TestServeErrors checks that bad input is answered with 400, unknown paths
// with 404 and other methods with 405, each with a JSON error message.
func TestServeErrors(t *testing.T) {
	srv := httptest.NewServer(NewHandler(championsStore(t)))
	defer srv.Close()
	long := strings.Repeat("g1f3,g8f6,f3g1,f6g8,", 251)
	for _, tc := range []struct {
		method, target string
		code           int
		want           []string // in the error message
	}{
		{"GET", "/moves?fen=nonsense", 400, []string{"bad FEN", "nonsense"}},
		{"GET", "/moves?fen=" + url.QueryEscape("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1"), 400, []string{"bad FEN"}},
		{"GET", "/moves?fen=" + url.QueryEscape("8/8/8/8/8/8/8/8 w - - 0 1"), 400, []string{"bad FEN", "king"}},
		{"GET", "/moves?play=e2e4,e7e5,e1e3", 400, []string{"play: move 2.e1e3", "illegal move"}},
		{"GET", "/moves?play=e2e4,e7e5,Nf3", 400, []string{"play: move 2.Nf3", "want 4 or 5 characters"}},
		{"GET", "/moves?play=e2e4,e7e5,e1g1", 400, []string{"play: move 2.e1g1", "illegal"}},
		{"GET", "/moves?play=e7e8x", 400, []string{"play: move 1.e7e8x"}},
		{"GET", "/moves?play=0000", 400, []string{"null move"}},
		{"GET", "/moves?moves=e4+e5+Ke3", 400, []string{"moves: move 2.Ke3", "no king can move to e3"}},
		{"GET", "/moves?moves=e4+hello", 400, []string{"moves: move 1...hello"}},
		{"GET", "/moves?moves=e4&play=e2e4", 400, []string{"not both"}},
		{"GET", "/moves?moves=-1", 400, []string{"moves=-1"}},
		{"GET", "/moves?fen=%zz", 400, []string{"bad query"}},
		{"GET", "/moves?play=" + long, 400, []string{"more than 1000 moves"}},
		{"GET", "/moves/", 404, []string{"no such path", "/moves/"}},
		{"GET", "/nowhere", 404, []string{"no such path"}},
		{"GET", "/static/", 404, []string{"no such path"}},
		{"GET", "/static/missing", 404, []string{"no such path", "/static/missing"}},
		{"GET", "/static", 404, []string{"no such path"}},
		{"GET", "/static/vendor", 404, []string{"no such path"}},
		{"GET", "/static/vendor/", 404, []string{"no such path"}},
		{"GET", "/static/../../go.mod", 404, []string{"no such path"}},
		{"POST", "/static/app.js", 405, []string{"method POST not allowed"}},
		{"GET", "/moves?fen=a&fen=b", 400, []string{"fen given 2 times"}},
		{"GET", "/game/0123456789abcdef?format=xml", 400, []string{"format=xml", "pgn or json"}},
		{"GET", "/game/0123456789abcdef?id=1", 400, []string{"id=1", "unknown parameter"}},
		{"GET", "/game/12", 400, []string{"want 16 hex digits"}},
		{"POST", "/moves", 405, []string{"method POST not allowed", "GET"}},
		{"DELETE", "/moves?play=e2e4", 405, []string{"method DELETE not allowed"}},
		{"GET", "/lichess?play=e2e4&foo=1", 400, []string{"foo=1", "unknown parameter", "/lichess takes"}},
		{"GET", "/masters?speeds=blitz", 400, []string{"speeds=blitz", "unknown parameter"}},
		{"GET", "/masters?ratings=2000", 400, []string{"ratings=2000", "unknown parameter"}},
		{"GET", "/lichess?moves=e4", 400, []string{"moves=e4", "play="}},
		{"GET", "/lichess?speeds=fast", 400, []string{"unknown speed \"fast\""}},
		{"GET", "/lichess?ratings=1500", 400, []string{"unknown rating band \"1500\""}},
		{"GET", "/lichess?since=2024-13", 400, []string{"since=2024-13", "YYYY-MM"}},
		{"GET", "/lichess?since=2024-05&until=2024-01", 400, []string{"since 2024-05 is after until 2024-01"}},
		{"GET", "/lichess?variant=chess960", 400, []string{"only standard"}},
		{"GET", "/lichess?topGames=16", 400, []string{"topGames=16", "0 to 15"}},
		{"GET", "/lichess/history?topGames=1", 400, []string{"unknown parameter"}},
		{"GET", "/games?page=-1", 400, []string{"page=-1"}},
		{"GET", "/games?page=1&perPage=0", 400, []string{"perPage"}},
		{"GET", "/masters/pgn/12", 400, []string{"want 16 hex digits"}},
		{"GET", "/masters/pgn/0123456789abcdef?x=1", 400, []string{"unknown parameter"}},
		{"GET", "/masters/pgn/0123456789abcdef", 404, []string{"0123456789abcdef"}},
		{"POST", "/lichess", 405, []string{"method POST not allowed"}},
	} {
		code, body, ctype := querytest.Do(t, srv, tc.method, tc.target)
		var e errorReply
		if err := json.Unmarshal([]byte(body), &e); err != nil || code != tc.code || ctype != "application/json; charset=utf-8" {
			t.Errorf("%s %.80s: %d %s %q (%v); want %d and a JSON error", tc.method, tc.target, code, ctype, body, err, tc.code)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(e.Error, w) {
				t.Errorf("%s %.80s: error %q does not mention %q", tc.method, tc.target, e.Error, w)
			}
		}
	}
	// 1000 moves are fine.
	if code, body, _ := querytest.Get(t, srv, "/moves?play="+strings.TrimSuffix(strings.Repeat("g1f3,g8f6,f3g1,f6g8,", 250), ",")); code != 200 {
		t.Errorf("1000 moves: %d %s", code, body)
	}
	// 405 says what is allowed.
	req, _ := http.NewRequest("PUT", srv.URL+"/moves", nil)
	if resp, err := srv.Client().Do(req); err != nil || resp.Header.Get("Allow") != "GET, HEAD, OPTIONS" {
		t.Errorf("PUT /moves: %v %v", resp, err)
	} else {
		resp.Body.Close()
	}
}

// TestLichessEndpoints: /lichess, /masters, /lichess/history, /games and
// /masters/pgn answer in the lichess explorer's shape: topGames and
// recentGames as asked (0: none), moves named by the position they lead
// to, top games of rated pairs first and best first, the history by month.
func TestLichessEndpoints(t *testing.T) {
	srv := httptest.NewServer(NewHandler(championsStore(t)))
	defer srv.Close()
	get := func(target string, v any) {
		t.Helper()
		code, body, _ := querytest.Get(t, srv, target)
		if code != 200 {
			t.Fatalf("GET %s: %d %s", target, code, body)
		}
		if err := json.Unmarshal([]byte(body), v); err != nil {
			t.Fatalf("GET %s: %v", target, err)
		}
	}
	var m Moves
	get("/masters?play=e2e4&topGames=15", &m)
	if len(m.TopGames) <= DefaultGames || len(m.RecentGames) != 0 {
		t.Errorf("/masters topGames=15: %d top, %d recent games; want more than %d and none", len(m.TopGames), len(m.RecentGames), DefaultGames)
	}
	rated := func(g GameRef) bool { return g.White.Rating > 0 && g.Black.Rating > 0 }
	for i := 1; i < len(m.TopGames); i++ {
		a, b := m.TopGames[i-1], m.TopGames[i]
		if !rated(a) && rated(b) || rated(a) && rated(b) && a.White.Rating+a.Black.Rating < b.White.Rating+b.Black.Rating-1 {
			t.Errorf("top games out of order: %+v before %+v", a, b)
		}
	}
	if m.Opening == nil || m.Opening.ECO != "B00" {
		t.Errorf("/masters?play=e2e4: opening %+v, want B00", m.Opening)
	}
	named := 0
	for _, mv := range m.Moves {
		if mv.Opening != nil {
			named++
		}
		if mv.SAN == "c5" && (mv.Opening == nil || mv.Opening.Name != "Sicilian Defense") {
			t.Errorf("1.e4 c5: opening %+v, want Sicilian Defense", mv.Opening)
		}
	}
	if named == 0 {
		t.Error("no move of 1.e4 names its opening")
	}
	var none Moves
	get("/lichess?play=e2e4&topGames=0&recentGames=0&moves=2", &none)
	if len(none.TopGames) != 0 || len(none.RecentGames) != 0 || len(none.Moves) != 2 {
		t.Errorf("topGames=0&recentGames=0&moves=2: %d top, %d recent, %d moves", len(none.TopGames), len(none.RecentGames), len(none.Moves))
	}
	var h History
	get("/lichess/history?play=e2e4&since=1870&until=1879", &h)
	var total uint64
	for _, mo := range h.History {
		if mo.Month < "1870" || mo.Month > "1879-12" {
			t.Errorf("history since 1870 until 1879 lists %s", mo.Month)
		}
		total += mo.White + mo.Draws + mo.Black + mo.Unknown
	}
	var ranged Moves
	get("/masters?play=e2e4&since=1870&until=1879", &ranged)
	if want := ranged.White + ranged.Draws + ranged.Black + ranged.Unknown; total != want || total == 0 {
		t.Errorf("history 1870-1879 counts %d games, /masters %d", total, want)
	}
	var page GamePage
	get("/games?play=e2e4,e7e5&page=1&perPage=3", &page)
	if len(page.Games) != 3 || !page.More || page.Games[0].Ply != 2 {
		t.Errorf("/games page 1: %+v", page)
	}
	for path, want := range map[string]string{"/": "text/html", "/static/app.js": "javascript", "/static/vendor/bundle.js": "javascript", "/static/vendor/cm-chessboard/assets/pieces/standard.svg": "image/svg"} {
		if code, body, ctype := querytest.Get(t, srv, path); code != 200 || !strings.Contains(ctype, want) || len(body) < 100 {
			t.Errorf("GET %s: %d %s, %d bytes; want the page's file", path, code, ctype, len(body))
		}
	}
	code, body, ctype := querytest.Get(t, srv, "/masters/pgn/"+page.Games[0].ID)
	if code != 200 || ctype != "application/x-chess-pgn" || !strings.Contains(body, "1. e4 e5") {
		t.Errorf("/masters/pgn: %d %s %.200s", code, ctype, body)
	}
}

// TestServeCORSAndPaths: every answer allows any origin, OPTIONS answers a
// preflight, a path with doubled slashes is served (not redirected with
// an HTML body), and an error quotes a huge request only in part.
func TestServeCORSAndPaths(t *testing.T) {
	srv := httptest.NewServer(NewHandler(championsStore(t)))
	defer srv.Close()
	for _, target := range []string{"/moves?play=e2e4", "/nowhere", "/moves?fen=bad"} {
		resp, err := srv.Client().Get(srv.URL + target)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if got := resp.Header.Get("Access-Control-Allow-Origin"); got != "*" {
			t.Errorf("GET %s: Access-Control-Allow-Origin %q, want *", target, got)
		}
	}
	req, _ := http.NewRequest("OPTIONS", srv.URL+"/moves", nil)
	req.Header.Set("Origin", "https://example.org")
	req.Header.Set("Access-Control-Request-Method", "GET")
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNoContent || resp.Header.Get("Access-Control-Allow-Origin") != "*" ||
		!strings.Contains(resp.Header.Get("Access-Control-Allow-Methods"), "GET") {
		t.Errorf("OPTIONS /moves: %d %v; want 204 allowing GET from any origin", resp.StatusCode, resp.Header)
	}
	code, body, ctype := querytest.Get(t, srv, "//moves?play=e2e4")
	if code != 200 || !strings.HasPrefix(ctype, "application/json") || !strings.Contains(body, `"fen"`) {
		t.Errorf("GET //moves: %d %s %.200s; want the answer of /moves", code, ctype, body)
	}
	huge := strings.Repeat("x", 512<<10)
	code, body, _ = querytest.Get(t, srv, "/moves?fen="+huge)
	if code != 400 || len(body) > 2000 {
		t.Errorf("a 512 KiB bad FEN: %d, answer of %d bytes; want 400 and a short message", code, len(body))
	}
}

// FuzzServeMoves sends arbitrary queries to /moves: the answer is 200 or
// 400, with JSON, never a failure of the server.
func FuzzServeMoves(f *testing.F) {
	for _, q := range []string{"", "play=e2e4,e7e5", "moves=e4+e5+Nf3", "fen=8/8/8/8/8/8/8/K1k5+w+-+-+0+1", "moves=12", "play=e2e4&moves=3",
		"fen=" + url.QueryEscape("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1") + "&play=e1g1,e8c8", "moves=1.e4+1...c5+2.Nf3", "fen=%00", "play=,,,",
		"play=e2e4&speeds=blitz,rapid&ratings=2000,2200&since=1880-01&until=1890", "pos=UAAkHAQC&topGames=15&recentGames=0", "since=1900&until=1880", "ratings=,,&speeds=,"} {
		f.Add(q)
	}
	h := NewHandler(championsStore(f))
	f.Fuzz(func(t *testing.T, query string) {
		req := httptest.NewRequest("GET", "/moves", nil)
		req.URL.RawQuery = query
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		if w.Code != 200 && w.Code != 400 {
			t.Fatalf("?%s: %d %s", query, w.Code, w.Body)
		}
		if !json.Valid(w.Body.Bytes()) {
			t.Fatalf("?%s: not JSON: %q", query, w.Body)
		}
	})
}

// BenchmarkHandlerMoves is GET /moves in process over the champions'
// store, for positions 0 to 29 plies into its games, the moves given as
// play= (UCI) or moves= (SAN).
func BenchmarkHandlerMoves(b *testing.B) {
	h := NewHandler(championsStore(b))
	for _, param := range []string{"play", "moves"} {
		b.Run(param, func(b *testing.B) {
			targets := benchTargets(b, param)
			i := 0
			for b.Loop() {
				req := httptest.NewRequest("GET", targets[i%len(targets)], nil)
				w := httptest.NewRecorder()
				h.ServeHTTP(w, req)
				if w.Code != 200 {
					b.Fatalf("%s: %d %s", targets[i%len(targets)], w.Code, w.Body)
				}
				i++
			}
		})
	}
}

// benchTargets returns /moves targets for 200 positions of the champions'
// games: game i up to ply i mod 30, as play (UCI, commas) or moves (SAN).
func benchTargets(b *testing.B, param string) []string {
	s := &lineGames{}
	if _, err := ingest.Run(context.Background(), []string{championsPGN}, ingest.Options{Workers: 1}, func(int) ingest.Sink { return ingest.SinkFunc(s.add) }); err != nil {
		b.Fatal(err)
	}
	var targets []string
	for i, g := range s.games[:200] {
		p := g.start
		var ms []string
		for _, m := range g.moves[:min(len(g.moves), i%30)] {
			if param == "play" {
				ms = append(ms, m.String())
			} else {
				ms = append(ms, p.SAN(m))
			}
			p.Play(m)
		}
		sep := ","
		if param == "moves" {
			sep = " "
		}
		targets = append(targets, "/moves?"+param+"="+url.QueryEscape(strings.Join(ms, sep)))
	}
	return targets
}

// TestServeDamagedStore flips bytes inside the sstables of a built store:
// requests that meet the damage get a JSON 500 naming it, the others are
// answered, and the server goes on (Pebble's default on damaged data
// ends the process).
func TestServeDamagedStore(t *testing.T) {
	dir := buildStore(t, championsPGN)
	ssts, _ := filepath.Glob(filepath.Join(dir, "*.sst"))
	damaged := 0
	for _, p := range ssts {
		fi, err := os.Stat(p)
		if err != nil || fi.Size() < 64<<10 {
			continue
		}
		f, err := os.OpenFile(p, os.O_RDWR, 0)
		if err != nil {
			t.Fatal(err)
		}
		for off := int64(16 << 10); off < fi.Size()*3/4; off += 16 << 10 {
			var b [1]byte
			if _, err := f.ReadAt(b[:], off); err == nil {
				b[0] ^= 0x5a
				_, _ = f.WriteAt(b[:], off)
				damaged++
			}
		}
		f.Close()
	}
	if damaged == 0 {
		t.Fatal("no sstable big enough to damage")
	}
	srv := httptest.NewServer(NewHandler(openStore(t, dir)))
	defer srv.Close()
	lines := []string{"", "e2e4", "d2d4", "c2c4", "g1f3", "e2e4,c7c5", "e2e4,e7e5", "d2d4,g8f6", "d2d4,d7d5", "e2e4,e7e6",
		"e2e4,c7c6", "d2d4,g8f6,c2c4,e7e6", "e2e4,c7c5,g1f3,d7d6", "e2e4,e7e5,g1f3,b8c6,f1b5", "d2d4,d7d5,c2c4,c7c6"}
	ok, failed := 0, 0
	for round := 0; round < 2; round++ {
		for _, l := range lines {
			code, body, ctype := querytest.Get(t, srv, "/moves?play="+l)
			switch {
			case code == 200:
				ok++
			case code == 500 && strings.HasPrefix(ctype, "application/json") && strings.Contains(body, "error"):
				failed++
			default:
				t.Errorf("/moves?play=%s: %d %s %.200s", l, code, ctype, body)
			}
		}
	}
	t.Logf("%d sstable bytes flipped: %d answers, %d JSON 500s", damaged, ok, failed)
	if failed == 0 {
		t.Fatal("the damage met no request: nothing was checked (flip other bytes)")
	}
	if ok == 0 {
		t.Error("no request answered beside the damage")
	}
}
