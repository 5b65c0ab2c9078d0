package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/explorer"
	"github.com/chessbook/chessbook/filter"
	"github.com/chessbook/chessbook/store"
)

// The moves command: what the book knows about one position, in the shape
// of the lichess opening explorer (package explorer computes it).

var movesCmd = &command{
	name:    "moves",
	args:    `[-fen FEN] [-moves "e4 e5 Nf3"] [-limit N] [-speeds SPEEDS] [-ratings BANDS] [-since MONTH] [-until MONTH] [-top N] [-recent N] [-json]`,
	summary: "list the moves played from a position: games, results, ratings, performance, dates, opening name",
	run:     runMoves,
}

func runMoves(e *env, args []string) error {
	fs := e.flags()
	fen := fs.String("fen", "", "the position in FEN (default: the start position)")
	moves := fs.String("moves", "", `moves to play from the position, in SAN or UCI ("e4 e5 Nf3", "e2e4 e7e5 g1f3", "1.e4 e5 2.Nf3")`)
	limit := fs.Int("limit", 0, "list at most N moves, the most played (0: all); the totals count every move")
	qf := addQueryFlags(fs)
	if err := e.parse(fs, args); err != nil {
		return err
	}
	q, err := qf.query()
	if err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return badInput("unexpected arguments %q: give the position with -fen \"FEN\" (quoted) and the moves with -moves \"e4 e5\" (quoted)", strings.Join(fs.Args(), " "))
	}
	if *limit < 0 {
		return badInput("-limit %d: must be 0 (all moves) or more", *limit)
	}
	line, err := movesLine(*fen, *moves)
	if err != nil {
		return err
	}
	if e.db == "" {
		return badInput("no book given: use 'bookquery -db DIR moves ...' with DIR a store built by bookbuild")
	}
	st, err := e.openBook()
	if err != nil {
		return err
	}
	defer st.Close()

	out, err := explorer.New(st).Moves(line, q)
	if err != nil {
		return err
	}
	out.Limit(*limit)
	return e.emit(out, func(w io.Writer) error { return writeMovesText(w, out, e.db) })
}

// queryFlags are the flags of a query's filters and list sizes, as the
// lichess explorer's parameters.
type queryFlags struct {
	f           *filter.Flags
	top, recent int
}

// addQueryFlags defines the filter flags (-speeds, -ratings, -since,
// -until) and the game list sizes (-top, -recent) on fs.
func addQueryFlags(fs *flag.FlagSet) *queryFlags {
	qf := &queryFlags{}
	qf.addFilters(fs)
	fs.IntVar(&qf.top, "top", explorer.DefaultGames, fmt.Sprintf("list at most N top games (0 to %d)", explorer.MaxGames))
	fs.IntVar(&qf.recent, "recent", explorer.DefaultGames, fmt.Sprintf("list at most N recent games (0 to %d)", explorer.MaxGames))
	return qf
}

// addFilters defines the filter flags only: a query of the store's
// histories (by month).
func (qf *queryFlags) addFilters(fs *flag.FlagSet) {
	qf.f = filter.AddFlags(fs, filter.History, filter.Speeds|filter.Ratings|filter.Dates, "count only games")
}

// query returns the query the flags give. Errors match explorer.ErrBadInput.
func (qf *queryFlags) query() (explorer.Query, error) {
	q := explorer.Query{TopGames: qf.top, RecentGames: qf.recent, Performance: true}
	var err error
	if q.Sel, err = qf.f.Filter(); err != nil {
		return q, err
	}
	for _, c := range []struct {
		name string
		n    int
	}{{"-top", qf.top}, {"-recent", qf.recent}} {
		if c.n < 0 || c.n > explorer.MaxGames {
			return q, badInput("%s %d: want 0 to %d games", c.name, c.n, explorer.MaxGames)
		}
	}
	return q, nil
}

// movesLine returns the positions from the -fen position (or the start
// position) through each move of the -moves text (explorer.Movetext), the
// position to look up last. Bad FENs and moves are input errors
// (explorer.ErrBadInput).
func movesLine(fen, moves string) ([]board.Position, error) {
	p, err := explorer.ParseFEN(fen)
	if err != nil {
		return nil, err
	}
	line, err := explorer.ParseLine(p, moves, explorer.LineOptions{Notation: explorer.Movetext})
	if err != nil {
		return nil, fmt.Errorf("-moves: %w", err)
	}
	return line, nil
}

// openBook opens the store in dir read-only.
func openBook(dir string) (*store.Store, error) {
	st, err := store.Open(dir, store.Options{ReadOnly: true})
	// The store's errors name the directory already.
	if errors.Is(err, store.ErrNotExist) {
		if w, _ := store.WriterOf(dir); w != nil {
			return nil, fmt.Errorf("%w: a build is in progress on it and has committed nothing yet; run again once it has", err)
		}
		return nil, fmt.Errorf("%w (build one with 'bookbuild -db %s FILE.pgn')", err, dir)
	}
	return st, err
}

// openBook opens the store of -db read-only (see openBook), and notes
// whether a build is in progress on it (e.build), for run to say so.
func (e *env) openBook() (*store.Store, error) {
	st, err := openBook(e.db)
	if err != nil {
		return nil, err
	}
	if w, _ := store.WriterOf(e.db); w != nil {
		note := explorer.BuildNote(st.Meta().Games)
		e.build = &note
	}
	return st, nil
}

// writeMovesText writes out as an aligned table: one row per move, then the
// totals, the opening, and the top and recent games (those asked for with
// -top and -recent); db is the store, for the hint on printing a game.
func writeMovesText(w io.Writer, out *explorer.Moves, db string) error {
	total := out.White + out.Draws + out.Black + out.Unknown
	rows := [][]string{{"move", "uci", "games", "share", "white", "draw", "black", "rating", "perf", "score", "last played"}}
	for _, m := range out.Moves {
		rows = append(rows, []string{
			m.SAN, m.UCI, fmt.Sprint(m.Games), pct(m.Games, total),
			pct(m.White, m.Games), pct(m.Draws, m.Games), pct(m.Black, m.Games),
			orDash(m.AverageRating != 0, fmt.Sprint(m.AverageRating)),
			orDash(m.Performance != nil, func() string { return fmt.Sprint(*m.Performance) }),
			orDash(m.Score != nil, func() string { return fmt.Sprintf("%.1f%%", 100**m.Score) }),
			orDash(m.LastPlayed != "", m.LastPlayed),
		})
	}
	rows = append(rows, []string{"total", "", fmt.Sprint(total), pct(total, total),
		pct(out.White, total), pct(out.Draws, total), pct(out.Black, total), "", "", "", ""})
	var b strings.Builder
	fmt.Fprintf(&b, "position %s\n", out.FEN)
	if len(out.Moves) == 0 && len(out.Notices) > 0 {
		b.WriteString("no games the filters select reach this position and go on from it (see the notes below)\n")
	} else if len(out.Moves) == 0 {
		b.WriteString("no games in the book reach this position and go on from it\n")
	}
	writeTable(&b, rows, 2)
	writeOpening(&b, out.FEN, out.Opening)
	for _, part := range []struct {
		title string
		games []explorer.GameRef
	}{{"top games", out.TopGames}, {"recent games", out.RecentGames}} {
		if len(part.games) == 0 {
			continue
		}
		fmt.Fprintf(&b, "%s:\n", part.title)
		for _, g := range part.games {
			writeGameLine(&b, g, g.UCI)
		}
	}
	if len(out.TopGames)+len(out.RecentGames) > 0 {
		fmt.Fprintf(&b, "(print one with 'bookquery -db %s game ID')\n", db)
	}
	for _, note := range out.Notices {
		fmt.Fprintf(&b, "note: %s\n", note)
	}
	for _, warn := range out.Warnings {
		fmt.Fprintf(&b, "warning: %s\n", warn)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// writeTable writes rows with columns separated by two spaces, the first
// left columns aligned left and the others right; trailing blanks are cut.
func writeTable(b *strings.Builder, rows [][]string, left int) {
	writeTableLeft(b, rows, func(i int) bool { return i < left })
}

// writeTableLeft is writeTable with the columns left-aligned where
// isLeft(column) is true, the others right-aligned.
func writeTableLeft(b *strings.Builder, rows [][]string, isLeft func(int) bool) {
	widths := make([]int, len(rows[0]))
	for _, r := range rows {
		for i, c := range r {
			widths[i] = max(widths[i], len([]rune(c)))
		}
	}
	for _, r := range rows {
		var line strings.Builder
		for i, c := range r {
			if i > 0 {
				line.WriteString("  ")
			}
			pad := strings.Repeat(" ", widths[i]-len([]rune(c)))
			if isLeft(i) {
				line.WriteString(c + pad)
			} else {
				line.WriteString(pad + c)
			}
		}
		b.WriteString(strings.TrimRight(line.String(), " "))
		b.WriteByte('\n')
	}
}

// pct formats n as a percentage of of, "-" when of is 0.
func pct(n, of uint64) string {
	if of == 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f%%", 100*float64(n)/float64(of))
}

// orDash returns the text of v (a string, or a func giving one) when known
// is true, else "-".
func orDash(known bool, v any) string {
	if !known {
		return "-"
	}
	if f, ok := v.(func() string); ok {
		return f()
	}
	return v.(string)
}

// writeOpening writes the line that names the opening of the position
// fen: "Starting position" for the standard initial position (which the
// lichess list, and the lichess explorer's opening, leave unnamed),
// "unknown" for another unnamed one.
func writeOpening(b *strings.Builder, fen string, o *explorer.Opening) {
	switch {
	case o != nil:
		fmt.Fprintf(b, "Opening: %s %s\n", o.ECO, o.Name)
	case isStartFEN(fen):
		b.WriteString("Opening: Starting position\n")
	default:
		b.WriteString("Opening: unknown\n")
	}
}

// isStartFEN reports whether fen is the standard initial position, with
// any move clocks.
func isStartFEN(fen string) bool {
	f, start := strings.Fields(fen), strings.Fields(board.StartFEN)
	return len(f) >= 4 && slices.Equal(f[:4], start[:4])
}
