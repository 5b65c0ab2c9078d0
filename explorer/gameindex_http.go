package explorer

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/gamedb"
	"github.com/chessbook/chessbook/pgn"
	"github.com/chessbook/chessbook/store"
)

// The game index's routes: GET /player (the lichess explorer's player
// endpoint), /players (a name's spellings, for the page's completion) and
// /search (games by their tags and a position). A store without a game
// index is answered 501, naming the command that writes it.

// The parameters of the game index's routes. /player takes the lichess
// explorer's; /search the flags of 'bookquery search' in the API's case
// (min-rating is minRating), with the position as the other routes take
// it (fen, play in UCI, moves in SAN).
var (
	playerParams  = []string{"player", "color", "variant", "fen", "play", "speeds", "modes", "since", "until", "moves", "recentGames"}
	playersParams = []string{"name", "limit"}
	searchParams  = []string{"player", "white", "black", "event", "site", "result", "eco", "opening", "since", "until",
		"minRating", "maxRating", "minPlies", "maxPlies", "fen", "play", "moves", "speeds", "ratings", "modes", "sort", "page", "perPage", "format"}
)

// The bounds of /player's recentGames (the lichess explorer's) and
// /players' limit.
const (
	MaxPlayerRecent = 8
	DefaultNames    = 20
	MaxNames        = 500
)

// indexQuery runs f on the game index of the source's store (see query).
func (s *server) indexQuery(f func(x *Explorer, db *gamedb.DB) error) error {
	return s.query(func(x *Explorer) error {
		db, err := gamedb.Open(x.st)
		if err != nil {
			return err
		}
		return f(x, db)
	})
}

// indexFailed answers a request the store failed: 501 when it has no game
// index (not logged: the answer says what to do), 503 when the client
// left, else 500.
func (s *server) indexFailed(w http.ResponseWriter, r *http.Request, err error) {
	switch {
	case errors.Is(err, gamedb.ErrNoIndex):
		s.fail(w, r, http.StatusNotImplemented, err.Error())
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		s.fail(w, r, http.StatusServiceUnavailable, "the request was cancelled")
	default:
		s.fail(w, r, http.StatusInternalServerError, store.ErrorLine(err))
	}
}

// player answers GET /player: the player's tree as one line of NDJSON.
func (s *server) player(w http.ResponseWriter, r *http.Request) {
	line, tq, err := parsePlayer(r)
	if err != nil {
		s.fail(w, r, http.StatusBadRequest, err.Error())
		return
	}
	var out *PlayerTree
	err = s.indexQuery(func(_ *Explorer, db *gamedb.DB) error {
		tree, err := db.PlayerTree(r.Context(), tq)
		if err == nil {
			out = NewPlayerTree(line, tree)
		}
		return err
	})
	if err != nil {
		s.indexFailed(w, r, err)
		return
	}
	s.replyAs(w, r, http.StatusOK, "application/x-ndjson", out)
}

// parsePlayer reads /player's parameters. Errors are the client's.
func parsePlayer(r *http.Request) (line []board.Position, tq gamedb.TreeQuery, err error) {
	q, err := queryOf(r, playerParams)
	if err != nil {
		return nil, tq, err
	}
	if v := q.Get("variant"); v != "" && v != "standard" {
		return nil, tq, badParam("variant", v, "only standard chess is stored")
	}
	tq.Player = q.Get("player")
	if gamedb.Normalize(tq.Player) == "" {
		return nil, tq, badParam("player", tq.Player, "give the player's name (GET /players?name=TEXT lists the names)")
	}
	switch c := q.Get("color"); c {
	case "white":
		tq.Color = gamedb.White
	case "black":
		tq.Color = gamedb.Black
	default:
		return nil, tq, badParam("color", c, "want white or black")
	}
	if line, err = requestLine(q.Get("fen"), q.Get("play"), ""); err != nil {
		return nil, tq, err
	}
	tq.Position = &line[len(line)-1]
	if tq.Moves, err = ParseCount("moves", q.Get("moves"), 0, 1<<20); err != nil {
		return nil, tq, err
	}
	if tq.Recent, err = ParseCount("recentGames", q.Get("recentGames"), MaxPlayerRecent, MaxPlayerRecent); err != nil {
		return nil, tq, err
	}
	f := SearchFilters{Speeds: q.Get("speeds"), Modes: q.Get("modes"), Since: q.Get("since"), Until: q.Get("until")}
	if tq.Filter, err = f.Filter(false); err != nil {
		return nil, tq, err
	}
	return line, tq, nil
}

// players answers GET /players: the spellings that contain name, the most
// games first (the closest ones when none does).
func (s *server) players(w http.ResponseWriter, r *http.Request) {
	q, err := queryOf(r, playersParams)
	var limit int
	if err == nil {
		if gamedb.Normalize(q.Get("name")) == "" {
			err = badParam("name", q.Get("name"), "give a name, or part of it, with a letter or a digit")
		} else {
			limit, err = ParseCount("limit", q.Get("limit"), DefaultNames, MaxNames)
		}
	}
	if err == nil && limit == 0 {
		err = badParam("limit", "0", "list at least one name")
	}
	if err != nil {
		s.fail(w, r, http.StatusBadRequest, err.Error())
		return
	}
	// The names are read from the whole dictionary: a scan of the pool.
	var out *Players
	ok := s.pooled(w, r, "the search of the names", func(ctx context.Context) error {
		return s.indexQuery(func(_ *Explorer, db *gamedb.DB) (err error) {
			out, err = PlayerNames(ctx, db, q.Get("name"), limit, 5)
			return err
		})
	})
	if ok {
		s.reply(w, r, http.StatusOK, out)
	}
}

// search answers GET /search: a page of the games the filters keep, as
// JSON (a SearchPage) or PGN (format=pgn). It runs in the scan pool: a
// search reads the names' dictionary and posting lists, or without a name
// every game's summary.
func (s *server) search(w http.ResponseWriter, r *http.Request) {
	gq, page, perPage, format, err := parseSearch(r)
	if err != nil {
		s.fail(w, r, http.StatusBadRequest, err.Error())
		return
	}
	out := &SearchPage{Page: page, PerPage: perPage}
	var pgnText []byte
	run := func(ctx context.Context) error {
		return s.indexQuery(func(x *Explorer, db *gamedb.DB) error {
			res, err := db.Search(ctx, gq)
			if errors.Is(err, gamedb.ErrNoName) {
				out.Games = []gamedb.GameRef{}
				out.Suggestions = NoNameSuggestions(ctx, db, err, 5)
				return nil
			}
			if err != nil {
				return err
			}
			out.Total, out.Games = res.Total, res.Games
			if format != "pgn" {
				return nil
			}
			var b bytes.Buffer
			for _, g := range res.Games {
				game, err := x.Game(g.ID)
				if err != nil {
					return err
				}
				b.Write(pgn.Append(nil, game))
			}
			pgnText = b.Bytes()
			return nil
		})
	}
	// Every search reads what grows with the store: the names'
	// dictionary and posting lists, or every game's summary.
	what := "the search of every game's summary"
	if hasName(&gq) {
		what = "the search of the names' games"
	}
	if !s.pooled(w, r, what, run) {
		return
	}
	if format == "pgn" {
		w.Header().Set("Content-Type", "application/x-chess-pgn")
		w.WriteHeader(http.StatusOK)
		if r.Method != http.MethodHead {
			_, _ = w.Write(pgnText)
		}
		return
	}
	s.reply(w, r, http.StatusOK, out)
}

// parseSearch reads /search's parameters. Errors are the client's.
func parseSearch(r *http.Request) (gq gamedb.Query, page, perPage int, format string, err error) {
	q, err := queryOf(r, searchParams)
	if err != nil {
		return gq, 0, 0, "", err
	}
	f := SearchFilters{Player: q.Get("player"), White: q.Get("white"), Black: q.Get("black"), Event: q.Get("event"), Site: q.Get("site"),
		Result: q.Get("result"), ECO: q.Get("eco"), Opening: q.Get("opening"), Since: q.Get("since"), Until: q.Get("until"),
		MinRating: q.Get("minRating"), MaxRating: q.Get("maxRating"), MinPlies: q.Get("minPlies"), MaxPlies: q.Get("maxPlies"),
		Speeds: q.Get("speeds"), Ratings: q.Get("ratings"), Modes: q.Get("modes"), Sort: q.Get("sort")}
	if gq, err = f.Query(false); err != nil {
		return gq, 0, 0, "", err
	}
	if page, err = ParseCount("page", q.Get("page"), 1, 1<<20); err == nil && page == 0 {
		err = badParam("page", "0", "pages count from 1")
	}
	if err == nil {
		perPage, err = ParseCount("perPage", q.Get("perPage"), DefaultPerPage, MaxPerPage)
	}
	if err == nil && perPage == 0 {
		err = badParam("perPage", "0", "a page lists at least one game")
	}
	format = q.Get("format")
	if err == nil && format != "" && format != "json" && format != "pgn" {
		err = badParam("format", format, "want json or pgn")
	}
	if err != nil {
		return gq, 0, 0, "", err
	}
	if q.Get("fen") != "" || q.Get("play") != "" || q.Get("moves") != "" {
		line, err := requestLine(q.Get("fen"), q.Get("play"), q.Get("moves"))
		if err != nil {
			return gq, 0, 0, "", err
		}
		gq.Position = &line[len(line)-1]
	}
	gq.Offset, gq.Limit = (page-1)*perPage, perPage
	if gq.Offset > gamedb.MaxWindow-perPage {
		return gq, 0, 0, "", badParam("page", strconv.Itoa(page), fmt.Sprintf(
			"a search lists its first %d games at most (this page ends at game %d): narrow the search (a longer name, a date range, a result...) or sort it otherwise",
			gamedb.MaxWindow, gq.Offset+perPage))
	}
	return gq, page, perPage, format, nil
}
