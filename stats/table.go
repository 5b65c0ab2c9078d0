package stats

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"hash/maphash"
	"slices"

	"github.com/chessbook/chessbook/board"
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
	arena []byte
	// big is set when a counter comes close to the 32-bit limit of the
	// in-memory record; the owner should flush.
	big bool

	order []sortRec // scratch for Flush: records in key order
	entry Entry     // scratch for Flush
	enc   []byte    // scratch for Flush
	tmp   [2]byte   // scratch for hashing the move
	hash  maphash.Hash
}

// tableRec is one (position, move) record; 48 bytes. Counters are 32-bit in
// memory (the Table asks to be flushed long before they could overflow) and
// 64-bit once flushed.
type tableRec struct {
	keyOff      uint32
	hash        uint32
	keyLen      uint8
	move        board.Move
	white       uint32
	draws       uint32
	black       uint32
	unknown     uint32
	ratingCount uint32
	ratingSum   uint64
	first, last Date
}

// sortRec is a record's place in Flush's sort: the first 16 key bytes as
// two big-endian words, so that most comparisons never touch the arena.
type sortRec struct {
	hi, lo uint64
	idx    uint32
}

// tableRecBytes is the memory one record costs: the record, its key bytes
// (about 13 on average, 16 reserved), its slots (8 bytes at a load between
// 1/4 and 1/2... up to 16) and its sort entry at flush time (24).
const tableRecBytes = 48 + 16 + 16 + 24

// nearLimit is the counter value at which a Table asks to be flushed.
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
	t.arena = make([]byte, 0, n*16)
	t.hash.SetSeed(t.seed)
	return t
}

// Len returns the number of (position, move) records held.
func (t *Table) Len() int { return len(t.recs) }

// HasRoom reports whether n more records (with keys of about the usual
// length) fit without growing the Table's memory. A builder checks it before
// adding a game, and flushes first when it is false, so that memory stays
// within what NewTable reserved.
func (t *Table) HasRoom(n int) bool {
	return len(t.recs)+n <= cap(t.recs) && len(t.arena)+n*24 <= cap(t.arena) && !t.big
}

// MemSize returns an estimate of the bytes the Table holds on to.
func (t *Table) MemSize() int {
	return cap(t.recs)*48 + cap(t.arena) + cap(t.slots)*8 + cap(t.order)*24
}

// RecordBytes is the average memory one record costs, for sizing a Table
// to a memory budget.
const RecordBytes = tableRecBytes

// NeedsFlush reports whether a counter is close to its in-memory limit.
func (t *Table) NeedsFlush() bool { return t.big }

func (t *Table) hashOf(key []byte, m board.Move) uint32 {
	t.hash.Reset()
	t.hash.Write(key)
	t.tmp[0], t.tmp[1] = byte(m), byte(m>>8)
	t.hash.Write(t.tmp[:])
	return uint32(t.hash.Sum64())
}

// Add adds one game's contribution for move m played from the position
// whose key is key (at most 255 bytes): the game's result, the mover's
// rating (0: unknown) and the game's date (0: unknown).
func (t *Table) Add(key []byte, m board.Move, r Result, moverRating int, d Date) {
	h := t.hashOf(key, m)
	mask := uint32(len(t.slots) - 1)
	i := h & mask
	var rec *tableRec
	for {
		s := t.slots[i]
		if s == 0 {
			if len(t.recs)*2 >= len(t.slots) {
				t.grow()
				t.Add(key, m, r, moverRating, d)
				return
			}
			t.recs = append(t.recs, tableRec{keyOff: uint32(len(t.arena)), hash: h, keyLen: uint8(len(key)), move: m})
			t.arena = append(t.arena, key...)
			t.slots[i] = uint64(h)<<32 | uint64(len(t.recs))
			rec = &t.recs[len(t.recs)-1]
			break
		}
		if uint32(s>>32) == h {
			c := &t.recs[uint32(s)-1]
			if c.move == m && bytes.Equal(t.arena[c.keyOff:c.keyOff+uint32(c.keyLen)], key) {
				rec = c
				break
			}
		}
		i = (i + 1) & mask
	}
	var n uint32
	switch r {
	case ResultWhiteWin:
		rec.white++
		n = rec.white
	case ResultDraw:
		rec.draws++
		n = rec.draws
	case ResultBlackWin:
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
	if n >= nearLimit || rec.ratingCount >= nearLimit {
		t.big = true
	}
}

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
	defer t.Reset()
	t.order = t.order[:0]
	var buf [16]byte
	for i := range t.recs {
		clear(buf[:])
		copy(buf[:], t.key(&t.recs[i]))
		t.order = append(t.order, sortRec{hi: binary.BigEndian.Uint64(buf[:8]), lo: binary.BigEndian.Uint64(buf[8:]), idx: uint32(i)})
	}
	slices.SortFunc(t.order, func(a, b sortRec) int {
		if a.hi != b.hi {
			return cmp.Compare(a.hi, b.hi)
		}
		if a.lo != b.lo {
			return cmp.Compare(a.lo, b.lo)
		}
		ra, rb := &t.recs[a.idx], &t.recs[b.idx]
		if c := bytes.Compare(t.key(ra), t.key(rb)); c != 0 {
			return c
		}
		return cmp.Compare(ra.move, rb.move)
	})
	for i := 0; i < len(t.order); {
		first := &t.recs[t.order[i].idx]
		key := t.key(first)
		t.entry.Reset()
		j := i
		for ; j < len(t.order); j++ {
			r := &t.recs[t.order[j].idx]
			if j > i && !bytes.Equal(t.key(r), key) {
				break
			}
			t.entry.Moves = append(t.entry.Moves, MoveEntry{Move: r.move, MoveStats: MoveStats{
				WhiteWins: uint64(r.white), Draws: uint64(r.draws), BlackWins: uint64(r.black), Unknown: uint64(r.unknown),
				RatingSum: r.ratingSum, RatingCount: uint64(r.ratingCount), FirstDate: r.first, LastDate: r.last,
			}})
		}
		t.enc = t.entry.AppendEncode(t.enc[:0])
		if err := emit(key, t.enc); err != nil {
			return err
		}
		i = j
	}
	return nil
}

// Reset empties the Table, keeping its memory.
func (t *Table) Reset() {
	clear(t.slots)
	t.recs = t.recs[:0]
	t.arena = t.arena[:0]
	t.big = false
}
