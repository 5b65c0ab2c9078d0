package filter

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

// ParseDateBound parses one end of a date range, as every filter's since
// and until take it (Parse; a filter by month refuses a day): a
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

// parseMonth parses a bound of a filter by month (Unit Months): a month
// ("2024-01" or "2024.01") or a year ("2024"), into the date
// ParseDateBound gives it; "" is no bound. A day is refused: a store's
// histories count games by month.
func parseMonth(s string, end bool) (stats.Date, error) {
	d, prec, err := ParseDateBound(s, end)
	switch {
	case errors.Is(err, ErrDateForm):
		return 0, errors.New("want a month YYYY-MM (or YYYY.MM) or a year YYYY")
	case err != nil:
		return 0, fmt.Errorf("%w (a month is YYYY-MM)", err)
	case prec == DayPrecision:
		return 0, fmt.Errorf("want a month YYYY-MM or a year YYYY: the store counts games by month, not by day")
	}
	return d, nil
}
