package gamedb

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/filter"
	"github.com/chessbook/chessbook/gamecode"
	"github.com/chessbook/chessbook/pgn"
	"github.com/chessbook/chessbook/stats"
	"github.com/chessbook/chessbook/store"
)

// keeps reports whether f keeps the game of summary s (its dates are
// checked by the caller when it has them from postings).
func keeps(f *filter.Filter, s *Summary) bool {
	return f.Keeps(&filter.Game{Cell: s.Cell, Date: s.Date, WhiteElo: s.WhiteElo, BlackElo: s.BlackElo,
		Plies: s.Plies, Casual: s.Casual, FromFEN: s.FromFEN})
}

// TreeQuery asks for a player's opening tree (PlayerTree).
type TreeQuery struct {
	// Player is the player's name; the games of every spelling with the
	// same normalized form count.
	Player string
	// Color is the player's color, White or Black.
	Color int
	// Position is the position whose moves are wanted; nil: the start.
	Position *board.Position
	// Filter selects the games counted (by speed, rating band, mode and
	// date: those the player's tree takes).
	filter.Filter
	// Recent is the number of recent games wanted (lichess: 8 at most,
	// the default there); 0: none.
	Recent int
	// Moves bounds the moves listed, the most played first; 0: all.
	Moves int
}

// Tree is a player's opening tree at a position: what the player's games
// with one color played from it, each game counted once, at its first
// visit of the position (transpositions included), under the move it
// played then. Results are from White's side.
type Tree struct {
	// PlayerGames is the number of the player's games with the color
	// (before filters): 0 when the name has none (see DB.Suggest).
	PlayerGames int
	White       int // games won by White, over all moves
	Draws       int
	Black       int
	Moves       []TreeMove
	// Recent are the most recent games (by date, then game id), with
	// the move they played.
	Recent []GameRef
}

// TreeMove is one move of a Tree.
type TreeMove struct {
	Move                  board.Move
	White, Draws, Black   int
	AverageOpponentRating int      // over the games whose opponent is rated; 0: none is
	Performance           int      // AverageOpponentRating + the FIDE rating difference of the player's score in those games; 0: none
	Game                  *GameRef // the game, when the move was played once
}

// Games returns the games of the move.
func (m *TreeMove) Games() int { return m.White + m.Draws + m.Black }

// GameRef is a game as a tree or a search names it: its tags, read from
// the game record, and what its summary says. Its JSON form (MarshalJSON)
// is what bookquery search -json lists.
type GameRef struct {
	Num      uint64       // its game number
	ID       store.GameID // its id (bookquery game ID prints it)
	Move     board.Move   // the move played from the tree's position (Tree.Recent; 0 otherwise)
	White    string
	Black    string
	WhiteElo int // 0: unknown
	BlackElo int
	Result   pgn.Result
	Date     stats.Date
	Speed    int // stats.Cell speed, 15: unknown
	Casual   bool
	Event    string
	Site     string // as the game record has it
	ECO      string // the ECO tag
	// Opening is the Opening tag, or when there is none and the search
	// was given Query.Openings, the name of the opening of the game's
	// first SummaryPlies plies.
	Opening string
	Plies   int
	// Ply is where the game first reaches the searched position (a
	// search with Query.Position), counted in the game's moves; -1
	// otherwise.
	Ply int
}

// gameRefJSON is GameRef's JSON form.
type gameRefJSON struct {
	ID       string `json:"id"`
	White    string `json:"white"`
	Black    string `json:"black"`
	WhiteElo int    `json:"white_elo"`
	BlackElo int    `json:"black_elo"`
	Result   string `json:"result"`
	Date     string `json:"date"`
	Event    string `json:"event"`
	Site     string `json:"site"`
	ECO      string `json:"eco"`
	Opening  string `json:"opening"`
	Plies    int    `json:"plies"`
	Ply      *int   `json:"ply,omitempty"`
}

// MarshalJSON encodes the game as {"id", "white", "black", "white_elo",
// "black_elo", "result" ("1-0", "0-1", "1/2-1/2", "*" or ""), "date"
// (PGN's form, "2021.12.01", "1859.??.??"), "event", "site", "eco",
// "opening", "plies", and "ply" for a position search}.
func (g GameRef) MarshalJSON() ([]byte, error) {
	j := gameRefJSON{ID: g.ID.String(), White: g.White, Black: g.Black, WhiteElo: g.WhiteElo, BlackElo: g.BlackElo,
		Result: g.Result.String(), Date: g.Date.String(), Event: g.Event, Site: g.Site, ECO: g.ECO,
		Opening: g.Opening, Plies: g.Plies}
	if g.Ply >= 0 {
		j.Ply = &g.Ply
	}
	return json.Marshal(j)
}

// UnmarshalJSON decodes the form MarshalJSON writes (Num, Move, Speed and
// Casual are not in it).
func (g *GameRef) UnmarshalJSON(b []byte) error {
	var j gameRefJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	id, err := store.ParseGameID(j.ID)
	if err != nil {
		return err
	}
	*g = GameRef{ID: id, White: j.White, Black: j.Black, WhiteElo: j.WhiteElo, BlackElo: j.BlackElo,
		Result: pgn.ParseResult([]byte(j.Result)), Date: stats.ParseDate(j.Date), Event: j.Event, Site: j.Site,
		ECO: j.ECO, Opening: j.Opening, Plies: j.Plies, Ply: -1, Speed: 15}
	if j.Ply != nil {
		g.Ply = *j.Ply
	}
	return nil
}

// treeGame is a game found in a tree, for its move's row and the recent
// games.
type treeGame struct {
	num    uint64
	move   board.Move
	date   stats.Date
	result pgn.Result
	ownElo int
	oppElo int
}

// PlayerTree returns the opening tree of q.Player's games with q.Color at
// q.Position, among those q.Filter keeps. It reads the player's posting
// lists and the games' summaries, and the game records of the games whose
// summaries cannot tell (a position past their first SummaryPlies plies,
// games from a FEN) and of the games it names.
func (db *DB) PlayerTree(ctx context.Context, q TreeQuery) (*Tree, error) {
	if q.Color != White && q.Color != Black {
		return nil, fmt.Errorf("gamedb: player tree: bad color %d", q.Color)
	}
	start := board.StartPosition()
	pos := q.Position
	if pos == nil {
		pos = &start
	}
	norm := Normalize(q.Player)
	tree := &Tree{}
	if norm == "" {
		return tree, nil
	}
	ps, err := db.PlayerPostings(norm, q.Color, 0, 0)
	if err != nil {
		return nil, err
	}
	tree.PlayerGames = len(ps)
	nums := make([]uint64, 0, len(ps))
	for _, p := range ps {
		if q.KeepsDate(p.Date) {
			nums = append(nums, p.Num)
		}
	}
	t := newTarget(pos)
	var ix gamecode.MoveIndexer
	var found []treeGame
	var later []treeGame // the summary cannot tell: read the record
	add := func(num uint64, s *Summary, next board.Move, list *[]treeGame) {
		g := treeGame{num: num, move: next, date: s.Date, result: s.Result, ownElo: s.WhiteElo, oppElo: s.BlackElo}
		if q.Color == Black {
			g.ownElo, g.oppElo = g.oppElo, g.ownElo
		}
		*list = append(*list, g)
	}
	err = db.summaries(ctx, nums, func(num uint64, s *Summary) error {
		if !keeps(&q.Filter, s) {
			return nil
		}
		_, next, st, err := t.inSummary(&ix, s)
		if err != nil {
			return fmt.Errorf("game number %d: %w", num, err)
		}
		switch {
		case st == reached && next != 0:
			add(num, s, next, &found)
		case st == unknown:
			add(num, s, 0, &later)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	for i, g := range later {
		if i%256 == 255 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		ply, next, err := db.reachInRecord(t, g.num)
		if err != nil {
			return nil, err
		}
		if ply >= 0 && next != 0 {
			g.move = next
			found = append(found, g)
		}
	}
	if err := db.fillTree(ctx, tree, found, q); err != nil {
		return nil, err
	}
	return tree, nil
}

// fillTree adds up the games found into tree's rows and recent games.
func (db *DB) fillTree(ctx context.Context, tree *Tree, found []treeGame, q TreeQuery) error {
	type acc struct {
		TreeMove
		oppSum, oppN int
		score2       int // the player's score in half points, against rated opponents
		last         uint64
	}
	rows := map[board.Move]*acc{}
	for _, g := range found {
		r := rows[g.move]
		if r == nil {
			r = &acc{TreeMove: TreeMove{Move: g.move}}
			rows[g.move] = r
		}
		switch g.result {
		case pgn.WhiteWins:
			r.White++
			tree.White++
		case pgn.BlackWins:
			r.Black++
			tree.Black++
		default:
			// Draws, and games without a decisive result ("*"), as the
			// explorer counts them.
			r.Draws++
			tree.Draws++
		}
		if g.oppElo > 0 {
			r.oppSum += g.oppElo
			r.oppN++
			r.score2 += playerScore2(g.result, q.Color)
		}
		r.last = g.num
	}
	for _, r := range rows {
		if r.oppN > 0 {
			r.AverageOpponentRating = (r.oppSum + r.oppN/2) / r.oppN
			r.Performance = r.AverageOpponentRating + fideDP(r.score2, r.oppN)
		}
		if r.Games() == 1 {
			ref, err := db.gameRef(r.last, nil)
			if err != nil {
				return err
			}
			r.Game = ref
		}
		tree.Moves = append(tree.Moves, r.TreeMove)
	}
	slices.SortFunc(tree.Moves, func(a, b TreeMove) int {
		if c := cmp.Compare(b.Games(), a.Games()); c != 0 {
			return c
		}
		return cmp.Compare(a.Move, b.Move)
	})
	if q.Moves > 0 && len(tree.Moves) > q.Moves {
		tree.Moves = tree.Moves[:q.Moves]
	}
	byDate := func(a, b *treeGame) int { return cmp.Compare(b.date, a.date) }
	slices.SortFunc(found, func(a, b treeGame) int { return byDate(&a, &b) })
	if err := settleTies(ctx, db, found, 0, q.Recent, byDate, func(g *treeGame) uint64 { return g.num }); err != nil {
		return err
	}
	for _, g := range found[:min(q.Recent, len(found))] {
		ref, err := db.gameRef(g.num, nil)
		if err != nil {
			return err
		}
		ref.Move = g.move
		tree.Recent = append(tree.Recent, *ref)
	}
	return nil
}

// playerScore2 returns the score, in half points, of the player with
// color in a game with result r (unfinished games count as draws).
func playerScore2(r pgn.Result, color int) int {
	switch {
	case r == pgn.WhiteWins && color == White, r == pgn.BlackWins && color == Black:
		return 2
	case r == pgn.WhiteWins, r == pgn.BlackWins:
		return 0
	}
	return 1
}

// fideDP is the rating difference of the FIDE rating regulations' table
// (8.1.a) for a score of score2 half points in n games, rounded to the
// nearest percent.
func fideDP(score2, n int) int {
	p := (score2*100 + n) / (2 * n) // percent, rounded
	if p >= 50 {
		return dpTable[p-50]
	}
	return -dpTable[50-p]
}

// dpTable is the FIDE table of rating differences for scores of 50% to
// 100%.
var dpTable = [51]int{
	0, 7, 14, 21, 29, 36, 43, 50, 57, 65, 72, 80, 87, 95, 102, 110, 117, 125, 133, 141,
	149, 158, 166, 175, 184, 193, 202, 211, 220, 230, 240, 251, 262, 273, 284, 296, 309, 322, 336, 351,
	366, 383, 401, 422, 444, 470, 501, 538, 589, 677, 800,
}

// record returns the game record of game number num and its id.
func (db *DB) record(num uint64) ([]byte, store.GameID, error) {
	id, _, err := db.st.GameByNumber(num)
	if err != nil {
		return nil, 0, err
	}
	rec, err := db.st.Game(id)
	if err != nil {
		return nil, 0, err
	}
	return rec, id, nil
}

// gameRef returns the reference of game number num, its tags read from
// its record; openings, if not nil, names its opening when it has no
// Opening tag (see Query.Openings).
func (db *DB) gameRef(num uint64, openings func([]board.Position) (string, string)) (*GameRef, error) {
	rec, id, err := db.record(num)
	if err != nil {
		return nil, err
	}
	g, plies, err := gamecode.DecodeGameInfo(rec)
	if err != nil {
		return nil, fmt.Errorf("game %s: %w", id, err)
	}
	k := [...]byte{kindSummary, 0, 0, 0, 0, 0, 0, 0, 0}
	v, ok, err := db.st.IndexGet(summaryKey(k[:0], num))
	if err != nil {
		return nil, err
	}
	var s Summary
	if !ok {
		return nil, fmt.Errorf("game number %d has no summary in the game index (check the store)", num)
	}
	if err := DecodeSummary(&s, v); err != nil {
		return nil, fmt.Errorf("game number %d: %w", num, err)
	}
	ref := &GameRef{Num: num, ID: id, White: string(g.Tag("White")), Black: string(g.Tag("Black")),
		WhiteElo: s.WhiteElo, BlackElo: s.BlackElo, Result: g.Result, Date: s.Date, Speed: int(s.Cell.Speed()),
		Casual: s.Casual, Event: string(g.Tag("Event")), Site: string(g.Tag("Site")), ECO: string(g.Tag("ECO")),
		Opening: string(g.Tag("Opening")), Plies: plies, Ply: -1}
	if ref.Opening == "" && openings != nil && s.Coded > 0 {
		var ix gamecode.MoveIndexer
		line, err := summaryLine(&ix, &s, nil)
		if err != nil {
			return nil, fmt.Errorf("game number %d: %w", num, err)
		}
		_, ref.Opening = openings(line)
	}
	return ref, nil
}
