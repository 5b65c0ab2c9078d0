package explorer

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"net/http"
	"net/url"
	"path"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/pgn"
	"github.com/chessbook/chessbook/store"
)

// The HTTP JSON API over a store, in the manner of the lichess opening
// explorer:
//
//	GET /moves?fen=FEN&play=e2e4,e7e5
//
// answers what 'bookquery moves -json' prints for the position: fen
// (default: the start position) with the play moves played from it, given
// in UCI and separated by commas, as the lichess explorer takes them
// (Notation UCIList). The moves may be given in SAN instead, moves=e4+e5+Nf3
// (Notation Movetext: spaces or commas, move numbers allowed). moves=N with
// a number N is the lichess explorer's other use of the parameter, the
// most moves to list; the totals still count every move.
//
//	GET /game/{id}
//
// answers a stored game as 'bookquery game -json' prints it, or as PGN
// text when the client asks for text/plain or x-chess-pgn (Accept header,
// or ?format=pgn).
//
// Bad input (a bad FEN, an illegal or unparsable move, a bad query) is
// answered with 400 and {"error": "..."}, an unknown path or game with
// 404, another method than GET, HEAD or OPTIONS with 405, a failure of the
// store (damaged data, say) with 500, and the server goes on answering;
// every answer but a PGN is JSON. Error messages quote at most
// maxEcho bytes of the request. Every answer allows any origin (CORS, as
// the lichess explorer does), and OPTIONS answers a browser's preflight.

// MaxPlayPlies is the most moves a request may play: more than any game,
// few enough that a request costs little.
const MaxPlayPlies = 1000

// maxEcho bounds what an error message quotes of a request.
const maxEcho = 200

// Source gives each request the store it reads: a *store.Store, or a
// *store.Live that follows a build.
type Source interface {
	// Acquire returns the store and the function to call when the
	// request is done with it.
	Acquire() (*store.Store, func())
}

// refresher is a Source that can open a newer state of its store
// (store.Live): a request that fails on the store is tried again once
// after a Refresh that found one.
type refresher interface {
	Refresh() (bool, error)
}

// server answers the API's requests from one store.
type server struct {
	src  Source
	bufs sync.Pool // *bytes.Buffer for the answers
}

// NewHandler returns the API's handler over src, every route in one place.
// A route is added with s.get, which answers 405 to other methods:
//
//	s.get(mux, "/game/{id}", s.game)
//
// The handler logs the failures of the store (500) to the ErrorLog of the
// http.Server that serves it, else to the standard logger.
func NewHandler(src Source) http.Handler {
	s := &server{src: src}
	mux := http.NewServeMux()
	s.get(mux, "/moves", s.moves)
	s.get(mux, "/game/{id}", s.game)
	mux.HandleFunc("/", s.notFound)
	return s.guard(mux)
}

// guard wraps the routes: CORS headers, preflight requests, paths that
// need cleaning (ServeMux would redirect them with an HTML body), and a
// panic answered with a 500 instead of a dropped connection.
func (s *server) guard(mux *http.ServeMux) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				s.fail(w, r, http.StatusInternalServerError, fmt.Sprintf("internal error: %v", v))
			}
		}()
		h := w.Header()
		h.Set("Access-Control-Allow-Origin", "*")
		if r.Method == http.MethodOptions {
			h.Set("Allow", "GET, HEAD, OPTIONS")
			h.Set("Access-Control-Allow-Methods", "GET, HEAD, OPTIONS")
			h.Set("Access-Control-Allow-Headers", "*")
			h.Set("Access-Control-Max-Age", "86400")
			w.WriteHeader(http.StatusNoContent)
			return
		}
		if c := cleanPath(r.URL.Path); c != r.URL.Path {
			r2 := *r
			u := *r.URL
			u.Path, u.RawPath = c, ""
			r2.URL = &u
			r = &r2
		}
		mux.ServeHTTP(w, r)
	})
}

// cleanPath returns p with repeated slashes, . and .. resolved, as
// ServeMux wants it.
func cleanPath(p string) string {
	if p == "" {
		return "/"
	}
	if p[0] != '/' {
		p = "/" + p
	}
	c := path.Clean(p)
	if strings.HasSuffix(p, "/") && c != "/" {
		c += "/"
	}
	return c
}

// query runs f on an Explorer over the source's store. When f fails on
// the store (not with a missing game, a bad request's answer) and the
// source has a newer state of the store (a build committed, and maybe
// removed a file the old state needed), f runs once more, on that state.
func (s *server) query(f func(x *Explorer) error) error {
	for try := 0; ; try++ {
		st, release := s.src.Acquire()
		err := f(New(st))
		release()
		if err == nil || try > 0 || errors.Is(err, store.ErrGameNotFound) {
			return err
		}
		r, ok := s.src.(refresher)
		if !ok {
			return err
		}
		if fresh, rerr := r.Refresh(); rerr != nil || !fresh {
			return err
		}
	}
}

// get routes GET (and so HEAD) requests for the path pattern to h, and
// other methods to a 405 answer.
func (s *server) get(mux *http.ServeMux, pattern string, h http.HandlerFunc) {
	mux.HandleFunc("GET "+pattern, h)
	mux.HandleFunc(pattern, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Allow", "GET, HEAD, OPTIONS")
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
	var out *Moves
	err = s.query(func(x *Explorer) (err error) { out, err = x.Moves(line); return err })
	if err != nil {
		s.fail(w, r, http.StatusInternalServerError, store.ErrorLine(err))
		return
	}
	out.Limit(limit)
	s.reply(w, r, http.StatusOK, out)
}

// requestLine returns the positions from fen (or the start position)
// through the play moves (UCIList) or the moves moves (Movetext), the
// position asked about last. Errors are the client's.
func requestLine(fen, play, moves string) ([]board.Position, error) {
	p, err := ParseFEN(fen)
	if err != nil {
		return nil, err
	}
	switch {
	case play != "" && moves != "":
		return nil, errors.New("give the moves with play (UCI) or moves (SAN), not both")
	case play != "":
		line, err := ParseLine(p, play, LineOptions{Notation: UCIList, MaxPlies: MaxPlayPlies})
		if err != nil {
			return nil, fmt.Errorf("play: %w", err)
		}
		return line, nil
	}
	line, err := ParseLine(p, moves, LineOptions{Notation: Movetext, MaxPlies: MaxPlayPlies})
	if err != nil {
		return nil, fmt.Errorf("moves: %w", err)
	}
	return line, nil
}

// game answers GET /game/{id}: see the top of this file.
func (s *server) game(w http.ResponseWriter, r *http.Request) {
	id, err := store.ParseGameID(r.PathValue("id"))
	if err != nil {
		s.fail(w, r, http.StatusBadRequest, err.Error())
		return
	}
	var g *pgn.Game
	err = s.query(func(x *Explorer) (err error) { g, err = x.Game(id); return err })
	switch {
	case errors.Is(err, store.ErrGameNotFound):
		s.fail(w, r, http.StatusNotFound, err.Error())
		return
	case err != nil:
		s.fail(w, r, http.StatusInternalServerError, store.ErrorLine(err))
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
	s.reply(w, r, http.StatusOK, FullGame(id, g))
}

// errorReply is the body of every answer but 200.
type errorReply struct {
	Error string `json:"error"`
}

// fail answers with status and {"error": msg}; server errors are logged.
func (s *server) fail(w http.ResponseWriter, r *http.Request, status int, msg string) {
	msg = bounded(msg)
	if status >= 500 {
		s.logf(r, "%s %s: %d %s", r.Method, r.URL.RequestURI(), status, msg)
	}
	s.reply(w, r, status, errorReply{Error: msg})
}

// bounded cuts a message that quotes too much of a request: a message is
// a sentence or two and a few quotes of at most maxEcho bytes each, so
// anything past 4*maxEcho bytes is cut (at a character boundary).
func bounded(msg string) string {
	if len(msg) <= 4*maxEcho {
		return msg
	}
	cut := 4 * maxEcho
	for cut > 0 && !utf8.RuneStart(msg[cut]) {
		cut--
	}
	return msg[:cut] + fmt.Sprintf("... (%d bytes more)", len(msg)-cut)
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
