package gamedb

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/filter"
	"github.com/chessbook/chessbook/gamecode"
	"github.com/chessbook/chessbook/pgn"
	"github.com/chessbook/chessbook/stats"
)

// Sort orders of a search.
type Sort uint8

const (
	ByDate   Sort = iota // newest first (undated games last)
	ByRating             // the highest mean rating of both players first (games with an unrated player last)
	ByPlies              // the longest games first
)

// Query is a search for games by their tags and, optionally, a position.
// Names match as Names does: every spelling whose normalized form contains
// the normalized text. The zero Query selects every game.
type Query struct {
	Player string // either color
	White  string
	Black  string
	Event  string
	Site   string // a URL site's host (see the package documentation)
	// Result keeps the games with this result (pgn.WhiteWins,
	// pgn.BlackWins, pgn.Draw); pgn.NoResult: any.
	Result pgn.Result
	// ECOFrom and ECOTo keep the games whose ECO code is in [ECOFrom,
	// ECOTo] (see ParseECO); 0, 0: any (games without one included).
	ECOFrom, ECOTo uint16
	// Opening keeps the games whose opening name contains it (normalized)
	// as Openings names it; it needs Openings.
	Opening string
	// Openings names the opening of a line of positions, from the start:
	// the name of the deepest named position (see explorer.OpeningOf).
	// The search gives it the positions of a game's summary.
	Openings func(line []board.Position) (eco, name string)
	// Filter selects the games by speed, rating band, mode, date, the
	// players' ratings (MinRating and MaxRating: both players) and length
	// (MinPlies and MaxPlies).
	filter.Filter
	// Position keeps the games that reach it (transpositions included);
	// nil: any.
	Position *board.Position
	Sort     Sort
	// Offset and Limit select the page: Limit games from the Offset-th
	// (from 0) in Sort order. Games that Sort leaves equal go newer date
	// first, then by game id (lowest first): the same games give the same
	// pages in any store that holds them, however it was built.
	Offset, Limit int
}

// SearchResult is a page of a search's games.
type SearchResult struct {
	Total int       `json:"total"` // games found
	Games []GameRef `json:"games"` // the page
}

// ErrNoName is wrapped by Search's error when a name given matches no
// spelling of its kind at all (Names and Suggest say more).
var ErrNoName = errors.New("no such name")

// NoNameError is Search's error for a name given that matches no
// spelling of its kind; it wraps ErrNoName.
type NoNameError struct {
	Kind NameKind // the kind of the name (Players, Events or Sites)
	What string   // the filter that gave it: player, event or site
	Text string   // the name as given
}

// Error implements error: `player "Carlsn": no such name`.
func (e *NoNameError) Error() string { return fmt.Sprintf("%s %q: %v", e.What, e.Text, ErrNoName) }

// Unwrap returns ErrNoName.
func (e *NoNameError) Unwrap() error { return ErrNoName }

// found is a game a search keeps.
type foundGame struct {
	num    uint64
	date   stats.Date
	rating int
	plies  int
	ply    int
}

// ErrWindow is wrapped by Search's error for a page past the first
// MaxWindow games.
var ErrWindow = errors.New("page too deep")

// WindowError is Search's error for a page that ends past the first
// MaxWindow games; it wraps ErrWindow.
type WindowError struct {
	Offset, Limit int // the query's
}

// Error implements error.
func (e *WindowError) Error() string {
	return fmt.Sprintf("%v: a search lists its first %d games at most, this page ends at game %d; narrow the search (a longer name, a date range, a result...) or sort it otherwise",
		ErrWindow, MaxWindow, e.Offset+e.Limit)
}

// Unwrap returns ErrWindow.
func (e *WindowError) Unwrap() error { return ErrWindow }

// nameFilter is a name filter of a query: the names of kind dict that
// contain text, for players with colors.
type nameFilter struct {
	dict   NameKind
	text   string
	colors []int
	what   string // the query's field: player, white, black, event or site
}

// nameFilters returns the name filters of q, the players' first.
func (q *Query) nameFilters() []nameFilter {
	var fs []nameFilter
	for _, f := range []nameFilter{
		{Players, q.Player, []int{White, Black}, "player"},
		{Players, q.White, []int{White}, "white"},
		{Players, q.Black, []int{Black}, "black"},
		{Events, q.Event, nil, "event"},
		{Sites, q.Site, nil, "site"},
	} {
		if f.text != "" {
			fs = append(fs, f)
		}
	}
	return fs
}

// Search returns the page of the games q selects. Name filters stream the
// posting lists of the matching names (their intersection); the other
// filters read the games' summaries (every game's, without a name
// filter); a position the summaries, and the game records of the games
// whose summaries cannot tell. Its memory does not grow with the games
// found nor the names matched (see MaxWindow): a bit per game of the
// store for each name filter, and the page's window.
func (db *DB) Search(ctx context.Context, q Query) (*SearchResult, error) {
	if q.Opening != "" && q.Openings == nil {
		return nil, errors.New("gamedb: search by opening without an opening namer")
	}
	q.Offset = max(q.Offset, 0)
	window := 0 // every game
	if q.Limit > 0 {
		if q.Offset > MaxWindow-q.Limit {
			return nil, &WindowError{Offset: q.Offset, Limit: q.Limit}
		}
		window = q.Offset + q.Limit
	}
	// The games the sort key leaves equal to the last one kept are kept
	// too (keepTies): their order is settled by game id (sortFound).
	key := foundOrder(q.Sort)
	top := &topK[foundGame]{k: window, keepTies: true, cmp: func(a, b foundGame) int { return key(&a, &b) }}
	total := 0
	keep := func(g foundGame) {
		total++
		top.push(g)
	}
	filters := q.nameFilters()
	needSummary := q.Result != pgn.NoResult || q.ECOFrom != 0 || q.ECOTo != 0 || q.Opening != "" ||
		!q.DatesOnly() || q.Position != nil || q.Sort != ByDate ||
		len(filters) == 0 || filters[0].dict != Players
	var err error
	if !needSummary {
		// Player postings have the dates: nothing else to read but the
		// page.
		err = db.searchPostings(ctx, &q, filters, keep)
	} else {
		var set *numSet // nil: every game
		if len(filters) > 0 {
			set, err = db.nameSet(ctx, &q, filters[0])
			for _, f := range filters[1:] {
				if err != nil {
					break
				}
				var other *numSet
				if other, err = db.nameSet(ctx, &q, f); err == nil {
					set.and(other)
				}
			}
		}
		if err == nil {
			err = db.filterSummaries(ctx, &q, set, keep)
		}
	}
	if err != nil {
		return nil, err
	}
	games := top.sorted()
	res := &SearchResult{Total: total, Games: []GameRef{}}
	lo := min(q.Offset, len(games))
	hi := len(games)
	if q.Limit > 0 {
		hi = min(lo+q.Limit, hi)
	}
	if err := db.sortFound(ctx, games, q.Sort, lo, hi); err != nil {
		return nil, err
	}
	for _, g := range games[lo:hi] {
		ref, err := db.gameRef(g.num, q.Openings)
		if err != nil {
			return nil, err
		}
		if g.ply >= 0 && q.Position != nil {
			ref.Ply = g.ply
		}
		res.Games = append(res.Games, *ref)
	}
	return res, nil
}

// nameSet returns the numbers of the games of filter f's names (for
// players, with dates in q's range); a NoNameError when no name matches.
func (db *DB) nameSet(ctx context.Context, q *Query, f nameFilter) (*numSet, error) {
	set := newNumSet()
	names, err := db.eachNamePosting(ctx, f.dict, f.text, f.colors, q.Since, q.Until, func(p Posting) error {
		set.add(p.Num)
		return nil
	})
	if err == nil && names == 0 {
		err = &NoNameError{Kind: f.dict, What: f.what, Text: f.text}
	}
	return set, err
}

// searchPostings passes keep the games that the name filters of q keep
// (the first a player's) and their dates, read from the postings: the
// sets of the other filters' games, then the first's postings, streamed.
func (db *DB) searchPostings(ctx context.Context, q *Query, filters []nameFilter, keep func(foundGame)) error {
	var others []*numSet
	for _, f := range filters[1:] {
		set, err := db.nameSet(ctx, q, f)
		if errors.Is(err, ErrNoName) {
			// The first filter's error comes first, as the intersection's.
			if names, err0 := db.eachNamePosting(ctx, filters[0].dict, filters[0].text, nil, 0, 0, nil); err0 == nil && names == 0 {
				return &NoNameError{Kind: filters[0].dict, What: filters[0].what, Text: filters[0].text}
			}
		}
		if err != nil {
			return err
		}
		others = append(others, set)
	}
	seen := newNumSet()
	f := filters[0]
	names, err := db.eachNamePosting(ctx, f.dict, f.text, f.colors, q.Since, q.Until, func(p Posting) error {
		if !seen.add(p.Num) {
			return nil
		}
		for _, o := range others {
			if !o.has(p.Num) {
				return nil
			}
		}
		if q.KeepsDate(p.Date) {
			keep(foundGame{num: p.Num, date: p.Date, ply: -1})
		}
		return nil
	})
	if err == nil && names == 0 {
		err = &NoNameError{Kind: f.dict, What: f.what, Text: f.text}
	}
	return err
}

// filterSummaries passes keep the games of set (nil: every game) that the
// summary filters and the position of q keep, by number.
func (db *DB) filterSummaries(ctx context.Context, q *Query, set *numSet, keep func(foundGame)) error {
	var t *target
	if q.Position != nil {
		t = newTarget(q.Position)
	}
	opening := []byte(Normalize(q.Opening))
	var ix gamecode.MoveIndexer
	var line []board.Position
	var later []foundGame // the games whose records must tell (recordBatch)
	readLater := func() error {
		for i, g := range later {
			if i%256 == 255 {
				if err := ctx.Err(); err != nil {
					return err
				}
			}
			ply, _, err := db.reachInRecord(t, g.num)
			if err != nil {
				return err
			}
			if ply >= 0 {
				g.ply = ply
				keep(g)
			}
		}
		later = later[:0]
		return nil
	}
	filter := func(num uint64, s *Summary) error {
		if !keeps(&q.Filter, s) || (q.Result != pgn.NoResult && s.Result != q.Result) {
			return nil
		}
		if (q.ECOFrom != 0 || q.ECOTo != 0) && (s.ECO == 0 || s.ECO < q.ECOFrom || (q.ECOTo != 0 && s.ECO > q.ECOTo)) {
			return nil
		}
		if len(opening) > 0 {
			var err error
			if line, err = summaryLine(&ix, s, line[:0]); err != nil {
				return fmt.Errorf("game number %d: %w", num, err)
			}
			_, name := q.Openings(line)
			if !bytes.Contains([]byte(Normalize(name)), opening) {
				return nil
			}
		}
		g := foundGame{num: num, date: s.Date, rating: meanRating(s), plies: s.Plies, ply: -1}
		if t != nil {
			ply, _, st, err := t.inSummary(&ix, s)
			if err != nil {
				return fmt.Errorf("game number %d: %w", num, err)
			}
			switch st {
			case notReached:
				return nil
			case unknown:
				// The games whose summaries cannot tell have their
				// records read in batches (recordBatch), apart from
				// the scan of the summaries: reading each in the
				// middle of that scan costs half as much again.
				later = append(later, g)
				if len(later) == recordBatch {
					return readLater()
				}
				return nil
			}
			g.ply = ply
		}
		keep(g)
		return nil
	}
	var err error
	if set == nil {
		err = db.allSummaries(ctx, filter)
	} else {
		err = db.summariesOf(ctx, set.each, filter)
	}
	if err != nil {
		return err
	}
	return readLater()
}

// recordBatch is how many games whose summaries cannot tell whether they
// reach a search's position filterSummaries holds before it reads their
// records: memory stays bounded, and the records are read apart from the
// summaries' scan.
const recordBatch = 4096

// summaryLine appends to line the positions of the plies summary s codes,
// from the start.
func summaryLine(ix *gamecode.MoveIndexer, s *Summary, line []board.Position) ([]board.Position, error) {
	err := s.Walk(ix, func(_ int, pos *board.Position, _ board.Move) bool {
		line = append(line, *pos)
		return true
	})
	return line, err
}

// reachInRecord tells from the record of game number num whether the game
// reaches t: at which ply first (-1: never), and the move it plays there
// (target.inRecord), for a game whose summary cannot tell.
func (db *DB) reachInRecord(t *target, num uint64) (ply int, next board.Move, err error) {
	rec, _, err := db.record(num)
	if err != nil {
		return -1, 0, err
	}
	if ply, next, err = t.inRecord(rec); err != nil {
		return -1, 0, fmt.Errorf("game number %d: %w", num, err)
	}
	return ply, next, nil
}

// meanRating is what ranks a game by rating: the mean of both ratings, 0
// when a player is unrated.
func meanRating(s *Summary) int {
	if s.WhiteElo <= 0 || s.BlackElo <= 0 {
		return 0
	}
	return (s.WhiteElo + s.BlackElo) / 2
}

// foundOrder returns the comparison of games in order o: by o's key,
// ties to the newer date. Games it leaves equal are ordered by their ids
// (settleTies).
func foundOrder(o Sort) func(a, b *foundGame) int {
	return func(a, b *foundGame) int {
		var c int
		switch o {
		case ByRating:
			c = cmp.Compare(b.rating, a.rating)
		case ByPlies:
			c = cmp.Compare(b.plies, a.plies)
		}
		if c != 0 {
			return c
		}
		return cmp.Compare(b.date, a.date)
	}
}

// sortFound sorts games in order o (foundOrder), then the games of
// [lo, hi) that it leaves equal by their ids.
func (db *DB) sortFound(ctx context.Context, games []foundGame, o Sort, lo, hi int) error {
	key := foundOrder(o)
	slices.SortFunc(games, func(a, b foundGame) int { return key(&a, &b) })
	return settleTies(ctx, db, games, lo, hi, key, func(g *foundGame) uint64 { return g.num })
}
