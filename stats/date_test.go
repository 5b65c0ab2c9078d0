package stats

import "testing"

func TestParseDate(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Date
		str  string
	}{
		{"1859.??.??", 18590000, "1859.??.??"},
		{"????.??.??", 0, "????.??.??"},
		{"", 0, "????.??.??"},
		{"2023.07.14", 20230714, "2023.07.14"},
		{"2023.07.??", 20230700, "2023.07.??"},
		{"2023.??.14", 20230000, "2023.??.??"}, // a day without a month is dropped
		{"2023.13.01", 20230000, "2023.??.??"}, // month out of range
		{"2023.02.32", 20230200, "2023.02.??"}, // day out of range
		{"2023.02.00", 20230200, "2023.02.??"},
		{"0000.01.01", 0, "????.??.??"},
		{"2023-07-14", 20230714, "2023.07.14"},
		{"2023/07/14", 20230714, "2023.07.14"},
		{"2023", 20230000, "2023.??.??"},
		{"2023.07", 20230700, "2023.07.??"},
		{"2023.7.14", 20230000, "2023.??.??"},
		{"23.07.14", 0, "????.??.??"},
		{"abcd.ef.gh", 0, "????.??.??"},
		{"0001.01.01", 10101, "0001.01.01"},
		{"9999.12.31", 99991231, "9999.12.31"},
	} {
		got := ParseDate(tc.in)
		if got != tc.want {
			t.Errorf("ParseDate(%q) = %d, want %d", tc.in, got, tc.want)
		}
		if s := got.String(); s != tc.str {
			t.Errorf("ParseDate(%q).String() = %q, want %q", tc.in, s, tc.str)
		}
	}
}

func TestDateParts(t *testing.T) {
	d := NewDate(1859, 7, 3)
	if d.Year() != 1859 || d.Month() != 7 || d.Day() != 3 || !d.Known() {
		t.Errorf("NewDate(1859, 7, 3) = %d: parts %d %d %d", d, d.Year(), d.Month(), d.Day())
	}
	if NewDate(1859, 0, 3) != 18590000 {
		t.Errorf("NewDate(1859, 0, 3) = %d, want the day dropped", NewDate(1859, 0, 3))
	}
	if Date(0).Known() {
		t.Error("zero Date is known")
	}
}

func TestParseDateAllocs(t *testing.T) {
	if n := testing.AllocsPerRun(100, func() { _ = ParseDate("1859.07.??") }); n != 0 {
		t.Errorf("ParseDate allocates %v times", n)
	}
}
