package explorer

import (
	"context"
	"fmt"
	"sort"
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

// Games returns the top-rated and the most recent games through p that q
// selects, q.TopGames and q.RecentGames of them at most: the best of
// every move's lists, each with the move it played.
func (x *Explorer) Games(p board.Position, q Query) (*Games, error) {
	entry, _, err := book.Lookup(x.st, keys.Encode(&p))
	if err != nil {
		return nil, fmt.Errorf("reading position %s: %w", p.FEN(), err)
	}
	games := x.newGameList(q.Sel)
	top, recent := games.position(entry, q.TopGames, q.RecentGames)
	return &Games{FEN: p.FEN(), TopGames: top, RecentGames: recent, Warnings: games.warnings}, nil
}

// GamesPage returns page page (from 1) of the games through p that sel
// selects, perPage games a page, in the order of game ids: every game of
// the store that reaches p, found by replaying the stored games (see
// book.GamesThrough) up to the end of the page. progress, when not nil,
// gets the number of games scanned now and then. The scan stops when ctx
// is done, with ctx's error.
func (x *Explorer) GamesPage(ctx context.Context, p board.Position, sel book.Selection, page, perPage int, progress func(int)) (*GamePage, error) {
	return x.gamesPage(ctx, p, page, perPage, book.ThroughOptions{Sel: sel, Progress: progress}, nil)
}

// gamesPage is GamesPage with the scan's options; found, when not nil, is
// called with each game of the page before it is read (a test's hook).
func (x *Explorer) gamesPage(ctx context.Context, p board.Position, page, perPage int, opts book.ThroughOptions, found func()) (*GamePage, error) {
	out := &GamePage{FEN: p.FEN(), Page: page, PerPage: perPage, Games: []GameRef{}}
	skip := (page - 1) * perPage
	err := book.GamesThrough(ctx, x.st, &p, opts, func(id store.GameID, rec []byte, ply int) (bool, error) {
		if skip > 0 {
			skip--
			return true, nil
		}
		if len(out.Games) == perPage {
			out.More = true
			return false, nil
		}
		if found != nil {
			found()
		}
		g, plies, err := gamecode.DecodeGameInfo(rec)
		if err != nil {
			return false, fmt.Errorf("game %s: %w (corrupt store?)", id, err)
		}
		d := DescribeGame(id, &g)
		d.Plies = plies
		d.Ply = ply
		out.Games = append(out.Games, d)
		return true, nil
	})
	if err != nil {
		return nil, fmt.Errorf("listing the games through %s: %w", p.FEN(), err)
	}
	return out, nil
}

// gameList describes the games of one query, each once, and tells which
// the query's selection keeps. A reference whose game cannot be read is
// left out with a warning: one bad record does not fail the query.
type gameList struct {
	x        *Explorer
	sel      book.Selection
	seen     map[uint64]listedGame
	warnings []string
}

// listedGame is a game of a gameList: its description, whether the
// selection keeps it, whether it could be read.
type listedGame struct {
	ref      GameRef
	kept, ok bool
}

func (x *Explorer) newGameList(sel book.Selection) *gameList {
	return &gameList{x: x, sel: sel, seen: map[uint64]listedGame{}}
}

// get describes the game of r: ok is false when the selection does not keep
// it or it cannot be read.
func (l *gameList) get(r stats.GameRef) (GameRef, bool) {
	if g, ok := l.seen[r.ID]; ok {
		return g.ref, g.kept && g.ok
	}
	id := store.GameID(r.ID)
	var lg listedGame
	g, plies, err := l.read(id)
	if err != nil {
		l.warnings = append(l.warnings, store.ErrorLine(err)+": left out")
	} else {
		lg = listedGame{ref: DescribeGame(id, &g), kept: l.sel.KeepsGame(&g), ok: true}
		lg.ref.Plies = plies
	}
	l.seen[r.ID] = lg
	return lg.ref, lg.kept && lg.ok
}

// read loads and decodes the tags and ply count of a referenced game.
func (l *gameList) read(id store.GameID) (pgn.Game, int, error) {
	rec, err := l.x.st.Game(id)
	if err != nil {
		return pgn.Game{}, 0, fmt.Errorf("game %s referenced by the book: %w", id, err)
	}
	g, plies, err := gamecode.DecodeGameInfo(rec)
	if err != nil {
		return pgn.Game{}, 0, fmt.Errorf("game %s referenced by the book: %w (corrupt store?)", id, err)
	}
	return g, plies, nil
}

// first returns the first game of refs (top games, then recent ones) that
// the selection keeps.
func (l *gameList) first(refs *stats.Refs) (GameRef, bool) {
	if refs == nil {
		return GameRef{}, false
	}
	for _, list := range [][stats.MaxRefs]stats.GameRef{refs.Top, refs.Recent} {
		for _, r := range list {
			if r.ID == 0 {
				break
			}
			if g, ok := l.get(r); ok {
				return g, true
			}
		}
	}
	return GameRef{}, false
}

// position returns the top and recent games of a position's entry that the
// selection keeps, at most nTop and nRecent: the best of every move's
// lists, in the order of stats.TopBefore and stats.RecentBefore, each with
// the move it played. Games are read in rank order, only until the lists
// are full.
func (l *gameList) position(entry stats.Entry, nTop, nRecent int) (top, recent []GameRef) {
	var refs []stats.GameRef
	moveOf := map[uint64]board.Move{}
	for _, me := range entry.Moves {
		for _, list := range [][stats.MaxRefs]stats.GameRef{me.Refs.Top, me.Refs.Recent} {
			for _, r := range list {
				if _, dup := moveOf[r.ID]; r.ID != 0 && !dup {
					moveOf[r.ID] = me.Move
					refs = append(refs, r)
				}
			}
		}
	}
	pick := func(n int, before func(a, b stats.GameRef) bool) []GameRef {
		out := []GameRef{}
		sort.Slice(refs, func(i, j int) bool { return before(refs[i], refs[j]) })
		for _, r := range refs {
			if len(out) == n {
				break
			}
			if g, ok := l.get(r); ok {
				g.UCI = moveOf[r.ID].String()
				out = append(out, g)
			}
		}
		return out
	}
	return pick(nTop, stats.TopBefore), pick(nRecent, stats.RecentBefore)
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
	if sp, ok := stats.SpeedOf(g.Tag("TimeControl")); ok {
		out.Speed = sp.String()
	}
	out.Winner = winnerOf(g.Result)
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

// winnerOf returns the lichess explorer's winner of a game with result r:
// "white", "black", or nil for a draw or an unknown result.
func winnerOf(r pgn.Result) *string {
	var w string
	switch r {
	case pgn.WhiteWins:
		w = "white"
	case pgn.BlackWins:
		w = "black"
	default:
		return nil
	}
	return &w
}
