package main

import (
	"context"
	"errors"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/chessbook/chessbook/explorer"
	"github.com/chessbook/chessbook/polyglot"
	"github.com/chessbook/chessbook/store"
)

// The serve command: the store behind the HTTP JSON API of package
// explorer (GET /lichess, /masters, /lichess/history, /masters/pgn/{id},
// and ours: /moves, /games, /game/{id}; see
// explorer.NewHandler). The command opens the store read-only (no lock:
// builds, other servers and commands may use it meanwhile), follows a
// build's commits (store.Live, checked every refreshEvery), listens with a
// cap on connections, and shuts the server down on SIGINT or SIGTERM.

var serveCmd = &command{
	name:    "serve",
	args:    "[-addr HOST:PORT] [-cache MiB] [-max-conns N] [-book BOOK.bin]",
	summary: "serve the store over HTTP: the explorer page at /, the lichess explorer's API (/lichess, /masters, /lichess/history) and ours (/moves, /games, /game/ID) (-db DIR)",
	run:     runServe,
}

// shutdownTimeout bounds the wait for requests in flight at shutdown.
const shutdownTimeout = 10 * time.Second

// refreshEvery is how often serve looks for a build's new commits.
const refreshEvery = 2 * time.Second

func runServe(e *env, args []string) error {
	fs := e.flags()
	addr := fs.String("addr", "127.0.0.1:8080", "the address to listen on, HOST:PORT (port 0: any free port, logged at start)")
	cache := fs.Int("cache", 512, "the store's block cache in MiB: the more of the store it holds, the fewer reads from disk")
	maxConns := fs.Int("max-conns", 1024, "the most client connections open at once; more wait to be accepted")
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
	if e.db == "" {
		return badInput("no book given: use 'bookquery -db DIR serve ...' with DIR a store built by bookbuild")
	}
	var opts explorer.HandlerOptions
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
	ln = limitListener(ln, *maxConns)
	logger := log.New(e.stderr, "bookquery serve: ", log.LstdFlags)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() {
		<-ctx.Done()
		stop() // a second signal during the shutdown kills the process
	}()
	go follow(ctx, live, logger)
	logger.Printf("serving %s on http://%s (the explorer page at /; the API: GET /lichess?play=e2e4,e7e5, /masters, /moves, /games, /game/ID); stop with SIGINT or SIGTERM", live.Dir(), ln.Addr())
	return serve(ctx, ln, explorer.NewHandlerWith(live, opts), logger)
}

// follow refreshes live every refreshEvery until ctx is done, logging
// each new state and each failure (the server goes on with the state it
// has).
func follow(ctx context.Context, live *store.Live, logger *log.Logger) {
	t := time.NewTicker(refreshEvery)
	defer t.Stop()
	var lastErr string
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		fresh, err := live.Refresh()
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

// limitListener returns ln accepting at most n connections open at once:
// Accept waits while n are open.
func limitListener(ln net.Listener, n int) net.Listener {
	return &limitedListener{Listener: ln, sem: make(chan struct{}, n)}
}

type limitedListener struct {
	net.Listener
	sem chan struct{}
}

// Accept waits for a free slot, then for a connection.
func (l *limitedListener) Accept() (net.Conn, error) {
	l.sem <- struct{}{}
	c, err := l.Listener.Accept()
	if err != nil {
		<-l.sem
		return nil, err
	}
	return &limitedConn{Conn: c, release: func() { <-l.sem }}, nil
}

type limitedConn struct {
	net.Conn
	once    sync.Once
	release func()
}

// Close closes the connection and frees its slot.
func (c *limitedConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.release)
	return err
}

// serve serves h on ln until ctx is done, then shuts the server down,
// letting the requests in flight finish (for up to shutdownTimeout).
func serve(ctx context.Context, ln net.Listener, h http.Handler, logger *log.Logger) error {
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      30 * time.Second,
		IdleTimeout:       2 * time.Minute,
		ErrorLog:          logger,
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
