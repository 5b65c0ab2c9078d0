package huffman

import (
	"errors"
	"fmt"
	"sort"
)

// MaxCodeLen is the longest code word any Code may have, in bits.
const MaxCodeLen = 15

// Code is a canonical prefix code over the symbols 0..n-1, defined by the
// code length of each symbol alone (length 0: the symbol has no code).
//
// Code words are assigned as in DEFLATE (RFC 1951, section 3.2.2): shorter
// codes first, and among codes of one length, increasing symbol values get
// increasing code values. So the lengths are the whole definition of the
// code, and another implementation rebuilds the same code from them.
//
// A Code is immutable once built and safe for concurrent use.
type Code struct {
	packed []uint32 // per symbol: code word << 4 | length; 0 if no code
	count  [MaxCodeLen + 1]uint16
	syms   []uint16 // symbols in canonical order (by length, then value)
	maxLen uint
	kraft  uint32 // sum of 2^(MaxCodeLen-len) over coded symbols
}

// NewCode builds the canonical code for the given code lengths (0 = no
// code, else 1..MaxCodeLen). It fails if the lengths are out of range or
// over-subscribed (no prefix code has them). Incomplete codes are allowed;
// decoding a bit pattern that is no code word then fails.
func NewCode(lengths []uint8) (*Code, error) {
	c := &Code{packed: make([]uint32, len(lengths))}
	for sym, l := range lengths {
		if l > MaxCodeLen {
			return nil, fmt.Errorf("huffman: symbol %d has code length %d, above the maximum %d", sym, l, MaxCodeLen)
		}
		if l > 0 {
			c.count[l]++
			c.kraft += 1 << (MaxCodeLen - uint(l))
			c.maxLen = max(c.maxLen, uint(l))
		}
	}
	if c.kraft > 1<<MaxCodeLen {
		return nil, errors.New("huffman: over-subscribed code lengths")
	}
	var next [MaxCodeLen + 2]uint32
	code := uint32(0)
	for l := 1; l <= MaxCodeLen; l++ {
		code = (code + uint32(c.count[l-1])) << 1
		next[l] = code
	}
	for sym, l := range lengths {
		if l == 0 {
			continue
		}
		c.packed[sym] = next[l]<<4 | uint32(l)
		next[l]++
	}
	order := make([]uint16, 0, len(lengths))
	for sym, l := range lengths {
		if l > 0 {
			order = append(order, uint16(sym))
		}
	}
	sort.SliceStable(order, func(i, j int) bool { return lengths[order[i]] < lengths[order[j]] })
	c.syms = order
	return c, nil
}

// MustCode is NewCode for lengths known to be valid (frozen tables); it
// panics on error.
func MustCode(lengths []uint8) *Code {
	c, err := NewCode(lengths)
	if err != nil {
		panic(err)
	}
	return c
}

// Symbols returns the size of the code's alphabet.
func (c *Code) Symbols() int { return len(c.packed) }

// Len returns the code length of sym in bits, 0 if sym has no code or is
// out of range.
func (c *Code) Len(sym int) int {
	if sym < 0 || sym >= len(c.packed) {
		return 0
	}
	return int(c.packed[sym] & 15)
}

// Complete reports whether the code words fill the code space (Kraft sum
// 1): then every long enough bit string starts with a code word.
func (c *Code) Complete() bool { return c.kraft == 1<<MaxCodeLen }

// Packed returns sym's code word and length packed as word<<4 | length
// (0 if sym has no code), for callers that write codes in a hot loop:
// w.WriteBits(uint64(e>>4), uint(e&15)).
func (c *Code) Packed(sym int) uint32 {
	if sym < 0 || sym >= len(c.packed) {
		return 0
	}
	return c.packed[sym]
}

// Write writes sym's code word. It reports false, writing nothing, if sym
// has no code.
func (c *Code) Write(w *BitWriter, sym int) bool {
	e := c.Packed(sym)
	if e == 0 {
		return false
	}
	w.WriteBits(uint64(e>>4), uint(e&15))
	return true
}

// Decode reads one code word and returns its symbol. It returns
// ErrUnexpectedEnd if the input ends inside a code word and ErrInvalidCode
// for a bit pattern that is no code word.
func (c *Code) Decode(r *BitReader) (int, error) {
	avail := r.Remaining()
	v := r.Peek(c.maxLen)
	code, first, index := 0, 0, 0
	for l := uint(1); l <= c.maxLen; l++ {
		code |= int(v>>(c.maxLen-l)) & 1
		cnt := int(c.count[l])
		if code-first < cnt {
			if int(l) > avail {
				return 0, ErrUnexpectedEnd
			}
			r.pos += int(l)
			return int(c.syms[index+code-first]), nil
		}
		index += cnt
		first = (first + cnt) << 1
		code <<= 1
	}
	if int(c.maxLen) > avail {
		return 0, ErrUnexpectedEnd
	}
	return 0, ErrInvalidCode
}

// BuildLengths returns optimal length-limited prefix code lengths for the
// symbol frequencies freq (package-merge algorithm): no length exceeds
// maxLen, symbols of frequency 0 get no code, and the total of freq[i] *
// length[i] is minimal. A single used symbol gets length 1. Ties are broken
// by symbol value, so the result is deterministic. It fails if maxLen is
// out of range or too small for the number of used symbols.
func BuildLengths(freq []uint64, maxLen int) ([]uint8, error) {
	if maxLen < 1 || maxLen > MaxCodeLen {
		return nil, fmt.Errorf("huffman: maxLen %d out of range 1..%d", maxLen, MaxCodeLen)
	}
	type item struct {
		w    uint64
		syms []int
	}
	var leaves []item
	for i, f := range freq {
		if f > 0 {
			leaves = append(leaves, item{f, []int{i}})
		}
	}
	out := make([]uint8, len(freq))
	switch {
	case len(leaves) == 0:
		return out, nil
	case len(leaves) == 1:
		out[leaves[0].syms[0]] = 1
		return out, nil
	case len(leaves) > 1<<maxLen:
		return nil, fmt.Errorf("huffman: %d symbols do not fit in codes of at most %d bits", len(leaves), maxLen)
	}
	sort.SliceStable(leaves, func(a, b int) bool { return leaves[a].w < leaves[b].w })
	cur := append([]item(nil), leaves...)
	for l := 1; l < maxLen; l++ {
		var pk []item
		for i := 0; i+1 < len(cur); i += 2 {
			s := append(append([]int(nil), cur[i].syms...), cur[i+1].syms...)
			pk = append(pk, item{cur[i].w + cur[i+1].w, s})
		}
		merged := make([]item, 0, len(pk)+len(leaves))
		i, j := 0, 0
		for i < len(leaves) || j < len(pk) {
			if j >= len(pk) || (i < len(leaves) && leaves[i].w <= pk[j].w) {
				merged = append(merged, leaves[i])
				i++
			} else {
				merged = append(merged, pk[j])
				j++
			}
		}
		cur = merged
	}
	for i := 0; i < 2*len(leaves)-2; i++ {
		for _, s := range cur[i].syms {
			out[s]++
		}
	}
	return out, nil
}

// ParseLengths reads code lengths written as one hexadecimal digit per
// symbol ('0' = no code, '1'..'f' = 1..15 bits), the form of the frozen
// tables.
func ParseLengths(s string) ([]uint8, error) {
	out := make([]uint8, len(s))
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9':
			out[i] = c - '0'
		case c >= 'a' && c <= 'f':
			out[i] = c - 'a' + 10
		default:
			return nil, fmt.Errorf("huffman: length digit %q at %d is not a lower-case hex digit", c, i)
		}
	}
	return out, nil
}

// FormatLengths is the inverse of ParseLengths. Lengths above 15 are
// written as '?'.
func FormatLengths(lengths []uint8) string {
	const digits = "0123456789abcdef"
	b := make([]byte, len(lengths))
	for i, l := range lengths {
		if l > 15 {
			b[i] = '?'
		} else {
			b[i] = digits[l]
		}
	}
	return string(b)
}
