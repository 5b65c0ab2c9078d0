package main

import (
	"container/list"
	"context"
	"errors"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/chessbook/chessbook/explorer"
	"github.com/chessbook/chessbook/polyglot"
	"github.com/chessbook/chessbook/store"
)

// The serve command: the store behind the HTTP JSON API of package
// explorer (its routes: explorer.Routes, docs/http-api.md; see
// explorer.NewHandler). The command opens the store read-only (no lock:
// builds, other servers and commands may use it meanwhile), follows a
// build's commits (store.Live, checked every refreshEvery), listens with a
// cap on connections that idle ones do not hold (connLimiter), bounds the
// game scans (explorer.HandlerOptions.Scans), and shuts the server down on
// SIGINT or SIGTERM.

var serveCmd = &command{
	name:    "serve",
	args:    "[-addr HOST:PORT] [-cache MiB] [-max-conns N] [-scans N] [-book BOOK.bin]",
	summary: "serve the store over HTTP: the explorer page at /, " + apiRoutes() + " (-db DIR)",
	run:     runServe,
}

// apiRoutes lists the API's routes for the help, from explorer's table:
// "the lichess explorer's API (/lichess, ...) and ours (/moves, ...)".
func apiRoutes() string {
	var lichess, ours []string
	for _, rt := range explorer.Routes() {
		switch rt.API {
		case explorer.APILichess:
			lichess = append(lichess, rt.Pattern)
		case explorer.APIOurs:
			ours = append(ours, rt.Pattern)
		}
	}
	return "the lichess explorer's API (" + strings.Join(lichess, ", ") + ") and ours (" + strings.Join(ours, ", ") + ")"
}

// gcPercent is serve's GOGC, unless the GOGC environment variable sets
// one. The server's live heap is a few MiB (the store's block cache is
// outside it), so at Go's default of 100 a game scan, which decodes every
// stored game (some 300 MB of short-lived records on the large store), runs
// the collector a hundred times, and its pauses and assists slow the other
// requests threefold at the median (bench/query.sh's burst); at 1000 the heap grows to
// a few tens of MiB between collections.
const gcPercent = 1000

// shutdownTimeout bounds the wait for requests in flight at shutdown.
const shutdownTimeout = 10 * time.Second

// refreshEvery is how often serve looks for a build's new commits.
const refreshEvery = 2 * time.Second

func runServe(e *env, args []string) error {
	fs := e.flags()
	addr := fs.String("addr", "127.0.0.1:8080", "the address to listen on, HOST:PORT (port 0: any free port, logged at start)")
	cache := fs.Int("cache", 512, "the store's block cache in MiB: the more of the store it holds, the fewer reads from disk")
	maxConns := fs.Int("max-conns", 1024, "the most client connections open at once; at the cap a new one closes the one idle longest (between requests, or silent since it opened), and waits to be accepted only while every one is answering a request")
	scans := fs.Int("scans", 0, "the most game scans (GET /games with page=N, which replay every stored game, GET /search, which reads every game's summary or the names' posting lists, and GET /players, which reads every name) that run at once, each on its share of the CPUs but one; twice as many wait, more get 503 with Retry-After (0: half as many as the CPUs but one, at least 1)")
	bookPath := fs.String("book", "", "a Polyglot book (BOOK.bin) that the page shows beside the store's moves (GET /polyglot)")
	if err := e.parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return badInput("unexpected arguments %q", strings.Join(fs.Args(), " "))
	}
	if e.json {
		return badInput("-json: serve always answers JSON (and the page at /); -json is for the other commands")
	}
	if *cache < 1 {
		return badInput("-cache %d: want at least 1 (MiB)", *cache)
	}
	if *maxConns < 1 {
		return badInput("-max-conns %d: want at least 1", *maxConns)
	}
	if *scans < 0 {
		return badInput("-scans %d: want 0 (from the CPUs) or more", *scans)
	}
	if e.db == "" {
		return badInput("no book given: use 'bookquery -db DIR serve ...' with DIR a store built by bookbuild")
	}
	opts := explorer.HandlerOptions{Scans: *scans}
	if *bookPath != "" {
		b, err := polyglot.OpenBook(*bookPath)
		if err != nil {
			return badInput("-book: %v", err)
		}
		opts.Book, opts.BookName = b, filepath.Base(*bookPath)
	}
	live, err := store.OpenLive(e.db, store.Options{CacheSize: int64(*cache) << 20})
	if errors.Is(err, store.ErrNotExist) {
		return fmt.Errorf("%w (build one with 'bookbuild -db %s FILE.pgn')", err, e.db)
	}
	if err != nil {
		return err
	}
	defer live.Close()
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return fmt.Errorf("listening: %w", err)
	}
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent)
	}
	limited := newConnLimiter(ln, *maxConns)
	logger := log.New(e.stderr, "bookquery serve: ", log.LstdFlags)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() {
		<-ctx.Done()
		stop() // a second signal during the shutdown kills the process
	}()
	go follow(ctx, live, logger)
	logger.Printf("serving %s on http://%s (the explorer page at /; the API: GET /lichess?play=e2e4,e7e5, /masters, /moves, /games, /game/ID); stop with SIGINT or SIGTERM", live.Dir(), limited.Addr())
	return serve(ctx, limited, explorer.NewHandlerWith(live, opts), logger)
}

// follow refreshes live every refreshEvery until ctx is done, logging
// each new state and each failure (the server goes on with the state it
// has).
func follow(ctx context.Context, live *store.Live, logger *log.Logger) {
	t := time.NewTicker(refreshEvery)
	defer t.Stop()
	var lastErr string
	building := false
	logBuild := func() {
		w := live.Writer()
		switch {
		case w != nil && !building:
			st, release := live.Acquire()
			logger.Printf("%s; %s holds its lock: the answers are from those, and carry the %s header until it ends",
				explorer.BuildNote(st.Meta().Games), writerName(w), explorer.BuildHeader)
			release()
		case w == nil && building:
			logger.Printf("the build on the store has ended")
		}
		building = w != nil
	}
	logBuild()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		fresh, err := live.Refresh()
		logBuild()
		switch {
		case err != nil && err.Error() != lastErr:
			logger.Printf("store not refreshed, still serving the state opened before: %v", err)
			lastErr = err.Error()
		case fresh:
			st, release := live.Acquire()
			logger.Printf("store changed: now serving %d games", st.Meta().Games)
			release()
			lastErr = ""
		}
	}
}

// connLimiter is a listener that keeps at most max client connections
// open, not counting against the cap the connections that wait for a
// request: at the cap, a new connection closes the one that has waited
// longest without a request (a keep-alive connection between requests,
// or one that has sent nothing yet), and only when every connection is
// answering a request does Accept wait for one to close. So neither idle
// keep-alive clients nor silent connections lock other clients out. The
// http.Server tells it each connection's state through connState; a
// connection whose request has arrived but is not read yet (its goroutine
// has not run: a flood of connections keeps the server busy accepting) is
// not idle but slow, and is spared (hasPending).
type connLimiter struct {
	net.Listener
	max int

	mu     sync.Mutex
	cond   *sync.Cond // signalled when a connection closes or turns idle
	open   int        // connections open, each counted until its Close
	idle   list.List  // *limitedConn waiting for a request, longest first
	closed bool
}

// newConnLimiter returns ln keeping at most max connections open.
func newConnLimiter(ln net.Listener, max int) *connLimiter {
	l := &connLimiter{Listener: ln, max: max}
	l.cond = sync.NewCond(&l.mu)
	return l
}

// Accept waits while every connection is busy with a request, accepts a
// connection, and then, at the cap, closes the connection idle longest.
func (l *connLimiter) Accept() (net.Conn, error) {
	l.mu.Lock()
	for l.open >= l.max && l.idle.Len() == 0 && !l.closed {
		l.cond.Wait()
	}
	l.mu.Unlock()
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	lc := &limitedConn{Conn: c, l: l}
	for {
		l.mu.Lock()
		if l.closed {
			l.mu.Unlock()
			c.Close()
			return nil, net.ErrClosed
		}
		if l.open < l.max {
			l.open++
			lc.elem = l.idle.PushBack(lc) // idle until its first request
			l.mu.Unlock()
			return lc, nil
		}
		victim := l.victim()
		if victim == nil {
			l.cond.Wait() // the idle ones turned busy meanwhile
		}
		l.mu.Unlock()
		if victim != nil {
			victim.Close()
		}
	}
}

// victim takes the connection idle longest out of the list, or nil when
// none is idle; a connection whose request is waiting to be read goes to
// the back of the list instead. l.mu is held.
func (l *connLimiter) victim() *limitedConn {
	for range l.idle.Len() {
		e := l.idle.Front()
		c := e.Value.(*limitedConn)
		if hasPending(c.Conn) {
			l.idle.MoveToBack(e)
			continue
		}
		l.idle.Remove(e)
		c.elem = nil
		return c
	}
	return nil
}

// Close closes the listener and wakes an Accept that waits.
func (l *connLimiter) Close() error {
	l.mu.Lock()
	l.closed = true
	l.cond.Broadcast()
	l.mu.Unlock()
	return l.Listener.Close()
}

// connState is the http.Server's ConnState hook: it keeps the list of
// idle connections.
func (l *connLimiter) connState(c net.Conn, state http.ConnState) {
	lc, ok := c.(*limitedConn)
	if !ok {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	switch {
	case state == http.StateNew: // in the list since Accept
	case state == http.StateIdle && !lc.gone:
		if lc.elem != nil {
			l.idle.MoveToBack(lc.elem)
		} else {
			lc.elem = l.idle.PushBack(lc)
		}
		l.cond.Broadcast()
	case lc.elem != nil: // active, hijacked or closed
		l.idle.Remove(lc.elem)
		lc.elem = nil
	}
}

// limitedConn is a connection of a connLimiter.
type limitedConn struct {
	net.Conn
	l    *connLimiter
	elem *list.Element // in l.idle while idle; guarded by l.mu
	gone bool          // closed; guarded by l.mu
}

// Close closes the connection and frees its place.
func (c *limitedConn) Close() error {
	err := c.Conn.Close()
	c.l.mu.Lock()
	if !c.gone {
		c.gone = true
		c.l.open--
		if c.elem != nil {
			c.l.idle.Remove(c.elem)
			c.elem = nil
		}
		c.l.cond.Broadcast()
	}
	c.l.mu.Unlock()
	return err
}

// The server's timeouts. A client has readHeaderTimeout to send its
// request's headers, and the server writeTimeout to answer (the game scans
// stop before: explorer.DefaultScanTimeout); a keep-alive connection is
// closed after idleTimeout without a request, or before when a new one
// needs its place (connLimiter).
const (
	readHeaderTimeout = 5 * time.Second
	readTimeout       = 10 * time.Second
	writeTimeout      = 30 * time.Second
	idleTimeout       = 30 * time.Second
)

// serve serves h on ln until ctx is done, then shuts the server down,
// letting the requests in flight finish (for up to shutdownTimeout). A
// connLimiter ln learns the connections' states from the server.
func serve(ctx context.Context, ln net.Listener, h http.Handler, logger *log.Logger) error {
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: readHeaderTimeout,
		ReadTimeout:       readTimeout,
		WriteTimeout:      writeTimeout,
		IdleTimeout:       idleTimeout,
		ErrorLog:          logger,
	}
	if l, ok := ln.(*connLimiter); ok {
		srv.ConnState = l.connState
	}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done: // Serve returns only on failure before Shutdown
		return fmt.Errorf("serving: %w", err)
	case <-ctx.Done():
	}
	logger.Print("shutting down")
	sctx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		return fmt.Errorf("shutting down: %w", err)
	}
	if err := <-done; !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("serving: %w", err)
	}
	logger.Print("stopped")
	return nil
}
