package stats

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/chessbook/chessbook/board"
)

// randomHistory returns a History of up to n rows over few periods, moves
// and cells, so that merges meet equal rows.
func randomHistory(rng *rand.Rand, n int) History {
	rows := map[[3]int]CellStats{}
	for range rng.IntN(n + 1) {
		k := [3]int{rng.IntN(4) * 7000, rng.IntN(5) * 300, rng.IntN(4) * 40}
		s := rows[k]
		s.Add(resultOf[rng.IntN(4)], rng.IntN(3)*1500)
		rows[k] = s
	}
	var h History
	for k, s := range rows {
		h = append(h, HistoryRow{Period: Period(k[0]), Move: board.Move(k[1]), Cell: Cell(k[2]), CellStats: s})
	}
	slices.SortFunc(h, func(a, b HistoryRow) int { return compareRows(&a, &b) })
	return h
}

// TestHistoryEncoding: a History decodes to itself, and merging two
// encodings equals adding up their rows (a map by (period, move, cell)).
func TestHistoryEncoding(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for i := range 300 {
		a, b := randomHistory(rng, 12), randomHistory(rng, 12)
		ea, eb := a.AppendEncode(nil), b.AppendEncode(nil)
		got, err := DecodeHistory(nil, ea)
		if err != nil || !slices.Equal(got, a) && len(a) > 0 {
			t.Fatalf("case %d: decoded %v (%v), want %v", i, got, err, a)
		}
		sum := map[[3]int]CellStats{}
		for _, h := range []History{a, b} {
			for _, r := range h {
				k := [3]int{int(r.Period), int(r.Move), int(r.Cell)}
				s := sum[k]
				s.Merge(r.CellStats)
				sum[k] = s
			}
		}
		m, err := MergeHistory(nil, ea, eb)
		if err != nil {
			t.Fatalf("case %d: merge: %v", i, err)
		}
		if all, _, err := MergeHistories(nil, nil, ea, eb); err != nil || string(all) != string(m) {
			t.Fatalf("case %d: MergeHistories %x (%v), MergeHistory %x", i, all, err, m)
		}
		merged, err := DecodeHistory(nil, m)
		if err != nil || len(merged) != len(sum) {
			t.Fatalf("case %d: merged %d rows (%v), want %d", i, len(merged), err, len(sum))
		}
		for _, r := range merged {
			if sum[[3]int{int(r.Period), int(r.Move), int(r.Cell)}] != r.CellStats {
				t.Fatalf("case %d: row %+v: want %+v", i, r, sum[[3]int{int(r.Period), int(r.Move), int(r.Cell)}])
			}
		}
		// Truncations and out-of-order rows are errors, never panics.
		for cut := 0; cut < len(m)-1; cut++ {
			if _, err := DecodeHistory(nil, m[:cut]); cut > 0 && err == nil && !validPrefix(m, cut) {
				t.Fatalf("case %d: prefix of %d bytes decoded without error", i, cut)
			}
		}
	}
	if _, err := MergeHistory(nil, []byte{HistoryVersion, 0, 5, 0, 1, 1, 0, 0, 0, 1, 1}, []byte{HistoryVersion}); !errors.Is(err, ErrCorruptHistory) {
		t.Fatalf("rows out of order: %v, want ErrCorruptHistory", err)
	}
}

// validPrefix reports whether m[:cut] ends exactly at a row boundary of m
// (such a prefix is a valid, shorter History).
func validPrefix(m []byte, cut int) bool {
	r, _ := newHistoryReader(m)
	for r.off < cut {
		if ok, err := r.next(); !ok || err != nil {
			return false
		}
	}
	return r.off == cut
}

// TestPeriodOf: periods order as dates at month granularity.
func TestPeriodOf(t *testing.T) {
	for _, c := range []struct {
		d    Date
		want Period
	}{{0, 0}, {NewDate(1990, 0, 0), 1990 << 4}, {NewDate(1990, 5, 17), 1990<<4 | 5}, {NewDate(2024, 12, 0), 2024<<4 | 12}, {NewDate(5000, 1, 1), 0}} {
		if got := PeriodOf(c.d); got != c.want {
			t.Errorf("PeriodOf(%d) = %d, want %d", c.d, got, c.want)
		}
	}
	if c := NewCell(Rapid, 8); c.Speed() != Rapid || c.RatingBand() != 8 {
		t.Errorf("NewCell(3, 8) = %#x", c)
	}
}
