package explorer

import (
	"fmt"
	"math"
	"sort"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/book"
	"github.com/chessbook/chessbook/gamecode"
	"github.com/chessbook/chessbook/keys"
	"github.com/chessbook/chessbook/stats"
	"github.com/chessbook/chessbook/store"
)

// The moves of a position, in the shape of the lichess opening explorer.
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
//     estimate; a move played in one game only takes that game's
//     opponent's rating, exact and without reading the next position; it is null when no opponent rating is known, and in the
//     answers of /lichess and /masters (Query.Performance false), as in
//     the lichess explorer's: reading the position after every move is
//     most of the cost of an answer.
//   - the position totals are the sums over every move played from it
//     (games that ended in the position are not recorded by the book). In
//     a -count game book that is the number of games that played on from
//     the position: a game counts once, under the move it played at its
//     first visit, even when it comes back and plays another move.
//   - with a filter (Query.Sel), the counts and averageRating are those
//     of the games selected, read from the position's history; the store
//     keeps dates and performance unfiltered, so firstPlayed, lastPlayed
//     and performance are left out.
//   - a move's opening is that of the position it leads to, when the
//     lichess list names it (as lichess gives it), else null.
//   - opening: the name and ECO code of the position in the lichess opening
//     list shipped by github.com/notnil/chess/opening, matched by position
//     (so transpositions are named), else that of the last named position
//     of the line played (as lichess names it), else, for a bare FEN or a
//     line through no named position, that of the last named position
//     its best game went through, else null (see openings.go).

// Explorer answers the queries of the explorer from one store.
type Explorer struct {
	st *store.Store
}

// New returns an Explorer over st, which the caller opens (read-only will
// do) and closes.
func New(st *store.Store) *Explorer { return &Explorer{st: st} }

// Moves returns the moves played from the last position of line by the
// games q selects, sorted by games, most played first (ties by UCI), with
// the position totals, its top and recent games and the opening of the
// line.
func (x *Explorer) Moves(line []board.Position, q Query) (*Moves, error) {
	p := line[len(line)-1]
	out := &Moves{FEN: p.FEN(), Moves: []Move{}, TopGames: []GameRef{}, RecentGames: []GameRef{}}
	k := keys.Encode(&p)
	if k == nil { // cannot happen: ParseFEN and Play only give valid positions
		return nil, fmt.Errorf("position %s has no key", p.FEN())
	}
	entry, found, err := book.Lookup(x.st, k)
	if err != nil {
		return nil, fmt.Errorf("reading position %s: %w", p.FEN(), err)
	}
	out.Key = keys.Text(k)
	// The position's own name, else that of the last named position of
	// the line played (as lichess names a position), else, for a bare
	// position or a line that passes no named position, that of its best
	// game's line.
	out.Opening = OpeningOf(line)
	if out.Opening == nil && found {
		out.Opening, _ = x.openingByGame(p, entry)
	}
	if !found {
		return out, nil
	}
	games := x.newGameList(q.Sel)
	white := p.SideToMove() == board.White
	refsOf := map[board.Move]*stats.Refs{}
	for i := range entry.Moves {
		refsOf[entry.Moves[i].Move] = &entry.Moves[i].Refs
	}
	add := func(m board.Move, mj Move) {
		mj.Opening = openingAfter(p, m)
		if mj.Games == 1 {
			if g, ok := games.first(refsOf[m]); ok {
				g.UCI = mj.UCI
				mj.Game = &g
			}
		}
		out.Moves = append(out.Moves, mj)
		out.White += mj.White
		out.Draws += mj.Draws
		out.Black += mj.Black
		out.Unknown += mj.Unknown
	}
	if q.Sel.IsZero() {
		for _, me := range entry.Moves {
			if !p.IsLegal(me.Move) {
				return nil, fmt.Errorf("position %s: stored move %s is not legal (corrupt store?)", p.FEN(), me.Move)
			}
			var opp float64
			var oppKnown bool
			if q.Performance {
				if g, ok := games.first(&me.Refs); ok && me.Games() == 1 {
					// One game played the move: its opponent's rating is
					// known without reading the position after it.
					opp, oppKnown = opponentOf(g, white)
				} else if opp, oppKnown, err = x.opponentRating(p, me.Move); err != nil {
					return nil, err
				}
			}
			add(me.Move, moveOf(p.SAN(me.Move), me, white, opp, oppKnown))
		}
	} else {
		sel, err := book.Select(x.st, k, q.Sel)
		if err != nil {
			return nil, fmt.Errorf("reading position %s: %w", p.FEN(), err)
		}
		out.Notices = unselectableNotices(sel.Unselectable)
		for _, fm := range sel.Moves {
			if !p.IsLegal(fm.Move) {
				return nil, fmt.Errorf("position %s: stored move %s is not legal (corrupt store?)", p.FEN(), fm.Move)
			}
			me := stats.MoveEntry{Move: fm.Move, MoveStats: stats.MoveStats{CellStats: fm.CellStats}}
			add(fm.Move, moveOf(p.SAN(fm.Move), me, white, 0, false))
		}
	}
	out.TopGames, out.RecentGames = games.position(entry, q.TopGames, q.RecentGames)
	out.Warnings = append(out.Warnings, games.warnings...)
	sort.SliceStable(out.Moves, func(i, j int) bool {
		a, b := out.Moves[i], out.Moves[j]
		if a.Games != b.Games {
			return a.Games > b.Games
		}
		return a.UCI < b.UCI
	})
	return out, nil
}

// openingByGame names a position the lichess list does not name by the
// line of its first top game (stats.TopBefore over every move's
// references): the opening of the last named position that game went
// through before p. Every query of p, whatever its moves or FEN, gets the
// same name. ok is false when no game gives one (the name of the query's
// own line stands then); a game that cannot be read gives none.
func (x *Explorer) openingByGame(p board.Position, entry stats.Entry) (*Opening, bool) {
	var best stats.GameRef
	for _, me := range entry.Moves {
		if r := me.Refs.Top[0]; r.ID != 0 && (best.ID == 0 || stats.TopBefore(r, best)) {
			best = r
		}
	}
	if best.ID == 0 {
		return nil, false
	}
	rec, err := x.st.Game(store.GameID(best.ID))
	if err != nil {
		return nil, false
	}
	var last *Opening
	reached := false
	hash := keys.Hash(&p)
	_, err = gamecode.DecodeGameUntil(rec, func(_ int, q *board.Position, _ board.Move) bool {
		if keys.Hash(q) == hash && keys.Equal(q, &p) {
			reached = true
			return true
		}
		if o := openingAt(q); o != nil {
			last = o
		}
		return false
	})
	if err != nil || !reached || last == nil {
		return nil, false
	}
	return last, true
}

// History returns the games q selects through the last position of line,
// by month (the lichess explorer's history): every month some game was
// played, oldest first; undated games are left out.
func (x *Explorer) History(line []board.Position, q Query) (*History, error) {
	p := line[len(line)-1]
	sel, err := book.Select(x.st, keys.Encode(&p), q.Sel)
	if err != nil {
		return nil, fmt.Errorf("reading position %s: %w", p.FEN(), err)
	}
	months := sel.Months
	out := &History{FEN: p.FEN(), History: []HistoryMonth{}}
	for _, m := range months {
		if m.Period == 0 {
			continue
		}
		out.History = append(out.History, HistoryMonth{Month: FormatPeriod(m.Period),
			White: m.WhiteWins, Draws: m.Draws, Black: m.BlackWins, Unknown: m.Unknown})
	}
	return out, nil
}

// opponentRating returns the mean rating of the mover's opponent after m
// from p: that of whoever moved from the position m leads to, and false
// when it is not known (the position is not stored, or no rating was).
func (x *Explorer) opponentRating(p board.Position, m board.Move) (float64, bool, error) {
	q := p
	q.Play(m)
	child, found, err := book.Lookup(x.st, keys.Encode(&q))
	if err != nil {
		return 0, false, fmt.Errorf("reading position %s: %w", q.FEN(), err)
	}
	if !found {
		return 0, false, nil
	}
	avg, ok := child.Total().AverageRating()
	return avg, ok, nil
}

// opponentOf returns the rating of the mover's opponent in game g (the
// mover is White when white), and whether it is known.
func opponentOf(g GameRef, white bool) (float64, bool) {
	r := g.Black.Rating
	if !white {
		r = g.White.Rating
	}
	return float64(r), r > 0
}

// moveOf turns one stored move into its explorer form. white says whether
// the mover is White; opp is the opponent's mean rating, when known.
func moveOf(san string, me stats.MoveEntry, white bool, opp float64, oppKnown bool) Move {
	mj := Move{
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

// unselectableNotices words u for Moves.Notices.
func unselectableNotices(u book.Unselectable) []string {
	var out []string
	games := func(n uint64) string {
		if n == 1 {
			return "1 game"
		}
		return fmt.Sprintf("%d games", n)
	}
	if u.NoSpeed > 0 {
		out = append(out, games(u.NoSpeed)+" through this position have no TimeControl: speed filters select none of them")
	}
	if u.NoRating > 0 {
		out = append(out, games(u.NoRating)+" through this position lack a player's rating: rating filters select none of them")
	}
	return out
}
