package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/chessbook/chessbook/book/build"
	"github.com/chessbook/chessbook/explorer"
	"github.com/chessbook/chessbook/internal/querytest"
	"github.com/chessbook/chessbook/internal/testutil"
	"github.com/chessbook/chessbook/store"
)

// openStore opens the store in dir read-only, as serve does, until the
// test ends.
func openStore(t testing.TB, dir string) *store.Store {
	t.Helper()
	st, err := store.Open(dir, store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// TestServeMoves checks that GET /moves answers exactly what moves -json
// prints for the same position, whichever way the position is given.
func TestServeMoves(t *testing.T) {
	db := championsBook(t)
	ruyFEN := "r1bqkbnr/1ppp1ppp/p1n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 4"
	cases := []struct {
		args    []string // of moves -json
		targets []string // the same question to the API
	}{
		{nil, []string{"/moves", "/moves?fen=", "/moves?play=", "/moves?fen=" + url.QueryEscape("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")}},
		{[]string{"-moves", "e4 e5"}, []string{"/moves?play=e2e4,e7e5", "/moves?moves=e4+e5", "/moves?moves=e4,e5", "/moves?moves=1.e4+e5", "/moves?moves=1.+e4+1...+e5"}},
		{[]string{"-moves", "e4 e5 Nf3 Nc6 Bb5 a6"}, []string{"/moves?play=e2e4,e7e5,g1f3,b8c6,f1b5,a7a6", "/moves?moves=" + url.QueryEscape("1.e4 e5 2.Nf3 Nc6 3.Bb5+ a6")}},
		{[]string{"-fen", ruyFEN}, []string{"/moves?fen=" + url.QueryEscape(ruyFEN)}},
		{[]string{"-fen", ruyFEN, "-moves", "Ba4 Nf6 O-O"}, []string{"/moves?fen=" + url.QueryEscape(ruyFEN) + "&play=b5a4,g8f6,e1g1", "/moves?fen=" + url.QueryEscape(ruyFEN) + "&moves=Ba4+Nf6+O-O"}},
		{[]string{"-moves", "d4 Nf6 c4 e6", "-limit", "3"}, []string{"/moves?play=d2d4,g8f6,c2c4,e7e6&moves=3"}},
		{[]string{"-moves", "a4 h5 a5 h4"}, []string{"/moves?play=a2a4,h7h5,a4a5,h5h4"}}, // not in the book
	}
	// The command first: the store admits one opener at a time.
	want := make([]string, len(cases))
	for i, c := range cases {
		want[i] = mustRun(t, append([]string{"-db", db, "moves", "-json"}, c.args...)...)
	}
	srv := httptest.NewServer(explorer.NewHandler(openStore(t, db)))
	defer srv.Close()
	for i, c := range cases {
		for _, target := range c.targets {
			code, body, ctype := querytest.Get(t, srv, target)
			if code != http.StatusOK || ctype != "application/json; charset=utf-8" {
				t.Errorf("GET %s: %d %s %s", target, code, ctype, body)
			}
			if body != want[i] {
				t.Errorf("GET %s =\n%s\nmoves -json %q =\n%s", target, body, c.args, want[i])
			}
		}
	}
	var m explorer.Moves
	if _, body, _ := querytest.Get(t, srv, "/moves?play=e2e4,e7e5,g1f3,b8c6,f1b5"); json.Unmarshal([]byte(body), &m) != nil || m.Opening == nil || !strings.Contains(m.Opening.Name, "Ruy Lopez") || len(m.Moves) < 5 {
		t.Errorf("Ruy Lopez: %s", body)
	}
	// HEAD: the headers only.
	if code, body, _ := querytest.Do(t, srv, http.MethodHead, "/moves?play=e2e4"); code != http.StatusOK || body != "" {
		t.Errorf("HEAD /moves: %d %q", code, body)
	}
}

// TestServeShutdown checks that serve stops when its context is done,
// after the requests in flight are answered.
func TestServeShutdown(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	started := make(chan struct{})
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		close(started)
		time.Sleep(300 * time.Millisecond)
		io.WriteString(w, "done")
	})
	var logs syncBuffer
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- serve(ctx, ln, h, log.New(&logs, "", 0)) }()

	answered := make(chan string, 1)
	go func() {
		resp, err := http.Get("http://" + ln.Addr().String() + "/slow")
		if err != nil {
			answered <- err.Error()
			return
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		answered <- string(b)
	}()
	<-started
	cancel()
	if got := <-answered; got != "done" {
		t.Errorf("request in flight at shutdown: %q", got)
	}
	select {
	case err := <-served:
		if err != nil {
			t.Errorf("serve: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("serve did not return")
	}
	if l := logs.String(); !strings.Contains(l, "shutting down\n") || !strings.HasSuffix(l, "stopped\n") {
		t.Errorf("log %q", l)
	}
	if _, err := net.Dial("tcp", ln.Addr().String()); err == nil {
		t.Error("still listening after shutdown")
	}
}

// syncBuffer is a bytes.Buffer safe for concurrent use.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// buildBinary builds bookquery into a temporary directory of the test.
func buildBinary(t testing.TB) string {
	t.Helper()
	gobin := testutil.GoTool(t)
	bin := filepath.Join(t.TempDir(), "bookquery")
	if out, err := exec.Command(gobin, "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// startServer runs 'bookquery -db db serve -addr 127.0.0.1:0' and returns
// the command, its base URL and its stderr as it comes.
func startServer(t testing.TB, bin, db string) (*exec.Cmd, string, *syncBuffer) {
	t.Helper()
	cmd := exec.Command(bin, "-db", db, "serve", "-addr", "127.0.0.1:0")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	var logs syncBuffer
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		re := regexp.MustCompile(`on (http://[0-9.:]+) `)
		for sc.Scan() {
			logs.Write(append(sc.Bytes(), '\n'))
			if m := re.FindStringSubmatch(sc.Text()); m != nil {
				addr <- m[1]
			}
		}
	}()
	select {
	case u := <-addr:
		return cmd, u, &logs
	case <-time.After(30 * time.Second):
		t.Fatalf("no address logged: %s", logs.String())
	}
	return nil, "", nil
}

// TestServeBinary runs the command: it serves, and SIGTERM stops it with
// exit status 0.
func TestServeBinary(t *testing.T) {
	bin := buildBinary(t)
	db := championsBook(t)
	cmd, base, logs := startServer(t, bin, db)
	resp, err := http.Get(base + "/moves?play=e2e4")
	if err != nil {
		t.Fatal(err)
	}
	var m explorer.Moves
	if err := json.NewDecoder(resp.Body).Decode(&m); err != nil || resp.StatusCode != 200 || len(m.Moves) == 0 {
		t.Errorf("GET /moves?play=e2e4: %d %+v %v", resp.StatusCode, m, err)
	}
	resp.Body.Close()
	// While it serves, other readers use the store too, and a build adds
	// games that the server answers with after its next refresh.
	if out, errOut, code := runCmd(t, "-db", db, "moves"); code != 0 || !strings.Contains(out, "e4") {
		t.Errorf("moves while serving: exit status %d, stdout %q, stderr %q", code, out, errOut)
	}
	before := m.White + m.Draws + m.Black + m.Unknown
	res, err := build.Run(context.Background(), build.RunOptions{Dir: db, Workers: 2, Options: build.Options{Inputs: []string{"../../testdata/ep_pinned.pgn"}}})
	if err != nil || res.Stats == nil || res.Stats.Games == 0 {
		t.Fatalf("build while serving: %v, %+v", err, res.Stats)
	}
	deadline := time.Now().Add(4 * refreshEvery)
	for {
		resp, err := http.Get(base + "/moves?play=e2e4")
		if err != nil {
			t.Fatal(err)
		}
		var after explorer.Moves
		err = json.NewDecoder(resp.Body).Decode(&after)
		resp.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		if n := after.White + after.Draws + after.Black + after.Unknown; n > before {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the server still answers %d games after 1.e4 %v after a build added games that play it; log:\n%s", before, 4*refreshEvery, logs.String())
		}
		time.Sleep(100 * time.Millisecond)
	}
	if l := logs.String(); !strings.Contains(l, "store changed") {
		t.Errorf("no new state logged:\n%s", l)
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Errorf("after SIGTERM: %v; log:\n%s", err, logs.String())
	}
	if l := logs.String(); !strings.Contains(l, "shutting down") || !strings.Contains(l, "stopped") {
		t.Errorf("log:\n%s", l)
	}
	// Bad usage and a missing store, as the other commands.
	for _, tc := range []struct {
		args []string
		code int
	}{
		{[]string{"serve"}, 2},
		{[]string{"-db", db, "serve", "extra"}, 2},
		{[]string{"-db", filepath.Join(t.TempDir(), "none"), "serve"}, 1},
		{[]string{"-db", db, "serve", "-addr", "256.0.0.1:99999"}, 1},
	} {
		if _, errOut, code := runCmd(t, tc.args...); code != tc.code || !strings.HasPrefix(errOut, "bookquery: serve: ") {
			t.Errorf("bookquery %q: exit status %d, stderr %q; want %d", tc.args, code, errOut, tc.code)
		}
	}
}

// TestServeGame: GET /game/{id} gives the same game as the game command,
// as JSON or PGN; bad and unknown ids get 400 and 404.
func TestServeGame(t *testing.T) {
	db := championsBook(t)
	// The CLI first: the server holds the store's lock.
	var mv explorer.Moves
	if err := json.Unmarshal([]byte(mustRun(t, "-db", db, "moves", "-json")), &mv); err != nil || len(mv.TopGames) == 0 {
		t.Fatalf("no top games at the start: %v", err)
	}
	id := mv.TopGames[0].ID
	wantJSON, wantPGN := mustRun(t, "-db", db, "game", "-json", id), mustRun(t, "-db", db, "game", id)
	srv := httptest.NewServer(explorer.NewHandler(openStore(t, db)))
	defer srv.Close()
	code, body, _ := querytest.Get(t, srv, "/game/"+id)
	if code != 200 || strings.TrimSpace(body) != strings.TrimSpace(wantJSON) {
		t.Fatalf("/game/%s: %d\n%s", id, code, body)
	}
	code, body, _ = querytest.Get(t, srv, "/game/"+id+"?format=pgn")
	if code != 200 || body != wantPGN {
		t.Fatalf("/game/%s?format=pgn: %d\n%s", id, code, body)
	}
	for target, want := range map[string]int{"/game/xyz": 400, "/game/0000000000000000": 400, "/game/0123456789abcdef": 404} {
		if code, body, _ := querytest.Get(t, srv, target); code != want || !strings.Contains(body, `"error"`) {
			t.Errorf("%s: %d %s, want %d with an error", target, code, body, want)
		}
	}
}

// TestConnLimiterIdle: at the cap of connections, idle keep-alive
// connections and silent ones (opened, nothing sent) do not lock a new
// client out: it is answered, and the connection idle longest is the one
// closed. While every connection is answering a request, a new one waits
// for a place.
func TestConnLimiterIdle(t *testing.T) {
	const limit = 4
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	limited := newConnLimiter(ln, limit)
	hold := make(chan struct{})
	var entered sync.WaitGroup
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/hold" {
			entered.Done()
			<-hold
		}
		io.WriteString(w, "ok")
	})
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- serve(ctx, limited, h, log.New(io.Discard, "", 0)) }()
	defer func() {
		cancel()
		if err := <-served; err != nil {
			t.Errorf("serve: %v", err)
		}
	}()
	addr := ln.Addr().String()
	// get sends GET path on a new connection, and fails the test unless it
	// is answered (within a long guard: it must not wait for a timeout).
	get := func(path string) {
		t.Helper()
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		c.SetDeadline(time.Now().Add(20 * time.Second))
		fmt.Fprintf(c, "GET %s HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", path)
		if err := readResponse(bufio.NewReader(c)); err != nil {
			t.Fatalf("GET %s beside %d idle connections: %v", path, limit, err)
		}
	}
	// limit keep-alive connections, each answered once and left idle.
	var idle []net.Conn
	for range limit {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		fmt.Fprintf(c, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
		if err := readResponse(bufio.NewReader(c)); err != nil {
			t.Fatal(err)
		}
		idle = append(idle, c)
		// The server marks it idle after the answer: wait for that, so
		// that the order of the idle ones is the order of these.
		for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(time.Millisecond) {
			limited.mu.Lock()
			n := limited.idle.Len()
			limited.mu.Unlock()
			if n == len(idle) {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("%d connections idle, want %d", n, len(idle))
			}
		}
	}
	get("/new")
	// The first idle one was closed for it, the others are open.
	for i, c := range idle {
		c.SetReadDeadline(time.Now().Add(50 * time.Millisecond))
		_, err := c.Read(make([]byte, 1))
		var ne net.Error
		timedOut := errors.As(err, &ne) && ne.Timeout()
		if (i == 0) == timedOut {
			t.Errorf("idle connection %d: read %v; want only the first closed", i, err)
		}
	}
	// Silent connections, many more than the cap.
	for range 10 * limit {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
	}
	get("/after-silent")
	// Every place busy with a request: a new client waits for one.
	entered.Add(limit)
	var holders sync.WaitGroup
	for range limit {
		holders.Add(1)
		go func() { defer holders.Done(); get("/hold") }()
	}
	entered.Wait()
	waiting := make(chan struct{})
	go func() { get("/new"); close(waiting) }()
	select {
	case <-waiting:
		t.Error("a new connection was answered while every place was busy")
	case <-time.After(100 * time.Millisecond): // (a broken cap may pass unseen, never a good one fail)
	}
	close(hold)
	holders.Wait()
	<-waiting
}

// TestConnLimiterSparesPending: at the cap, a connection whose request has
// arrived but is not read yet is spared, though it is the oldest: the
// silent one is closed for the new connection.
func TestConnLimiterSparesPending(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	l := newConnLimiter(ln, 2)
	defer l.Close()
	dial := func() (client, server net.Conn) {
		t.Helper()
		accepted := make(chan net.Conn, 1)
		go func() {
			c, err := l.Accept()
			if err != nil {
				t.Error(err)
			}
			accepted <- c
		}()
		client, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { client.Close() })
		return client, <-accepted
	}
	talker, talkerSrv := dial()
	_, silentSrv := dial()
	defer talkerSrv.Close()
	fmt.Fprintf(talker, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
	for deadline := time.Now().Add(20 * time.Second); !hasPending(talkerSrv.(*limitedConn).Conn); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the request never arrived")
		}
	}
	_, newSrv := dial()
	defer newSrv.Close()
	if !silentSrv.(*limitedConn).gone || talkerSrv.(*limitedConn).gone {
		t.Errorf("at the cap: the silent connection closed %v, the one with a request closed %v; want the silent one only", silentSrv.(*limitedConn).gone, talkerSrv.(*limitedConn).gone)
	}
}
