package stats

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"github.com/chessbook/chessbook/board"
)

// EncodingVersion is the version byte that starts every encoded [Entry].
// See the package documentation for the layout.
const EncodingVersion = 1

// ErrCorrupt is returned (wrapped, with details) for bytes that are not a
// valid encoded [Entry].
var ErrCorrupt = errors.New("stats: corrupt entry encoding")

// Flag bits of an encoded move, see the package documentation.
const (
	flagWhiteWins = 1 << iota
	flagDraws
	flagBlackWins
	flagUnknown
	flagRating
	flagDate
	flagDateSpan
	flagExt
)

// Bits of the extension byte that follows a move's fields when flagExt is
// set.
const (
	extFirstSeen = 1 << 0 // uvarint FirstSeen follows
	extLowPly    = 1 << 1 // uvarint LowPly follows
	extTopShift  = 2      // bits 2-4: number of Top refs
	extRecShift  = 5      // bits 5-7: number of Recent refs
)

// AppendEncode appends the encoding of e to dst and returns the extended
// slice. It does not allocate when dst has room. The moves of e must be
// strictly increasing (see [Entry.Validate]); [Decode] rejects what
// AppendEncode wrote otherwise.
func (e Entry) AppendEncode(dst []byte) []byte {
	dst = append(dst, EncodingVersion)
	for i := range e.Moves {
		dst = appendMove(dst, e.Moves[i].Move, &e.Moves[i].MoveStats)
	}
	return dst
}

// appendMove appends the encoding of one move record.
func appendMove(dst []byte, m board.Move, s *MoveStats) []byte {
	var flags byte
	if s.WhiteWins != 0 {
		flags |= flagWhiteWins
	}
	if s.Draws != 0 {
		flags |= flagDraws
	}
	if s.BlackWins != 0 {
		flags |= flagBlackWins
	}
	if s.Unknown != 0 {
		flags |= flagUnknown
	}
	if s.RatingCount != 0 || s.RatingSum != 0 {
		flags |= flagRating
	}
	if s.FirstDate != 0 || s.LastDate != 0 {
		flags |= flagDate
		if s.LastDate != s.FirstDate {
			flags |= flagDateSpan
		}
	}
	var ext byte
	nTop, nRecent := s.Refs.Len()
	if s.FirstSeen != 0 {
		ext |= extFirstSeen
	}
	if s.LowPly != 0 {
		ext |= extLowPly
	}
	ext |= byte(nTop)<<extTopShift | byte(nRecent)<<extRecShift
	if ext != 0 {
		flags |= flagExt
	}
	dst = append(dst, byte(m), byte(m>>8), flags)
	if flags&flagWhiteWins != 0 {
		dst = binary.AppendUvarint(dst, s.WhiteWins)
	}
	if flags&flagDraws != 0 {
		dst = binary.AppendUvarint(dst, s.Draws)
	}
	if flags&flagBlackWins != 0 {
		dst = binary.AppendUvarint(dst, s.BlackWins)
	}
	if flags&flagUnknown != 0 {
		dst = binary.AppendUvarint(dst, s.Unknown)
	}
	if flags&flagRating != 0 {
		dst = binary.AppendUvarint(dst, s.RatingCount)
		dst = binary.AppendUvarint(dst, s.RatingSum)
	}
	if flags&flagDate != 0 {
		dst = binary.AppendUvarint(dst, uint64(s.FirstDate))
		if flags&flagDateSpan != 0 {
			dst = binary.AppendVarint(dst, int64(s.LastDate)-int64(s.FirstDate))
		}
	}
	if ext == 0 {
		return dst
	}
	dst = append(dst, ext)
	if ext&extFirstSeen != 0 {
		dst = binary.AppendUvarint(dst, s.FirstSeen)
	}
	if ext&extLowPly != 0 {
		dst = binary.AppendUvarint(dst, uint64(s.LowPly))
	}
	for _, r := range s.Refs.Top[:nTop] {
		dst = appendRef(dst, r)
	}
	for _, r := range s.Refs.Recent[:nRecent] {
		// A recent game that is also a top game is written as 1 + its
		// index among the top games; 0 introduces a new reference.
		j := 0
		for i, t := range s.Refs.Top[:nTop] {
			if t.ID == r.ID {
				j = i + 1
				break
			}
		}
		dst = append(dst, byte(j))
		if j == 0 {
			dst = appendRef(dst, r)
		}
	}
	return dst
}

// appendRef appends a game reference: its id (8 bytes, big-endian), then
// uvarint rating and uvarint date.
func appendRef(dst []byte, r GameRef) []byte {
	dst = binary.BigEndian.AppendUint64(dst, r.ID)
	dst = binary.AppendUvarint(dst, uint64(r.Rating))
	return binary.AppendUvarint(dst, uint64(r.Date))
}

// Decode decodes an encoded [Entry]. It returns an error wrapping
// [ErrCorrupt] for anything [Entry.AppendEncode] would not have written, and
// never panics.
func Decode(b []byte) (Entry, error) {
	var e Entry
	err := DecodeInto(&e, b)
	return e, err
}

// DecodeInto decodes an encoded [Entry] into e, reusing the capacity of
// e.Moves. On error e holds the moves decoded so far.
func DecodeInto(e *Entry, b []byte) error {
	e.Reset()
	r, err := newReader(b)
	if err != nil {
		return err
	}
	for {
		m, s, ok, err := r.next()
		if err != nil {
			return err
		}
		if !ok {
			return nil
		}
		e.Moves = append(e.Moves, MoveEntry{Move: m, MoveStats: s})
	}
}

// ValidateEncoded reports whether b is a valid encoded [Entry], as [Decode]
// would, without allocating.
func ValidateEncoded(b []byte) error {
	r, err := newReader(b)
	if err != nil {
		return err
	}
	for {
		_, _, ok, err := r.next()
		if err != nil || !ok {
			return err
		}
	}
}

// MergeEncoded merges the encoded entries a and b (see [Entry.Merge]),
// appends the encoded result to dst and returns the extended slice. It is
// the merge operator's path: it allocates nothing when dst has room for the
// result, which is never longer than len(a)+len(b), and it validates both
// inputs as [Decode] does. dst must not overlap a or b.
func MergeEncoded(dst, a, b []byte) ([]byte, error) {
	ra, err := newReader(a)
	if err != nil {
		return dst, fmt.Errorf("merging first operand: %w", err)
	}
	rb, err := newReader(b)
	if err != nil {
		return dst, fmt.Errorf("merging second operand: %w", err)
	}
	dst = append(dst, EncodingVersion)
	ma, sa, oka, err := ra.next()
	if err != nil {
		return dst, fmt.Errorf("merging first operand: %w", err)
	}
	mb, sb, okb, err := rb.next()
	if err != nil {
		return dst, fmt.Errorf("merging second operand: %w", err)
	}
	for oka || okb {
		switch {
		case !okb || (oka && ma < mb):
			dst = appendMove(dst, ma, &sa)
			if ma, sa, oka, err = ra.next(); err != nil {
				return dst, fmt.Errorf("merging first operand: %w", err)
			}
		case !oka || mb < ma:
			dst = appendMove(dst, mb, &sb)
			if mb, sb, okb, err = rb.next(); err != nil {
				return dst, fmt.Errorf("merging second operand: %w", err)
			}
		default:
			sa.Merge(sb)
			dst = appendMove(dst, ma, &sa)
			if ma, sa, oka, err = ra.next(); err != nil {
				return dst, fmt.Errorf("merging first operand: %w", err)
			}
			if mb, sb, okb, err = rb.next(); err != nil {
				return dst, fmt.Errorf("merging second operand: %w", err)
			}
		}
	}
	return dst, nil
}

// reader decodes the move records of an encoded entry one by one.
type reader struct {
	b       []byte
	off     int
	prev    board.Move
	started bool
}

func newReader(b []byte) (reader, error) {
	if len(b) == 0 {
		return reader{}, fmt.Errorf("%w: empty value", ErrCorrupt)
	}
	if b[0] != EncodingVersion {
		return reader{}, fmt.Errorf("%w: version %d, want %d", ErrCorrupt, b[0], EncodingVersion)
	}
	return reader{b: b, off: 1}, nil
}

// next decodes the next move record; ok is false at the end of the value.
func (r *reader) next() (m board.Move, s MoveStats, ok bool, err error) {
	if r.off == len(r.b) {
		return 0, s, false, nil
	}
	if len(r.b)-r.off < 3 {
		return 0, s, false, r.errorf("truncated move record")
	}
	m = board.Move(r.b[r.off]) | board.Move(r.b[r.off+1])<<8
	flags := r.b[r.off+2]
	if r.started && m <= r.prev {
		return 0, s, false, r.errorf("move %#04x after %#04x", uint16(m), uint16(r.prev))
	}
	if flags&flagDateSpan != 0 && flags&flagDate == 0 {
		return 0, s, false, r.errorf("date span without a date")
	}
	r.off += 3
	counters := [...]struct {
		flag byte
		v    *uint64
	}{
		{flagWhiteWins, &s.WhiteWins},
		{flagDraws, &s.Draws},
		{flagBlackWins, &s.BlackWins},
		{flagUnknown, &s.Unknown},
	}
	for _, c := range counters {
		if flags&c.flag == 0 {
			continue
		}
		if *c.v, err = r.uvarint(); err != nil {
			return 0, s, false, err
		}
		if *c.v == 0 {
			return 0, s, false, r.errorf("zero counter with its flag set")
		}
	}
	if flags&flagRating != 0 {
		if s.RatingCount, err = r.uvarint(); err != nil {
			return 0, s, false, err
		}
		if s.RatingSum, err = r.uvarint(); err != nil {
			return 0, s, false, err
		}
		if s.RatingCount == 0 && s.RatingSum == 0 {
			return 0, s, false, r.errorf("zero rating with its flag set")
		}
	}
	if flags&flagDate != 0 {
		first, err := r.uvarint()
		if err != nil {
			return 0, s, false, err
		}
		if first > math.MaxUint32 {
			return 0, s, false, r.errorf("date %d out of range", first)
		}
		last := int64(first)
		if flags&flagDateSpan != 0 {
			d, err := r.varint()
			if err != nil {
				return 0, s, false, err
			}
			if d == 0 {
				return 0, s, false, r.errorf("empty date span with its flag set")
			}
			if d < -int64(first) || d > math.MaxUint32-int64(first) {
				return 0, s, false, r.errorf("date span %d out of range", d)
			}
			last += d
		}
		if first == 0 && last == 0 {
			return 0, s, false, r.errorf("zero date with its flag set")
		}
		s.FirstDate, s.LastDate = Date(first), Date(last)
	}
	if flags&flagExt != 0 {
		if err := r.ext(&s); err != nil {
			return 0, s, false, err
		}
	}
	r.prev, r.started = m, true
	return m, s, true, nil
}

// ext decodes the extension of a move record into s.
func (r *reader) ext(s *MoveStats) error {
	if r.off == len(r.b) {
		return r.errorf("truncated extension")
	}
	ext := r.b[r.off]
	r.off++
	nTop, nRecent := int(ext>>extTopShift&7), int(ext>>extRecShift&7)
	if ext == 0 || ext&^(extFirstSeen|extLowPly|7<<extTopShift|7<<extRecShift) != 0 || nTop > MaxRefs || nRecent > MaxRefs {
		return r.errorf("bad extension byte %#02x", ext)
	}
	var err error
	if ext&extFirstSeen != 0 {
		if s.FirstSeen, err = r.uvarint(); err != nil {
			return err
		}
		if s.FirstSeen == 0 {
			return r.errorf("zero first-seen stamp with its flag set")
		}
	}
	if ext&extLowPly != 0 {
		v, err := r.uvarint()
		if err != nil {
			return err
		}
		if v == 0 || v > math.MaxUint32 {
			return r.errorf("low ply %d out of range", v)
		}
		s.LowPly = uint32(v)
	}
	for i := range nTop {
		ref, err := r.ref()
		if err != nil {
			return err
		}
		if i > 0 && !TopBefore(s.Refs.Top[i-1], ref) {
			return r.errorf("top games out of order")
		}
		if hasID(s.Refs.Top[:i], ref.ID) {
			return r.errorf("top games repeat game %016x", ref.ID)
		}
		s.Refs.Top[i] = ref
	}
	for i := range nRecent {
		if r.off == len(r.b) {
			return r.errorf("truncated recent game")
		}
		j := int(r.b[r.off])
		r.off++
		var ref GameRef
		switch {
		case j > nTop:
			return r.errorf("recent game refers to top game %d of %d", j, nTop)
		case j > 0:
			ref = s.Refs.Top[j-1]
		default:
			if ref, err = r.ref(); err != nil {
				return err
			}
			for _, t := range s.Refs.Top[:nTop] {
				if t.ID == ref.ID {
					return r.errorf("recent game repeats a top game")
				}
			}
		}
		if i > 0 && !RecentBefore(s.Refs.Recent[i-1], ref) {
			return r.errorf("recent games out of order")
		}
		if hasID(s.Refs.Recent[:i], ref.ID) {
			return r.errorf("recent games repeat game %016x", ref.ID)
		}
		s.Refs.Recent[i] = ref
	}
	return nil
}

// hasID reports whether refs holds a reference to game id. (A list never
// holds a game twice: see insertRef.)
func hasID(refs []GameRef, id uint64) bool {
	for _, r := range refs {
		if r.ID == id {
			return true
		}
	}
	return false
}

// ref decodes one game reference.
func (r *reader) ref() (GameRef, error) {
	if len(r.b)-r.off < 8 {
		return GameRef{}, r.errorf("truncated game reference")
	}
	ref := GameRef{ID: binary.BigEndian.Uint64(r.b[r.off:])}
	r.off += 8
	if ref.ID == 0 {
		return GameRef{}, r.errorf("game id 0")
	}
	rating, err := r.uvarint()
	if err != nil {
		return GameRef{}, err
	}
	date, err := r.uvarint()
	if err != nil {
		return GameRef{}, err
	}
	if rating > math.MaxUint16 || date > math.MaxUint32 {
		return GameRef{}, r.errorf("game reference rating %d or date %d out of range", rating, date)
	}
	ref.Rating, ref.Date = uint16(rating), Date(date)
	return ref, nil
}

func (r *reader) uvarint() (uint64, error) {
	v, n := binary.Uvarint(r.b[r.off:])
	if n <= 0 {
		return 0, r.errorf("bad uvarint")
	}
	// Reject overlong encodings (a trailing 0x00 group) to keep the
	// encoding canonical.
	if n > 1 && r.b[r.off+n-1] == 0 {
		return 0, r.errorf("overlong uvarint")
	}
	r.off += n
	return v, nil
}

func (r *reader) varint() (int64, error) {
	v, n := binary.Varint(r.b[r.off:])
	if n <= 0 {
		return 0, r.errorf("bad varint")
	}
	if n > 1 && r.b[r.off+n-1] == 0 {
		return 0, r.errorf("overlong varint")
	}
	r.off += n
	return v, nil
}

func (r *reader) errorf(format string, args ...any) error {
	return fmt.Errorf("%w: at byte %d: %s", ErrCorrupt, r.off, fmt.Sprintf(format, args...))
}
