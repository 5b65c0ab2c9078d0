//go:build oracle

package explorer

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chessbook/chessbook/internal/lichessschema"
	"github.com/chessbook/chessbook/internal/querytest"
	"github.com/chessbook/chessbook/internal/testutil"
)

// TestPlayerAnswers asks /player for combinations of every parameter the
// lichess API's endpoint file lists (each must be taken), for a player of
// many games of the world champions' file and for the lichess player of
// the shared lichess file, and checks each answer: one NDJSON line, valid
// under the lichess API's OpeningExplorerPlayer schema, queuePosition 0,
// the moves adding up to the totals, the recent games among the moves;
// and the totals equal to what /search finds (an independent reader: the
// player's postings by position, not the tree's) for the same player,
// color, position and dates, less the games that end at the position.
func TestPlayerAnswers(t *testing.T) {
	v := lichessschema.ForTest(t)
	data := testutil.SharedData(t)
	params, err := v.Params("player")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, pgn, player string
	}{
		{"champions", filepath.Join(data, "medium", "pgnmentor_world_champions_16players.pgn.zst"), "kasparov"},
		{"lichess", filepath.Join(data, "small", "allancao_lichess_DrDrunkenstein_2019-01-29.pgn"), "drdrunkenstein"},
	}
	lines := []string{"", "e2e4", "e2e4,c7c5", "d2d4,g8f6,c2c4", "e2e4,e7e5,g1f3,b8c6,f1b5"}
	variants := []string{
		"",
		"variant=standard&moves=3&recentGames=8",
		"recentGames=0",
		"since=1990-01&until=2012-12",
		"since=2018-11&until=2018-12",
		"speeds=blitz,bullet&modes=rated",
		"speeds=classical&modes=casual,rated",
		"fen=rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
	}
	asked := map[string]bool{}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv := httptest.NewServer(NewHandler(openStore(t, buildStore(t, c.pgn))))
			t.Cleanup(srv.Close)
			top := topSpelling(t, srv, c.player)
			if top.Games < 500 {
				t.Fatalf("%s: %d games, want a player of many", top.Name, top.Games)
			}
			for _, color := range []string{"white", "black"} {
				for _, line := range lines {
					for _, extra := range variants {
						q, ok := lineQuery(t, line, extra)
						if !ok {
							continue
						}
						q.Set("player", top.Name)
						q.Set("color", color)
						for p := range q {
							if !slices.Contains(params, p) {
								t.Fatalf("parameter %s is not lichess's", p)
							}
							asked[p] = true
						}
						target := "/player?" + q.Encode()
						tree := getPlayer(t, v, srv, target)
						if extra == "" || strings.HasPrefix(extra, "since") {
							checkAgainstSearch(t, srv, target, tree, q)
						}
					}
				}
			}
			// An unknown player has an empty tree, as lichess answers.
			tree := getPlayer(t, v, srv, "/player?player=Nobody+Atall&color=white&play=e2e4")
			if tree.White+tree.Draws+tree.Black != 0 || len(tree.Moves) != 0 || tree.PlayerGames != 0 || tree.Opening == nil {
				t.Errorf("an unknown player: %+v", tree)
			}
		})
	}
	for _, p := range params {
		if !asked[p] {
			t.Errorf("/player: parameter %s never asked", p)
		}
	}
}

// TestHeavySearchesBounded: 128 heavy searches at once on a store of real
// games (lichess_10k) go through the scan pool: each is answered 200 or
// the pool's 503 (with Retry-After), the heap stays within what the
// pool's running searches may hold, and light requests (/masters,
// /lichess) sent meanwhile are all answered 200. Before, a search by name
// skipped the pool: all 128 ran at once, each holding every posting of
// the names its text matched.
func TestHeavySearchesBounded(t *testing.T) {
	data := testutil.SharedData(t)
	st := openStore(t, buildStore(t, filepath.Join(data, "medium", "lichess_10k.pgn.zst")))
	s := newServer(st, HandlerOptions{Scans: 1})
	srv := httptest.NewServer(s.handler())
	defer srv.Close()
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 256}, Timeout: guardWait}
	defer client.CloseIdleConnections()
	get := func(target string) (int, string, http.Header) {
		resp, err := client.Get(srv.URL + target)
		if err != nil {
			return 0, err.Error(), nil
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b), resp.Header
	}
	// Each heavy search once, alone: it answers, and the store's caches
	// are warm.
	for _, h := range heavySearches {
		if code, body, _ := get(h); code != 200 {
			t.Fatalf("GET %s alone: %d %.300s", h, code, body)
		}
	}
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base := ms.HeapAlloc
	var peak atomic.Uint64
	stop := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		var m runtime.MemStats
		for {
			runtime.ReadMemStats(&m)
			if m.HeapAlloc > peak.Load() {
				peak.Store(m.HeapAlloc)
			}
			select {
			case <-stop:
				return
			case <-time.After(time.Millisecond):
			}
		}
	}()

	const heavy, lightClients, lightEach = 128, 4, 25
	var ok200, busy atomic.Int64
	var mu sync.Mutex
	var failures []string
	fail := func(format string) {
		mu.Lock()
		defer mu.Unlock()
		if len(failures) < 10 {
			failures = append(failures, format)
		}
	}
	var wg sync.WaitGroup
	for i := range heavy {
		wg.Add(1)
		go func() {
			defer wg.Done()
			target := heavySearches[i%len(heavySearches)]
			code, body, hdr := get(target)
			switch {
			case code == 200:
				ok200.Add(1)
			case code == 503 && hdr.Get("Retry-After") != "" && strings.Contains(body, `"error":"busy: `):
				busy.Add(1)
			default:
				fail("heavy GET " + target + ": " + http.StatusText(code) + " " + body[:min(len(body), 300)])
			}
		}()
	}
	var light atomic.Int64
	for c := range lightClients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range lightEach {
				target := []string{"/masters?play=e2e4", "/lichess?play=d2d4,d7d5", "/masters", "/lichess?play=e2e4,c7c5"}[(c+j)%4]
				code, body, _ := get(target)
				if code != 200 {
					fail("light GET " + target + ": " + http.StatusText(code) + " " + body[:min(len(body), 300)])
					continue
				}
				var v map[string]any
				if err := json.Unmarshal([]byte(body), &v); err != nil || v["moves"] == nil {
					fail("light GET " + target + ": not an explorer answer: " + body[:min(len(body), 300)])
					continue
				}
				light.Add(1)
			}
		}()
	}
	wg.Wait()
	close(stop)
	<-sampled
	for _, f := range failures {
		t.Error(f)
	}
	if got := ok200.Load() + busy.Load(); got != heavy {
		t.Errorf("heavy requests: %d answered 200, %d busy (503), of %d", ok200.Load(), busy.Load(), heavy)
	}
	if ok200.Load() == 0 {
		t.Errorf("no heavy request answered 200 (%d busy)", busy.Load())
	}
	if light.Load() != lightClients*lightEach {
		t.Errorf("light requests answered: %d of %d", light.Load(), lightClients*lightEach)
	}
	// The searches running at once (the pool's slots) hold a bit per game
	// for each name filter, and the page's window of gamedb.MaxWindow
	// games at most (500 here); the answers are a few hundred KiB.
	const bound = 24 << 20
	grew := int64(peak.Load()) - int64(base)
	t.Logf("heavy: %d answered, %d busy; light: %d answered; heap %d KiB before, peak %d KiB (+%d KiB)",
		ok200.Load(), busy.Load(), light.Load(), base>>10, peak.Load()>>10, grew>>10)
	if grew > bound {
		t.Errorf("the heap grew by %d MiB under 128 heavy searches, more than %d MiB", grew>>20, bound>>20)
	}
}

// TestAnswersValidateUnderLichessSchemas asks /lichess and /masters for
// combinations of every parameter the lichess API's endpoint files list
// (each endpoint gets only the parameters its file lists, and must take
// every one of them), on a store of over-the-board games (players without
// ratings, games dated by year only) and on one of lichess games mixed
// with them, and validates each answer under the lichess API's schemas.
func TestAnswersValidateUnderLichessSchemas(t *testing.T) {
	v := lichessschema.ForTest(t)
	data := testutil.SharedData(t)
	lichessPGN := filepath.Join(data, "small", "allancao_lichess_DrDrunkenstein_2019-01-29.pgn")
	stores := map[string]string{
		"masters": buildStore(t, championsPGN),
		"lichess": buildStore(t, lichessPGN, championsPGN),
	}
	lines := []string{"", "e2e4", "e2e4,c7c5", "d2d4,g8f6,c2c4", "e2e4,e7e5,g1f3,b8c6,f1b5"}
	variants := []string{
		"",
		"variant=standard&moves=3&topGames=15",
		"topGames=0&recentGames=0",
		"since=1900&until=1999",
		"since=2019-01&until=2019-12",
		"speeds=blitz,rapid&ratings=1600,1800,2000",
		"speeds=classical&ratings=2500",
		"history=true",
		"history=false",
		"recentGames=8&history=true&speeds=bullet,blitz",
		"fen=rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
	}
	endpoints := []struct{ name, path, schema string }{
		{"lichess", "/lichess", lichessschema.Lichess},
		{"masters", "/masters", lichessschema.Masters},
	}
	asked := map[string]map[string]bool{}
	for name, dir := range stores {
		srv := httptest.NewServer(NewHandler(openStore(t, dir)))
		t.Cleanup(srv.Close)
		for _, ep := range endpoints {
			params, err := v.Params(ep.name)
			if err != nil {
				t.Fatal(err)
			}
			if asked[ep.name] == nil {
				asked[ep.name] = map[string]bool{}
			}
			for _, line := range lines {
				for _, extra := range variants {
					q, ok := lineQuery(t, line, extra)
					if !ok {
						continue
					}
					for p := range q {
						if !slices.Contains(params, p) {
							q.Del(p)
						} else {
							asked[ep.name][p] = true
						}
					}
					target := ep.path + "?" + q.Encode()
					code, body, _ := querytest.Get(t, srv, target)
					if code != 200 {
						t.Errorf("%s store: GET %s: %d %.300s", name, target, code, body)
						continue
					}
					if err := v.Validate(ep.schema, []byte(body)); err != nil {
						t.Errorf("%s store: GET %s: %v", name, target, err)
					}
					if q.Get("history") == "true" && !strings.Contains(body, `"history":[`) {
						t.Errorf("%s store: GET %s: no history in %.300s", name, target, body)
					}
				}
			}
		}
	}
	// Every parameter the endpoint files list was asked (none left out).
	for _, ep := range endpoints {
		params, _ := v.Params(ep.name)
		for _, p := range params {
			if !asked[ep.name][p] {
				t.Errorf("%s: parameter %s never asked", ep.path, p)
			}
		}
	}
}

// lineQuery is the query of the parameters extra with the moves line
// played from the start (play), or extra alone when it sets a fen: false
// when extra sets a fen and line is not empty (a line from a FEN is not
// asked).
func lineQuery(t *testing.T, line, extra string) (url.Values, bool) {
	t.Helper()
	q, err := url.ParseQuery(extra)
	if err != nil {
		t.Fatal(err)
	}
	if q.Get("fen") == "" {
		q.Set("play", line)
	} else if line != "" {
		return nil, false
	}
	return q, true
}
