package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
	"unicode"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/pgn"
	"github.com/chessbook/chessbook/store"
)

// The serve command: the store behind an HTTP JSON API, in the manner of
// the lichess opening explorer.
//
//	GET /moves?fen=FEN&play=e2e4,e7e5
//
// answers what 'bookquery moves -json' prints for the position: fen
// (default: the start position) with the play moves played from it, given
// in UCI and separated by commas, as the lichess explorer takes them. The
// moves may be given as SAN instead, moves=e4+e5+Nf3 (spaces or commas,
// move numbers allowed). moves=N with a number N is the lichess explorer's
// other use of the parameter, the most moves to list; the totals still
// count every move.
//
// Bad input (a bad FEN, an illegal or unparsable move, a bad query) is
// answered with 400 and {"error": "..."}, an unknown path with 404, another
// method than GET or HEAD with 405, a failure of the store with 500; every
// answer is JSON. The store is opened read-only.

var serveCmd = &command{
	name:    "serve",
	args:    "[-addr HOST:PORT] [-cache MiB]",
	summary: "serve the store over HTTP: GET /moves?fen=FEN&play=e2e4,e7e5 answers as 'moves -json' (-db DIR)",
	run:     runServe,
}

const (
	// maxPlayPlies is the most moves a request may play: more than any
	// game, few enough that a request costs little.
	maxPlayPlies = 1000
	// shutdownTimeout bounds the wait for requests in flight at shutdown.
	shutdownTimeout = 10 * time.Second
)

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
	return serve(ctx, ln, newHandler(st), logger)
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

// server answers the API's requests from one store.
type server struct {
	st   *store.Store
	bufs sync.Pool // *bytes.Buffer for the answers
}

// newHandler returns the API's handler over st, every route in one place.
// A route is added with s.get, which answers 405 to other methods:
//
//	s.get(mux, "/game/{id}", s.game)
func newHandler(st *store.Store) http.Handler {
	s := &server{st: st}
	mux := http.NewServeMux()
	s.get(mux, "/moves", s.moves)
	s.get(mux, "/game/{id}", s.game)
	mux.HandleFunc("/", s.notFound)
	return mux
}

// get routes GET (and so HEAD) requests for the path pattern to h, and
// other methods to a 405 answer.
func (s *server) get(mux *http.ServeMux, pattern string, h http.HandlerFunc) {
	mux.HandleFunc("GET "+pattern, h)
	mux.HandleFunc(pattern, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Allow", "GET, HEAD")
		s.fail(w, r, http.StatusMethodNotAllowed, fmt.Sprintf("method %s not allowed: %s takes GET", r.Method, r.URL.Path))
	})
}

func (s *server) notFound(w http.ResponseWriter, r *http.Request) {
	s.fail(w, r, http.StatusNotFound, fmt.Sprintf("no such path %q (the API has GET /moves?fen=FEN&play=e2e4,e7e5)", r.URL.Path))
}

// moves answers GET /moves: see the top of this file.
func (s *server) moves(w http.ResponseWriter, r *http.Request) {
	q, err := url.ParseQuery(r.URL.RawQuery)
	if err != nil {
		s.fail(w, r, http.StatusBadRequest, fmt.Sprintf("bad query: %v", err))
		return
	}
	limit := 0
	sans := q.Get("moves")
	if n, err := strconv.Atoi(sans); err == nil { // lichess: moves=12
		if n < 0 {
			s.fail(w, r, http.StatusBadRequest, fmt.Sprintf("moves=%d: the most moves to list must be 0 (all) or more", n))
			return
		}
		limit, sans = n, ""
	}
	line, err := requestLine(q.Get("fen"), q.Get("play"), sans)
	if err != nil {
		s.fail(w, r, http.StatusBadRequest, err.Error())
		return
	}
	out, err := lookupMoves(s.st, line[len(line)-1])
	if err != nil {
		s.fail(w, r, http.StatusInternalServerError, err.Error())
		return
	}
	out.Opening = openingOf(line)
	if limit > 0 && len(out.Moves) > limit {
		out.Moves = out.Moves[:limit]
	}
	s.reply(w, r, http.StatusOK, out)
}

// game answers GET /game/{id}: the game as in 'game -json' (tags, SAN
// moves, PGN), or as PGN text when the client asks for text/plain or
// x-chess-pgn (Accept header, or ?format=pgn).
func (s *server) game(w http.ResponseWriter, r *http.Request) {
	id, err := store.ParseGameID(r.PathValue("id"))
	if err != nil {
		s.fail(w, r, http.StatusBadRequest, err.Error())
		return
	}
	g, err := loadGame(s.st, id)
	switch {
	case isNotFound(err):
		s.fail(w, r, http.StatusNotFound, err.Error())
		return
	case err != nil:
		s.fail(w, r, http.StatusInternalServerError, err.Error())
		return
	}
	if r.URL.Query().Get("format") == "pgn" || strings.Contains(r.Header.Get("Accept"), "pgn") || strings.Contains(r.Header.Get("Accept"), "text/plain") {
		w.Header().Set("Content-Type", "application/x-chess-pgn")
		w.WriteHeader(http.StatusOK)
		if r.Method != http.MethodHead {
			_, _ = w.Write(pgn.Append(nil, g))
		}
		return
	}
	s.reply(w, r, http.StatusOK, gameOutput(id, g))
}

// requestLine returns the positions from fen (or the start position)
// through the play moves (UCI, separated by commas) or the SAN moves
// (separated by spaces or commas, move numbers allowed), the position
// asked about last. Errors are the client's.
func requestLine(fen, play, sans string) ([]board.Position, error) {
	p := board.StartPosition()
	if fen != "" {
		var err error
		if p, err = board.ParseFEN(fen); err != nil {
			return nil, fmt.Errorf("bad FEN %q: %v", fen, err)
		}
	}
	// One position per move, counted first: 60 moves make 9 kB of
	// positions, worth allocating once.
	line := make([]board.Position, 1, 1+min(maxPlayPlies, strings.Count(play, ",")+strings.Count(sans, " ")+strings.Count(sans, ",")+1))
	line[0] = p
	if play != "" && sans != "" {
		return nil, errors.New("give the moves with play (UCI) or moves (SAN), not both")
	}
	start := p
	if play != "" {
		for s := range strings.SplitSeq(play, ",") {
			if s = strings.TrimSpace(s); s == "" {
				continue
			}
			if len(line) > maxPlayPlies {
				return nil, fmt.Errorf("play: more than %d moves", maxPlayPlies)
			}
			m, err := p.ParseUCI(s)
			if err != nil {
				return nil, fmt.Errorf("play: move %s%s: %v", moveNumber(&start, len(line)-1), s, err)
			}
			p.Play(m)
			line = append(line, p)
		}
		return line, nil
	}
	for tok := range strings.FieldsFuncSeq(sans, func(r rune) bool { return r == ',' || unicode.IsSpace(r) }) {
		tok = stripMoveNumber(tok)
		if tok == "" {
			continue
		}
		if len(line) > maxPlayPlies {
			return nil, fmt.Errorf("moves: more than %d moves", maxPlayPlies)
		}
		m, err := p.ParseSAN([]byte(tok))
		if err != nil {
			if um, uerr := p.ParseUCI(tok); uerr == nil {
				m, err = um, nil
			}
		}
		if err != nil {
			return nil, fmt.Errorf("moves: move %s%s: %v", moveNumber(&start, len(line)-1), tok, err)
		}
		p.Play(m)
		line = append(line, p)
	}
	return line, nil
}

// stripMoveNumber returns tok without a leading move number: "12.e4" and
// "12...Nf6" give "e4" and "Nf6", "12." and "12..." give "".
func stripMoveNumber(tok string) string {
	i := 0
	for i < len(tok) && tok[i] >= '0' && tok[i] <= '9' {
		i++
	}
	if i == 0 || i == len(tok) || tok[i] != '.' {
		return tok
	}
	return strings.TrimLeft(tok[i:], ".")
}

// errorJSON is the body of every answer but 200.
type errorJSON struct {
	Error string `json:"error"`
}

// fail answers with status and {"error": msg}; server errors are logged.
func (s *server) fail(w http.ResponseWriter, r *http.Request, status int, msg string) {
	if status >= 500 {
		s.logf(r, "%s %s: %d %s", r.Method, r.URL.RequestURI(), status, msg)
	}
	s.reply(w, r, status, errorJSON{Error: msg})
}

// reply answers with status and v in JSON, one line.
func (s *server) reply(w http.ResponseWriter, r *http.Request, status int, v any) {
	b, _ := s.bufs.Get().(*bytes.Buffer)
	if b == nil {
		b = new(bytes.Buffer)
	}
	defer s.bufs.Put(b)
	b.Reset()
	if err := json.NewEncoder(b).Encode(v); err != nil { // cannot happen: plain data
		s.logf(r, "%s %s: encoding the answer: %v", r.Method, r.URL.RequestURI(), err)
		status = http.StatusInternalServerError
		b.Reset()
		b.WriteString(`{"error":"encoding the answer failed"}` + "\n")
	}
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("Content-Length", strconv.Itoa(b.Len()))
	w.WriteHeader(status)
	if r.Method != http.MethodHead {
		_, _ = w.Write(b.Bytes()) // a client gone is no error of ours
	}
}

// logf logs to the serving http.Server's ErrorLog, or the standard logger.
func (s *server) logf(r *http.Request, format string, args ...any) {
	if srv, ok := r.Context().Value(http.ServerContextKey).(*http.Server); ok && srv.ErrorLog != nil {
		srv.ErrorLog.Printf(format, args...)
		return
	}
	log.Printf(format, args...)
}
