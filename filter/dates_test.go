package filter

import (
	"strings"
	"testing"

	"github.com/chessbook/chessbook/stats"
)

// TestParseDateBound: every form of a bound, with dots or dashes, its end
// of range, and the bounds refused.
func TestParseDateBound(t *testing.T) {
	for _, tc := range []struct {
		s          string
		start, end stats.Date
		prec       DatePrecision
	}{
		{"", 0, 0, 0},
		{"2024", 20240000, 20241231, YearPrecision},
		{"2024-02", 20240200, 20240231, MonthPrecision},
		{"2024.02", 20240200, 20240231, MonthPrecision},
		{" 2024-02-29 ", 20240229, 20240229, DayPrecision},
		{"2024.02.29", 20240229, 20240229, DayPrecision},
		{"0001", 10000, 11231, YearPrecision},
	} {
		for _, end := range []bool{false, true} {
			d, prec, err := ParseDateBound(tc.s, end)
			want := tc.start
			if end {
				want = tc.end
			}
			if err != nil || d != want || prec != tc.prec {
				t.Errorf("ParseDateBound(%q, %v) = %d, %d, %v; want %d, %d", tc.s, end, d, prec, err, want, tc.prec)
			}
		}
	}
	for _, tc := range []struct{ s, want string }{
		{"2024-02.01", "want a date"}, {"2024.02-01", "want a date"}, {"24", "want a date"}, {"2024-2", "want a date"},
		{"2024-02-1", "want a date"}, {"-2024", "want a date"}, {"+2024", "want a date"}, {"2024-02-01-01", "want a date"},
		{"2024/02", "want a date"}, {"2024-00", "month 00"}, {"2024-13", "month 13"}, {"2023-02-29", "day 29: 2023-02 has days 01 to 28"},
		{"2024-04-31", "day 31"}, {"0000", "year 0000"}, {"yesterday", "want a date"},
	} {
		if _, _, err := ParseDateBound(tc.s, false); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseDateBound(%q): %v, want an error with %q", tc.s, err, tc.want)
		}
	}
}
