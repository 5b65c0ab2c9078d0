package explorer

import (
	"encoding/json"

	"github.com/chessbook/chessbook/pgn"
)

// The answers of the explorer: what 'bookquery moves -json', 'games -json'
// and 'game -json' print and the API answers, as JSON. The field names are
// the lichess opening explorer's where it has the field.

// Moves is what the book knows about one position: the lichess opening
// explorer's response (white, draws, black, moves, topGames, recentGames,
// opening) with a few fields of our own (fen, unknown).
type Moves struct {
	FEN     string `json:"fen"`     // the position looked up
	Key     string `json:"key"`     // its key as URL-safe text (keys.Text)
	White   uint64 `json:"white"`   // games won by White, over all moves
	Draws   uint64 `json:"draws"`   // games drawn
	Black   uint64 `json:"black"`   // games won by Black
	Unknown uint64 `json:"unknown"` // games with an unknown result
	Moves   []Move `json:"moves"`   // by games, most played first
	// TopGames and RecentGames are the position's best-rated and latest
	// games (up to 4 each), from every move's game references.
	TopGames    []GameRef `json:"topGames"`
	RecentGames []GameRef `json:"recentGames"`
	Opening     *Opening  `json:"opening"` // null if unnamed
	// History is the position's games by month, as /lichess/history
	// gives them, when the request asked for it (history=true, as the
	// lichess explorer embeds it); absent otherwise.
	History *[]HistoryMonth `json:"history,omitempty"`
	// Warnings name the game references left out because their game
	// record could not be read (a damaged store); absent when none.
	Warnings []string `json:"warnings,omitempty"`
}

// Limit keeps the n most played moves, all of them when n is 0; the
// totals still count every move.
func (m *Moves) Limit(n int) {
	if n > 0 && len(m.Moves) > n {
		m.Moves = m.Moves[:n]
	}
}

// Move is one move of Moves, as in the lichess explorer, plus the fields
// after Game. How each is computed is told in moves.go.
type Move struct {
	UCI           string `json:"uci"`
	SAN           string `json:"san"`
	AverageRating int    `json:"averageRating"` // the mover's, rounded; 0 if unknown
	White         uint64 `json:"white"`
	Draws         uint64 `json:"draws"`
	Black         uint64 `json:"black"`
	// Game is the game when only one played the move (as lichess gives
	// it), else null.
	Game *GameRef `json:"game"`
	// Opening names the position the move leads to, when the lichess
	// list names it, else null.
	Opening     *Opening `json:"opening"`
	Unknown     uint64   `json:"unknown"`               // games with an unknown result
	Games       uint64   `json:"games"`                 // white+draws+black+unknown
	Score       *float64 `json:"score"`                 // the mover's score, 0 to 1; null if no result is known
	Performance *int     `json:"performance"`           // the mover's rating performance (see moves.go); null if unknown
	FirstPlayed string   `json:"firstPlayed,omitempty"` // PGN date, "1859.??.??" when partly known
	LastPlayed  string   `json:"lastPlayed,omitempty"`
}

// Opening is an opening name as the lichess explorer gives it.
type Opening struct {
	ECO  string `json:"eco"`  // "C60"
	Name string `json:"name"` // "Ruy Lopez"
}

// GameRef describes one game the way the lichess opening explorer lists
// topGames and recentGames, plus the fields after Month. What the lichess
// schemas require is always there: a rating of 0 and a year of 0 stand for
// unknown ones (both are required integers there); an unknown month is
// absent, or null in the answers of /lichess, whose schema requires the
// field but allows null (see [GameRef.MarshalJSON]).
type GameRef struct {
	UCI    string  `json:"uci,omitempty"` // the move the game played from the position
	ID     string  `json:"id"`            // the store's game id, 16 hex digits
	Winner *string `json:"winner"`        // "white", "black" or null
	White  Player  `json:"white"`
	Black  Player  `json:"black"`
	Speed  string  `json:"speed,omitempty"` // "blitz", from TimeControl; absent when unknown
	Year   int     `json:"year"`            // 0 when unknown
	Month  string  `json:"month,omitempty"` // "2021-03" when the month is known
	Date   string  `json:"date,omitempty"`  // the PGN Date tag
	Event  string  `json:"event,omitempty"`
	Site   string  `json:"site,omitempty"`
	Round  string  `json:"round,omitempty"`
	Result string  `json:"result"` // "1-0", "0-1", "1/2-1/2" or "*"
	Plies  int     `json:"plies"`
	// Ply is the ply at which the game reaches the position, counted
	// from White's first move by the game's move numbers (a page of
	// GamePage only).
	Ply int `json:"ply,omitempty"`
	// nullMonth makes an unknown month null instead of absent.
	nullMonth bool
}

// MarshalJSON encodes g with its JSON field tags, and an unknown month
// as "month": null when g was answered by /lichess (the lichess schema of
// its games requires the field and allows null; that of /masters allows
// its absence, not null).
func (g GameRef) MarshalJSON() ([]byte, error) {
	type plain GameRef
	if !g.nullMonth || g.Month != "" {
		return json.Marshal(plain(g))
	}
	return json.Marshal(struct {
		plain
		Month *string `json:"month"`
	}{plain: plain(g)})
}

// nullMonths marks m's games to give an unknown month as null.
func (m *Moves) nullMonths() {
	mark := func(gs []GameRef) {
		for i := range gs {
			gs[i].nullMonth = true
		}
	}
	mark(m.TopGames)
	mark(m.RecentGames)
	for i := range m.Moves {
		if g := m.Moves[i].Game; g != nil {
			g.nullMonth = true
		}
	}
}

// Player is a player of GameRef.
type Player struct {
	Name   string `json:"name"`
	Rating int    `json:"rating"` // 0 when unknown (the lichess schemas require an integer)
}

// Games are the top-rated and the most recent games through a position.
type Games struct {
	FEN         string    `json:"fen"`
	TopGames    []GameRef `json:"topGames"`
	RecentGames []GameRef `json:"recentGames"`
	Warnings    []string  `json:"warnings,omitempty"` // as in Moves
}

// GamePage is one page of the games through a position.
type GamePage struct {
	FEN     string    `json:"fen"`
	Page    int       `json:"page"`    // from 1
	PerPage int       `json:"perPage"` // the most games a page lists
	Games   []GameRef `json:"games"`   // in the order of game ids
	More    bool      `json:"more"`    // whether a next page has games
}

// History is the games through a position by month, as the lichess
// explorer's /lichess/history gives them (with our unknown).
type History struct {
	FEN     string         `json:"fen"`
	History []HistoryMonth `json:"history"`
}

// HistoryMonth is one month of History: "2024-01", or "1990" for games
// dated to their year only.
type HistoryMonth struct {
	Month   string `json:"month"`
	White   uint64 `json:"white"`
	Draws   uint64 `json:"draws"`
	Black   uint64 `json:"black"`
	Unknown uint64 `json:"unknown"`
}

// Game is one stored game in full: its GameRef, tags, moves and PGN.
type Game struct {
	GameRef
	Tags  []pgn.Tag `json:"tags"`
	FEN   string    `json:"fen,omitempty"` // the start position of a game set up from a FEN
	Moves []string  `json:"moves"`         // SAN
	PGN   string    `json:"pgn"`
}

// gameTail is what Game adds to its GameRef.
type gameTail struct {
	Tags  []pgn.Tag `json:"tags"`
	FEN   string    `json:"fen,omitempty"`
	Moves []string  `json:"moves"`
	PGN   string    `json:"pgn"`
}

// MarshalJSON encodes g as its GameRef's fields followed by its own (it
// must not take the promoted [GameRef.MarshalJSON], which knows only the
// GameRef's).
func (g Game) MarshalJSON() ([]byte, error) {
	type plain GameRef
	return json.Marshal(struct {
		plain
		gameTail
	}{plain(g.GameRef), gameTail{g.Tags, g.FEN, g.Moves, g.PGN}})
}
