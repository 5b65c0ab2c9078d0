package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// BenchmarkServeBurst measures what an attack on 'bookquery serve' costs
// its other clients (bench/query.sh runs it on the large store). A steady
// light load, BOOKQUERY_BENCH_RATE requests/s (default 500) on a fixed
// schedule over 16 keep-alive connections, cycles over the page (/), a
// static file, /game/ID, /masters, /lichess and /moves for real game
// positions; b.N of them in each sub-benchmark, which reports their p50
// and p99 latency (from when each was due):
//
//   - quiet: the light load alone;
//   - burst=48: the same while 48 clients each ask for /games?page=1 of
//     a rare position (a scan of every stored game, 1.8 s on the large
//     store with the CPUs to itself), asking again as soon as answered
//     (after the Retry-After of a 503). It also reports the scans'
//     outcomes (answered, 503, failed: no answer, a dropped connection)
//     and the p50 of the answered scans' latency, waiting for the last
//     scan (up to 3 minutes) before it ends;
//   - search=128: the same while 128 clients each ask, over and over (after
//     the Retry-After of a 503), for a search whose cost grows with the
//     store (heavySearches: names most names contain, with a rare
//     position, by rating, an event most games have, /players of "a");
//     it reports their outcomes and answered p50 as burst=48 does;
//   - silent=10000: 10,000 connections are opened and left silent, and
//     the light requests are sent each on a new connection meanwhile
//     (their latency counts the connection's set-up).
func BenchmarkServeBurst(b *testing.B) {
	e := benchSetup(b)
	rate := 500.0
	if s := os.Getenv("BOOKQUERY_BENCH_RATE"); s != "" {
		r, err := strconv.ParseFloat(s, 64)
		if err != nil || r <= 0 {
			b.Fatalf("BOOKQUERY_BENCH_RATE=%q: want requests per second", s)
		}
		rate = r
	}
	cmd, base, logs := startServer(b, e.bin, e.db)
	addr := strings.TrimPrefix(base, "http://")
	ids, err := gameIDs(base, e.lines[:40])
	if err != nil {
		b.Fatal(err)
	}
	light := func(i int) string {
		i *= 7919
		line := strings.Join(e.lines[i%len(e.lines)], ",")
		switch i % 8 {
		case 0:
			return "/"
		case 1:
			return []string{"/static/style.css", "/static/app.js"}[i/8%2]
		case 2:
			return "/game/" + ids[i/8%len(ids)]
		case 3:
			return "/masters?play=" + line
		case 4, 5:
			return "/lichess?play=" + line
		}
		return "/moves?play=" + line
	}
	// Warm up: every position once.
	if _, err := load(addr, 8, 2*len(e.lines), 0, light); err != nil {
		b.Fatal(err)
	}
	measure := func(b *testing.B, fresh bool) {
		start := time.Now()
		var ds []time.Duration
		var err error
		if fresh {
			ds, err = loadFresh(addr, 16, b.N, rate, light)
		} else {
			ds, err = load(addr, 16, b.N, rate, light)
		}
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "req/s")
		reportLatencies(b, ds, "ms")
		b.ReportMetric(float64(slices.Max(ds))/float64(time.Millisecond), "max-ms")
	}
	b.Run("quiet", func(b *testing.B) { measure(b, false) })
	// The testing package runs each sub-benchmark with b.N = 1 first, then
	// with the -benchtime's N: that first run is a light request, no attack.
	b.Run("burst=48", func(b *testing.B) {
		if b.N == 1 {
			measure(b, false)
			return
		}
		ctx, stop := context.WithCancel(context.Background())
		sc := startScans(ctx, base, 48)
		measure(b, false)
		stop()
		sc.wait()
		sc.report(b, "scan")
	})
	b.Run("search=128", func(b *testing.B) {
		if b.N == 1 {
			measure(b, false)
			return
		}
		ctx, stop := context.WithCancel(context.Background())
		sc := startClients(ctx, base, 128, heavySearches)
		measure(b, false)
		stop()
		sc.wait()
		sc.report(b, "search")
	})
	b.Run("silent=10000", func(b *testing.B) {
		if b.N == 1 {
			measure(b, true)
			return
		}
		closeAll, opened := holdSilent(addr, 10000)
		measure(b, true)
		b.ReportMetric(float64(opened.Load()), "silent-opened")
		closeAll()
	})
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		b.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		b.Fatalf("serve: %v\n%s", err, logs.String())
	}
}

// gameIDs returns the ids of the top games of the positions of lines.
func gameIDs(base string, lines [][]string) ([]string, error) {
	var ids []string
	for _, l := range lines {
		resp, err := http.Get(base + "/lichess?topGames=4&play=" + strings.Join(l, ","))
		if err != nil {
			return nil, err
		}
		var m struct{ TopGames []struct{ ID string } }
		err = json.NewDecoder(resp.Body).Decode(&m)
		resp.Body.Close()
		if err != nil {
			return nil, err
		}
		for _, g := range m.TopGames {
			ids = append(ids, g.ID)
		}
	}
	if len(ids) == 0 {
		return nil, fmt.Errorf("no top games")
	}
	return ids, nil
}

// scans are the clients of a burst of scans.
type scans struct {
	wg               sync.WaitGroup
	ok, busy, failed atomic.Int64
	client           *http.Client
	mu               sync.Mutex
	took             []time.Duration // of the answered scans
	firstErr         string
}

// rareLines are positions that few stored games reach: their first page
// is a scan of every game.
var rareLines = []string{"a2a3,a7a6,b2b3", "g2g4,e7e5,f2f4", "h2h4,h7h5,a2a4", "b2b4,e7e5,a2a3", "g2g4,d7d5,h2h3"}

// heavySearches are searches whose cost grows with the store: names that
// most names contain, with a rare position, by rating, deep pages, an
// event most games have, the names that contain "a".
var heavySearches = []string{
	"/search?player=a&perPage=500",
	"/search?player=a&moves=a3+a6+b3+b6+c3+c6",
	"/search?player=e&sort=rating&perPage=100",
	"/search?event=ch&perPage=100",
	"/search?white=a&black=e&page=20&perPage=500",
	"/players?name=a&limit=500",
	"/search?player=zzqqxxw",
}

// startScans starts n clients that each ask for the first page of the
// games through a rare position, again and again until ctx is done.
func startScans(ctx context.Context, base string, n int) *scans {
	targets := make([]string, len(rareLines))
	for i, l := range rareLines {
		targets[i] = "/games?page=1&play=" + l
	}
	return startClients(ctx, base, n, targets)
}

// report reports the outcomes of the requests (of what) and the answered
// ones' p50.
func (s *scans) report(b *testing.B, what string) {
	b.ReportMetric(float64(s.ok.Load()), what+"s-ok")
	b.ReportMetric(float64(s.busy.Load()), what+"s-503")
	b.ReportMetric(float64(s.failed.Load()), what+"s-failed")
	if len(s.took) > 0 {
		slices.Sort(s.took)
		b.ReportMetric(s.took[len(s.took)/2].Seconds(), what+"-p50-s")
	}
	if s.firstErr != "" {
		b.Logf("a %s failed: %s", what, s.firstErr)
	}
}

// startClients starts n clients that each ask for one of targets, again
// and again (after the Retry-After of a 503) until ctx is done.
func startClients(ctx context.Context, base string, n int, targets []string) *scans {
	s := &scans{client: &http.Client{Timeout: 3 * time.Minute, Transport: &http.Transport{MaxIdleConnsPerHost: n}}}
	for i := range n {
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			target := base + targets[i%len(targets)]
			for ctx.Err() == nil {
				t0 := time.Now()
				resp, err := s.client.Get(target)
				var pause time.Duration
				switch {
				case err != nil:
					s.failed.Add(1)
					s.note(err.Error())
					pause = time.Second
				default:
					_, _ = io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
					switch resp.StatusCode {
					case http.StatusOK:
						s.ok.Add(1)
						s.mu.Lock()
						s.took = append(s.took, time.Since(t0))
						s.mu.Unlock()
					case http.StatusServiceUnavailable:
						s.busy.Add(1)
						secs, _ := strconv.Atoi(resp.Header.Get("Retry-After"))
						pause = time.Duration(max(secs, 1)) * time.Second
					default:
						s.failed.Add(1)
						s.note(resp.Status)
					}
				}
				select {
				case <-ctx.Done():
				case <-time.After(pause):
				}
			}
		}()
	}
	return s
}

func (s *scans) note(msg string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.firstErr == "" {
		s.firstErr = msg
	}
}

// wait waits for the scans under way to be answered.
func (s *scans) wait() { s.wg.Wait() }

// holdSilent opens n connections to addr in the background, 256 dials at
// a time, and sends nothing on them; it returns once a quarter of them
// are open (or after 10 s), the rest are opened meanwhile. closeAll waits
// for the last dial and closes every connection opened.
func holdSilent(addr string, n int) (closeAll func(), opened *atomic.Int64) {
	var mu sync.Mutex
	var conns []net.Conn
	opened = new(atomic.Int64)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		sem := make(chan struct{}, 256)
		for range n {
			sem <- struct{}{}
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer func() { <-sem }()
				c, err := net.DialTimeout("tcp", addr, 30*time.Second)
				if err != nil {
					return
				}
				opened.Add(1)
				mu.Lock()
				conns = append(conns, c)
				mu.Unlock()
			}()
		}
	}()
	for deadline := time.Now().Add(10 * time.Second); opened.Load() < int64(n)/4 && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	return func() {
		wg.Wait()
		mu.Lock()
		defer mu.Unlock()
		for _, c := range conns {
			c.Close()
		}
	}, opened
}

// loadFresh is load with every request on a new connection, closed after
// the answer: the latency counts the connection's set-up.
func loadFresh(addr string, conns, n int, rate float64, target func(i int) string) ([]time.Duration, error) {
	var next atomic.Int64
	var mu sync.Mutex
	var ds []time.Duration
	errs := make(chan error, conns)
	var wg sync.WaitGroup
	start := time.Now().Add(10 * time.Millisecond)
	for range min(conns, n) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var mine []time.Duration
			for {
				i := int(next.Add(1)) - 1
				if i >= n {
					break
				}
				t0 := start.Add(time.Duration(float64(i) / rate * float64(time.Second)))
				time.Sleep(time.Until(t0))
				err := func() error {
					conn, err := net.DialTimeout("tcp", addr, time.Minute)
					if err != nil {
						return err
					}
					defer conn.Close()
					conn.SetDeadline(time.Now().Add(time.Minute))
					if _, err := fmt.Fprintf(conn, "GET %s HTTP/1.1\r\nHost: bench\r\nConnection: close\r\n\r\n", target(i)); err != nil {
						return err
					}
					return readResponse(bufio.NewReader(conn))
				}()
				if err != nil {
					errs <- fmt.Errorf("GET %s on a new connection: %w", target(i), err)
					return
				}
				mine = append(mine, time.Since(t0))
			}
			mu.Lock()
			ds = append(ds, mine...)
			mu.Unlock()
		}()
	}
	wg.Wait()
	close(errs)
	return ds, <-errs
}
