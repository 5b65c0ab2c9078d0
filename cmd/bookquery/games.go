package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"

	"github.com/chessbook/chessbook/explorer"
	"github.com/chessbook/chessbook/internal/cli"
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
	args:    `[-fen FEN] [-moves "e4 e5 Nf3"] [filters] [-top N] [-recent N] [-page N [-per-page N] [-progress MODE] [-q]] [-json]`,
	summary: "list the top-rated and the most recent games through a position, or with -page every game, a page at a time",
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
	st, err := e.openBook()
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
	qf := addQueryFlags(fs)
	page := fs.Int("page", 0, "list page N (from 1) of every game through the position, in the order of game ids (found by replaying the stored games); 0: the top and recent games")
	perPage := fs.Int("per-page", explorer.DefaultPerPage, fmt.Sprintf("games per page with -page (1 to %d)", explorer.MaxPerPage))
	po := e.progressFlags(fs, "")
	if err := e.parse(fs, args); err != nil {
		return err
	}
	q, err := qf.query()
	if err != nil {
		return err
	}
	if *page < 0 {
		return badInput("-page %d: want 1 or more (0: the top and recent games)", *page)
	}
	if *perPage < 1 || *perPage > explorer.MaxPerPage {
		return badInput("-per-page %d: want 1 to %d", *perPage, explorer.MaxPerPage)
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
	st, err := e.openBook()
	if err != nil {
		return err
	}
	defer st.Close()
	x := explorer.New(st)
	if *page > 0 {
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		defer stop()
		prog := cli.NewProgress(po.Mode(), e.stderr)
		total := int64(st.Meta().Games)
		out, err := x.GamesPage(ctx, line[len(line)-1], q.Sel, *page, *perPage, func(n int) { prog.Count("games scanned", int64(n), total) })
		prog.End(err)
		if err != nil {
			return err
		}
		return e.emit(out, func(w io.Writer) error { return writeGamePageText(w, out, e.db) })
	}
	out, err := x.Games(line[len(line)-1], q)
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
			writeGameLine(w, g, g.UCI)
		}
	}
	for _, warn := range out.Warnings {
		fmt.Fprintf(w, "warning: %s\n", warn)
	}
	_, err := fmt.Fprintf(w, "(print one with 'bookquery -db %s game ID')\n", db)
	return err
}

// writeGameLine writes one game of a listing: id, move (or ply), players,
// result, date, event.
func writeGameLine(w io.Writer, g explorer.GameRef, move string) {
	fmt.Fprintf(w, "  %s  %-6s %s (%s) - %s (%s)  %s  %s  %s\n", g.ID, move,
		g.White.Name, orDash(g.White.Rating > 0, strconv.Itoa(g.White.Rating)), g.Black.Name, orDash(g.Black.Rating > 0, strconv.Itoa(g.Black.Rating)),
		g.Result, g.Date, g.Event)
}

// writeGamePageText writes a page of games, one line each.
func writeGamePageText(w io.Writer, out *explorer.GamePage, db string) error {
	fmt.Fprintf(w, "games through %s, page %d (%d a page):\n", out.FEN, out.Page, out.PerPage)
	if len(out.Games) == 0 {
		fmt.Fprintln(w, "  (none)")
	}
	for _, g := range out.Games {
		writeGameLine(w, g, fmt.Sprintf("ply %d", g.Ply))
	}
	if out.More {
		fmt.Fprintf(w, "(more on page %d)\n", out.Page+1)
	}
	_, err := fmt.Fprintf(w, "(print one with 'bookquery -db %s game ID')\n", db)
	return err
}
