package explorer

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/chessbook/chessbook/polyglot"
	"io/fs"
	"log"
	"maps"
	"net/http"
	"net/url"
	"path"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/keys"
	"github.com/chessbook/chessbook/pgn"
	"github.com/chessbook/chessbook/store"
)

// The HTTP JSON API over a store, with the lichess opening explorer's
// paths, parameter names and JSON, so that its clients work by changing
// their base URL, and routes of ours besides. The routes are listed once,
// in the table of server.routes, with the parameters each takes and what
// it answers; Routes gives the table to the command's help and to
// docs/http-api.md, which a test keeps equal to it.
//
// On the moves, history and games routes, fen defaults to the start
// position (pos gives it as a position key instead, on ours); play is the
// moves played from it, in UCI, separated by commas (Notation UCIList);
// moves=N lists the N most played moves (the totals still count every
// move), and on ours moves may also be SAN text instead of a count,
// moves=e4+e5+Nf3 (Notation Movetext). The filters (speeds, ratings,
// since, until) are read by Filters.Selection.
// history=true embeds /lichess/history's months in /lichess's answer, as
// the lichess explorer does. The answers of /lichess and /masters validate
// under the lichess API's own schemas (schema_test.go): a player without a
// rating has rating 0, a game with no known year year 0, and a game dated
// to its year only has month null on /lichess (no month on /masters).
//
// Bad input (a bad FEN, an illegal or unparsable move, a bad, unknown or
// repeated parameter: none is ignored) is answered with 400 and
// {"error": "..."}, an unknown path, page file or game with 404, another
// method than GET, HEAD or OPTIONS with 405, a failure of the store
// (damaged data, say) with 500, a scan the server has no room or time for
// with 503, and the server goes on answering; every answer but a PGN and
// the page's files is JSON. Error messages quote at most maxEcho bytes of
// the request. Every answer allows any origin (CORS, as the lichess
// explorer does), OPTIONS answers a browser's preflight, and every answer
// carries the security headers of securityHeaders (a Content-Security-
// Policy fit for the page, nosniff, no framing, no referrer).

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

// writerWatcher is a Source that knows whether a writer (a build) holds
// its store's lock (store.Live): every answer then says so in its
// BuildHeader.
type writerWatcher interface {
	Writer() *store.Writer
}

// BuildHeader is the header of every answer served while a build is in
// progress on the store: "in progress; N games committed so far" (the
// answers are from those games).
const BuildHeader = "Chessbook-Build"

// BuildNote says that a build is in progress on a store whose current
// state holds games games: "a build is in progress on this store (N games
// committed so far)".
func BuildNote(games uint64) string {
	unit := "games"
	if games == 1 {
		unit = "game"
	}
	return fmt.Sprintf("a build is in progress on this store (%d %s committed so far)", games, unit)
}

// server answers the API's requests from one store.
type server struct {
	src     Source
	opts    HandlerOptions
	bufs    sync.Pool // *bytes.Buffer for the answers
	scans   *scanPool
	headers http.Header // set on every answer (securityHeaders)
	web     fs.FS       // the page's files (web/)
	index   []byte      // web/index.html
	hooks   testHooks
}

// Route is one route of the handler, as documented: its path, the query
// parameters it takes and what it answers.
type Route struct {
	// Pattern is the path, as http.ServeMux patterns spell it
	// ("/game/{id}"; "/static/" serves the subtree).
	Pattern string
	// API says whose route it is: "lichess" (the lichess opening
	// explorer's path, parameters and JSON), "ours", or "page" (the
	// explorer page and its files).
	API string
	// Params are the query parameters the route takes; any other is
	// refused (400). The page's routes read none (the page reads its
	// own URL).
	Params []string
	// Doc says what the route answers, in a sentence or two.
	Doc string
}

// The values of Route.API.
const (
	APILichess = "lichess"
	APIOurs    = "ours"
	APIPage    = "page"
)

// route is one route of the handler: its documentation, and its handler,
// which answers GET and HEAD (other methods get 405).
type route struct {
	Route
	handle http.HandlerFunc
}

// routes is the table of the handler's routes, the one list of them.
func (s *server) routes() []route {
	return []route{
		{Route: Route{"/{$}", APIPage, nil, "the explorer page: a board, the store's moves and games, a Polyglot book's moves (served with -book)."}, handle: s.page},
		{Route: Route{"/static/", APIPage, nil, "the page's files (app.js, style.css, vendor/bundle.js)."}, handle: s.static},
		{Route: Route{"/moves", APIOurs, ours.params, "the moves of the position with their statistics and performance, and its top and recent games (a Moves), as 'bookquery moves -json' prints them; moves may be a count or SAN text."}, handle: s.movesOf(ours)},
		{Route: Route{"/lichess", APILichess, lichessAPI.params, "the moves of the position over the games the filters keep, with the top and recent games (a Moves), as the lichess explorer's /lichess answers."}, handle: s.movesOf(lichessAPI)},
		{Route: Route{"/masters", APILichess, mastersAPI.params, "as /lichess with the lichess explorer's /masters parameters and defaults (15 top games, no recent ones, no speed or rating filter)."}, handle: s.movesOf(mastersAPI)},
		{Route: Route{"/lichess/history", APILichess, historyAPI.params, "the games through the position by month: white wins, draws, black wins (a History), as the lichess explorer's /lichess/history answers."}, handle: s.history},
		{Route: Route{"/games", APIOurs, gamesParams, "the top and recent games through the position (a Games), or with page=N the Nth page of every game through it (a GamePage, found by replaying the stored games in a bounded pool: 503 with Retry-After when it is full or the scan outlasts its deadline)."}, handle: s.games},
		{Route: Route{"/game/{id}", APIOurs, gameParams, "a stored game as 'bookquery game -json' prints it (a Game), or as PGN text with format=pgn or an Accept header asking for text/plain or x-chess-pgn."}, handle: s.game},
		{Route: Route{"/masters/pgn/{id}", APILichess, nil, "a stored game as PGN text, as the lichess explorer's /masters/pgn/{id} answers."}, handle: s.masterPGN},
		{Route: Route{"/position/{code}", APIOurs, nil, "the FEN of a position key given in hex or URL-safe text (a Position: what the page's links hold)."}, handle: s.position},
		{Route: Route{"/player", APILichess, playerParams, "a player's opening tree with one color at the position (player, color: white or black), over the games the filters keep: per move the results, the average opponent rating, the performance, the game when played once, and the recent games; one line of application/x-ndjson as the lichess explorer's /player streams them (queuePosition 0: a store is always indexed). An unknown player has an empty tree."}, handle: s.player},
		{Route: Route{"/players", APIOurs, playersParams, "every spelling of a player's name that contains name (case, spaces, punctuation and accents ignored), the most games first, with its games as White and Black, rating range and dates, as 'bookquery players -json' prints them (a Players); the closest names when none does. It reads the whole dictionary, in the bounded pool of /games?page (503 with Retry-After when it is full)."}, handle: s.players},
		{Route: Route{"/search", APIOurs, searchParams, "a page of the games found by names (player, white, black, event, site), result, ECO range, opening, dates, ratings, length, the explorer's filters and a position, sorted by date, rating or plies, as 'bookquery search -json' prints it (a SearchPage), or the page's games as PGN with format=pgn. Every search runs in the bounded pool of /games?page (503 with Retry-After when it is full): it reads the names' posting lists, or every game's summary without a name; a page past the first 100000 games is refused (400)."}, handle: s.search},
		{Route: Route{"/polyglot", APIOurs, polyglotParams, "the moves of the Polyglot book the server was started with (serve -book) at the position, as 'bookquery probe' prints them (a BookMoves); 404 without a book."}, handle: s.polyglotMoves},
	}
}

// Routes returns the handler's routes, in the order of its table.
func Routes() []Route {
	var out []Route
	for _, rt := range (&server{}).routes() {
		out = append(out, rt.Route)
	}
	return out
}

// HandlerOptions are what NewHandlerWith adds to the API.
type HandlerOptions struct {
	// Book is a Polyglot book that GET /polyglot probes, shown by the page
	// beside the store's moves; nil for none.
	Book *polyglot.Book
	// BookName names it in the answers (its file name).
	BookName string
	// Scans is the most game scans (GET /games with page=N) that run at
	// once, each on its share of the CPUs but one; 0 for half as many as
	// those CPUs (at least 1). Twice as many wait for a place; more are
	// answered 503 with Retry-After. See scans.go.
	Scans int
	// ScanTimeout bounds a scan with its wait (then 503); 0 for
	// DefaultScanTimeout.
	ScanTimeout time.Duration
}

// NewHandler returns the API's handler over src, its routes in one table
// (server.routes). The handler logs the failures of the store (500) to the
// ErrorLog of the http.Server that serves it, else to the standard logger.
func NewHandler(src Source) http.Handler { return NewHandlerWith(src, HandlerOptions{}) }

// NewHandlerWith is NewHandler with options: a Polyglot book to show, the
// bounds of the game scans.
func NewHandlerWith(src Source, opts HandlerOptions) http.Handler {
	return newServer(src, opts).handler()
}

func newServer(src Source, opts HandlerOptions) *server {
	web, err := fs.Sub(webFiles, "web")
	if err != nil { // cannot happen: the folder is embedded
		panic(err)
	}
	index, err := fs.ReadFile(web, "index.html")
	if err != nil { // cannot happen: the file is embedded
		panic(err)
	}
	return &server{src: src, opts: opts, scans: newScanPool(opts), headers: securityHeaders(index), web: web, index: index}
}

// handler routes the table's patterns: GET (and so HEAD) to their
// handlers, other methods to a 405 answer, and any other path (the root
// of a subtree without its slash too: ServeMux would redirect it) to a
// 404.
func (s *server) handler() http.Handler {
	mux := http.NewServeMux()
	for _, rt := range s.routes() {
		mux.HandleFunc("GET "+rt.Pattern, rt.handle)
		mux.HandleFunc(rt.Pattern, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Allow", "GET, HEAD, OPTIONS")
			s.fail(w, r, http.StatusMethodNotAllowed, fmt.Sprintf("method %s not allowed: %s takes GET", r.Method, r.URL.Path))
		})
		if root, ok := strings.CutSuffix(rt.Pattern, "/"); ok && root != "" {
			mux.HandleFunc(root, s.notFound) // not redirected with an HTML body
		}
	}
	mux.HandleFunc("/", s.notFound)
	return s.guard(mux)
}

// guard wraps the routes: the security and CORS headers of every answer,
// preflight requests, paths that need cleaning (ServeMux would redirect
// them with an HTML body), and a panic answered with a 500 instead of a
// dropped connection.
func (s *server) guard(mux *http.ServeMux) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		for k, v := range s.headers {
			h[k] = v
		}
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				s.fail(w, r, http.StatusInternalServerError, fmt.Sprintf("internal error: %v", v))
			}
		}()
		h.Set("Access-Control-Allow-Origin", "*")
		if ww, ok := s.src.(writerWatcher); ok && ww.Writer() != nil {
			st, release := s.src.Acquire()
			games := st.Meta().Games
			release()
			h.Set(BuildHeader, fmt.Sprintf("in progress; %d games committed so far", games))
			h.Add("Access-Control-Expose-Headers", BuildHeader)
		}
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
		if err == nil || try > 0 || errors.Is(err, store.ErrGameNotFound) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
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

// notFound answers a path no route serves, naming the API's routes.
func (s *server) notFound(w http.ResponseWriter, r *http.Request) {
	var api []string
	for _, rt := range s.routes() {
		if rt.API != APIPage {
			api = append(api, rt.Pattern)
		}
	}
	s.fail(w, r, http.StatusNotFound, fmt.Sprintf("no such path %s (the API has GET %s; the page is at /)", quoteBounded(r.URL.Path), strings.Join(api, ", ")))
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
	// lichess says the answer follows the lichess schema of /lichess: it
	// takes history=true|false and gives an unknown month as null.
	lichess bool
}

// The moves endpoints: ours (/moves), and the lichess explorer's /lichess
// and /masters with their parameters and defaults.
var (
	ours        = endpoint{params: []string{"variant", "fen", "pos", "play", "moves", "speeds", "ratings", "since", "until", "topGames", "recentGames"}, sanMoves: true, defTop: DefaultGames, defRecent: DefaultGames, filters: true, performance: true}
	lichessAPI  = endpoint{params: []string{"variant", "fen", "play", "moves", "speeds", "ratings", "since", "until", "topGames", "recentGames", "history"}, defTop: DefaultGames, defRecent: DefaultGames, filters: true, lichess: true}
	mastersAPI  = endpoint{params: []string{"variant", "fen", "play", "moves", "since", "until", "topGames"}, defTop: MaxGames}
	historyAPI  = endpoint{params: []string{"variant", "fen", "play", "speeds", "ratings", "since", "until"}, filters: true}
	gamesParams = []string{"variant", "fen", "pos", "play", "moves", "speeds", "ratings", "since", "until", "topGames", "recentGames", "page", "perPage"}
	// gameParams are what /game/{id} takes, polyglotParams /polyglot.
	gameParams     = []string{"format"}
	polyglotParams = []string{"variant", "fen", "play", "moves", "pos"}
)

// request is a parsed request of the moves, history and games endpoints.
type request struct {
	q     url.Values
	line  []board.Position
	query Query
	limit int // the most moves to list, 0 for all
	// history says the answer embeds the position's history (history=true).
	history bool
}

// parseRequest reads r's parameters as ep takes them. Errors are the
// client's (ErrBadInput).
func parseRequest(r *http.Request, ep endpoint) (*request, error) {
	q, err := queryOf(r, ep.params)
	if err != nil {
		return nil, err
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
	switch h := q.Get("history"); h {
	case "", "false":
	case "true":
		req.history = true
	default:
		return nil, badParam("history", h, "want true or false")
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

// queryOf returns r's parameters, refusing a parameter that params does
// not list or that is given more than once (none is ignored). Errors are
// the client's (ErrBadInput).
func queryOf(r *http.Request, params []string) (url.Values, error) {
	q, err := url.ParseQuery(r.URL.RawQuery)
	if err != nil {
		return nil, fmt.Errorf("%w: bad query: %v", ErrBadInput, err)
	}
	for _, name := range slices.Sorted(maps.Keys(q)) {
		if !slices.Contains(params, name) {
			takes := "none"
			if len(params) > 0 {
				takes = strings.Join(params, ", ")
			}
			return nil, badParam(name, q.Get(name), fmt.Sprintf("unknown parameter (%s takes %s)", r.URL.Path, takes))
		}
		if n := len(q[name]); n > 1 {
			return nil, fmt.Errorf("%w: parameter %s given %d times: give it once", ErrBadInput, quoteBounded(name), n)
		}
	}
	return q, nil
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
// /masters): see the route table.
func (s *server) movesOf(ep endpoint) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		answer(s, w, r, ep, func(x *Explorer, req *request) (*Moves, error) {
			m, err := x.Moves(req.line, req.query)
			if err != nil {
				return nil, err
			}
			m.Limit(req.limit)
			if req.history {
				h, err := x.History(req.line, req.query)
				if err != nil {
					return nil, err
				}
				m.History = &h.History
			}
			if ep.lichess {
				m.nullMonths()
			}
			return m, nil
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
	if page > 0 {
		s.scan(w, r, p, req.query.Sel, page, perPage)
		return
	}
	var out *Games
	err = s.query(func(x *Explorer) (err error) { out, err = x.Games(p, req.query); return err })
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

// game answers GET /game/{id}: see the route table.
func (s *server) game(w http.ResponseWriter, r *http.Request) {
	q, err := queryOf(r, gameParams)
	if err == nil && q.Get("format") != "" && q.Get("format") != "pgn" && q.Get("format") != "json" {
		err = badParam("format", q.Get("format"), "want pgn or json")
	}
	if err != nil {
		s.fail(w, r, http.StatusBadRequest, err.Error())
		return
	}
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
	accept := r.Header.Get("Accept")
	if q.Get("format") == "pgn" || q.Get("format") == "" && (strings.Contains(accept, "pgn") || strings.Contains(accept, "text/plain")) {
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
	if _, err := queryOf(r, nil); err != nil {
		s.fail(w, r, http.StatusBadRequest, err.Error())
		return
	}
	r2 := *r
	u := *r.URL
	u.RawQuery = "format=pgn"
	r2.URL = &u
	s.game(w, &r2)
}

// errorReply is the body of every answer but 200.
type errorReply struct {
	Error string `json:"error"`
}

// fail answers with status and {"error": msg}; server errors are logged,
// but for 503 (busy: the log would grow with an attack) and 501 (a store
// without a game index: the answer names the fix).
func (s *server) fail(w http.ResponseWriter, r *http.Request, status int, msg string) {
	msg = bounded(msg)
	if status >= 500 && status != http.StatusServiceUnavailable && status != http.StatusNotImplemented {
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
	s.replyAs(w, r, status, "application/json; charset=utf-8", v)
}

// replyAs is reply with the Content-Type ctype (application/x-ndjson:
// the line is one of NDJSON).
func (s *server) replyAs(w http.ResponseWriter, r *http.Request, status int, ctype string, v any) {
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
	h.Set("Content-Type", ctype)
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
