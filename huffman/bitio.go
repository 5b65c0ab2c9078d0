// Package huffman is the project's generic Huffman coding: an MSB-first bit
// writer and reader over byte slices (BitWriter, BitReader), canonical
// prefix codes defined by their code lengths (Code: encode and decode),
// optimal length-limited code construction from symbol frequencies
// (BuildLengths) and a text form of code lengths (ParseLengths,
// FormatLengths). It knows nothing of chess: the position key's frozen
// tables are in package keys (keys/tables_gen.go, keys/FORMAT.md).
//
// Bit order: bits are written most significant bit first. The first bit
// written lands in bit 7 (0x80) of the first byte, the eighth in bit 0 of
// that byte, the ninth in bit 7 of the next byte, and so on. A value of n
// bits is written with its most significant bit first. The last byte is
// padded with zero bits.
package huffman

import (
	"encoding/binary"
	"errors"
)

// Errors returned by BitReader. They are wrapped with context by callers.
var (
	// ErrUnexpectedEnd means a read needed more bits than the input holds.
	ErrUnexpectedEnd = errors.New("huffman: unexpected end of input")
	// ErrTrailingBytes means whole bytes follow the last field.
	ErrTrailingBytes = errors.New("huffman: trailing bytes after the last field")
	// ErrNonZeroPadding means a padding bit in the last byte is 1.
	ErrNonZeroPadding = errors.New("huffman: non-zero padding bits")
	// ErrInvalidCode means the input holds a bit pattern that is no code
	// word of the code being decoded.
	ErrInvalidCode = errors.New("huffman: invalid code word")
)

// BitWriter appends bits, most significant bit first, to a byte slice. The
// zero value appends to a nil slice; use NewBitWriter to append to an
// existing buffer (no allocation while its capacity suffices).
type BitWriter struct {
	buf []byte
	acc uint64 // the low n bits are pending output; higher bits are stale
	n   uint   // number of pending bits, always < 32 between calls
}

// NewBitWriter returns a writer appending to dst.
func NewBitWriter(dst []byte) BitWriter { return BitWriter{buf: dst} }

// WriteBits writes the low n bits of v, most significant first. n must be
// at most 32; higher bits of v are ignored.
func (w *BitWriter) WriteBits(v uint64, n uint) {
	w.acc = w.acc<<n | v&(1<<n-1)
	w.n += n
	if w.n >= 32 {
		w.n -= 32
		l := len(w.buf)
		if cap(w.buf)-l < 4 {
			w.grow(4)
		}
		// Reslicing in place (not append) keeps escape analysis from
		// moving a caller's stack buffer to the heap.
		w.buf = w.buf[:l+4]
		binary.BigEndian.PutUint32(w.buf[l:], uint32(w.acc>>w.n))
	}
}

// grow makes room for n more bytes in a new array (the old one is only
// read, so a caller's buffer does not escape through the writer).
func (w *BitWriter) grow(n int) {
	nb := make([]byte, len(w.buf), 2*cap(w.buf)+n+16)
	copy(nb, w.buf)
	w.buf = nb
}

// putByte appends one byte.
func (w *BitWriter) putByte(b byte) {
	l := len(w.buf)
	if cap(w.buf) == l {
		w.grow(1)
	}
	w.buf = w.buf[:l+1]
	w.buf[l] = b
}

// WriteBit writes one bit: 1 if b is true.
func (w *BitWriter) WriteBit(b bool) {
	var v uint64
	if b {
		v = 1
	}
	w.WriteBits(v, 1)
}

// Bytes pads the output with zero bits to a whole byte, and returns the
// buffer (dst followed by the written bytes). The writer must not be used
// afterwards.
func (w *BitWriter) Bytes() []byte {
	for w.n >= 8 {
		w.n -= 8
		w.putByte(byte(w.acc >> w.n))
	}
	if w.n > 0 {
		w.putByte(byte(w.acc << (8 - w.n)))
		w.n = 0
	}
	return w.buf
}

// BitReader reads bits, most significant bit first, from a byte slice.
type BitReader struct {
	buf []byte
	pos int // bit position of the next bit
}

// NewBitReader returns a reader over b.
func NewBitReader(b []byte) BitReader { return BitReader{buf: b} }

// Pos returns the number of bits read so far.
func (r *BitReader) Pos() int { return r.pos }

// Remaining returns the number of unread bits, padding included.
func (r *BitReader) Remaining() int { return len(r.buf)*8 - r.pos }

// peek64 returns the 64 bits starting at the read position, left-aligned,
// zero-filled past the end of the input.
func (r *BitReader) peek64() uint64 {
	i := r.pos >> 3
	var v uint64
	if i+8 <= len(r.buf) {
		v = binary.BigEndian.Uint64(r.buf[i:])
	} else {
		for k := 0; k < 8; k++ {
			v <<= 8
			if i+k < len(r.buf) {
				v |= uint64(r.buf[i+k])
			}
		}
	}
	return v << uint(r.pos&7)
}

// Peek returns the next n bits (n <= 56) without consuming them; bits past
// the end of the input read as 0.
func (r *BitReader) Peek(n uint) uint64 {
	if n == 0 {
		return 0
	}
	return r.peek64() >> (64 - n)
}

// ReadBits reads n bits (n <= 56) and returns them as the low bits of the
// result, the first bit read being the most significant.
func (r *BitReader) ReadBits(n uint) (uint64, error) {
	if int(n) > r.Remaining() {
		return 0, ErrUnexpectedEnd
	}
	v := r.Peek(n)
	r.pos += int(n)
	return v, nil
}

// ReadBit reads one bit.
func (r *BitReader) ReadBit() (bool, error) {
	v, err := r.ReadBits(1)
	return v == 1, err
}

// Finish checks that only padding is left: fewer than 8 bits, all zero. It
// does not move the read position.
func (r *BitReader) Finish() error {
	rem := r.Remaining()
	if rem >= 8 {
		return ErrTrailingBytes
	}
	if rem > 0 && r.Peek(uint(rem)) != 0 {
		return ErrNonZeroPadding
	}
	return nil
}
