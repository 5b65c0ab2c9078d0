package book

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/chessbook/chessbook/stats"
)

// DatePrecision is how much of a date a bound gives: a year, a month or a
// day.
type DatePrecision uint8

// The precisions of a date bound.
const (
	YearPrecision DatePrecision = iota + 1
	MonthPrecision
	DayPrecision
)

// DateForms names the forms ParseDateBound takes, for messages and help.
const DateForms = "YYYY, YYYY-MM or YYYY-MM-DD (or with dots, as PGN writes dates: YYYY.MM.DD)"

// ErrDateForm is matched (errors.Is) by ParseDateBound's error for a bound
// in none of its forms (as against a month or day out of range).
var ErrDateForm = errors.New("want a date " + DateForms)

// ParseDateBound parses one end of a date range, as bookbuild's and
// bookquery's -since and -until and the API's since and until take it: a
// year (2024), a month (2024-01 or 2024.01) or a day (2024-01-31 or
// 2024.01.31), with one kind of separator; "" is no bound (the zero
// Date). The date must be real: a month from 01 to 12, a day the month
// has. A range's start (end false) is the bound as given, whose unknown
// parts sort it before every date of its year or month, so that games
// dated to the year only are kept; its end (end true) stands for the last
// day of its year or month. The precision says which parts were given.
func ParseDateBound(s string, end bool) (stats.Date, DatePrecision, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, 0, nil
	}
	bad := ErrDateForm
	sep := "-"
	if strings.Contains(s, ".") {
		sep = "."
	}
	parts := strings.Split(s, sep)
	if len(parts) > 3 || strings.ContainsAny(s, map[string]string{"-": ".", ".": "-"}[sep]) {
		return 0, 0, bad
	}
	var f [3]int
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || p[0] == '+' || p[0] == '-' || len(p) != []int{4, 2, 2}[i] {
			return 0, 0, bad
		}
		f[i] = n
	}
	if f[0] < 1 {
		return 0, 0, fmt.Errorf("year %s: want 0001 to 9999", parts[0])
	}
	if len(parts) > 1 && (f[1] < 1 || f[1] > 12) {
		return 0, 0, fmt.Errorf("month %s: want 01 to 12", parts[1])
	}
	if len(parts) > 2 {
		if last := time.Date(f[0], time.Month(f[1])+1, 0, 0, 0, 0, 0, time.UTC).Day(); f[2] < 1 || f[2] > last {
			return 0, 0, fmt.Errorf("day %s: %04d-%02d has days 01 to %02d", parts[2], f[0], f[1], last)
		}
	}
	prec := DatePrecision(len(parts))
	switch {
	case !end:
		return stats.NewDate(f[0], f[1], f[2]), prec, nil
	case prec == YearPrecision:
		return stats.NewDate(f[0], 12, 31), prec, nil
	case prec == MonthPrecision:
		return stats.NewDate(f[0], f[1], 31), prec, nil
	}
	return stats.NewDate(f[0], f[1], f[2]), prec, nil
}

// ParseDateRange parses -since and -until (see ParseDateBound) and checks
// that since is not after until. name prefixes the bounds' names in the
// errors ("-": "-since 2024-13: month 13: want 01 to 12").
func ParseDateRange(prefix, since, until string) (from, to stats.Date, err error) {
	if from, _, err = ParseDateBound(since, false); err != nil {
		return 0, 0, fmt.Errorf("%ssince %q: %w", prefix, since, err)
	}
	if to, _, err = ParseDateBound(until, true); err != nil {
		return 0, 0, fmt.Errorf("%suntil %q: %w", prefix, until, err)
	}
	if from != 0 && to != 0 && from > to {
		return 0, 0, fmt.Errorf("%ssince %s is after %suntil %s: no game could be kept", prefix, since, prefix, until)
	}
	return from, to, nil
}
