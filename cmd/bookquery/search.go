package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"

	"github.com/chessbook/chessbook/explorer"
	"github.com/chessbook/chessbook/filter"
	"github.com/chessbook/chessbook/gamecode"
	"github.com/chessbook/chessbook/gamedb"
	"github.com/chessbook/chessbook/pgn"
	"github.com/chessbook/chessbook/store"
)

// The game database's commands: players (the spellings of a name) and
// search (games by their tags and a position), read from the store's game
// index by package gamedb.

var playersCmd = &command{
	name:    "players",
	args:    "-name TEXT [-limit N] [-json]",
	summary: "list every spelling of a player's name that contains TEXT (case, spaces and punctuation ignored) with its games as White and Black, rating range and dates (-db DIR)",
	run:     runPlayers,
}

var searchCmd = &command{
	name: "search",
	args: `[-player NAME] [-white NAME] [-black NAME] [-event TEXT] [-site TEXT] [-result R] [-eco A00-E99] [-opening TEXT] ` +
		`[-since DATE] [-until DATE] [-min-rating N] [-max-rating N] [-min-plies N] [-max-plies N] [-fen FEN] [-moves "e4 e5"] ` +
		`[-speeds S] [-ratings B] [-modes M] [-sort date|rating|plies] [-page N] [-per-page N] [-format text|json|pgn] [-json]`,
	summary: "find games by player, event, site, result, ECO, opening, date, rating and length, and by a position (-db DIR)",
	run:     runSearch,
}

// openIndex opens the store of -db read-only and its game index; without
// -db it is bad input naming use, the command line to give.
func (e *env) openIndex(use string) (*store.Store, *gamedb.DB, error) {
	if e.db == "" {
		return nil, nil, badInput("no book given: use 'bookquery -db DIR %s'", use)
	}
	st, err := e.openBook()
	if err != nil {
		return nil, nil, err
	}
	db, err := gamedb.Open(st)
	if err != nil {
		st.Close()
		return nil, nil, err
	}
	return st, db, nil
}

// closest is what an error adds for the closest spellings of a name no
// spelling matches: ` (closest: "A", "B")`, or "" when there are none.
func closest(ns []gamedb.Name) string {
	if len(ns) == 0 {
		return ""
	}
	names := make([]string, len(ns))
	for i, n := range ns {
		names[i] = strconv.Quote(n.Name)
	}
	return fmt.Sprintf(" (closest: %s)", strings.Join(names, ", "))
}

// playersJSON is players' -json output, as GET /players answers.
type playersJSON = explorer.Players

// nameJSON is one spelling in players' -json output.
type nameJSON = explorer.PlayerName

func runPlayers(e *env, args []string) error {
	fs := e.flags()
	name := fs.String("name", "", "the name, or part of it: every spelling whose letters and digits (case and accents ignored) contain TEXT's")
	limit := fs.Int("limit", 50, "list at most N spellings, the most games first (0: all)")
	if err := e.parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return badInput("unexpected arguments %q: give the name with -name \"TEXT\" (quoted)", strings.Join(fs.Args(), " "))
	}
	if gamedb.Normalize(*name) == "" {
		return badInput("-name %q: give a name with a letter or a digit (players -name carlsen)", *name)
	}
	if *limit < 0 {
		return badInput("-limit %d: want 0 or more", *limit)
	}
	st, db, err := e.openIndex("players -name TEXT")
	if err != nil {
		return err
	}
	defer st.Close()
	out, err := explorer.PlayerNames(context.Background(), db, *name, *limit, 5)
	if err != nil {
		return err
	}
	return e.emit(out, func(w io.Writer) error {
		_, err := io.WriteString(w, playersText(out))
		return err
	})
}

// playersText is players' text output.
func playersText(out *playersJSON) string {
	var b strings.Builder
	if len(out.Players) == 0 {
		fmt.Fprintf(&b, "no player's name contains %q\n", out.Normal)
		if len(out.Suggestions) > 0 {
			b.WriteString("closest names:\n")
			writeNames(&b, out.Suggestions)
		}
		return b.String()
	}
	fmt.Fprintf(&b, "%s matching %q:\n", plural(len(out.Players), "spelling", "spellings"), out.Normal)
	writeNames(&b, out.Players)
	return b.String()
}

func writeNames(b *strings.Builder, ns []nameJSON) {
	rows := [][]string{{"name", "games", "white", "black", "rating", "first", "last"}}
	for _, n := range ns {
		rating := "-"
		switch {
		case n.MinRating > 0 && n.MinRating != n.MaxRating:
			rating = fmt.Sprintf("%d-%d", n.MinRating, n.MaxRating)
		case n.MaxRating > 0:
			rating = fmt.Sprint(n.MaxRating)
		}
		rows = append(rows, []string{n.Name, fmt.Sprint(n.Games), fmt.Sprint(n.White), fmt.Sprint(n.Black), rating, n.First, n.Last})
	}
	writeTable(b, rows, 1)
}

// searchJSON is search's -json output, as GET /search answers.
type searchJSON = explorer.SearchPage

// searchFlags are the flags of search.
type searchFlags struct {
	player, white, black, event, site, result, eco, opening *string
	fen, moves, sort, format                                *string
	page, perPage                                           *int
	filters                                                 *filter.Flags
}

// maxPerPage bounds search's -per-page.
const maxPerPage = 10000

func addSearchFlags(fs *flag.FlagSet) *searchFlags {
	return &searchFlags{
		player:  fs.String("player", "", "games of the player with either color: every spelling whose letters and digits (case and accents ignored) contain NAME's"),
		white:   fs.String("white", "", "games of the player with White (as -player)"),
		black:   fs.String("black", "", "games of the player with Black (as -player)"),
		event:   fs.String("event", "", "games of the events whose name contains TEXT (as -player)"),
		site:    fs.String("site", "", "games of the sites whose name contains TEXT (as -player; a URL site is known by its host, lichess.org)"),
		result:  fs.String("result", "", "games with this result: 1-0, 0-1 or 1/2-1/2"),
		eco:     fs.String("eco", "", "games whose ECO tag is this code (B90) or in this range (B20-B99)"),
		opening: fs.String("opening", "", "games whose opening (the lichess name of the deepest named position of their first 24 plies) contains TEXT"),
		fen:     fs.String("fen", "", "games that reach this position (transpositions included)"),
		moves:   fs.String("moves", "", `games that reach the position after these moves (from -fen, or the start), in SAN or UCI`),
		sort:    fs.String("sort", "date", "the order: date (newest first), rating (the highest mean rating of both players first) or plies (the longest first)"),
		page:    fs.Int("page", 1, "list page N (from 1)"),
		perPage: fs.Int("per-page", 20, fmt.Sprintf("games per page (1 to %d; 0: every game on one page)", maxPerPage)),
		format:  fs.String("format", "text", "the output `FORMAT`: text, json (as -json) or pgn (the page's games, whole)"),
		filters: filter.AddFlags(fs, filter.Index,
			filter.Dates|filter.MinRating|filter.MaxRating|filter.Plies|filter.Speeds|filter.Ratings|filter.Modes, "games"),
	}
}

// query returns the search the flags ask for.
func (f *searchFlags) query() (gamedb.Query, error) {
	sf := explorer.SearchFilters{Player: *f.player, White: *f.white, Black: *f.black, Event: *f.event, Site: *f.site,
		Result: *f.result, ECO: *f.eco, Opening: *f.opening, Sort: *f.sort, Values: f.filters.Values()}
	q, err := sf.Query(true)
	if err != nil {
		return q, err
	}
	if *f.page < 1 {
		return q, badInput("-page %d: want 1 or more", *f.page)
	}
	if *f.perPage < 0 || *f.perPage > maxPerPage {
		return q, badInput("-per-page %d: want 1 to %d (0: every game)", *f.perPage, maxPerPage)
	}
	q.Limit = *f.perPage
	q.Offset = (*f.page - 1) * *f.perPage
	if q.Limit > 0 && q.Offset > gamedb.MaxWindow-q.Limit {
		return q, badInput("-page %d: a search lists its first %d games at most (this page ends at game %d): narrow the search or sort it otherwise, or give -per-page 0 for every game",
			*f.page, gamedb.MaxWindow, q.Offset+q.Limit)
	}
	if *f.fen != "" || *f.moves != "" {
		line, err := movesLine(*f.fen, *f.moves)
		if err != nil {
			return q, err
		}
		q.Position = &line[len(line)-1]
	}
	return q, nil
}

func runSearch(e *env, args []string) error {
	fs := e.flags()
	f := addSearchFlags(fs)
	if err := e.parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return badInput("unexpected arguments %q: give names with -player \"NAME\" (quoted), the position with -fen and -moves", strings.Join(fs.Args(), " "))
	}
	switch *f.format {
	case "text", "pgn":
		if e.json && *f.format == "pgn" {
			return badInput("-json and -format pgn: choose one")
		}
	case "json":
		e.json = true
	default:
		return badInput("-format %q: want text, json or pgn", *f.format)
	}
	q, err := f.query()
	if err != nil {
		return err
	}
	st, db, err := e.openIndex("search ...")
	if err != nil {
		return err
	}
	defer st.Close()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	res, err := db.Search(ctx, q)
	if errors.Is(err, gamedb.ErrNoName) {
		return noNameError(ctx, db, err)
	}
	if err != nil {
		return err
	}
	if *f.format == "pgn" {
		pw := pgn.NewWriter(e.stdout)
		for _, g := range res.Games {
			rec, err := st.Game(g.ID)
			if err != nil {
				return err
			}
			game, err := gamecode.DecodeGame(rec)
			if err != nil {
				return fmt.Errorf("game %s: %w", g.ID, err)
			}
			if err := pw.WriteGame(&game); err != nil {
				return fmt.Errorf("writing output: %w", err)
			}
		}
		return nil
	}
	out := searchJSON{Total: res.Total, Page: *f.page, PerPage: *f.perPage, Games: res.Games}
	return e.emit(out, func(w io.Writer) error {
		_, err := io.WriteString(w, searchText(&out, q, e.db))
		return err
	})
}

// noNameError is search's error for a name no spelling contains: bad
// input, with the closest names.
func noNameError(ctx context.Context, db *gamedb.DB, err error) error {
	var sug []gamedb.Name
	if nn := (*gamedb.NoNameError)(nil); errors.As(err, &nn) {
		sug, _ = db.Suggest(ctx, nn.Kind, nn.Text, 3) // no suggestion is no error
	}
	return badInput("%s%s", err, closest(sug))
}

// searchText is search's text output.
func searchText(out *searchJSON, q gamedb.Query, db string) string {
	var b strings.Builder
	order := map[gamedb.Sort]string{gamedb.ByDate: "newest first", gamedb.ByRating: "highest rated first", gamedb.ByPlies: "longest first"}[q.Sort]
	if out.Total == 0 {
		b.WriteString("no games found\n")
		return b.String()
	}
	pages := 1
	if out.PerPage > 0 {
		pages = (out.Total + out.PerPage - 1) / out.PerPage
	}
	fmt.Fprintf(&b, "%s found, %s; page %d of %d\n", plural(out.Total, "game", "games"), order, out.Page, pages)
	if len(out.Games) == 0 {
		return b.String()
	}
	rows := [][]string{{"id", "date", "white", "elo", "black", "elo", "result", "eco", "plies", "event"}}
	if q.Position != nil {
		rows[0] = append(rows[0], "ply")
	}
	for _, g := range out.Games {
		elo := func(n int) string { return orDash(n > 0, strconv.Itoa(n)) }
		r := []string{g.ID.String(), g.Date.String(), g.White, elo(g.WhiteElo), g.Black, elo(g.BlackElo),
			orDash(g.Result.String() != "", g.Result.String()), orDash(g.ECO != "", g.ECO), strconv.Itoa(g.Plies), g.Event}
		if q.Position != nil {
			r = append(r, strconv.Itoa(g.Ply))
		}
		rows = append(rows, r)
	}
	writeTable(&b, rows, len(rows[0]))
	fmt.Fprintf(&b, "a game as PGN: bookquery -db %s game ID; every game of the page: add -format pgn\n", db)
	return b.String()
}
