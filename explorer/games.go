package explorer

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/book"
	"github.com/chessbook/chessbook/gamecode"
	"github.com/chessbook/chessbook/keys"
	"github.com/chessbook/chessbook/pgn"
	"github.com/chessbook/chessbook/stats"
	"github.com/chessbook/chessbook/store"
)

// The games of the store: one game by id, and the games behind a position.

// Game reads and decodes game id. A game the store does not hold is an
// error matching store.ErrGameNotFound.
func (x *Explorer) Game(id store.GameID) (*pgn.Game, error) {
	rec, err := x.st.Game(id)
	if err != nil {
		return nil, err
	}
	g, err := gamecode.DecodeGame(rec)
	if err != nil {
		return nil, fmt.Errorf("game %s: %w (corrupt store?)", id, err)
	}
	return &g, nil
}

// Games returns the top-rated and the most recent games through p: the
// best of every move's lists, each with the move it played.
func (x *Explorer) Games(p board.Position) (*Games, error) {
	entry, _, err := book.Entry(x.st, keys.Encode(&p))
	if err != nil {
		return nil, fmt.Errorf("reading position %s: %w", p.FEN(), err)
	}
	top, recent, warnings := x.positionGames(entry, map[uint64]GameRef{})
	return &Games{FEN: p.FEN(), TopGames: top, RecentGames: recent, Warnings: warnings}, nil
}

// positionGames returns the top and recent games of a position's entry:
// the best of every move's lists, each with the move it played. A
// reference whose game cannot be read is left out, with a warning: one bad
// record does not fail the query.
//
// described holds the games described already in this query, and gets
// those this call describes.
func (x *Explorer) positionGames(entry stats.Entry, described map[uint64]GameRef) (top, recent []GameRef, warnings []string) {
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
	failed := map[uint64]bool{}
	describe := func(list []stats.GameRef) []GameRef {
		out := []GameRef{}
		for _, r := range list {
			if r.ID == 0 {
				break
			}
			g, err := x.describeOnce(described, r)
			if err != nil {
				if !failed[r.ID] {
					failed[r.ID] = true
					warnings = append(warnings, store.ErrorLine(err)+": left out")
				}
				continue
			}
			g.UCI = moveOf[r.ID].String()
			out = append(out, g)
		}
		return out
	}
	return describe(all.Top[:]), describe(all.Recent[:]), warnings
}

// describeOnce is describeRef through described, the games described
// already.
func (x *Explorer) describeOnce(described map[uint64]GameRef, r stats.GameRef) (GameRef, error) {
	if g, ok := described[r.ID]; ok {
		return g, nil
	}
	g, err := x.describeRef(r)
	if err == nil {
		described[r.ID] = g
	}
	return g, err
}

// describeRef loads and describes a referenced game, decoding its tags and
// ply count only.
func (x *Explorer) describeRef(r stats.GameRef) (GameRef, error) {
	id := store.GameID(r.ID)
	rec, err := x.st.Game(id)
	if err != nil {
		return GameRef{}, fmt.Errorf("game %s referenced by the book: %w", id, err)
	}
	g, plies, err := gamecode.DecodeGameInfo(rec)
	if err != nil {
		return GameRef{}, fmt.Errorf("game %s referenced by the book: %w (corrupt store?)", id, err)
	}
	d := DescribeGame(id, &g)
	d.Plies = plies
	return d, nil
}

// DescribeGame returns the explorer's description of game g, stored as id.
func DescribeGame(id store.GameID, g *pgn.Game) GameRef {
	tag := func(name string) string { return string(g.Tag(name)) }
	rating := func(name string) int { n, _ := strconv.Atoi(strings.TrimSpace(tag(name))); return max(n, 0) }
	out := GameRef{
		ID:     id.String(),
		White:  Player{Name: tag("White"), Rating: rating("WhiteElo")},
		Black:  Player{Name: tag("Black"), Rating: rating("BlackElo")},
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

// FullGame returns game g, stored as id, in full: its description, tags,
// SAN moves and PGN.
func FullGame(id store.GameID, g *pgn.Game) Game {
	out := Game{GameRef: DescribeGame(id, g), Tags: g.Tags, Moves: []string{}, PGN: string(pgn.Append(nil, g))}
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
