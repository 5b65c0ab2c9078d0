package stats

import (
	"encoding/binary"
	"errors"
	"fmt"
	"slices"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/internal/sortedruns"
)

// The query-time filters of an opening explorer (speeds, rating bands,
// months) need what the totals of an [Entry] add up: a position's games by
// month, by move and by (speed, rating band). A [History] holds that for
// one position, flat: one [HistoryRow] per (period, move, cell) that had
// games, in increasing order of the three. Histories merge by adding up
// the rows with the same (period, move, cell): associative and
// commutative like Entries, so a store can keep one as a merge record.

// Period is a game's month, year << 4 | month (month 0: the month is
// unknown); the zero Period is an unknown date. Periods compare as their
// months: a game known to a year only sorts before every month of it, as
// its Date does.
type Period uint16

// PeriodOf returns the period of a date (years after 4095 are unknown).
func PeriodOf(d Date) Period {
	y, m := int(d/10000), int(d/100%100)
	if y < 1 || y > 4095 {
		return 0
	}
	return Period(y<<4 | m)
}

// Year returns the period's year (0: unknown).
func (p Period) Year() int { return int(p >> 4) }

// Month returns the period's month (0: unknown).
func (p Period) Month() int { return int(p & 15) }

// HistoryRow is the games of one (period, move, cell).
type HistoryRow struct {
	Period Period
	Move   board.Move
	Cell   Cell
	CellStats
}

// History is one position's games by period, move and cell: rows in
// strictly increasing (Period, Move, Cell) order.
type History []HistoryRow

// compareRows orders rows by (Period, Move, Cell).
func compareRows(a, b *HistoryRow) int {
	switch {
	case a.Period != b.Period:
		return int(a.Period) - int(b.Period)
	case a.Move != b.Move:
		return int(a.Move) - int(b.Move)
	}
	return int(a.Cell) - int(b.Cell)
}

// HistoryVersion is the version byte that starts every encoded History.
//
// Layout: the version byte, then per row: the period's difference from
// the previous row's (uvarint; the first row's from 0); the move, or when
// the period is the previous row's, its difference from the previous
// move (uvarint); the cell, or when period and move are the previous
// row's, its difference from the previous cell (uvarint, not 0); a flags
// byte (bits 0-4: WhiteWins, Draws, BlackWins, Unknown, rating), then the
// counters whose flag is set, as uvarints, in that order (the rating as
// RatingSum then RatingCount).
const HistoryVersion = 1

// ErrCorruptHistory is returned (wrapped) for bytes that are not a valid
// encoded History.
var ErrCorruptHistory = errors.New("stats: corrupt history encoding")

// AppendHistoryRow appends the encoding of row r to dst, whose previous
// row was prev (nil for the first; dst then gets the version byte first),
// and returns the extended slice. Rows must come in strictly increasing
// order.
func AppendHistoryRow(dst []byte, prev, r *HistoryRow) []byte {
	if prev == nil {
		dst = append(dst, HistoryVersion)
		prev = &HistoryRow{}
		dst = binary.AppendUvarint(dst, uint64(r.Period))
		dst = binary.AppendUvarint(dst, uint64(r.Move))
		dst = binary.AppendUvarint(dst, uint64(r.Cell))
	} else {
		dst = binary.AppendUvarint(dst, uint64(r.Period-prev.Period))
		switch {
		case r.Period != prev.Period:
			dst = binary.AppendUvarint(dst, uint64(r.Move))
			dst = binary.AppendUvarint(dst, uint64(r.Cell))
		case r.Move != prev.Move:
			dst = binary.AppendUvarint(dst, uint64(r.Move-prev.Move))
			dst = binary.AppendUvarint(dst, uint64(r.Cell))
		default:
			dst = binary.AppendUvarint(dst, 0)
			dst = binary.AppendUvarint(dst, uint64(r.Cell-prev.Cell))
		}
	}
	var flags byte
	vals := [...]uint64{r.WhiteWins, r.Draws, r.BlackWins, r.Unknown, r.RatingCount}
	for i, v := range vals {
		if v != 0 {
			flags |= 1 << i
		}
	}
	dst = append(dst, flags)
	for _, v := range vals[:4] {
		if v != 0 {
			dst = binary.AppendUvarint(dst, v)
		}
	}
	if r.RatingCount != 0 {
		dst = binary.AppendUvarint(dst, r.RatingSum)
		dst = binary.AppendUvarint(dst, r.RatingCount)
	}
	return dst
}

// historyAppender appends rows to an encoded History, each against the
// previous one.
type historyAppender struct {
	dst  []byte
	prev HistoryRow
	n    int
}

func (a *historyAppender) put(r *HistoryRow) {
	if a.n == 0 {
		a.dst = AppendHistoryRow(a.dst, nil, r)
	} else {
		a.dst = AppendHistoryRow(a.dst, &a.prev, r)
	}
	a.prev = *r
	a.n++
}

// AppendEncode appends the encoding of h to dst; an empty History
// encodes as the version byte alone.
func (h History) AppendEncode(dst []byte) []byte {
	if len(h) == 0 {
		return append(dst, HistoryVersion)
	}
	for i := range h {
		var prev *HistoryRow
		if i > 0 {
			prev = &h[i-1]
		}
		dst = AppendHistoryRow(dst, prev, &h[i])
	}
	return dst
}

// historyReader decodes an encoded History row by row.
type historyReader struct {
	b   []byte
	off int
	row HistoryRow
	n   int
}

func newHistoryReader(b []byte) (historyReader, error) {
	if len(b) == 0 || b[0] != HistoryVersion {
		return historyReader{}, fmt.Errorf("%w: bad version", ErrCorruptHistory)
	}
	return historyReader{b: b, off: 1}, nil
}

// next decodes the next row into r.row; ok is false at the end.
func (r *historyReader) next() (ok bool, err error) {
	if r.off == len(r.b) {
		return false, nil
	}
	prev := r.row
	var v [3]uint64
	for i := range v {
		if v[i], err = r.uvarint(); err != nil {
			return false, err
		}
	}
	if r.n == 0 {
		prev = HistoryRow{}
	}
	period, move, cell := uint64(prev.Period)+v[0], v[1], v[2]
	switch {
	case r.n > 0 && v[0] == 0 && v[1] != 0:
		move += uint64(prev.Move)
	case r.n > 0 && v[0] == 0:
		move, cell = uint64(prev.Move), cell+uint64(prev.Cell)
	}
	row := HistoryRow{Period: Period(period), Move: board.Move(move), Cell: Cell(cell)}
	if period > 0xffff || move > 0xffff || cell > 0xff ||
		(r.n > 0 && compareRows(&prev, &row) >= 0) {
		return false, fmt.Errorf("%w: row %d out of order", ErrCorruptHistory, r.n)
	}
	if r.off == len(r.b) {
		return false, fmt.Errorf("%w: row %d cut short", ErrCorruptHistory, r.n)
	}
	flags := r.b[r.off]
	r.off++
	if flags>>5 != 0 || flags == 0 {
		return false, fmt.Errorf("%w: row %d: bad flags %#x", ErrCorruptHistory, r.n, flags)
	}
	dst := [...]*uint64{&row.WhiteWins, &row.Draws, &row.BlackWins, &row.Unknown}
	for i, p := range dst {
		if flags&(1<<i) != 0 {
			if *p, err = r.uvarint(); err != nil {
				return false, err
			}
		}
	}
	if flags&(1<<4) != 0 {
		if row.RatingSum, err = r.uvarint(); err != nil {
			return false, err
		}
		if row.RatingCount, err = r.uvarint(); err != nil {
			return false, err
		}
	}
	r.row = row
	r.n++
	return true, nil
}

func (r *historyReader) uvarint() (uint64, error) {
	v, n := binary.Uvarint(r.b[r.off:])
	if n <= 0 {
		return 0, fmt.Errorf("%w: bad number at byte %d", ErrCorruptHistory, r.off)
	}
	r.off += n
	return v, nil
}

// DecodeHistory decodes an encoded History, appending its rows to h.
func DecodeHistory(h History, b []byte) (History, error) {
	r, err := newHistoryReader(b)
	if err != nil {
		return h, err
	}
	for {
		ok, err := r.next()
		if err != nil || !ok {
			return h, err
		}
		h = append(h, r.row)
	}
}

// MergeHistory merges the encoded Histories a and b, appends the encoded
// result to dst and returns the extended slice: the merge operator's path.
// It validates both inputs. dst must not overlap a or b.
func MergeHistory(dst, a, b []byte) ([]byte, error) {
	ra, err := newHistoryReader(a)
	if err != nil {
		return dst, fmt.Errorf("merging first operand: %w", err)
	}
	rb, err := newHistoryReader(b)
	if err != nil {
		return dst, fmt.Errorf("merging second operand: %w", err)
	}
	oka, err := ra.next()
	if err != nil {
		return dst, fmt.Errorf("merging first operand: %w", err)
	}
	okb, err := rb.next()
	if err != nil {
		return dst, fmt.Errorf("merging second operand: %w", err)
	}
	out := historyAppender{dst: dst}
	for oka || okb {
		c := 0
		switch {
		case !okb:
			c = -1
		case !oka:
			c = 1
		default:
			c = compareRows(&ra.row, &rb.row)
		}
		switch {
		case c < 0:
			out.put(&ra.row)
			if oka, err = ra.next(); err != nil {
				return dst, fmt.Errorf("merging first operand: %w", err)
			}
		case c > 0:
			out.put(&rb.row)
			if okb, err = rb.next(); err != nil {
				return dst, fmt.Errorf("merging second operand: %w", err)
			}
		default:
			row := ra.row
			row.CellStats.Merge(rb.row.CellStats)
			out.put(&row)
			if oka, err = ra.next(); err != nil {
				return dst, fmt.Errorf("merging first operand: %w", err)
			}
			if okb, err = rb.next(); err != nil {
				return dst, fmt.Errorf("merging second operand: %w", err)
			}
		}
	}
	if out.n == 0 {
		return append(dst, HistoryVersion), nil
	}
	return out.dst, nil
}

// MergeHistories merges the encoded Histories vals, appends the encoded
// result to dst and returns it, with rows, scratch space for the decoded
// rows, to reuse. Merging many at once this way (decode all, merge their
// sorted rows, add up) costs less than merging them two at a time, which
// rewrites the biggest over and over.
func MergeHistories(dst []byte, rows History, vals ...[]byte) ([]byte, History, error) {
	rows = rows[:0]
	var endsBuf [64]int
	ends := endsBuf[:0]
	for i, v := range vals {
		var err error
		if rows, err = DecodeHistory(rows, v); err != nil {
			return dst, rows, fmt.Errorf("merging operand %d: %w", i, err)
		}
		ends = append(ends, len(rows))
	}
	n := len(rows)
	if n == 0 {
		return append(dst, HistoryVersion), rows, nil
	}
	// Each operand's rows are sorted (the decoder checks it): merge
	// them, the second half of rows as the other buffer.
	rows = slices.Grow(rows, n)
	src, _ := sortedruns.Merge(rows[:n], ends, rows[n:2*n], compareRows)
	out := historyAppender{dst: dst}
	cur := src[0]
	for i := 1; i < n; i++ {
		if compareRows(&cur, &src[i]) == 0 {
			cur.CellStats.Merge(src[i].CellStats)
			continue
		}
		out.put(&cur)
		cur = src[i]
	}
	out.put(&cur)
	dst = out.dst
	return dst, rows[:0], nil
}
