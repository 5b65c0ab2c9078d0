package explorer

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/chessbook/chessbook/book"
	"github.com/chessbook/chessbook/stats"
)

// The filters and list sizes of a query, read the same way from the
// command's flags and the API's parameters (the lichess explorer's names:
// speeds, ratings, since, until, topGames, recentGames).

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

// Filters are the filters of a query as text: the lichess explorer's
// parameters, the command's flags.
type Filters struct {
	Speeds  string // "blitz,rapid": lichess's speeds (stats.ParseSpeeds)
	Ratings string // "2000,2200": lichess's rating band floors (stats.ParseRatingBands)
	Since   string // "2024-01" (a month) or "1952" (a year)
	Until   string // as Since, both included
}

// Selection parses f into a Selection. Errors match ErrBadInput and name
// the parameter (with the command's flags: name "-speeds" and so on).
func (f Filters) Selection(prefix string) (book.Selection, error) {
	var sel book.Selection
	var err error
	if sel.Speeds, err = stats.ParseSpeeds(f.Speeds); err != nil {
		return sel, badParam(prefix+"speeds", f.Speeds, err.Error())
	}
	if sel.Bands, err = stats.ParseRatingBands(f.Ratings); err != nil {
		return sel, badParam(prefix+"ratings", f.Ratings, err.Error())
	}
	if sel.Since, err = ParsePeriod(f.Since, false); err != nil {
		return sel, badParam(prefix+"since", f.Since, err.Error())
	}
	if sel.Until, err = ParsePeriod(f.Until, true); err != nil {
		return sel, badParam(prefix+"until", f.Until, err.Error())
	}
	if sel.Since != 0 && sel.Until != 0 && sel.Since > sel.Until {
		return sel, fmt.Errorf("%w: %ssince %s is after %suntil %s", ErrBadInput, prefix, f.Since, prefix, f.Until)
	}
	return sel, nil
}

// ParamError is the error for a query parameter (or flag) with a bad value.
type ParamError struct {
	Name, Value, Reason string
}

// Error implements error.
func (e *ParamError) Error() string {
	return fmt.Sprintf("%s=%s: %s", e.Name, quoteBounded(e.Value), e.Reason)
}

// Unwrap returns ErrBadInput.
func (e *ParamError) Unwrap() error { return ErrBadInput }

func badParam(name, value, reason string) error {
	return &ParamError{Name: name, Value: value, Reason: reason}
}

// quoteBounded quotes at most maxEcho bytes of s; a short value of plain
// characters is not quoted (moves=-1).
func quoteBounded(s string) string {
	if len(s) <= maxEcho && s != "" && !strings.ContainsAny(s, " \"") && strconv.Quote(s) == `"`+s+`"` {
		return s
	}
	if len(s) > maxEcho {
		return strconv.Quote(s[:maxEcho]) + fmt.Sprintf("... (%d bytes more)", len(s)-maxEcho)
	}
	return strconv.Quote(s)
}

// ParsePeriod parses a month ("2024-01" or "2024.01") or a year ("2024")
// into a period, with book.ParseDateBound; "" is no bound. A year stands
// for its first month when it starts a range (undated-month games of the
// year included: they sort before January) and for December when it ends
// one (end true). A day is refused: the store counts games by month.
func ParsePeriod(s string, end bool) (stats.Period, error) {
	d, prec, err := book.ParseDateBound(s, end)
	switch {
	case errors.Is(err, book.ErrDateForm):
		return 0, errors.New("want a month YYYY-MM (or YYYY.MM) or a year YYYY")
	case err != nil:
		return 0, fmt.Errorf("%w (a month is YYYY-MM)", err)
	case d == 0:
		return 0, nil
	case prec == book.DayPrecision:
		return 0, fmt.Errorf("want a month YYYY-MM or a year YYYY: the store counts games by month, not by day")
	case prec == book.YearPrecision && !end:
		return stats.Period(d.Year() << 4), nil
	}
	return stats.Period(d.Year()<<4 | d.Month()), nil
}

// ParseCount parses a count parameter ("topGames=10"): a whole number from
// 0 to most; "" gives def.
func ParseCount(name, s string, def, most int) (int, error) {
	if s == "" {
		return def, nil
	}
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil || n < 0 || n > most {
		return 0, badParam(name, s, fmt.Sprintf("want a whole number from 0 to %d", most))
	}
	return n, nil
}

// FormatPeriod formats a period as the lichess explorer's month,
// "2024-01"; a period known to its year only is "2024".
func FormatPeriod(p stats.Period) string {
	if p.Month() == 0 {
		return fmt.Sprintf("%04d", p.Year())
	}
	return fmt.Sprintf("%04d-%02d", p.Year(), p.Month())
}
