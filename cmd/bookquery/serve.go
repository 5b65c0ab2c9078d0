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
	"strings"
	"syscall"
	"time"

	"github.com/chessbook/chessbook/explorer"
	"github.com/chessbook/chessbook/store"
)

// The serve command: the store behind the HTTP JSON API of package
// explorer (GET /moves?fen=FEN&play=e2e4,e7e5, GET /game/{id}; see
// explorer.NewHandler). The command opens the store read-only, listens,
// and shuts the server down on SIGINT or SIGTERM.

var serveCmd = &command{
	name:    "serve",
	args:    "[-addr HOST:PORT] [-cache MiB]",
	summary: "serve the store over HTTP: GET /moves?fen=FEN&play=e2e4,e7e5 answers as 'moves -json' (-db DIR)",
	run:     runServe,
}

// shutdownTimeout bounds the wait for requests in flight at shutdown.
const shutdownTimeout = 10 * time.Second

func runServe(e *env, args []string) error {
	fs := e.flags()
	addr := fs.String("addr", "localhost:8080", "the address to listen on, HOST:PORT (port 0: any free port, logged at start)")
	cache := fs.Int("cache", 512, "the store's block cache in MiB: the more of the store it holds, the fewer reads from disk")
	if err := e.parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return badInput("unexpected arguments %q", strings.Join(fs.Args(), " "))
	}
	if *cache < 1 {
		return badInput("-cache %d: want at least 1 (MiB)", *cache)
	}
	if e.db == "" {
		return badInput("no book given: use 'bookquery -db DIR serve ...' with DIR a store built by bookbuild")
	}
	st, err := store.Open(e.db, store.Options{ReadOnly: true, CacheSize: int64(*cache) << 20})
	if errors.Is(err, store.ErrNotExist) {
		return fmt.Errorf("%w (build one with 'bookbuild -db %s FILE.pgn')", err, e.db)
	}
	if err != nil {
		return err
	}
	defer st.Close()
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return fmt.Errorf("listening: %w", err)
	}
	logger := log.New(e.stderr, "bookquery serve: ", log.LstdFlags)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() {
		<-ctx.Done()
		stop() // a second signal during the shutdown kills the process
	}()
	logger.Printf("serving %s on http://%s (GET /moves?fen=FEN&play=e2e4,e7e5); stop with SIGINT or SIGTERM", st.Dir(), ln.Addr())
	return serve(ctx, ln, explorer.NewHandler(st), logger)
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
