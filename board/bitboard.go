package board

import "math/bits"

// Bitboard constants for files and ranks.
const (
	FileA Bitboard = 0x0101010101010101
	FileB Bitboard = FileA << 1
	FileC Bitboard = FileA << 2
	FileD Bitboard = FileA << 3
	FileE Bitboard = FileA << 4
	FileF Bitboard = FileA << 5
	FileG Bitboard = FileA << 6
	FileH Bitboard = FileA << 7

	Rank1 Bitboard = 0xFF
	Rank2 Bitboard = Rank1 << (8 * 1)
	Rank3 Bitboard = Rank1 << (8 * 2)
	Rank4 Bitboard = Rank1 << (8 * 3)
	Rank5 Bitboard = Rank1 << (8 * 4)
	Rank6 Bitboard = Rank1 << (8 * 5)
	Rank7 Bitboard = Rank1 << (8 * 6)
	Rank8 Bitboard = Rank1 << (8 * 7)
)

// Bitboard returns the set holding only s (empty for NoSquare or any s >= 64).
func (s Square) Bitboard() Bitboard {
	if s >= NoSquare {
		return 0
	}
	return 1 << s
}

// FileBB returns the squares of file f (0 = a ... 7 = h).
func FileBB(f int) Bitboard { return FileA << uint(f&7) }

// RankBB returns the squares of rank r (0 = first ... 7 = eighth).
func RankBB(r int) Bitboard { return Rank1 << (8 * uint(r&7)) }

// Count returns the number of squares in b.
func (b Bitboard) Count() int { return bits.OnesCount64(uint64(b)) }

// Has reports whether s is in b (false for NoSquare).
func (b Bitboard) Has(s Square) bool { return s < NoSquare && b&(1<<s) != 0 }

// LSB returns the lowest square in b, or NoSquare if b is empty.
func (b Bitboard) LSB() Square { return Square(bits.TrailingZeros64(uint64(b))) }

// MSB returns the highest square in b, or NoSquare if b is empty.
func (b Bitboard) MSB() Square {
	if b == 0 {
		return NoSquare
	}
	return Square(63 - bits.LeadingZeros64(uint64(b)))
}

// PopLSB removes the lowest square from *b and returns it (NoSquare if *b
// is empty). Typical iteration:
//
//	for bb := set; bb != 0; {
//		s := bb.PopLSB()
//		...
//	}
func (b *Bitboard) PopLSB() Square {
	s := Square(bits.TrailingZeros64(uint64(*b)))
	*b &= *b - 1
	return s
}

// Several reports whether b holds more than one square.
func (b Bitboard) Several() bool { return b&(b-1) != 0 }

// String draws b as an 8x8 grid, rank 8 first, 'x' for members and '.'
// for the others.
func (b Bitboard) String() string {
	buf := make([]byte, 0, 72)
	for r := 7; r >= 0; r-- {
		for f := 0; f < 8; f++ {
			if b&(1<<(r*8+f)) != 0 {
				buf = append(buf, 'x')
			} else {
				buf = append(buf, '.')
			}
		}
		buf = append(buf, '\n')
	}
	return string(buf)
}
