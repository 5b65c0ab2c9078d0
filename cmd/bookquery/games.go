package main

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/chessbook/chessbook/explorer"
	"github.com/chessbook/chessbook/pgn"
	"github.com/chessbook/chessbook/store"
)

// The game database side of bookquery: one game as PGN (game ID), and the
// games behind a position (games), read by package explorer.

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
	x := explorer.New(st)
	for _, id := range ids {
		g, err := x.Game(id)
		if err != nil {
			if errors.Is(err, store.ErrGameNotFound) {
				return badInput("%v", err)
			}
			return err
		}
		out := explorer.FullGame(id, g)
		if err := e.emit(out, func(w io.Writer) error { return pgn.NewWriter(w).WriteGame(g) }); err != nil {
			return err
		}
	}
	return nil
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
	out, err := explorer.New(st).Games(line[len(line)-1])
	if err != nil {
		return err
	}
	return e.emit(out, func(w io.Writer) error { return writeGamesText(w, out, e.db) })
}

// writeGamesText writes the games of out, one line each, top games first.
func writeGamesText(w io.Writer, out *explorer.Games, db string) error {
	for _, part := range []struct {
		title string
		games []explorer.GameRef
	}{{"top games", out.TopGames}, {"recent games", out.RecentGames}} {
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
	for _, warn := range out.Warnings {
		fmt.Fprintf(w, "warning: %s\n", warn)
	}
	_, err := fmt.Fprintf(w, "(print one with 'bookquery -db %s game ID')\n", db)
	return err
}
