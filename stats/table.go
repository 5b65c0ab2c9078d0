package stats

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"hash/maphash"
	"slices"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/pgn"
)

// Table aggregates move statistics in memory: one record per (position key,
// move), added to game by game, then flushed as encoded Entries in position
// key order, ready to merge into the store.
//
// It is built for the builder's hot path. Position keys are copied into one
// byte arena and records live in one slice, so adding a new (position, move)
// costs no allocation of its own beyond amortised growth, and the garbage
// collector sees a handful of large objects instead of millions of small ones.
// A Table is not safe for concurrent use; the builder keeps one per worker.
type Table struct {
	seed  maphash.Seed
	slots []uint64 // open addressing: 0 empty, else hash<<32 | (1 + index into recs)
	recs  []tableRec
	refs  []Refs // the reference lists of records with more than one game
	arena []byte
	// big is set when a counter comes close to the 32-bit limit of the
	// in-memory record; HasRoom then says no, so the owner flushes.
	big bool

	order   []sortRec // scratch for Flush: records in key order
	scratch []sortRec // scratch for the radix sort
	entry   Entry     // scratch for Flush
	enc     []byte    // scratch for Flush
}

// tableRec is one (position, move) record; 88 bytes. The first game's
// reference is kept inline; the top and recent lists move to Table.refs
// when a second game arrives, which most records never see. Counters are 32-bit in
// memory (the Table asks to be flushed long before they could overflow) and
// 64-bit once flushed.
type tableRec struct {
	keyOff      uint32
	hash        uint32
	keyLen      uint8
	shared      bool // see MarkShared
	move        board.Move
	white       uint32
	draws       uint32
	black       uint32
	unknown     uint32
	ratingCount uint32
	ratingSum   uint64
	first, last Date
	lowPly      uint32 // see MoveStats.LowPly
	game        uint32 // Occurrence.Local of the first occurrence (fills a hole: the record stays 88 bytes)
	seen        uint64 // see MoveStats.FirstSeen
	ref         GameRef
	more        uint32 // 1 + index into Table.refs once a second game came; 0 before
}

// sortRec is a record's place in Flush's sort: the first 16 key bytes as
// two big-endian words, so that most comparisons never touch the arena.
type sortRec struct {
	hi, lo uint64
	idx    uint32
	move   board.Move
	n      uint8 // key length
}

// sameKey reports whether two sorted records have the same position key.
func (t *Table) sameKey(a, b *sortRec) bool {
	if a.hi != b.hi || a.lo != b.lo || a.n != b.n {
		return false
	}
	return a.n <= 16 || bytes.Equal(t.key(&t.recs[a.idx]), t.key(&t.recs[b.idx]))
}

// RecordBytes is the memory one record costs, for sizing a Table to a
// memory budget: the record (88), its key bytes (about 13 on average, 16
// reserved), its slots (8 bytes at a load between 1/4 and 1/2: up to 16)
// its two sort entries at flush time (2 x 24, the radix sort's source
// and destination) and a quarter of a reference list (128 / 4).
const RecordBytes = 88 + 16 + 16 + 48 + 32

// nearLimit is the counter value past which HasRoom says no, so that the
// owner flushes long before a 32-bit counter could overflow.
const nearLimit = 1 << 31

// NewTable returns a Table sized for about n records before it must grow.
func NewTable(n int) *Table {
	t := &Table{seed: maphash.MakeSeed()}
	size := 1024
	for size < 2*n {
		size <<= 1
	}
	t.slots = make([]uint64, size)
	t.recs = make([]tableRec, 0, n)
	t.refs = make([]Refs, 0, n/4+16)
	t.arena = make([]byte, 0, n*16)
	return t
}

// Len returns the number of (position, move) records held.
func (t *Table) Len() int { return len(t.recs) }

// HasRoom reports whether n more records (with keys of about the usual
// length) fit without growing the Table's memory. A builder checks it before
// adding a game, and flushes first when it is false, so that memory stays
// within what NewTable reserved.
func (t *Table) HasRoom(n int) bool {
	return len(t.recs)+n <= cap(t.recs) && len(t.arena)+n*24 <= cap(t.arena) && len(t.refs)+n <= cap(t.refs) && !t.big
}

func (t *Table) hashOf(key []byte, m board.Move) uint32 {
	h := maphash.Bytes(t.seed, key) ^ (uint64(m)+1)*0x9e3779b97f4a7c15
	return uint32(h ^ h>>32)
}

// Occurrence is one game's contribution to a (position, move) record.
type Occurrence struct {
	Result      pgn.Result
	MoverRating int     // the mover's rating; 0 or less: unknown
	Date        Date    // the game's date; 0: unknown
	Ply         int     // the ply the move was played at, from 0; negative: not recorded
	Seen        uint64  // first-seen stamp (see MoveStats.FirstSeen); 0: none
	Game        GameRef // the game; ID 0: not recorded
	// Local is the caller's own number for the game (its index in a
	// batch, say), which FlushSplit hands back for positions reached by
	// this game only.
	Local uint32
}

// Add adds one game's contribution for move m played from the position
// whose key is key (at most 255 bytes): the game's result, the mover's
// rating (0: unknown) and the game's date (0: unknown).
func (t *Table) Add(key []byte, m board.Move, r pgn.Result, moverRating int, d Date) {
	t.AddOccurrence(key, m, &Occurrence{Result: r, MoverRating: moverRating, Date: d, Ply: -1})
}

// AddOccurrence adds o for move m played from the position whose key is
// key (at most 255 bytes). It returns the index of the record it added
// to, for MarkShared.
func (t *Table) AddOccurrence(key []byte, m board.Move, o *Occurrence) int {
	r, moverRating, d := o.Result, o.MoverRating, o.Date
	h := t.hashOf(key, m)
	mask := uint32(len(t.slots) - 1)
	i := h & mask
	var rec *tableRec
	var idx int
	for {
		s := t.slots[i]
		if s == 0 {
			if len(t.recs)*2 >= len(t.slots) {
				t.grow()
				return t.AddOccurrence(key, m, o)
			}
			t.recs = append(t.recs, tableRec{keyOff: uint32(len(t.arena)), hash: h, keyLen: uint8(len(key)), move: m, game: o.Local})
			t.arena = append(t.arena, key...)
			t.slots[i] = uint64(h)<<32 | uint64(len(t.recs))
			idx = len(t.recs) - 1
			rec = &t.recs[idx]
			break
		}
		if uint32(s>>32) == h {
			c := &t.recs[uint32(s)-1]
			if c.move == m && bytes.Equal(t.arena[c.keyOff:c.keyOff+uint32(c.keyLen)], key) {
				idx, rec = int(uint32(s)-1), c
				break
			}
		}
		i = (i + 1) & mask
	}
	var n uint32
	switch r {
	case pgn.WhiteWins:
		rec.white++
		n = rec.white
	case pgn.Draw:
		rec.draws++
		n = rec.draws
	case pgn.BlackWins:
		rec.black++
		n = rec.black
	default:
		rec.unknown++
		n = rec.unknown
	}
	if moverRating > 0 {
		rec.ratingCount++
		rec.ratingSum += uint64(moverRating)
	}
	if d != 0 {
		if rec.first == 0 || d < rec.first {
			rec.first = d
		}
		if d > rec.last {
			rec.last = d
		}
	}
	if o.Ply >= 0 && o.Ply < 1<<31 {
		rec.lowPly = lowerKnown32(rec.lowPly, uint32(o.Ply)+1)
	}
	rec.seen = lowerKnown64(rec.seen, o.Seen)
	if o.Game.ID != 0 {
		switch {
		case rec.ref.ID == 0 && rec.more == 0:
			rec.ref = o.Game
		case rec.more == 0:
			var rs Refs
			rs.Add(rec.ref)
			rs.Add(o.Game)
			t.refs = append(t.refs, rs)
			rec.more = uint32(len(t.refs))
			rec.ref = GameRef{}
		default:
			t.refs[rec.more-1].Add(o.Game)
		}
	}
	if n >= nearLimit || rec.ratingCount >= nearLimit {
		t.big = true
	}
	return idx
}

// MarkShared keeps the record at index i (from AddOccurrence) out of the
// singles that FlushSplit reports: it is always emitted as an entry.
func (t *Table) MarkShared(i int) { t.recs[i].shared = true }

// grow doubles the slot array and re-inserts every record.
func (t *Table) grow() {
	t.slots = make([]uint64, 2*len(t.slots))
	mask := uint32(len(t.slots) - 1)
	for j := range t.recs {
		h := t.recs[j].hash
		i := h & mask
		for t.slots[i] != 0 {
			i = (i + 1) & mask
		}
		t.slots[i] = uint64(h)<<32 | uint64(j+1)
	}
}

func (t *Table) key(r *tableRec) []byte {
	return t.arena[r.keyOff : r.keyOff+uint32(r.keyLen)]
}

// Flush calls emit once per position, in increasing key order, with the
// position's key and its encoded Entry (see Entry.AppendEncode), then empties
// the Table, keeping its memory for reuse. The slices passed to emit are only
// valid during the call. If emit fails, Flush stops and returns its error,
// and the Table is emptied all the same.
func (t *Table) Flush(emit func(key, enc []byte) error) error {
	return t.FlushSplit(emit, nil)
}

// FlushSplit is Flush, except that when single is not nil, a position
// reached by a single game is given to single instead of emit, with that
// game's Occurrence.Local: a position with one record, counted once, with
// a game reference, and not marked by MarkShared. Its statistics are
// those of the game's one occurrence.
func (t *Table) FlushSplit(emit func(key, enc []byte) error, single func(key []byte, local uint32) error) error {
	defer t.Reset()
	t.order = t.order[:0]
	var buf [16]byte
	for i := range t.recs {
		clear(buf[:])
		copy(buf[:], t.key(&t.recs[i]))
		r := &t.recs[i]
		t.order = append(t.order, sortRec{hi: binary.BigEndian.Uint64(buf[:8]), lo: binary.BigEndian.Uint64(buf[8:]), idx: uint32(i), move: r.move, n: r.keyLen})
	}
	t.sortOrder()
	for i := 0; i < len(t.order); {
		first := &t.order[i]
		key := t.key(&t.recs[first.idx])
		if single != nil && (i+1 == len(t.order) || !t.sameKey(first, &t.order[i+1])) {
			if r := &t.recs[first.idx]; !r.shared && r.more == 0 && r.ref.ID != 0 && r.white+r.draws+r.black+r.unknown == 1 {
				if err := single(key, r.game); err != nil {
					return err
				}
				i++
				continue
			}
		}
		t.entry.Reset()
		j := i
		for ; j < len(t.order) && (j == i || t.sameKey(first, &t.order[j])); j++ {
			r := &t.recs[t.order[j].idx]
			ms := MoveStats{
				WhiteWins: uint64(r.white), Draws: uint64(r.draws), BlackWins: uint64(r.black), Unknown: uint64(r.unknown),
				RatingSum: r.ratingSum, RatingCount: uint64(r.ratingCount), FirstDate: r.first, LastDate: r.last,
				LowPly: r.lowPly, FirstSeen: r.seen,
			}
			if r.more != 0 {
				ms.Refs = t.refs[r.more-1]
			} else {
				ms.Refs.Add(r.ref)
			}
			t.entry.Moves = append(t.entry.Moves, MoveEntry{Move: r.move, MoveStats: ms})
		}
		t.enc = t.entry.AppendEncode(t.enc[:0])
		if err := emit(key, t.enc); err != nil {
			return err
		}
		i = j
	}
	return nil
}

// sortOrder sorts t.order by key, then move: an LSD radix sort on the first
// eight key bytes (a pass is skipped when every record has the same byte
// there), then a comparison sort within each run of equal first words,
// which is short except for the most common positions.
func (t *Table) sortOrder() {
	n := len(t.order)
	if n == 0 {
		return // an empty table: a flush of games without moves only
	}
	if cap(t.scratch) < n {
		t.scratch = make([]sortRec, n)
	}
	src, dst := t.order, t.scratch[:n]
	var counts [256]int
	for shift := uint(0); shift < 64; shift += 8 {
		clear(counts[:])
		for i := range src {
			counts[byte(src[i].hi>>shift)]++
		}
		if n > 0 && counts[byte(src[0].hi>>shift)] == n {
			continue // every record has the same byte here
		}
		sum := 0
		for d, c := range counts {
			counts[d] = sum
			sum += c
		}
		for i := range src {
			d := byte(src[i].hi >> shift)
			dst[counts[d]] = src[i]
			counts[d]++
		}
		src, dst = dst, src
	}
	if &src[0] != &t.order[0] {
		copy(t.order, src)
	}
	less := func(a, b sortRec) int {
		if a.lo != b.lo {
			return cmp.Compare(a.lo, b.lo)
		}
		if a.n > 16 && b.n > 16 {
			if c := bytes.Compare(t.key(&t.recs[a.idx])[16:], t.key(&t.recs[b.idx])[16:]); c != 0 {
				return c
			}
		} else if a.n != b.n {
			// Equal first 16 bytes, zero-padded: the shorter key is a
			// prefix of the longer one and sorts first.
			return cmp.Compare(a.n, b.n)
		}
		return cmp.Compare(a.move, b.move)
	}
	for i := 0; i < n; {
		j := i + 1
		for j < n && t.order[j].hi == t.order[i].hi {
			j++
		}
		if j-i > 1 {
			slices.SortFunc(t.order[i:j], less)
		}
		i = j
	}
}

// Reset empties the Table, keeping its memory.
func (t *Table) Reset() {
	clear(t.slots)
	t.recs = t.recs[:0]
	t.refs = t.refs[:0]
	t.arena = t.arena[:0]
	t.big = false
}
