package explorer

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/book"
	"github.com/chessbook/chessbook/gamedb"
	"github.com/chessbook/chessbook/pgn"
	"github.com/chessbook/chessbook/stats"
)

// The game index's answers (package gamedb): a player's opening tree in the
// lichess explorer's Player form, the spellings of a name, a page of a
// game search; and the parsing of a search's parameters, the same for
// 'bookquery search' and GET /search.

// PlayerTree is a player's opening tree at a position in the lichess
// player explorer's form (its OpeningExplorerPlayer schema): what
// 'bookquery player -json' prints and each line of GET /player.
type PlayerTree struct {
	Opening *Opening `json:"opening"`
	// QueuePosition is the lichess explorer's place in its indexing
	// queue: always 0, a store is indexed as it is built.
	QueuePosition int               `json:"queuePosition"`
	White         int               `json:"white"`
	Draws         int               `json:"draws"`
	Black         int               `json:"black"`
	Moves         []PlayerMove      `json:"moves"`
	RecentGames   []PlayerRecentRef `json:"recentGames"`
	// PlayerGames is how many games the player has with the color (before
	// filters): 0 when the name has none. Not in lichess's answer.
	PlayerGames int `json:"playerGames"`
}

// PlayerMove is one move of a PlayerTree.
type PlayerMove struct {
	UCI                   string         `json:"uci"`
	SAN                   string         `json:"san"`
	AverageOpponentRating int            `json:"averageOpponentRating"` // 0: no opponent rated
	Performance           int            `json:"performance"`           // 0: no opponent rated
	White                 int            `json:"white"`
	Draws                 int            `json:"draws"`
	Black                 int            `json:"black"`
	Game                  *PlayerGameRef `json:"game"` // the game, when the move was played once
	Opening               *Opening       `json:"opening"`
}

// PlayerGameRef is a game of a PlayerTree, as the lichess player explorer
// lists it (OpeningExplorerPlayerGame): an unknown speed is "classical"
// (over-the-board games have no TimeControl), an unknown month the year
// alone ("1972"), an unknown year 0.
type PlayerGameRef struct {
	ID     string  `json:"id"`
	Winner *string `json:"winner"` // "white", "black" or null
	Speed  string  `json:"speed"`
	Mode   string  `json:"mode"` // "rated" or "casual"
	White  Player  `json:"white"`
	Black  Player  `json:"black"`
	Year   int     `json:"year"`
	Month  string  `json:"month"`
}

// PlayerRecentRef is a recent game of a PlayerTree, with the move played.
type PlayerRecentRef struct {
	UCI string `json:"uci"`
	PlayerGameRef
}

// NewPlayerTree returns tree, the tree at the last position of line, in
// the lichess player explorer's form.
func NewPlayerTree(line []board.Position, tree *gamedb.Tree) *PlayerTree {
	pos := line[len(line)-1]
	out := &PlayerTree{Opening: OpeningOf(line), White: tree.White, Draws: tree.Draws, Black: tree.Black,
		Moves: []PlayerMove{}, RecentGames: []PlayerRecentRef{}, PlayerGames: tree.PlayerGames}
	for _, m := range tree.Moves {
		next := pos
		next.Play(m.Move)
		mj := PlayerMove{UCI: m.Move.String(), SAN: pos.SAN(m.Move), AverageOpponentRating: m.AverageOpponentRating,
			Performance: m.Performance, White: m.White, Draws: m.Draws, Black: m.Black,
			Opening: OpeningOf(append(line[:len(line):len(line)], next))}
		if m.Game != nil {
			g := newPlayerGameRef(m.Game)
			mj.Game = &g
		}
		out.Moves = append(out.Moves, mj)
	}
	for i := range tree.Recent {
		g := &tree.Recent[i]
		out.RecentGames = append(out.RecentGames, PlayerRecentRef{UCI: g.Move.String(), PlayerGameRef: newPlayerGameRef(g)})
	}
	return out
}

// newPlayerGameRef returns g in the lichess player explorer's form.
func newPlayerGameRef(g *gamedb.GameRef) PlayerGameRef {
	out := PlayerGameRef{ID: g.ID.String(), Speed: "classical", Mode: "rated",
		White: Player{Name: g.White, Rating: g.WhiteElo}, Black: Player{Name: g.Black, Rating: g.BlackElo}, Year: g.Date.Year()}
	out.Winner = winnerOf(g.Result)
	if s := stats.Speed(g.Speed); int(s) < stats.NumSpeeds {
		out.Speed = s.String()
	}
	if g.Casual {
		out.Mode = "casual"
	}
	out.Month = fmt.Sprintf("%04d", g.Date.Year())
	if m := g.Date.Month(); m > 0 {
		out.Month += fmt.Sprintf("-%02d", m)
	}
	return out
}

// Players is the spellings of a name: what 'bookquery players -json'
// prints and GET /players answers.
type Players struct {
	Query  string `json:"query"`  // the text asked for
	Normal string `json:"normal"` // its normalized form (gamedb.Normalize)
	// Players are the spellings whose normalized form contains Normal,
	// the most games first.
	Players []PlayerName `json:"players"`
	// Suggestions are the closest spellings when none contains it.
	Suggestions []PlayerName `json:"suggestions,omitempty"`
}

// PlayerName is one spelling of a name with its games.
type PlayerName struct {
	Name      string `json:"name"`
	Normal    string `json:"normal"`
	White     int    `json:"white"` // games as White
	Black     int    `json:"black"` // games as Black
	Games     int    `json:"games"`
	MinRating int    `json:"min_rating"` // 0: never rated
	MaxRating int    `json:"max_rating"`
	First     string `json:"first"` // the first and last dates, PGN's form
	Last      string `json:"last"`
}

// NewPlayerNames returns ns in the JSON form.
func NewPlayerNames(ns []gamedb.Name) []PlayerName {
	out := make([]PlayerName, 0, len(ns))
	for _, n := range ns {
		out = append(out, PlayerName{Name: n.Name, Normal: n.Normal, White: n.White, Black: n.Black, Games: n.Games(),
			MinRating: n.MinRating, MaxRating: n.MaxRating, First: n.First.String(), Last: n.Last.String()})
	}
	return out
}

// PlayerNames returns the spellings of players' names that contain text
// (at most limit, 0: all), and when none does the closest ones (at most
// suggest).
func PlayerNames(ctx context.Context, db *gamedb.DB, text string, limit, suggest int) (*Players, error) {
	ns, err := db.Names(ctx, gamedb.Players, text, limit)
	if err != nil {
		return nil, err
	}
	out := &Players{Query: text, Normal: gamedb.Normalize(text), Players: NewPlayerNames(ns)}
	if len(ns) == 0 && suggest > 0 {
		sug, err := db.Suggest(ctx, gamedb.Players, text, suggest)
		if err != nil {
			return nil, err
		}
		out.Suggestions = NewPlayerNames(sug)
	}
	return out, nil
}

// SearchPage is a page of a game search: what 'bookquery search -json'
// prints and GET /search answers.
type SearchPage struct {
	Total   int              `json:"total"` // the games found
	Page    int              `json:"page"`
	PerPage int              `json:"per_page"`
	Games   []gamedb.GameRef `json:"games"`
	// Suggestions are the closest spellings when a name given matches
	// none (GET /search; the command names them in its error).
	Suggestions []PlayerName `json:"suggestions,omitempty"`
}

// SearchFilters are a game search's filters as text, as the command's
// flags and the API's parameters give them (bookquery search, GET
// /search). The position and the page are given apart.
type SearchFilters struct {
	Player, White, Black, Event, Site string // names: every spelling that contains the text
	Result                            string // 1-0, 0-1 or 1/2-1/2
	ECO                               string // B90, or a range B20-B99
	Opening                           string // the opening name contains it
	Since, Until                      string // dates (book.ParseDateBound)
	MinRating, MaxRating              string // both players
	MinPlies, MaxPlies                string
	Speeds, Ratings, Modes            string // the explorer's filters
	Sort                              string // date (default), rating or plies
}

// Query parses f into a gamedb.Query (without its position and page).
// Errors match ErrBadInput and name the parameter as the API does
// ("minRating"), or as the command's flags do ("-min-rating") when flags
// is set.
func (f *SearchFilters) Query(flags bool) (gamedb.Query, error) {
	name := func(p string) string { return paramName(p, flags) }
	q := gamedb.Query{Player: f.Player, White: f.White, Black: f.Black, Event: f.Event, Site: f.Site, Opening: f.Opening}
	for _, n := range []struct{ param, text string }{
		{"player", q.Player}, {"white", q.White}, {"black", q.Black}, {"event", q.Event}, {"site", q.Site}, {"opening", q.Opening},
	} {
		if n.text != "" && gamedb.Normalize(n.text) == "" {
			return q, badParam(name(n.param), n.text, "give a name with a letter or a digit")
		}
	}
	switch f.Result {
	case "":
	case "1-0":
		q.Result = pgn.WhiteWins
	case "0-1":
		q.Result = pgn.BlackWins
	case "1/2-1/2", "½-½", "draw":
		q.Result = pgn.Draw
	default:
		return q, badParam(name("result"), f.Result, "want 1-0, 0-1 or 1/2-1/2")
	}
	var err error
	if q.ECOFrom, q.ECOTo, err = ParseECORange(f.ECO); err != nil {
		return q, badParam(name("eco"), f.ECO, err.Error())
	}
	if q.Filter, err = f.Filter(flags); err != nil {
		return q, err
	}
	if q.Since != 0 && q.Until != 0 && q.Since > q.Until {
		return q, fmt.Errorf("%w: %s %s is after %s %s", ErrBadInput, name("since"), f.Since, name("until"), f.Until)
	}
	for _, b := range []struct {
		param, text string
		n           *int
	}{{"minRating", f.MinRating, &q.MinRating}, {"maxRating", f.MaxRating, &q.MaxRating}, {"minPlies", f.MinPlies, &q.MinPlies}, {"maxPlies", f.MaxPlies, &q.MaxPlies}} {
		if *b.n, err = ParseCount(name(b.param), b.text, 0, 1<<20); err != nil {
			return q, err
		}
	}
	if q.MaxRating != 0 && q.MinRating > q.MaxRating {
		return q, fmt.Errorf("%w: %s %d is above %s %d", ErrBadInput, name("minRating"), q.MinRating, name("maxRating"), q.MaxRating)
	}
	if q.MaxPlies != 0 && q.MinPlies > q.MaxPlies {
		return q, fmt.Errorf("%w: %s %d is above %s %d", ErrBadInput, name("minPlies"), q.MinPlies, name("maxPlies"), q.MaxPlies)
	}
	switch f.Sort {
	case "", "date":
		q.Sort = gamedb.ByDate
	case "rating":
		q.Sort = gamedb.ByRating
	case "plies":
		q.Sort = gamedb.ByPlies
	default:
		return q, badParam(name("sort"), f.Sort, "want date, rating or plies")
	}
	if q.Opening != "" {
		q.Openings = OpeningName
	}
	return q, nil
}

// Filter parses the explorer's filters of f (speeds, ratings, modes,
// since, until) into a gamedb.Filter, for a search (Query) or a player's
// tree (gamedb.TreeQuery). Errors are as Query's.
func (f *SearchFilters) Filter(flags bool) (gamedb.Filter, error) {
	name := func(p string) string { return paramName(p, flags) }
	var g gamedb.Filter
	speeds, err := stats.ParseSpeeds(f.Speeds)
	if err != nil {
		return g, badParam(name("speeds"), f.Speeds, err.Error())
	}
	bands, err := stats.ParseRatingBands(f.Ratings)
	if err != nil {
		return g, badParam(name("ratings"), f.Ratings, err.Error())
	}
	g.Speeds, g.Bands = uint8(speeds), uint16(bands)
	if g.Modes, err = ParseModes(f.Modes); err != nil {
		return g, badParam(name("modes"), f.Modes, err.Error())
	}
	if g.Since, _, err = book.ParseDateBound(f.Since, false); err != nil {
		return g, badParam(name("since"), f.Since, err.Error())
	}
	if g.Until, _, err = book.ParseDateBound(f.Until, true); err != nil {
		return g, badParam(name("until"), f.Until, err.Error())
	}
	return g, nil
}

// paramName is the API's parameter p ("minRating") as the command's flags
// name it ("-min-rating") when flags is set.
func paramName(p string, flags bool) string {
	if !flags {
		return p
	}
	var b strings.Builder
	b.WriteByte('-')
	for _, r := range p {
		if unicode.IsUpper(r) {
			b.WriteByte('-')
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}

// hasName reports whether q filters by a name (player, event or site):
// the search reads those names' posting lists; without one it reads every
// game's summary.
func hasName(q *gamedb.Query) bool {
	return q.Player != "" || q.White != "" || q.Black != "" || q.Event != "" || q.Site != ""
}

// OpeningName names the opening of a line of positions (OpeningOf), for
// gamedb.Query.Openings.
func OpeningName(line []board.Position) (eco, name string) {
	if o := OpeningOf(line); o != nil {
		return o.ECO, o.Name
	}
	return "", ""
}

// ParseECORange parses an ECO code (B90) or a range of them (B20-B99)
// into gamedb.ParseECO codes; "" is no bound.
func ParseECORange(s string) (from, to uint16, err error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, 0, nil
	}
	a, b, isRange := strings.Cut(s, "-")
	from = gamedb.ParseECO([]byte(strings.TrimSpace(a)))
	to = from
	if isRange {
		to = gamedb.ParseECO([]byte(strings.TrimSpace(b)))
	}
	switch {
	case from == 0 || to == 0:
		return 0, 0, errors.New("want an ECO code A00 to E99, or a range of them (B20-B99)")
	case from > to:
		return 0, 0, errors.New("the range ends before it starts")
	}
	return from, to, nil
}

// ParseModes parses a comma-separated list of modes (rated, casual) into
// gamedb.Rated and gamedb.Casual bits.
func ParseModes(s string) (uint8, error) {
	var m uint8
	for _, v := range strings.Split(s, ",") {
		switch strings.ToLower(strings.TrimSpace(v)) {
		case "":
		case "rated":
			m |= gamedb.Rated
		case "casual":
			m |= gamedb.Casual
		default:
			return 0, fmt.Errorf("unknown mode %s (want rated, casual)", strconv.Quote(v))
		}
	}
	return m, nil
}

// NoNameSuggestions returns the closest spellings of the name that err
// (a *gamedb.NoNameError) says matches none, at most n.
func NoNameSuggestions(ctx context.Context, db *gamedb.DB, err error, n int) []PlayerName {
	var nn *gamedb.NoNameError
	if !errors.As(err, &nn) {
		return nil
	}
	sug, err := db.Suggest(ctx, nn.Kind, nn.Text, n)
	if err != nil {
		return nil
	}
	return NewPlayerNames(sug)
}
