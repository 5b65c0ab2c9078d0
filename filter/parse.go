package filter

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"github.com/chessbook/chessbook/stats"
)

// ErrBadInput is matched (errors.Is) by every error that blames a value
// given (a flag, a parameter): the commands exit with status 2 on it, the
// API answers 400. explorer.ErrBadInput is this error.
var ErrBadInput = errors.New("bad input")

// MaxEcho bounds what an error message quotes of a value (Quote).
const MaxEcho = 200

// Kind is what a filter selects from. It sets how the filter's dates
// compare, which forms they take, and how a build's flags word errors.
type Kind uint8

// The kinds of filter.
const (
	// Build is a build's filter (bookbuild's and bookbeam's flags): dates
	// by day, errors in bookbuild's words (`-since "2024-13": ...`).
	Build Kind = iota + 1
	// History is a query of a store's histories (bookquery moves, games,
	// history; the API's /lichess routes): dates by month; a day is
	// refused.
	History
	// Index is a query of the game index (bookquery player and search;
	// the API's /player and /search): dates by day.
	Index
)

// Source is where a filter's values come from: it names them in errors.
type Source uint8

// The sources of a filter's values.
const (
	FromParams Source = iota // the API's parameters: minRating
	FromFlags                // a command's flags: -min-rating
)

// Values are a filter's values as text, in the same syntax for a flag and
// for an HTTP parameter; "" leaves a criterion out.
type Values struct {
	Speeds    string // "blitz,rapid": lichess's speeds, in any case (stats.ParseSpeeds)
	Ratings   string // "2000,2200": lichess's rating band floors (stats.ParseRatingBands)
	Modes     string // "rated,casual" (ParseModes)
	Since     string // "2024", "2024-01" or "2024-01-15" (or with dots): ParseDateBound; a History filter takes a month or a year
	Until     string // as Since, both included: a year or a month stands for its end
	MinRating string // a whole number from 0 to 1<<20, both players
	MaxRating string
	MinPlies  string // a whole number from 0 to 1<<20, the game's plies
	MaxPlies  string
	// StandardStartOnly leaves out the games that start from a FEN (a
	// build's flag).
	StandardStartOnly bool
}

// maxCount is the greatest rating or ply bound Parse takes.
const maxCount = 1 << 20

// Parse parses v into a Filter of kind k (its Unit: Months for History,
// Days otherwise). Its errors match ErrBadInput and name the value as src
// does ("since" or "-since"); see the package documentation for their
// words.
func Parse(v Values, k Kind, src Source) (Filter, error) {
	p := parser{kind: k, src: src}
	f := Filter{StandardStartOnly: v.StandardStartOnly}
	if k == History {
		f.Unit = Months
	}
	var err error
	if f.Speeds, err = stats.ParseSpeeds(v.Speeds); err != nil {
		return f, p.listError("speeds", v.Speeds, err)
	}
	if f.Bands, err = stats.ParseRatingBands(v.Ratings); err != nil {
		return f, p.listError("ratings", v.Ratings, err)
	}
	if f.Modes, err = ParseModes(v.Modes); err != nil {
		return f, p.listError("modes", v.Modes, err)
	}
	if f.Since, err = p.date(v.Since, false); err != nil {
		return f, p.dateError("since", v.Since, err)
	}
	if f.Until, err = p.date(v.Until, true); err != nil {
		return f, p.dateError("until", v.Until, err)
	}
	if f.Since != 0 && f.Until != 0 && f.Since > f.Until {
		if k == Build {
			return f, &rangeError{fmt.Sprintf("%s %s is after %s %s: no game could be kept", p.name("since"), v.Since, p.name("until"), v.Until)}
		}
		return f, fmt.Errorf("%w: %s %s is after %s %s", ErrBadInput, p.name("since"), v.Since, p.name("until"), v.Until)
	}
	for _, c := range []struct {
		param, text string
		n           *int
	}{{"minRating", v.MinRating, &f.MinRating}, {"maxRating", v.MaxRating, &f.MaxRating}, {"minPlies", v.MinPlies, &f.MinPlies}, {"maxPlies", v.MaxPlies, &f.MaxPlies}} {
		if *c.n, err = ParseCount(p.name(c.param), c.text, 0, maxCount); err != nil {
			if k == Build {
				err.(*ParamError).form = valueForm
			}
			return f, err
		}
	}
	if f.MaxRating != 0 && f.MinRating > f.MaxRating {
		return f, fmt.Errorf("%w: %s %d is above %s %d", ErrBadInput, p.name("minRating"), f.MinRating, p.name("maxRating"), f.MaxRating)
	}
	if f.MaxPlies != 0 && f.MinPlies > f.MaxPlies {
		return f, fmt.Errorf("%w: %s %d is above %s %d", ErrBadInput, p.name("minPlies"), f.MinPlies, p.name("maxPlies"), f.MaxPlies)
	}
	return f, nil
}

// parser is a Parse: the kind of its filter and the source of its values.
type parser struct {
	kind Kind
	src  Source
}

// name returns the name of the value the API calls param ("minRating"),
// as p's source names it ("-min-rating" for a flag).
func (p parser) name(param string) string {
	if p.src == FromParams {
		return param
	}
	return FlagName(param)
}

// FlagName returns the flag that takes the value the API calls param:
// "minRating" is "-min-rating".
func FlagName(param string) string {
	var b strings.Builder
	b.WriteByte('-')
	for _, r := range param {
		if unicode.IsUpper(r) {
			b.WriteByte('-')
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}

// date parses a bound of p's filter: a month or a year by month, a day
// too by day.
func (p parser) date(s string, end bool) (stats.Date, error) {
	if p.kind == History {
		return parseMonth(s, end)
	}
	d, _, err := ParseDateBound(s, end)
	return d, err
}

// listError is the error of a list (speeds, ratings, modes) with a bad
// item: err, which names it.
func (p parser) listError(param, value string, err error) error {
	e := &ParamError{Name: p.name(param), Value: value, Reason: err.Error(), Err: err}
	if p.kind == Build {
		e.form = causeForm
	}
	return e
}

// dateError is the error of a bad date.
func (p parser) dateError(param, value string, err error) error {
	e := &ParamError{Name: p.name(param), Value: value, Reason: err.Error(), Err: err}
	if p.kind == Build {
		e.form = quotedForm
	}
	return e
}

// ParamError is the error of a parameter or flag with a bad value.
type ParamError struct {
	Name   string // "since", "-since"
	Value  string // the value as given
	Reason string // why it is refused: "month 13: want 01 to 12"
	Err    error  // the cause, if any (errors.Is and As reach it)
	form   errorForm
}

// errorForm is how a ParamError reads.
type errorForm uint8

const (
	paramForm  errorForm = iota // since=2024-13: reason (the API's, bookquery's)
	causeForm                   // -speeds: reason (a build's lists: the reason quotes the item)
	quotedForm                  // -since "2024-13": reason (a build's dates)
	valueForm                   // -min-rating -1: reason (a build's numbers)
)

// Error implements error: "since=2024-13: month 13: want 01 to 12", with
// the value quoted when it is not plain (Quote); a build's flags read as
// bookbuild has always printed them.
func (e *ParamError) Error() string {
	switch e.form {
	case causeForm:
		return fmt.Sprintf("%s: %s", e.Name, e.Reason)
	case quotedForm:
		return fmt.Sprintf("%s %q: %s", e.Name, e.Value, e.Reason)
	case valueForm:
		return fmt.Sprintf("%s %s: %s", e.Name, e.Value, e.Reason)
	}
	return fmt.Sprintf("%s=%s: %s", e.Name, Quote(e.Value), e.Reason)
}

// Unwrap returns ErrBadInput and the cause, if any.
func (e *ParamError) Unwrap() []error {
	if e.Err == nil {
		return []error{ErrBadInput}
	}
	return []error{ErrBadInput, e.Err}
}

// rangeError is a build's error for bounds that keep no game.
type rangeError struct{ msg string }

func (e *rangeError) Error() string { return e.msg }

// Unwrap returns ErrBadInput.
func (e *rangeError) Unwrap() error { return ErrBadInput }

// Quote quotes at most MaxEcho bytes of s, for an error message; a short
// value of plain characters is not quoted (moves=-1).
func Quote(s string) string {
	if len(s) <= MaxEcho && s != "" && !strings.ContainsAny(s, " \"") && strconv.Quote(s) == `"`+s+`"` {
		return s
	}
	if len(s) > MaxEcho {
		return strconv.Quote(s[:MaxEcho]) + fmt.Sprintf("... (%d bytes more)", len(s)-MaxEcho)
	}
	return strconv.Quote(s)
}

// ParseCount parses a count parameter ("topGames=10"): a whole number from
// 0 to most; "" gives def. Its error is a *ParamError named name.
func ParseCount(name, s string, def, most int) (int, error) {
	if s == "" {
		return def, nil
	}
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil || n < 0 || n > most {
		return 0, &ParamError{Name: name, Value: s, Reason: fmt.Sprintf("want a whole number from 0 to %d", most)}
	}
	return n, nil
}

// ParseModes parses a comma-separated list of modes (rated, casual, in
// any case); "" is both.
func ParseModes(s string) (ModeSet, error) {
	var m ModeSet
	for _, v := range strings.Split(s, ",") {
		switch strings.ToLower(strings.TrimSpace(v)) {
		case "":
		case "rated":
			m |= Rated
		case "casual":
			m |= Casual
		default:
			return 0, fmt.Errorf("unknown mode %s (want rated, casual)", strconv.Quote(v))
		}
	}
	return m, nil
}
