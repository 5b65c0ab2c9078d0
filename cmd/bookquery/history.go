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
	args:    `[-fen FEN] [-moves "e4 e5 Nf3"] [-speeds SPEEDS] [-ratings BANDS] [-since MONTH] [-until MONTH] [-by month|year] [-json]`,
	summary: "the games through a position by year and month: white wins, draws, black wins",
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
	fs := e.flags()
	var by string
	cli.EnumVar(fs, &by, "by", "month", "the rows, `UNIT`: month (each year's total, then its months under it) or year (the years' totals only)", "month", "year")
	pq, err := openPositionQuery(e, fs, args, nil)
	if err != nil {
		return err
	}
	defer pq.st.Close()
	p := pq.line[len(pq.line)-1]
	sel, err := book.Select(pq.st, keys.Encode(&p), pq.q.Sel)
	if err != nil {
		return fmt.Errorf("reading position %s: %w", p.FEN(), err)
	}
	// What explorer.History answers (the lichess explorer's history), and
	// the undated games it leaves out.
	out := &explorer.History{FEN: p.FEN(), History: []explorer.HistoryMonth{}}
	var undated uint64
	for _, m := range sel.Months {
		if m.Period == 0 {
			undated += m.WhiteWins + m.Draws + m.BlackWins + m.Unknown
			continue
		}
		out.History = append(out.History, explorer.HistoryMonth{Month: explorer.FormatPeriod(m.Period),
			White: m.WhiteWins, Draws: m.Draws, Black: m.BlackWins, Unknown: m.Unknown})
	}
	years := historyYears(out.History)
	if by == "year" {
		out = &explorer.History{FEN: out.FEN, History: make([]explorer.HistoryMonth, len(years))}
		for i, y := range years {
			out.History[i] = y.total
		}
	}
	return e.emit(out, func(w io.Writer) error {
		_, err := io.WriteString(w, historyText(out.FEN, years, by == "month", undated, !pq.q.Sel.IsZero()))
		return err
	})
}

// historyYear is one year of a history: its total (Month is the year),
// and with its months those of its games dated to the month (oldest
// first) and its games dated to the year only.
type historyYear struct {
	total    explorer.HistoryMonth
	months   []explorer.HistoryMonth
	yearOnly *explorer.HistoryMonth
}

// historyYears groups the periods of a history, oldest first ("1961",
// "1961-10", ...), by year.
func historyYears(h []explorer.HistoryMonth) []historyYear {
	var years []historyYear
	for _, m := range h {
		year, _, hasMonth := strings.Cut(m.Month, "-")
		if len(years) == 0 || years[len(years)-1].total.Month != year {
			years = append(years, historyYear{total: explorer.HistoryMonth{Month: year}})
		}
		y := &years[len(years)-1]
		y.total.White += m.White
		y.total.Draws += m.Draws
		y.total.Black += m.Black
		y.total.Unknown += m.Unknown
		if hasMonth {
			y.months = append(y.months, m)
		} else {
			y.yearOnly = &m
		}
	}
	return years
}

// historyText is history's text output: a row per year, its total, and
// with months the year's months indented under it ("  no month" for its
// games dated to the year only, when some have a month); then the total of
// the dated games, and the undated ones left out; filtered says that
// filters select the games.
func historyText(fen string, years []historyYear, months bool, undated uint64, filtered bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "position %s\n", fen)
	if len(years) == 0 {
		if filtered {
			b.WriteString("no dated games the filters select go on from this position\n")
		} else {
			b.WriteString("no dated games in the book go on from this position\n")
		}
		if undated > 0 {
			fmt.Fprintf(&b, "undated games: %d\n", undated)
		}
		return b.String()
	}
	head := "year"
	if months {
		b.WriteString("each year's games, then its months under it\n")
		head = "year/month"
	}
	rows := [][]string{{head, "games", "white", "draws", "black", "unknown"}}
	row := func(label string, m explorer.HistoryMonth) []string {
		return []string{label, fmt.Sprint(m.White + m.Draws + m.Black + m.Unknown), fmt.Sprint(m.White), fmt.Sprint(m.Draws), fmt.Sprint(m.Black), fmt.Sprint(m.Unknown)}
	}
	var total explorer.HistoryMonth
	for _, y := range years {
		rows = append(rows, row(y.total.Month, y.total))
		total.White += y.total.White
		total.Draws += y.total.Draws
		total.Black += y.total.Black
		total.Unknown += y.total.Unknown
		if !months || len(y.months) == 0 {
			continue
		}
		for _, m := range y.months {
			rows = append(rows, row("  "+m.Month, m))
		}
		if y.yearOnly != nil {
			rows = append(rows, row("  no month", *y.yearOnly))
		}
	}
	rows = append(rows, row("total", total))
	writeTable(&b, rows, 1)
	if undated > 0 {
		fmt.Fprintf(&b, "undated games, left out: %d\n", undated)
	}
	return b.String()
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
