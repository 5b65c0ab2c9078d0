package main

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/gamecode"
	"github.com/chessbook/chessbook/keys"
	"github.com/chessbook/chessbook/pgn"
	"github.com/chessbook/chessbook/stats"
	"github.com/chessbook/chessbook/store"
)

// The game database side of bookquery: one game as PGN (game ID), and the
// games behind a position (games).

var gameCmd = &command{
	name:    "game",
	args:    "[-json] ID...",
	summary: "print stored games as PGN (ids from moves, games or positions)",
	run:     runGame,
}

var gamesCmd = &command{
	name:    "games",
	args:    `[-fen FEN] [-moves "e4 e5 Nf3"] [-json]`,
	summary: "list the top-rated and the most recent games through a position",
	run:     runGames,
}

// gameJSON describes one game the way the lichess opening explorer lists
// topGames and recentGames, plus the fields after Month.
type gameJSON struct {
	UCI    string     `json:"uci,omitempty"` // the move the game played from the position
	ID     string     `json:"id"`
	Winner *string    `json:"winner"` // "white", "black" or null
	White  playerJSON `json:"white"`
	Black  playerJSON `json:"black"`
	Year   int        `json:"year,omitempty"`
	Month  string     `json:"month,omitempty"` // "2021-03" when the month is known
	Date   string     `json:"date,omitempty"`  // the PGN Date tag
	Event  string     `json:"event,omitempty"`
	Site   string     `json:"site,omitempty"`
	Round  string     `json:"round,omitempty"`
	Result string     `json:"result"`
	Plies  int        `json:"plies"`
	Tags   []pgn.Tag  `json:"-"`
}

// playerJSON is a player of gameJSON.
type playerJSON struct {
	Name   string `json:"name"`
	Rating int    `json:"rating,omitempty"`
}

// loadGame reads and decodes game id.
func loadGame(st *store.Store, id store.GameID) (*pgn.Game, error) {
	rec, err := st.Game(id)
	if err != nil {
		return nil, err
	}
	g, err := gamecode.DecodeGame(rec)
	if err != nil {
		return nil, fmt.Errorf("game %s: %w (corrupt store?)", id, err)
	}
	return &g, nil
}

// describeGame returns the explorer form of game g.
func describeGame(id store.GameID, g *pgn.Game) gameJSON {
	tag := func(name string) string { return string(g.Tag(name)) }
	rating := func(name string) int { n, _ := strconv.Atoi(strings.TrimSpace(tag(name))); return max(n, 0) }
	out := gameJSON{
		ID:     id.String(),
		White:  playerJSON{Name: tag("White"), Rating: rating("WhiteElo")},
		Black:  playerJSON{Name: tag("Black"), Rating: rating("BlackElo")},
		Date:   tag("Date"),
		Event:  tag("Event"),
		Site:   tag("Site"),
		Round:  tag("Round"),
		Result: g.Result.String(),
		Plies:  len(g.Moves),
	}
	switch g.Result {
	case pgn.WhiteWins:
		w := "white"
		out.Winner = &w
	case pgn.BlackWins:
		b := "black"
		out.Winner = &b
	}
	if d := stats.ParseDate(out.Date); d.Known() {
		out.Year = d.Year()
		if d.Month() != 0 {
			out.Month = fmt.Sprintf("%04d-%02d", d.Year(), d.Month())
		}
	}
	return out
}

func runGame(e *env, args []string) error {
	fs := e.flags()
	if err := e.parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return badInput("no game id given (ids are 16 hex digits, listed by 'moves' and 'games')")
	}
	ids := make([]store.GameID, fs.NArg())
	for i, a := range fs.Args() {
		id, err := store.ParseGameID(a)
		if err != nil {
			return badInput("%v", err)
		}
		ids[i] = id
	}
	if e.db == "" {
		return badInput("no book given: use 'bookquery -db DIR game ID'")
	}
	st, err := openBook(e.db)
	if err != nil {
		return err
	}
	defer st.Close()
	for _, id := range ids {
		g, err := loadGame(st, id)
		if err != nil {
			if isNotFound(err) {
				return badInput("%v", err)
			}
			return err
		}
		out := gameOutput(id, g)
		if err := e.emit(out, func(w io.Writer) error { return pgn.NewWriter(w).WriteGame(g) }); err != nil {
			return err
		}
	}
	return nil
}

// gameOutJSON is one game as 'game -json' and GET /game/{id} give it.
type gameOutJSON struct {
	gameJSON
	Tags  []pgn.Tag `json:"tags"`
	FEN   string    `json:"fen,omitempty"` // the start position of a game set up from a FEN
	Moves []string  `json:"moves"`         // SAN
	PGN   string    `json:"pgn"`
}

// gameOutput returns game id in its full JSON form.
func gameOutput(id store.GameID, g *pgn.Game) gameOutJSON {
	out := gameOutJSON{gameJSON: describeGame(id, g), Tags: g.Tags, Moves: []string{}, PGN: string(pgn.Append(nil, g))}
	if out.Tags == nil {
		out.Tags = []pgn.Tag{}
	}
	if g.FromFEN {
		out.FEN = g.Start.FEN()
	}
	p := g.Start
	for _, m := range g.Moves {
		out.Moves = append(out.Moves, p.SAN(m))
		p.Play(m)
	}
	return out
}

// gamesJSON is the games command's -json output.
type gamesJSON struct {
	FEN         string     `json:"fen"`
	TopGames    []gameJSON `json:"topGames"`
	RecentGames []gameJSON `json:"recentGames"`
}

func runGames(e *env, args []string) error {
	fs := e.flags()
	fen := fs.String("fen", "", "the position in FEN (default: the start position)")
	moves := fs.String("moves", "", `moves to play from the position, in SAN or UCI`)
	if err := e.parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return badInput("unexpected arguments %q: give the position with -fen \"FEN\" and the moves with -moves \"e4 e5\" (quoted)", strings.Join(fs.Args(), " "))
	}
	line, err := movesLine(*fen, *moves)
	if err != nil {
		return err
	}
	if e.db == "" {
		return badInput("no book given: use 'bookquery -db DIR games ...'")
	}
	st, err := openBook(e.db)
	if err != nil {
		return err
	}
	defer st.Close()
	p := line[len(line)-1]
	entry, _, err := st.Get(keys.Encode(&p))
	if err != nil {
		return fmt.Errorf("reading position %s: %w", p.FEN(), err)
	}
	top, recent, err := positionGames(st, p, entry)
	if err != nil {
		return err
	}
	out := gamesJSON{FEN: p.FEN(), TopGames: top, RecentGames: recent}
	return e.emit(out, func(w io.Writer) error {
		for _, part := range []struct {
			title string
			games []gameJSON
		}{{"top games", top}, {"recent games", recent}} {
			if _, err := fmt.Fprintf(w, "%s:\n", part.title); err != nil {
				return err
			}
			if len(part.games) == 0 {
				fmt.Fprintln(w, "  (none)")
			}
			for _, g := range part.games {
				fmt.Fprintf(w, "  %s  %-6s %s (%s) - %s (%s)  %s  %s  %s\n", g.ID, g.UCI,
					g.White.Name, orDash(g.White.Rating > 0, strconv.Itoa(g.White.Rating)), g.Black.Name, orDash(g.Black.Rating > 0, strconv.Itoa(g.Black.Rating)),
					g.Result, g.Date, g.Event)
			}
		}
		_, err := fmt.Fprintf(w, "(print one with 'bookquery -db %s game ID')\n", e.db)
		return err
	})
}

// positionGames returns the position's top and recent games: the best of
// every move's lists, each with the move it played.
func positionGames(st *store.Store, p board.Position, entry stats.Entry) (top, recent []gameJSON, err error) {
	var all stats.Refs
	moveOf := map[uint64]board.Move{}
	for _, me := range entry.Moves {
		all.Merge(&me.Refs)
		for _, r := range me.Refs.Top {
			moveOf[r.ID] = me.Move
		}
		for _, r := range me.Refs.Recent {
			moveOf[r.ID] = me.Move
		}
	}
	describe := func(list []stats.GameRef) ([]gameJSON, error) {
		out := []gameJSON{}
		for _, r := range list {
			if r.ID == 0 {
				break
			}
			g, err := describeRef(st, r)
			if err != nil {
				return nil, err
			}
			g.UCI = moveOf[r.ID].String()
			out = append(out, g)
		}
		return out, nil
	}
	if top, err = describe(all.Top[:]); err != nil {
		return nil, nil, err
	}
	if recent, err = describe(all.Recent[:]); err != nil {
		return nil, nil, err
	}
	return top, recent, nil
}

// describeRef loads and describes a referenced game.
func describeRef(st *store.Store, r stats.GameRef) (gameJSON, error) {
	id := store.GameID(r.ID)
	g, err := loadGame(st, id)
	if err != nil {
		return gameJSON{}, fmt.Errorf("game %s referenced by the book: %w", id, err)
	}
	return describeGame(id, g), nil
}

// isNotFound reports whether err says a game is not in the store.
func isNotFound(err error) bool { return errors.Is(err, store.ErrGameNotFound) }
