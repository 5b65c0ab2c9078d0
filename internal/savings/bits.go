package savings

import (
	"errors"
	"fmt"

	"github.com/chessbook/chessbook/huffman"
)

// code is an encoded value: Bits bits, most significant bit first, in
// Bytes (the last byte zero-padded). Bit-level codes such as the seeds'
// Huffman codes are measured by Bits, their exact length: a container that
// keeps codes of any bit length is assumed, as the seeds assume it.
type code struct {
	Bytes []byte
	Bits  int
}

// errUnrepresentable is wrapped by the encoders of formats that cannot
// write every legal position (the seed 004 methods have fixed slots per
// piece kind, so positions with promoted pieces beyond them do not fit).
var errUnrepresentable = errors.New("position not representable in this format")

// errCorrupt is wrapped by every decoder error for input that is not a
// code of the format.
var errCorrupt = errors.New("not a valid code")

// corrupt returns an error wrapping errCorrupt for the named format.
func corrupt(format, msg string, args ...any) error {
	return fmt.Errorf("%s: %w: %s", format, errCorrupt, fmt.Sprintf(msg, args...))
}

// bitWriter appends bits MSB-first (huffman.BitWriter) and counts them
// exactly, so that a code keeps its exact length.
type bitWriter struct {
	w huffman.BitWriter
	n int // bits written
}

// write writes the low n bits of v (n <= 64), most significant first.
func (w *bitWriter) write(v uint64, n int) {
	w.n += n
	for n > 32 {
		n -= 32
		w.w.WriteBits(v>>uint(n), 32)
	}
	w.w.WriteBits(v, uint(n))
}

// code writes a code word given as a string of '0' and '1'.
func (w *bitWriter) code(s string) {
	for i := 0; i < len(s); i++ {
		w.w.WriteBit(s[i] == '1')
	}
	w.n += len(s)
}

// result returns the written bits as a code, the last byte zero-padded.
// The writer must not be used afterwards.
func (w *bitWriter) result() code { return code{Bytes: w.w.Bytes(), Bits: w.n} }

// bitReader reads bits MSB-first from a code (huffman.BitReader), never
// past its Bits.
type bitReader struct {
	r      huffman.BitReader
	n      int    // bits in the code
	format string // for errors
}

func newBitReader(format string, c code) (*bitReader, error) {
	if c.Bits < 0 || c.Bits > 8*len(c.Bytes) || c.Bits <= 8*(len(c.Bytes)-1) {
		return nil, corrupt(format, "%d bits in %d bytes", c.Bits, len(c.Bytes))
	}
	return &bitReader{r: huffman.NewBitReader(c.Bytes), n: c.Bits, format: format}, nil
}

// left returns the number of unread bits.
func (r *bitReader) left() int { return r.n - r.r.Pos() }

// read reads n bits (n <= 64).
func (r *bitReader) read(n int) (uint64, error) {
	if n > r.left() {
		return 0, corrupt(r.format, "truncated at bit %d (want %d more, %d left)", r.r.Pos(), n, r.left())
	}
	var v uint64
	for n > 0 {
		k := min(n, 32)
		b, err := r.r.ReadBits(uint(k))
		if err != nil {
			return 0, corrupt(r.format, "%v", err)
		}
		v = v<<uint(k) | b
		n -= k
	}
	return v, nil
}

// bit reads one bit.
func (r *bitReader) bit() (uint64, error) { return r.read(1) }

// done checks that every bit was read.
func (r *bitReader) done() error {
	if r.left() != 0 {
		return corrupt(r.format, "%d bits left after the last field", r.left())
	}
	return nil
}

// donePadded checks that fewer than 8 zero bits are left (a byte-padded code).
func (r *bitReader) donePadded() error {
	if r.left() >= 8 {
		return corrupt(r.format, "%d bits left after the last field", r.left())
	}
	v, _ := r.read(r.left())
	if v != 0 {
		return corrupt(r.format, "non-zero padding")
	}
	return nil
}

// padded turns a byte string into a code of all its bits.
func padded(b []byte) code { return code{Bytes: b, Bits: 8 * len(b)} }

// peek returns the next bit without consuming it; ok is false at the end.
func (r *bitReader) peek() (v uint64, ok bool) {
	if r.left() == 0 {
		return 0, false
	}
	return r.r.Peek(1), true
}

// readCode reads one code word of a prefix code given as strings of '0'
// and '1' and returns its index in table.
func (r *bitReader) readCode(table []string) (int, error) {
	var word []byte
	for len(word) < 16 {
		b, err := r.bit()
		if err != nil {
			return 0, err
		}
		word = append(word, byte('0'+b))
		for i, c := range table {
			if c == string(word) {
				return i, nil
			}
		}
	}
	return 0, corrupt(r.format, "invalid code word %s", word)
}

// wholeBytes checks that c is a byte string (text or a byte-padded code).
func wholeBytes(format string, c code) error {
	if c.Bits != 8*len(c.Bytes) {
		return corrupt(format, "%d bits in %d bytes", c.Bits, len(c.Bytes))
	}
	return nil
}
