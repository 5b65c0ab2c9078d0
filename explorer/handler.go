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
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/keys"
	"github.com/chessbook/chessbook/pgn"
	"github.com/chessbook/chessbook/store"
)

// The HTTP JSON API over a store, with the lichess opening explorer's
// paths, parameter names and JSON, so that its clients work by changing
// their base URL:
//
//	GET /lichess?fen=FEN&play=e2e4,e7e5&speeds=blitz,rapid&ratings=2000,2200&since=2024-01&until=2024-06&moves=12&topGames=4&recentGames=4
//	GET /masters?fen=FEN&play=e2e4&since=1952&until=2024&moves=12&topGames=15
//	GET /lichess/history?fen=FEN&play=e2e4&speeds=...&ratings=...&since=...&until=...
//	GET /masters/pgn/{id}
//
// fen defaults to the start position; play is the moves played from it,
// in UCI, separated by commas (Notation UCIList); moves=N lists the N most
// played moves (the totals still count every move). The filters are read
// by Filters.Selection; every answer of the moves endpoints is a Moves.
// Ours besides:
//
//	GET /moves?...
//
// takes what /lichess takes, and moves may also be SAN text instead of a
// count, moves=e4+e5+Nf3 (Notation Movetext): it answers what 'bookquery
// moves -json' prints.
//
//	GET /games?...&page=N&perPage=M
//
// answers the top and recent games (a Games), or with page=N the Nth page
// of every game through the position (a GamePage, found by replaying the
// stored games: see book.GamesThrough).
//
//	GET /game/{id}
//
// answers a stored game as 'bookquery game -json' prints it, or as PGN
// text when the client asks for text/plain or x-chess-pgn (Accept header,
// or ?format=pgn), as /masters/pgn/{id} always does.
//
// Bad input (a bad FEN, an illegal or unparsable move, a bad or unknown
// parameter: none is ignored) is answered with 400 and {"error": "..."},
// an unknown path or game with 404, another method than GET, HEAD or
// OPTIONS with 405, a failure of the store (damaged data, say) with 500,
// and the server goes on answering; every answer but a PGN is JSON. Error
// messages quote at most maxEcho bytes of the request. Every answer allows
// any origin (CORS, as the lichess explorer does), and OPTIONS answers a
// browser's preflight.

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
	opts HandlerOptions
	bufs sync.Pool // *bytes.Buffer for the answers
}

// NewHandler returns the API's handler over src, every route in one place.
// A route is added with s.get, which answers 405 to other methods:
//
//	s.get(mux, "/game/{id}", s.game)
//
// The handler logs the failures of the store (500) to the ErrorLog of the
// http.Server that serves it, else to the standard logger.
func NewHandler(src Source) http.Handler { return NewHandlerWith(src, HandlerOptions{}) }

// NewHandlerWith is NewHandler with options: a Polyglot book to show.
func NewHandlerWith(src Source, opts HandlerOptions) http.Handler {
	s := &server{src: src, opts: opts}
	mux := http.NewServeMux()
	s.routePage(mux)
	s.get(mux, "/position/{code}", s.position)
	s.get(mux, "/polyglot", s.polyglotMoves)
	s.get(mux, "/moves", s.movesOf(ours))
	s.get(mux, "/lichess", s.movesOf(lichessAPI))
	s.get(mux, "/masters", s.movesOf(mastersAPI))
	s.get(mux, "/lichess/history", s.history)
	s.get(mux, "/games", s.games)
	s.get(mux, "/game/{id}", s.game)
	s.get(mux, "/masters/pgn/{id}", s.masterPGN)
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
	s.fail(w, r, http.StatusNotFound, fmt.Sprintf("no such path %q (the API has GET /moves, /lichess, /masters, /lichess/history, /games, /game/{id}, /masters/pgn/{id}, /position/{code}, /polyglot; the page is at /)", r.URL.Path))
}

// endpoint is what one of the moves endpoints takes.
type endpoint struct {
	params []string // the parameters it takes; any other is refused
	// sanMoves says whether moves may be SAN text (besides a count).
	sanMoves          bool
	defTop, defRecent int // topGames and recentGames when not given
	filters           bool
	// performance says whether the answer gives the moves' performance
	// (ours; the lichess explorer's answers have none, which saves
	// reading the position after every move).
	performance bool
}

// The moves endpoints: ours (/moves), and the lichess explorer's /lichess
// and /masters with their parameters and defaults.
var (
	ours        = endpoint{params: []string{"variant", "fen", "pos", "play", "moves", "speeds", "ratings", "since", "until", "topGames", "recentGames"}, sanMoves: true, defTop: DefaultGames, defRecent: DefaultGames, filters: true, performance: true}
	lichessAPI  = endpoint{params: []string{"variant", "fen", "play", "moves", "speeds", "ratings", "since", "until", "topGames", "recentGames"}, defTop: DefaultGames, defRecent: DefaultGames, filters: true}
	mastersAPI  = endpoint{params: []string{"variant", "fen", "play", "moves", "since", "until", "topGames"}, defTop: MaxGames}
	historyAPI  = endpoint{params: []string{"variant", "fen", "play", "speeds", "ratings", "since", "until"}, filters: true}
	gamesParams = []string{"variant", "fen", "pos", "play", "moves", "speeds", "ratings", "since", "until", "topGames", "recentGames", "page", "perPage"}
)

// request is a parsed request of the moves, history and games endpoints.
type request struct {
	q     url.Values
	line  []board.Position
	query Query
	limit int // the most moves to list, 0 for all
}

// parseRequest reads r's parameters as ep takes them. Errors are the
// client's (ErrBadInput).
func parseRequest(r *http.Request, ep endpoint) (*request, error) {
	q, err := url.ParseQuery(r.URL.RawQuery)
	if err != nil {
		return nil, fmt.Errorf("%w: bad query: %v", ErrBadInput, err)
	}
	for name := range q {
		if !slices.Contains(ep.params, name) {
			return nil, badParam(name, q.Get(name), fmt.Sprintf("unknown parameter (%s takes %s)", r.URL.Path, strings.Join(ep.params, ", ")))
		}
	}
	if v := q.Get("variant"); v != "" && v != "standard" {
		return nil, badParam("variant", v, "only standard chess is stored")
	}
	req := &request{q: q, query: Query{TopGames: ep.defTop, RecentGames: ep.defRecent, Performance: ep.performance}}
	sans := q.Get("moves")
	if n, err := strconv.Atoi(sans); err == nil { // lichess: moves=12
		if n < 0 {
			return nil, badParam("moves", sans, "the most moves to list must be 0 (all) or more")
		}
		req.limit, sans = n, ""
	} else if sans != "" && !ep.sanMoves {
		return nil, badParam("moves", sans, "want the most moves to list (give the moves played with play=e2e4,e7e5)")
	}
	fen := q.Get("fen")
	if code := q.Get("pos"); code != "" {
		if fen != "" {
			return nil, fmt.Errorf("%w: give the position with fen or pos, not both", ErrBadInput)
		}
		k, err := keys.ParseCode(code)
		var p board.Position
		if err == nil {
			p, err = keys.Decode(k)
		}
		if err != nil {
			return nil, badParam("pos", code, err.Error())
		}
		fen = p.FEN()
	}
	if req.line, err = requestLine(fen, q.Get("play"), sans); err != nil {
		return nil, err
	}
	f := Filters{Since: q.Get("since"), Until: q.Get("until")}
	if ep.filters {
		f.Speeds, f.Ratings = q.Get("speeds"), q.Get("ratings")
	}
	if req.query.Sel, err = f.Selection(""); err != nil {
		return nil, err
	}
	if slices.Contains(ep.params, "topGames") {
		if req.query.TopGames, err = ParseCount("topGames", q.Get("topGames"), ep.defTop, MaxGames); err != nil {
			return nil, err
		}
	}
	if slices.Contains(ep.params, "recentGames") {
		if req.query.RecentGames, err = ParseCount("recentGames", q.Get("recentGames"), ep.defRecent, MaxGames); err != nil {
			return nil, err
		}
	}
	return req, nil
}

// answer answers a request of endpoint ep with what f computes from the
// store: 400 for a bad request, 500 when the store fails.
func answer[T any](s *server, w http.ResponseWriter, r *http.Request, ep endpoint, f func(x *Explorer, req *request) (T, error)) {
	req, err := parseRequest(r, ep)
	if err != nil {
		s.fail(w, r, http.StatusBadRequest, err.Error())
		return
	}
	var out T
	err = s.query(func(x *Explorer) (err error) { out, err = f(x, req); return err })
	if err != nil {
		s.fail(w, r, http.StatusInternalServerError, store.ErrorLine(err))
		return
	}
	s.reply(w, r, http.StatusOK, out)
}

// movesOf returns the handler of a moves endpoint (/moves, /lichess,
// /masters): see the top of this file.
func (s *server) movesOf(ep endpoint) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		answer(s, w, r, ep, func(x *Explorer, req *request) (*Moves, error) {
			m, err := x.Moves(req.line, req.query)
			if err == nil {
				m.Limit(req.limit)
			}
			return m, err
		})
	}
}

// history answers GET /lichess/history.
func (s *server) history(w http.ResponseWriter, r *http.Request) {
	answer(s, w, r, historyAPI, func(x *Explorer, req *request) (*History, error) {
		return x.History(req.line, req.query)
	})
}

// DefaultPerPage and MaxPerPage bound the pages of GET /games and
// 'bookquery games -page'.
const (
	DefaultPerPage = 20
	MaxPerPage     = 500
)

// games answers GET /games: the top and recent games (as 'bookquery
// games'), or with page=N the Nth page of every game through the position.
func (s *server) games(w http.ResponseWriter, r *http.Request) {
	req, err := parseRequest(r, endpoint{params: gamesParams, sanMoves: true, defTop: DefaultGames, defRecent: DefaultGames, filters: true})
	var page, perPage int
	if err == nil {
		page, err = ParseCount("page", req.q.Get("page"), 0, 1<<20)
	}
	if err == nil {
		perPage, err = ParseCount("perPage", req.q.Get("perPage"), DefaultPerPage, MaxPerPage)
	}
	if err == nil && perPage == 0 {
		err = badParam("perPage", "0", "a page lists at least one game")
	}
	if err != nil {
		s.fail(w, r, http.StatusBadRequest, err.Error())
		return
	}
	p := req.line[len(req.line)-1]
	var out any
	err = s.query(func(x *Explorer) (err error) {
		if page == 0 {
			out, err = x.Games(p, req.query)
		} else {
			out, err = x.GamesPage(r.Context(), p, req.query.Sel, page, perPage, nil)
		}
		return err
	})
	if err != nil {
		s.fail(w, r, http.StatusInternalServerError, store.ErrorLine(err))
		return
	}
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

// masterPGN answers GET /masters/pgn/{id}: the game as PGN, as the
// lichess explorer answers it.
func (s *server) masterPGN(w http.ResponseWriter, r *http.Request) {
	if len(r.URL.RawQuery) > 0 {
		s.fail(w, r, http.StatusBadRequest, badParam(strings.SplitN(r.URL.RawQuery, "=", 2)[0], "", "unknown parameter (/masters/pgn/{id} takes none)").Error())
		return
	}
	q := r.URL.Query()
	q.Set("format", "pgn")
	r2 := *r
	u := *r.URL
	u.RawQuery = q.Encode()
	r2.URL = &u
	s.game(w, &r2)
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
