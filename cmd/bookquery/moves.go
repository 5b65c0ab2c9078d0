package main

import (
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strings"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/keys"
	"github.com/chessbook/chessbook/stats"
	"github.com/chessbook/chessbook/store"
)

// The moves command: what the book knows about one position, in the shape
// of the lichess opening explorer.
//
// What is computed, from what the store keeps (results by colour, the sum
// and count of the mover's rating, first and last dates, per move):
//
//   - white, draws, black: games won by White, drawn, won by Black; a game
//     with an unknown result ("*") counts in games and unknown only, so the
//     three percentages add up to less than 100 when there are any.
//   - averageRating: the mean rating of the player who made the move, over
//     the games where it was known (0 when it never was).
//   - score: the mover's score over the decided and drawn games, (W+D/2)/N.
//   - performance: the mover's rating performance, avgOpp + 400*(W-L)/N
//     with W, L the mover's wins and losses and N = W+D+L. The store keeps
//     only the mover's rating, so avgOpp is read from the position after
//     the move, where the opponent is the mover: the mean rating of whoever
//     moved from it. That position's games include transpositions into it
//     and leave out games that ended on it, so the performance is an
//     estimate; it is null when no opponent rating is known.
//   - the position totals are the sums over every move played from it
//     (games that ended in the position are not recorded by the book).
//   - opening: the name and ECO code of the position in the lichess opening
//     list shipped by github.com/notnil/chess/opening, matched by position
//     (so transpositions are named), else that of the last named position
//     of the -moves line, else null.

var movesCmd = &command{
	name:    "moves",
	args:    `[-fen FEN] [-moves "e4 e5 Nf3"] [-limit N] [-json]`,
	summary: "list the moves played from a position: games, results, ratings, performance, dates, opening name",
	run:     runMoves,
}

// movesJSON is moves' -json output: the lichess opening explorer's response
// (white, draws, black, moves, topGames, recentGames, opening) with a few
// fields of our own (fen, unknown).
type movesJSON struct {
	FEN     string     `json:"fen"`     // the position looked up
	White   uint64     `json:"white"`   // games won by White, over all moves
	Draws   uint64     `json:"draws"`   // games drawn
	Black   uint64     `json:"black"`   // games won by Black
	Unknown uint64     `json:"unknown"` // games with an unknown result
	Moves   []moveJSON `json:"moves"`   // by games, most played first
	// TopGames and RecentGames are the position's best-rated and latest
	// games (up to 4 each), from every move's game references.
	TopGames    []gameJSON   `json:"topGames"`
	RecentGames []gameJSON   `json:"recentGames"`
	Opening     *openingJSON `json:"opening"` // null if unnamed
}

// moveJSON is one move of movesJSON, as in the lichess explorer, plus the
// fields after Game.
type moveJSON struct {
	UCI           string `json:"uci"`
	SAN           string `json:"san"`
	AverageRating int    `json:"averageRating"` // the mover's, rounded; 0 if unknown
	White         uint64 `json:"white"`
	Draws         uint64 `json:"draws"`
	Black         uint64 `json:"black"`
	// Game is the game when only one played the move (as lichess gives
	// it), else null.
	Game        *gameJSON `json:"game"`
	Unknown     uint64    `json:"unknown"`               // games with an unknown result
	Games       uint64    `json:"games"`                 // white+draws+black+unknown
	Score       *float64  `json:"score"`                 // the mover's score, 0 to 1; null if no result is known
	Performance *int      `json:"performance"`           // see the comment at the top of moves.go; null if unknown
	FirstPlayed string    `json:"firstPlayed,omitempty"` // PGN date, "1859.??.??" when partly known
	LastPlayed  string    `json:"lastPlayed,omitempty"`
}

// openingJSON is an opening name as the lichess explorer gives it.
type openingJSON struct {
	ECO  string `json:"eco"`
	Name string `json:"name"`
}

func runMoves(e *env, args []string) error {
	fs := e.flags()
	fen := fs.String("fen", "", "the position in FEN (default: the start position)")
	moves := fs.String("moves", "", `moves to play from the position, in SAN or UCI ("e4 e5 Nf3", "e2e4 e7e5 g1f3", "1.e4 e5 2.Nf3")`)
	limit := fs.Int("limit", 0, "list at most N moves, the most played (0: all); the totals count every move")
	if err := e.parse(fs, args); err != nil {
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
	st, err := openBook(e.db)
	if err != nil {
		return err
	}
	defer st.Close()

	p := line[len(line)-1]
	out, err := lookupMoves(st, p)
	if err != nil {
		return err
	}
	out.Opening = openingOf(line)
	if *limit > 0 && len(out.Moves) > *limit {
		out.Moves = out.Moves[:*limit]
	}
	return e.emit(out, func(w io.Writer) error { return writeMovesText(w, out) })
}

// movesLine returns the positions from the -fen position (or the start
// position) through each move of the -moves text, the position to look up
// last. Bad FENs and moves are input errors.
func movesLine(fen, moves string) ([]board.Position, error) {
	p := board.StartPosition()
	if fen != "" {
		var err error
		if p, err = board.ParseFEN(fen); err != nil {
			return nil, badInput("bad FEN %q: %v", fen, err)
		}
	}
	if strings.TrimSpace(moves) == "" {
		return []board.Position{p}, nil
	}
	return playMoves(p, moves)
}

// openBook opens the store in dir read-only.
func openBook(dir string) (*store.Store, error) {
	st, err := store.Open(dir, store.Options{ReadOnly: true})
	// The store's errors name the directory already.
	if errors.Is(err, store.ErrNotExist) {
		return nil, fmt.Errorf("%w (build one with 'bookbuild -db %s FILE.pgn')", err, dir)
	}
	return st, err
}

// lookupMoves reads the moves of p from st, sorted by games, most played
// first (ties by UCI), with the position totals. Opening is left nil.
func lookupMoves(st *store.Store, p board.Position) (*movesJSON, error) {
	out := &movesJSON{FEN: p.FEN(), Moves: []moveJSON{}, TopGames: []gameJSON{}, RecentGames: []gameJSON{}}
	k := keys.Encode(&p)
	if k == nil { // cannot happen: ParseFEN and Play only give valid positions
		return nil, fmt.Errorf("position %s has no key", p.FEN())
	}
	entry, found, err := st.Get(k)
	if err != nil {
		return nil, fmt.Errorf("reading position %s: %w", p.FEN(), err)
	}
	if !found {
		return out, nil
	}
	white := p.SideToMove() == board.White
	for _, me := range entry.Moves {
		if !p.IsLegal(me.Move) {
			return nil, fmt.Errorf("position %s: stored move %s is not legal (corrupt store?)", p.FEN(), me.Move)
		}
		opp, oppKnown, err := opponentRating(st, p, me.Move)
		if err != nil {
			return nil, err
		}
		mj := moveOf(p.SAN(me.Move), me, white, opp, oppKnown)
		if mj.Games == 1 && me.Refs.Top[0].ID != 0 {
			g, err := describeRef(st, me.Refs.Top[0])
			if err != nil {
				return nil, err
			}
			g.UCI = mj.UCI
			mj.Game = &g
		}
		out.Moves = append(out.Moves, mj)
		out.White += me.WhiteWins
		out.Draws += me.Draws
		out.Black += me.BlackWins
		out.Unknown += me.Unknown
	}
	if out.TopGames, out.RecentGames, err = positionGames(st, p, entry); err != nil {
		return nil, err
	}
	sort.SliceStable(out.Moves, func(i, j int) bool {
		a, b := out.Moves[i], out.Moves[j]
		if a.Games != b.Games {
			return a.Games > b.Games
		}
		return a.UCI < b.UCI
	})
	return out, nil
}

// opponentRating returns the mean rating of the mover's opponent after m
// from p: that of whoever moved from the position m leads to, and false
// when it is not known (the position is not stored, or no rating was).
func opponentRating(st *store.Store, p board.Position, m board.Move) (float64, bool, error) {
	q := p
	q.Play(m)
	child, found, err := st.Get(keys.Encode(&q))
	if err != nil {
		return 0, false, fmt.Errorf("reading position %s: %w", q.FEN(), err)
	}
	if !found {
		return 0, false, nil
	}
	avg, ok := child.Total().AverageRating()
	return avg, ok, nil
}

// moveOf turns one stored move into its JSON form. white says whether the
// mover is White; opp is the opponent's mean rating, when known.
func moveOf(san string, me stats.MoveEntry, white bool, opp float64, oppKnown bool) moveJSON {
	mj := moveJSON{
		UCI: me.Move.String(), SAN: san,
		White: me.WhiteWins, Draws: me.Draws, Black: me.BlackWins, Unknown: me.Unknown,
		Games: me.Games(),
	}
	if avg, ok := me.AverageRating(); ok {
		mj.AverageRating = int(math.Round(avg))
	}
	wins, losses := me.WhiteWins, me.BlackWins
	if !white {
		wins, losses = losses, wins
	}
	if n := wins + me.Draws + losses; n > 0 {
		s := (float64(wins) + float64(me.Draws)/2) / float64(n)
		mj.Score = &s
		if oppKnown {
			perf := int(math.Round(opp + 400*(float64(wins)-float64(losses))/float64(n)))
			mj.Performance = &perf
		}
	}
	if me.FirstDate.Known() {
		mj.FirstPlayed = me.FirstDate.String()
	}
	if me.LastDate.Known() {
		mj.LastPlayed = me.LastDate.String()
	}
	return mj
}

// writeMovesText writes out as an aligned table: one row per move, then the
// totals, then the opening.
func writeMovesText(w io.Writer, out *movesJSON) error {
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
	if len(out.Moves) == 0 {
		b.WriteString("no games in the book reach this position and go on from it\n")
	}
	writeTable(&b, rows, 2)
	if o := out.Opening; o != nil {
		fmt.Fprintf(&b, "Opening: %s %s\n", o.ECO, o.Name)
	} else {
		b.WriteString("Opening: unknown\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// writeTable writes rows with columns separated by two spaces, the first
// left columns aligned left and the others right; trailing blanks are cut.
func writeTable(b *strings.Builder, rows [][]string, left int) {
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
			if i < left {
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
