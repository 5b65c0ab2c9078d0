package store

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// Tallies are the values of the game index's MERGE records ('x' keys: see
// the package documentation): a few counters, each merged by its own
// rule, so that the records of any number of runs add up whatever their
// order. A tally is a sequence of fields, each an op byte ([TallyOp])
// followed by a uvarint. Two tallies merge field by field; they must have
// the same ops in the same order.

// TallyOp is how a tally field merges.
type TallyOp byte

// The tally ops.
const (
	// TallySum adds the values up.
	TallySum TallyOp = 1 + iota
	// TallyMin keeps the least value other than 0 (0: unknown).
	TallyMin
	// TallyMax keeps the greatest value.
	TallyMax
)

// maxTallyFields bounds the fields of a tally.
const maxTallyFields = 16

// AppendTally appends the tally of the given ops and values (as many of
// each, at most 16) to dst.
func AppendTally(dst []byte, ops []TallyOp, vals []uint64) []byte {
	for i, op := range ops {
		dst = append(dst, byte(op))
		dst = binary.AppendUvarint(dst, vals[i])
	}
	return dst
}

// DecodeTally decodes tally v into vals (reusing its capacity) and
// returns the values; ops, if not nil, must be the tally's ops.
func DecodeTally(vals []uint64, v []byte, ops []TallyOp) ([]uint64, error) {
	vals = vals[:0]
	for i := 0; len(v) > 0; i++ {
		op := TallyOp(v[0])
		if op < TallySum || op > TallyMax || i >= maxTallyFields {
			return vals, errBadTally
		}
		if ops != nil && (i >= len(ops) || ops[i] != op) {
			return vals, fmt.Errorf("%w: field %d is not as expected", errBadTally, i)
		}
		x, n := binary.Uvarint(v[1:])
		if n <= 0 {
			return vals, errBadTally
		}
		vals = append(vals, x)
		v = v[1+n:]
	}
	if ops != nil && len(vals) != len(ops) {
		return vals, fmt.Errorf("%w: %d fields, want %d", errBadTally, len(vals), len(ops))
	}
	return vals, nil
}

var errBadTally = errors.New("bad tally")

// validateTally reports whether v is a well-formed tally. (The merge
// operator validates every operand it is given, reads included: it is
// kept cheap.)
func validateTally(v []byte) error {
	for i := 0; len(v) > 0; i++ {
		if op := TallyOp(v[0]); op < TallySum || op > TallyMax || i >= maxTallyFields {
			return errBadTally
		}
		j := 1
		for j < len(v) && j <= binary.MaxVarintLen64 && v[j] >= 0x80 {
			j++
		}
		if j >= len(v) || j > binary.MaxVarintLen64 || (j == binary.MaxVarintLen64 && v[j] > 1) {
			return errBadTally
		}
		v = v[j+1:]
	}
	return nil
}

// MergeTally appends the merge of tallies a and b, which must have the
// same ops, to dst.
func MergeTally(dst, a, b []byte) ([]byte, error) {
	for len(a) > 0 || len(b) > 0 {
		if len(a) == 0 || len(b) == 0 || a[0] != b[0] {
			return dst, fmt.Errorf("%w: the tallies' fields differ", errBadTally)
		}
		op := TallyOp(a[0])
		x, n := binary.Uvarint(a[1:])
		y, m := binary.Uvarint(b[1:])
		if n <= 0 || m <= 0 {
			return dst, errBadTally
		}
		a, b = a[1+n:], b[1+m:]
		switch op {
		case TallySum:
			x += y
		case TallyMin:
			if x == 0 || (y != 0 && y < x) {
				x = y
			}
		case TallyMax:
			x = max(x, y)
		default:
			return dst, errBadTally
		}
		dst = append(dst, byte(op))
		dst = binary.AppendUvarint(dst, x)
	}
	return dst, nil
}
