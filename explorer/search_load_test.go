package explorer

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chessbook/chessbook/internal/testutil"
)

// heavySearches are searches whose cost grows with the store: names that
// most names contain ("a", "e"), an event most games have, with a rare
// position, by rating, deep pages.
var heavySearches = []string{
	"/search?player=a&perPage=500",
	"/search?player=a&moves=a3+a6+b3+b6+c3+c6",
	"/search?event=rated&perPage=200",
	"/search?player=e&sort=rating&perPage=500",
	"/search?white=a&black=e&page=3&perPage=500",
	"/search?player=a&event=game&result=1-0",
	"/players?name=a&limit=500",
	"/search?player=zzqqxx",
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
