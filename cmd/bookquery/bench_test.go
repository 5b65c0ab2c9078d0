package main

import (
	"bufio"
	"cmp"
	"context"
	"fmt"
	"io"
	"net"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/explorer"
	"github.com/chessbook/chessbook/internal/querytest"
	"github.com/chessbook/chessbook/internal/testutil"
	"github.com/chessbook/chessbook/store"
)

// Latency benchmarks over the store of shared/data/large (412,227 games):
//
//	BOOKQUERY_BENCH_DB=/tmp/large.db go test -run '^$' -bench . -benchtime 20x ./cmd/bookquery
//
// BOOKQUERY_BENCH_DB names a store built by 'bookbuild -db DIR
// ../shared/data/large/*.pgn.zst', reused as it is; without it the
// benchmarks build one in a temporary directory first (20 s, 600 MB).
// With BOOKQUERY_BENCH_COMPACT=DIR they run on a copy of the store
// compacted into DIR instead (store.Compact: one level, one value per
// position; made when DIR does not exist), to compare.
// bench/query.sh runs them with a cached store. They are skipped when the
// shared data is missing.
//
//   - BenchmarkColdMoves runs the built bookquery binary, 'moves' on real
//     game positions, one process per op, and reports the median.
//   - BenchmarkServe runs 'bookquery serve' on loopback and sends it GET
//     /moves for real game positions, as fast as it answers and at fixed
//     rates; it reports requests/s and the p50 and p99 latency.
//   - BenchmarkMovesHandler is the handler alone, in process: the CPU cost
//     of an answer without HTTP.

// benchPositions is the number of real positions the benchmarks cycle over.
const benchPositions = 4000

// benchEnv is what the benchmarks share: the store, the binary and the
// positions, made once per process.
type benchEnv struct {
	db, bin string
	lines   [][]string // UCI moves from the start to each position
	fens    []string   // each position's FEN
}

var (
	benchOnce sync.Once
	bench     *benchEnv
	benchErr  string // why the benchmarks skip or fail
	benchDir  string // the benchmarks' temporary directory, removed by TestMain
)

// largeInput returns the large corpus, or "" when it is missing.
func largeInput() string {
	dir := testutil.FindSharedData()
	if dir == "" {
		return ""
	}
	m, _ := filepath.Glob(filepath.Join(dir, "large", "*.pgn.zst"))
	if len(m) == 0 {
		return ""
	}
	return m[0]
}

// benchSetup returns the benchmarks' environment, building what is
// missing.
func benchSetup(b *testing.B) *benchEnv {
	b.Helper()
	input := largeInput()
	if input == "" {
		testutil.Missing(b, "../shared/data/large is missing")
	}
	benchOnce.Do(func() { bench, benchErr = makeBenchEnv(input) })
	if bench == nil {
		b.Fatal(benchErr)
	}
	return bench
}

func makeBenchEnv(input string) (*benchEnv, string) {
	tmp, err := os.MkdirTemp("", "bookquery-bench")
	if err != nil {
		return nil, err.Error()
	}
	benchDir = tmp
	e := &benchEnv{db: os.Getenv("BOOKQUERY_BENCH_DB"), bin: filepath.Join(tmp, "bookquery")}
	if out, err := exec.Command("go", "build", "-o", e.bin, ".").CombinedOutput(); err != nil {
		return nil, fmt.Sprintf("go build: %v\n%s", err, out)
	}
	if e.db == "" {
		e.db = filepath.Join(tmp, "large.db")
		cmd := exec.Command("go", "run", "../bookbuild", "-db", e.db, "-q", input)
		if out, err := cmd.CombinedOutput(); err != nil {
			return nil, fmt.Sprintf("bookbuild: %v\n%s", err, out)
		}
	}
	if compacted := os.Getenv("BOOKQUERY_BENCH_COMPACT"); compacted != "" {
		if err := compactCopy(e.db, compacted); err != nil {
			return nil, err.Error()
		}
		e.db = compacted
	}
	// Real positions: game i at ply i*7 mod (its length, at most 60, + 1),
	// so the plies spread from the start position to the middlegame.
	lines, err := querytest.ReadGameLines(input, benchPositions)
	if err != nil {
		return nil, err.Error()
	}
	for i, uci := range lines {
		ply := i * 7 % (min(len(uci), 60) + 1)
		line := uci[:ply]
		p := board.StartPosition()
		for _, u := range line {
			m, err := p.ParseUCI(u)
			if err != nil {
				return nil, err.Error()
			}
			p.Play(m)
		}
		e.lines = append(e.lines, line)
		e.fens = append(e.fens, p.FEN())
	}
	return e, ""
}

// compactCopy makes dst a copy of the store src compacted into one level,
// each position's entry merged into one value (store.Compact), unless dst
// exists: then it is taken as such a copy.
func compactCopy(src, dst string) error {
	if _, err := os.Stat(dst); err == nil {
		return nil
	}
	tmp := dst + ".tmp"
	os.RemoveAll(tmp)
	if out, err := exec.Command("cp", "-r", src, tmp).CombinedOutput(); err != nil {
		return fmt.Errorf("copying the store: %v\n%s", err, out)
	}
	st, err := store.Open(tmp, store.Options{})
	if err != nil {
		return err
	}
	err = st.Compact(context.Background())
	if cerr := st.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	return os.Rename(tmp, dst)
}

// TestMain removes the benchmarks' temporary directory.
func TestMain(m *testing.M) {
	code := m.Run()
	if benchDir != "" {
		os.RemoveAll(benchDir)
	}
	os.Exit(code)
}

// target returns the API request for position i: every fourth by FEN, the
// others by the moves from the start, as the lichess explorer's clients
// send them, to the endpoint BOOKQUERY_BENCH_PATH names (default /moves,
// or /lichess: the lichess explorer's answer, without the performance that
// reads every child position).
func (e *benchEnv) target(i int) string {
	i %= len(e.lines)
	path := cmp.Or(os.Getenv("BOOKQUERY_BENCH_PATH"), "/moves")
	if i%4 == 3 {
		return path + "?fen=" + url.QueryEscape(e.fens[i])
	}
	return path + "?play=" + strings.Join(e.lines[i], ",")
}

// reportLatencies reports the median and 99th percentile of ds.
func reportLatencies(b *testing.B, ds []time.Duration, unit string) {
	slices.Sort(ds)
	q := func(f float64) float64 {
		return float64(ds[min(len(ds)-1, int(f*float64(len(ds))))]) / float64(time.Millisecond)
	}
	b.ReportMetric(q(0.50), "p50-"+unit)
	b.ReportMetric(q(0.99), "p99-"+unit)
}

// BenchmarkColdMoves runs 'bookquery -db DB moves -moves LINE' as a new
// process each op (target: a median of 100 ms at most).
func BenchmarkColdMoves(b *testing.B) {
	e := benchSetup(b)
	var ds []time.Duration
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		line := e.lines[i*37%len(e.lines)]
		t0 := time.Now()
		out, err := exec.Command(e.bin, "-db", e.db, "moves", "-moves", strings.Join(line, " ")).CombinedOutput()
		ds = append(ds, time.Since(t0))
		if err != nil {
			b.Fatalf("moves %s: %v\n%s", line, err, out)
		}
	}
	reportLatencies(b, ds, "ms")
}

// BenchmarkServe measures 'bookquery serve' on loopback (targets: 5,000
// requests/s with a p99 of 10 ms at most; goal 20,000/s, 2 ms). Its
// sub-benchmarks, one server for all:
//
//   - max: as many requests as the server answers, from
//     BOOKQUERY_BENCH_CLIENTS (default 64) connections each sending its next
//     request when the last one is answered: the throughput, and latencies
//     that are mostly queueing (about clients / throughput);
//   - rate=5000, rate=20000: requests sent on a fixed schedule, that many
//     per second, whatever the answers (from up to 256 connections), so
//     the latency, measured from when a request was due, is what a client
//     sees at that load.
func BenchmarkServe(b *testing.B) {
	e := benchSetup(b)
	clients := 64
	if s := os.Getenv("BOOKQUERY_BENCH_CLIENTS"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			b.Fatalf("BOOKQUERY_BENCH_CLIENTS=%q: want a number of clients", s)
		}
		clients = n
	}
	cmd, base, logs := startServer(b, e.bin, e.db)
	addr := strings.TrimPrefix(base, "http://")
	// Warm up: every position once, so the store's blocks are cached as
	// they are in a server that has run for a while.
	if _, err := load(addr, min(clients, 8), len(e.lines), 0, e.target); err != nil {
		b.Fatal(err)
	}
	target := func(i int) string { return e.target(i * 7919) }
	run := func(name string, conns int, rate float64) {
		b.Run(name, func(b *testing.B) {
			start := time.Now()
			ds, err := load(addr, conns, b.N, rate, target)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "req/s")
			reportLatencies(b, ds, "ms")
		})
	}
	run("max", clients, 0)
	run("rate=5000", 256, 5000)
	run("rate=20000", 256, 20000)
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		b.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		b.Fatalf("serve: %v\n%s", err, logs.String())
	}
}

// load sends n requests to the server at addr over conns connections and
// returns their latencies; target gives the i-th request's path. With rate
// 0, each connection sends its next request as soon as the last one is
// answered, and a latency is the time from sending to the answer. With a
// rate, request i is due at i/rate seconds from the start and sent then,
// or as soon as a connection is free, and its latency is counted from
// when it was due. The client is a minimal HTTP/1.1 one (keep-alive,
// Content-Length bodies), so that the load costs the shared CPUs as
// little as possible.
func load(addr string, conns, n int, rate float64, target func(i int) string) ([]time.Duration, error) {
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
			conn, err := net.Dial("tcp", addr)
			if err != nil {
				errs <- err
				return
			}
			defer conn.Close()
			r := bufio.NewReaderSize(conn, 64<<10)
			w := bufio.NewWriter(conn)
			var mine []time.Duration
			for {
				i := int(next.Add(1)) - 1
				if i >= n {
					break
				}
				t0 := time.Now()
				if rate > 0 {
					t0 = start.Add(time.Duration(float64(i) / rate * float64(time.Second)))
					time.Sleep(time.Until(t0))
				}
				fmt.Fprintf(w, "GET %s HTTP/1.1\r\nHost: bench\r\n\r\n", target(i))
				if err := w.Flush(); err != nil {
					errs <- err
					return
				}
				if err := readResponse(r); err != nil {
					errs <- fmt.Errorf("GET %s: %w", target(i), err)
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

// readResponse reads one HTTP/1.1 response with a Content-Length body (or
// a chunked one) and fails unless its status is 200.
func readResponse(r *bufio.Reader) error {
	status, err := r.ReadSlice('\n')
	if err != nil {
		return err
	}
	ok := strings.HasPrefix(string(status), "HTTP/1.1 200 ")
	length, chunked := -1, false
	for {
		line, err := r.ReadSlice('\n')
		if err != nil {
			return err
		}
		if len(line) <= 2 {
			break
		}
		k, v, found := strings.Cut(string(line), ":")
		switch {
		case found && strings.EqualFold(k, "Content-Length"):
			length, err = strconv.Atoi(strings.TrimSpace(v))
			if err != nil {
				return err
			}
		case found && strings.EqualFold(k, "Transfer-Encoding"):
			chunked = strings.TrimSpace(v) == "chunked"
		}
	}
	if chunked && ok { // the body in chunks, then an empty trailer
		if _, err := io.Copy(io.Discard, httputil.NewChunkedReader(r)); err != nil {
			return err
		}
		_, err := r.ReadSlice('\n')
		return err
	}
	if length < 0 {
		return fmt.Errorf("no Content-Length in the answer %q", status)
	}
	if !ok {
		body := make([]byte, length)
		_, err := io.ReadFull(r, body)
		return fmt.Errorf("%s%s (%v)", status, body, err)
	}
	_, err = r.Discard(length)
	return err
}

// BenchmarkMovesHandler is the API's handler in process, without HTTP:
// what one answer costs.
func BenchmarkMovesHandler(b *testing.B) {
	e := benchSetup(b)
	st, err := store.Open(e.db, store.Options{ReadOnly: true})
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	h := explorer.NewHandler(st)
	for i := range e.lines { // warm the cache
		h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", e.target(i), nil))
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest("GET", e.target(i*7919), nil))
		if w.Code != 200 {
			b.Fatalf("%s: %d %s", e.target(i*7919), w.Code, w.Body)
		}
	}
}
