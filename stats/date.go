package stats

// Date is a calendar date packed as the decimal number yyyymmdd, as in PGN's
// Date tag. A zero month or day means that part is unknown; the zero Date
// means the whole date is unknown. So "1859.??.??" is 18590000 and
// "????.??.??" is 0.
//
// Dates compare as integers. A partly known date sorts before every full date
// of the same year (or month), so as a "first played" date it means "some
// time in 1859" without claiming too late a date.
type Date uint32

// NewDate returns the Date for year, month and day. A part out of range
// (year outside 1..9999, month outside 1..12, day outside 1..31) is unknown,
// and so are the parts after it: an unknown year gives the zero Date, an
// unknown month leaves the day unknown too.
func NewDate(year, month, day int) Date {
	if year < 1 || year > 9999 {
		return 0
	}
	d := Date(year) * 10000
	if month < 1 || month > 12 {
		return d
	}
	d += Date(month) * 100
	if day < 1 || day > 31 {
		return d
	}
	return d + Date(day)
}

// ParseDate parses a PGN date, "yyyy.mm.dd" with "??" (or "????") for
// unknown parts. It is lenient, because PGN dumps are: a part that is not
// a number in range is unknown (see [NewDate]), "-" and "/" are accepted as
// separators, and trailing parts may be missing ("1859" or "1859.07").
// Anything that does not start with a four-digit year gives the zero Date.
// ParseDate does not allocate.
func ParseDate(s string) Date {
	year, rest, ok := datePart(s, 4)
	if !ok {
		return 0
	}
	month, rest, ok := datePart(rest, 2)
	if !ok {
		return NewDate(year, 0, 0)
	}
	day, _, ok := datePart(rest, 2)
	if !ok {
		return NewDate(year, month, 0)
	}
	return NewDate(year, month, day)
}

// datePart parses n digits at the start of s, skipping one leading separator
// unless n == 4 (the year). It returns the number, the rest of s, and whether
// the part was all digits.
func datePart(s string, n int) (v int, rest string, ok bool) {
	if n != 4 {
		if len(s) == 0 || (s[0] != '.' && s[0] != '-' && s[0] != '/') {
			return 0, s, false
		}
		s = s[1:]
	}
	if len(s) < n {
		return 0, s, false
	}
	for i := 0; i < n; i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, s[n:], false
		}
		v = v*10 + int(c-'0')
	}
	return v, s[n:], true
}

// Year returns the year, or 0 if unknown.
func (d Date) Year() int { return int(d / 10000) }

// Month returns the month (1..12), or 0 if unknown.
func (d Date) Month() int { return int(d / 100 % 100) }

// Day returns the day of the month, or 0 if unknown.
func (d Date) Day() int { return int(d % 100) }

// Known reports whether at least the year is known.
func (d Date) Known() bool { return d != 0 }

// String returns the date in PGN form, "1859.??.??" for a partly known date
// and "????.??.??" for the zero Date.
func (d Date) String() string {
	return string(d.AppendPGN(make([]byte, 0, 10)))
}

// AppendPGN appends the date in PGN form (see [Date.String]) to dst.
func (d Date) AppendPGN(dst []byte) []byte {
	if y := d.Year(); y == 0 {
		dst = append(dst, "????"...)
	} else {
		dst = appendPadded(dst, y, 4)
	}
	for _, part := range [2]int{d.Month(), d.Day()} {
		dst = append(dst, '.')
		if part == 0 {
			dst = append(dst, "??"...)
		} else {
			dst = appendPadded(dst, part, 2)
		}
	}
	return dst
}

// appendPadded appends v (0 <= v < 10^width) as width decimal digits.
func appendPadded(dst []byte, v, width int) []byte {
	var buf [4]byte
	for i := width - 1; i >= 0; i-- {
		buf[i] = byte('0' + v%10)
		v /= 10
	}
	return append(dst, buf[:width]...)
}

// earlier returns the earlier of two dates, ignoring unknown (zero) ones.
func earlier(a, b Date) Date {
	if a == 0 || (b != 0 && b < a) {
		return b
	}
	return a
}

// later returns the later of two dates; the zero Date is never later.
func later(a, b Date) Date {
	if b > a {
		return b
	}
	return a
}
