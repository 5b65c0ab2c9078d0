package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/book"
	"github.com/chessbook/chessbook/explorer"
	"github.com/chessbook/chessbook/internal/cli"
	"github.com/chessbook/chessbook/keys"
	"github.com/chessbook/chessbook/store"
)

// The history command (the games through a position by month, as the
// lichess explorer's /lichess/history) and the pgn command (every game
// through a position, as PGN).

var historyCmd = &command{
	name:    "history",
	args:    `[-fen FEN] [-moves "e4 e5 Nf3"] [-speeds SPEEDS] [-ratings BANDS] [-since MONTH] [-until MONTH] [-json]`,
	summary: "the games through a position by month: white wins, draws, black wins",
	run:     runHistory,
}

var pgnCmd = &command{
	name:    "pgn",
	args:    `[-fen FEN] [-moves "e4 e5 Nf3"] [-speeds SPEEDS] [-ratings BANDS] [-since MONTH] [-until MONTH] [-progress MODE] [-q]`,
	summary: "write every game through a position as PGN (replays the stored games, with progress on stderr)",
	run:     runPGN,
}

// positionQuery is what history and pgn read from their command lines: a
// position (-fen, -moves) and filters, with the store opened.
type positionQuery struct {
	line []board.Position
	q    explorer.Query
	st   *store.Store
}

// openPositionQuery parses args with fs (to which the caller has added its
// own flags; -fen, -moves and the filters are added here), checks them
// with check (nil: nothing more), and opens the store. The caller closes
// the store.
func openPositionQuery(e *env, fs *flag.FlagSet, args []string, check func() error) (*positionQuery, error) {
	fen := fs.String("fen", "", "the position in FEN (default: the start position)")
	moves := fs.String("moves", "", `moves to play from the position, in SAN or UCI`)
	var qf queryFlags
	qf.addFilters(fs)
	if err := e.parse(fs, args); err != nil {
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, badInput("unexpected arguments %q: give the position with -fen \"FEN\" and the moves with -moves \"e4 e5\" (quoted)", strings.Join(fs.Args(), " "))
	}
	if check != nil {
		if err := check(); err != nil {
			return nil, err
		}
	}
	q, err := qf.query()
	if err != nil {
		return nil, err
	}
	line, err := movesLine(*fen, *moves)
	if err != nil {
		return nil, err
	}
	if e.db == "" {
		return nil, badInput("no book given: use 'bookquery -db DIR %s ...'", e.cmd.name)
	}
	st, err := e.openBook()
	if err != nil {
		return nil, err
	}
	return &positionQuery{line: line, q: q, st: st}, nil
}

func runHistory(e *env, args []string) error {
	pq, err := openPositionQuery(e, e.flags(), args, nil)
	if err != nil {
		return err
	}
	defer pq.st.Close()
	out, err := explorer.New(pq.st).History(pq.line, pq.q)
	if err != nil {
		return err
	}
	return e.emit(out, func(w io.Writer) error {
		rows := [][]string{{"month", "games", "white", "draws", "black", "unknown"}}
		for _, m := range out.History {
			n := m.White + m.Draws + m.Black + m.Unknown
			rows = append(rows, []string{m.Month, fmt.Sprint(n), fmt.Sprint(m.White), fmt.Sprint(m.Draws), fmt.Sprint(m.Black), fmt.Sprint(m.Unknown)})
		}
		var b strings.Builder
		fmt.Fprintf(&b, "position %s\n", out.FEN)
		if len(out.History) == 0 {
			b.WriteString("no dated games in the book go on from this position\n")
		} else {
			writeTable(&b, rows, 1)
		}
		_, err := io.WriteString(w, b.String())
		return err
	})
}

func runPGN(e *env, args []string) error {
	fs := e.flags()
	po := e.progressFlags(fs, "no closing count of the games found")
	pq, err := openPositionQuery(e, fs, args, nil)
	if err != nil {
		return err
	}
	defer pq.st.Close()
	st, line, q := pq.st, pq.line, pq.q

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	p := line[len(line)-1]
	start := time.Now()
	prog := cli.NewProgress(po.Mode(), e.stderr)
	total := int64(st.Meta().Games)
	scanned := 0
	found, err := explorer.New(st).WritePGN(ctx, e.stdout, p, book.ThroughOptions{Sel: q.Sel, Progress: func(n int) {
		scanned = n
		prog.Count("games scanned", int64(n), total)
	}})
	prog.End(err)
	if err != nil {
		return err
	}
	if !po.Quiet {
		fmt.Fprintf(e.stderr, "%d games through %s (position hash %016x), %d scanned in %.1fs\n",
			found, p.FEN(), keys.Hash(&p), scanned, time.Since(start).Seconds())
	}
	return nil
}
