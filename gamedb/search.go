package gamedb

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/chessbook/chessbook/board"
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
	// MinRating and MaxRating keep the games whose players are both rated
	// at least MinRating and at most MaxRating (0: no bound; with a
	// bound, games with an unrated player are left out).
	MinRating, MaxRating int
	// MinPlies and MaxPlies bound the games' length (0: no bound).
	MinPlies, MaxPlies int
	Filter
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

// Search returns the page of the games q selects. Name filters read the
// posting lists of the matching names (their intersection); the other
// filters the games' summaries (every game's, without a name filter); a
// position the summaries, and the game records of the games whose
// summaries cannot tell.
func (db *DB) Search(ctx context.Context, q Query) (*SearchResult, error) {
	if q.Opening != "" && q.Openings == nil {
		return nil, errors.New("gamedb: search by opening without an opening namer")
	}
	cands, dates, err := db.candidates(ctx, &q)
	if err != nil {
		return nil, err
	}
	needSummary := q.Result != pgn.NoResult || q.ECOFrom != 0 || q.ECOTo != 0 || q.Opening != "" ||
		q.MinRating != 0 || q.MaxRating != 0 || q.MinPlies != 0 || q.MaxPlies != 0 ||
		q.Speeds != 0 || q.Bands != 0 || q.Modes != 0 || q.Position != nil || q.Sort != ByDate || dates == nil
	var games []foundGame
	if !needSummary {
		// Player postings have the dates: nothing else to read but the
		// page.
		for i, num := range cands {
			if q.keepsDate(dates[i]) {
				games = append(games, foundGame{num: num, date: dates[i], ply: -1})
			}
		}
	} else {
		games, err = db.filterSummaries(ctx, &q, cands)
		if err != nil {
			return nil, err
		}
	}
	res := &SearchResult{Total: len(games), Games: []GameRef{}}
	lo := min(max(q.Offset, 0), len(games))
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

// candidates returns the numbers of the games the name filters of q keep
// (sorted), and their dates when a player filter gave them; nil numbers
// and no error: no name filter (every game).
func (db *DB) candidates(ctx context.Context, q *Query) (nums []uint64, dates []stats.Date, err error) {
	type set struct {
		nums  []uint64
		dates []stats.Date // nil: unknown
	}
	var sets []set
	player := func(text string, colors ...int) error {
		norms, err := db.matchingNorms(ctx, Players, text)
		if err != nil {
			return err
		}
		if len(norms) == 0 {
			return &NoNameError{Kind: Players, What: "player", Text: text}
		}
		var ps []Posting
		for _, n := range norms {
			for _, c := range colors {
				x, err := db.PlayerPostings(n, c, q.Since, q.Until)
				if err != nil {
					return err
				}
				ps = append(ps, x...)
			}
		}
		slices.SortFunc(ps, func(a, b Posting) int { return cmp.Compare(a.Num, b.Num) })
		ps = slices.CompactFunc(ps, func(a, b Posting) bool { return a.Num == b.Num })
		s := set{nums: make([]uint64, len(ps)), dates: make([]stats.Date, len(ps))}
		for i, p := range ps {
			s.nums[i], s.dates[i] = p.Num, p.Date
		}
		sets = append(sets, s)
		return nil
	}
	term := func(text string, dict NameKind, post byte, what string) error {
		norms, err := db.matchingNorms(ctx, dict, text)
		if err != nil {
			return err
		}
		if len(norms) == 0 {
			return &NoNameError{Kind: dict, What: what, Text: text}
		}
		var nums []uint64
		for _, n := range norms {
			x, err := db.termNumbers(post, n)
			if err != nil {
				return err
			}
			nums = append(nums, x...)
		}
		slices.Sort(nums)
		sets = append(sets, set{nums: slices.Compact(nums)})
		return nil
	}
	if q.Player != "" {
		if err := player(q.Player, White, Black); err != nil {
			return nil, nil, err
		}
	}
	if q.White != "" {
		if err := player(q.White, White); err != nil {
			return nil, nil, err
		}
	}
	if q.Black != "" {
		if err := player(q.Black, Black); err != nil {
			return nil, nil, err
		}
	}
	if q.Event != "" {
		if err := term(q.Event, Events, kindEventPost, "event"); err != nil {
			return nil, nil, err
		}
	}
	if q.Site != "" {
		if err := term(q.Site, Sites, kindSitePost, "site"); err != nil {
			return nil, nil, err
		}
	}
	if len(sets) == 0 {
		return nil, nil, nil
	}
	// Intersect, smallest first; keep the dates of a set that has them.
	slices.SortFunc(sets, func(a, b set) int { return cmp.Compare(len(a.nums), len(b.nums)) })
	nums, dates = sets[0].nums, sets[0].dates
	for _, s := range sets[1:] {
		var keptN []uint64
		var keptD []stats.Date
		if dates == nil && s.dates != nil {
			keptD = []stats.Date{}
		}
		j := 0
		for i, n := range nums {
			for j < len(s.nums) && s.nums[j] < n {
				j++
			}
			if j < len(s.nums) && s.nums[j] == n {
				keptN = append(keptN, n)
				switch {
				case dates != nil:
					keptD = append(keptD, dates[i])
				case s.dates != nil:
					keptD = append(keptD, s.dates[j])
				}
			}
		}
		nums, dates = keptN, keptD
	}
	if nums == nil {
		nums = []uint64{}
	}
	return nums, dates, nil
}

// filterSummaries returns the games among cands (nil: every game) that
// the summary filters and the position of q keep.
func (db *DB) filterSummaries(ctx context.Context, q *Query, cands []uint64) ([]foundGame, error) {
	var t *target
	if q.Position != nil {
		t = newTarget(q.Position)
	}
	opening := []byte(Normalize(q.Opening))
	var ix gamecode.MoveIndexer
	var line []board.Position
	var games, later []foundGame
	keep := func(num uint64, s *Summary) error {
		if !q.Filter.keeps(s) || (q.Result != pgn.NoResult && s.Result != q.Result) {
			return nil
		}
		if (q.ECOFrom != 0 || q.ECOTo != 0) && (s.ECO == 0 || s.ECO < q.ECOFrom || (q.ECOTo != 0 && s.ECO > q.ECOTo)) {
			return nil
		}
		if q.MinRating != 0 && (s.WhiteElo < q.MinRating || s.BlackElo < q.MinRating) {
			return nil
		}
		if q.MaxRating != 0 && (s.WhiteElo == 0 || s.BlackElo == 0 || s.WhiteElo > q.MaxRating || s.BlackElo > q.MaxRating) {
			return nil
		}
		if (q.MinPlies != 0 && s.Plies < q.MinPlies) || (q.MaxPlies != 0 && s.Plies > q.MaxPlies) {
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
				later = append(later, g)
				return nil
			}
			g.ply = ply
		}
		games = append(games, g)
		return nil
	}
	var err error
	if cands == nil {
		err = db.allSummaries(ctx, keep)
	} else {
		err = db.summaries(ctx, cands, keep)
	}
	if err != nil {
		return nil, err
	}
	for i, g := range later {
		if i%256 == 255 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		ply, _, err := db.reachInRecord(t, g.num)
		if err != nil {
			return nil, err
		}
		if ply >= 0 {
			g.ply = ply
			games = append(games, g)
		}
	}
	return games, nil
}

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
