package explorer

import (
	"fmt"

	"github.com/chessbook/chessbook/book"
	"github.com/chessbook/chessbook/filter"
	"github.com/chessbook/chessbook/stats"
)

// The list sizes of a query, read the same way from the command's flags
// and the API's parameters (the lichess explorer's names: topGames,
// recentGames); its filters (speeds, ratings, since, until) are a
// filter.Filter of kind filter.History, read by filter.Parse.

// DefaultGames is how many top and how many recent games a query lists
// unless it asks otherwise, as the lichess explorer does.
const DefaultGames = 4

// MaxGames is the most top or recent games a query may ask for: the
// lichess explorer's bound for masters' topGames. A position lists fewer
// when its moves' references hold fewer (each move keeps its 4 best-rated
// and 4 latest games, stats.MaxRefs).
const MaxGames = 15

// Query is what a query asks beyond its position.
type Query struct {
	// Sel selects the games counted and listed; the zero Selection
	// counts every game, and only then are the moves' performance and
	// first and last dates given (the store keeps them unfiltered).
	Sel book.Selection
	// TopGames and RecentGames are how many top and recent games to list
	// (0 to MaxGames); see NewQuery for the defaults.
	TopGames, RecentGames int
	// Performance asks for the moves' rating performance, which reads the
	// position after every move (for the opponents' ratings). The lichess
	// explorer's answers have none.
	Performance bool
}

// NewQuery returns the query of every game with the default list sizes and
// the moves' performance.
func NewQuery() Query {
	return Query{TopGames: DefaultGames, RecentGames: DefaultGames, Performance: true}
}

// ParamError is the error for a query parameter (or flag) with a bad
// value: filter's, which the filters' errors are too.
type ParamError = filter.ParamError

func badParam(name, value, reason string) error {
	return &ParamError{Name: name, Value: value, Reason: reason}
}

// quoteBounded quotes at most maxEcho bytes of s; a short value of plain
// characters is not quoted (moves=-1).
func quoteBounded(s string) string { return filter.Quote(s) }

// FormatPeriod formats a period as the lichess explorer's month,
// "2024-01"; a period known to its year only is "2024".
func FormatPeriod(p stats.Period) string {
	if p.Month() == 0 {
		return fmt.Sprintf("%04d", p.Year())
	}
	return fmt.Sprintf("%04d-%02d", p.Year(), p.Month())
}
