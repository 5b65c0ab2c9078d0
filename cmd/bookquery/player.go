package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/explorer"
	"github.com/chessbook/chessbook/filter"
	"github.com/chessbook/chessbook/gamedb"
)

// The player command: a player's opening tree (gamedb.PlayerTree), the
// lichess explorer's Player tab.

var playerCmd = &command{
	name: "player",
	args: `-name NAME -color white|black [-fen FEN] [-moves "e4 e5"] [-speeds S] [-modes M] [-since DATE] [-until DATE] [-recent N] [-json]`,
	summary: "the opening tree of a player's games with one color at a position: per move the results, the average opponent rating, " +
		"the performance, the game when played once; and the recent games (-db DIR)",
	run: runPlayer,
}

// playerJSON is player's -json output, in the lichess player explorer's
// form (its OpeningExplorerPlayer schema), as GET /player answers.
type playerJSON = explorer.PlayerTree

func runPlayer(e *env, args []string) error {
	fs := e.flags()
	name := fs.String("name", "", "the player: every spelling with the same letters and digits (case, accents, spaces and punctuation ignored) counts; 'players -name' lists them")
	color := fs.String("color", "", "the player's color: white or black")
	fen := fs.String("fen", "", "the position in FEN (default: the start position)")
	moves := fs.String("moves", "", `moves to play from the position, in SAN or UCI`)
	filters := filter.AddFlags(fs, filter.Index, filter.Speeds|filter.Modes|filter.Dates, "count only games")
	recent := fs.Int("recent", 8, "list the N most recent games (0 to 8)")
	if err := e.parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return badInput("unexpected arguments %q: give the name with -name \"NAME\" (quoted), the position with -fen and -moves", strings.Join(fs.Args(), " "))
	}
	q := gamedb.TreeQuery{Player: *name, Recent: *recent}
	if gamedb.Normalize(*name) == "" {
		return badInput("-name %q: give a player's name ('players -name TEXT' lists the names)", *name)
	}
	switch strings.ToLower(*color) {
	case "white":
		q.Color = gamedb.White
	case "black":
		q.Color = gamedb.Black
	default:
		return badInput("-color %q: want white or black", *color)
	}
	if *recent < 0 || *recent > 8 {
		return badInput("-recent %d: want 0 to 8", *recent)
	}
	var err error
	if q.Filter, err = filters.Filter(); err != nil {
		return err
	}
	line, err := movesLine(*fen, *moves)
	if err != nil {
		return err
	}
	pos := line[len(line)-1]
	q.Position = &pos
	st, db, err := e.openIndex("player -name NAME -color white")
	if err != nil {
		return err
	}
	defer st.Close()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	tree, err := db.PlayerTree(ctx, q)
	if err != nil {
		return err
	}
	if tree.PlayerGames == 0 {
		sug, _ := db.Suggest(ctx, gamedb.Players, *name, 3) // no suggestion is no error
		return badInput("no games of %q with %s%s", *name, strings.ToLower(*color), closest(sug))
	}
	out := explorer.NewPlayerTree(line, tree)
	return e.emit(out, func(w io.Writer) error {
		_, err := io.WriteString(w, playerText(out, &pos, *name, strings.ToLower(*color), e.db))
		return err
	})
}

// playerText is player's text output.
func playerText(out *playerJSON, pos *board.Position, name, color, db string) string {
	var b strings.Builder
	total := out.White + out.Draws + out.Black
	fmt.Fprintf(&b, "%s with %s, position %s\n", name, color, pos.FEN())
	if total == 0 {
		b.WriteString("none of the player's games with this color (and filters) reach this position and go on from it\n")
	}
	// The game of a move played once: its id, players and date, each a
	// column aligned left (ids need not all have one width); the columns
	// are left out when no move has one.
	withGame := slices.ContainsFunc(out.Moves, func(m explorer.PlayerMove) bool { return m.Game != nil })
	head := []string{"move", "uci", "games", "white", "draw", "black", "opp", "perf"}
	if withGame {
		head = append(head, "game", "players", "date")
	}
	rows := [][]string{head}
	for _, m := range out.Moves {
		games := m.White + m.Draws + m.Black
		row := []string{m.SAN, m.UCI, fmt.Sprint(games), pct(uint64(m.White), uint64(games)), pct(uint64(m.Draws), uint64(games)),
			pct(uint64(m.Black), uint64(games)), orDash(m.AverageOpponentRating > 0, fmt.Sprint(m.AverageOpponentRating)),
			orDash(m.AverageOpponentRating > 0, fmt.Sprint(m.Performance))}
		switch {
		case m.Game != nil:
			row = append(row, m.Game.ID, m.Game.White.Name+" - "+m.Game.Black.Name, m.Game.Month)
		case withGame:
			row = append(row, "", "", "")
		}
		rows = append(rows, row)
	}
	if total > 0 {
		row := []string{"total", "", fmt.Sprint(total), pct(uint64(out.White), uint64(total)), pct(uint64(out.Draws), uint64(total)),
			pct(uint64(out.Black), uint64(total)), "", ""}
		if withGame {
			row = append(row, "", "", "")
		}
		rows = append(rows, row)
		writeTableLeft(&b, rows, func(i int) bool { return i < 2 || i >= 8 })
	}
	writeOpening(&b, pos.FEN(), out.Opening)
	if len(out.RecentGames) > 0 {
		b.WriteString("recent games:\n")
		rows := [][]string{{"move", "id", "date", "white", "elo", "black", "elo", "result"}}
		for _, g := range out.RecentGames {
			res := "1/2"
			if g.Winner != nil {
				res = map[string]string{"white": "1-0", "black": "0-1"}[*g.Winner]
			}
			rows = append(rows, []string{g.UCI, g.ID, g.Month, g.White.Name, orDash(g.White.Rating > 0, fmt.Sprint(g.White.Rating)),
				g.Black.Name, orDash(g.Black.Rating > 0, fmt.Sprint(g.Black.Rating)), res})
		}
		writeTable(&b, rows, len(rows[0]))
		fmt.Fprintf(&b, "a game as PGN: bookquery -db %s game ID\n", db)
	}
	return b.String()
}
