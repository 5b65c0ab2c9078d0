package stats

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"slices"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/pgn"
)

// Table aggregates move statistics in memory: occurrences of (position
// key, move) are added game by game, then flushed as encoded Entries in
// position key order, ready to merge into the store.
//
// It is built for the builder's hot path. Adding an occurrence appends a
// fixed-size record to one slice and its key to one byte arena: no hashing,
// no allocation of its own beyond amortised growth, and the garbage
// collector sees a handful of large objects. Flush sorts the records
// (mostly a radix sort) and aggregates each run of equal keys. Most
// positions of a big input are reached once, so aggregating as the games
// come (a hash table) would cost a lookup per occurrence for little
// sharing; sorting at the end costs about what sorting the distinct
// records would. A Table is not safe for concurrent use; the builder keeps
// one per worker.
type Table struct {
	occs  []occRec
	games []gameInfo // the games of the occurrences, consecutive duplicates merged
	arena []byte

	order   []sortRec // scratch for Flush: records in key order
	scratch []sortRec // scratch for the radix sort
	entry   Entry     // scratch for Flush
	enc     []byte    // scratch for Flush
}

// occRec is one occurrence: 32 bytes.
type occRec struct {
	keyOff      uint32
	keyLen      uint8
	shared      bool // see MarkShared
	move        board.Move
	moverRating uint32
	lowPly      uint32 // the ply plus one; 0: not recorded (see MoveStats.LowPly)
	game        uint32 // index into Table.games
	hash        uint32 // Occurrence.Hash
	seen        uint64 // see MoveStats.FirstSeen
}

// gameInfo is what the occurrences of one game share.
type gameInfo struct {
	ref    GameRef
	date   Date
	result pgn.Result
	local  uint32
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
	return a.n <= 16 || bytes.Equal(t.key(&t.occs[a.idx]), t.key(&t.occs[b.idx]))
}

// RecordBytes is the memory one occurrence costs, for sizing a Table to a
// memory budget: the record (32), its key bytes (about 13 on average, 16
// reserved) and its two sort entries at flush time (2 x 24, the radix
// sort's source and destination).
const RecordBytes = 32 + 16 + 48

// NewTable returns a Table sized for about n occurrences before it must
// grow.
func NewTable(n int) *Table {
	return &Table{
		occs:  make([]occRec, 0, n),
		games: make([]gameInfo, 0, n/32+16),
		arena: make([]byte, 0, n*16),
	}
}

// Len returns the number of occurrences held.
func (t *Table) Len() int { return len(t.occs) }

// HasRoom reports whether n more occurrences (with keys of about the usual
// length) fit without growing the Table's memory. A builder checks it
// before adding a game, and flushes first when it is false, so that memory
// stays within what NewTable reserved.
func (t *Table) HasRoom(n int) bool {
	return len(t.occs)+n <= cap(t.occs) && len(t.arena)+n*24 <= cap(t.arena)
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
	// Hash is the caller's hash of the position key, which FlushSplit
	// hands back with the position (the first occurrence's).
	Hash uint32
}

// Add adds one game's contribution for move m played from the position
// whose key is key (at most 255 bytes): the game's result, the mover's
// rating (0: unknown) and the game's date (0: unknown).
func (t *Table) Add(key []byte, m board.Move, r pgn.Result, moverRating int, d Date) {
	t.AddOccurrence(key, m, &Occurrence{Result: r, MoverRating: moverRating, Date: d, Ply: -1})
}

// AddOccurrence adds o for move m played from the position whose key is
// key (at most 255 bytes). It returns the occurrence's index, for
// MarkShared.
func (t *Table) AddOccurrence(key []byte, m board.Move, o *Occurrence) int {
	g := gameInfo{ref: o.Game, date: o.Date, result: o.Result, local: o.Local}
	if n := len(t.games); n == 0 || t.games[n-1] != g {
		t.games = append(t.games, g)
	}
	var ply uint32
	if o.Ply >= 0 && o.Ply < 1<<31 {
		ply = uint32(o.Ply) + 1
	}
	t.occs = append(t.occs, occRec{keyOff: uint32(len(t.arena)), keyLen: uint8(len(key)), move: m,
		moverRating: uint32(min(max(o.MoverRating, 0), 1<<32-1)), lowPly: ply, game: uint32(len(t.games) - 1), hash: o.Hash, seen: o.Seen})
	t.arena = append(t.arena, key...)
	return len(t.occs) - 1
}

// MarkShared keeps the position of occurrence i (from AddOccurrence) out
// of the singles that FlushSplit reports: it is always emitted as an entry.
func (t *Table) MarkShared(i int) { t.occs[i].shared = true }

func (t *Table) key(r *occRec) []byte {
	return t.arena[r.keyOff : r.keyOff+uint32(r.keyLen)]
}

// Flush calls emit once per position, in increasing key order, with the
// position's key and its encoded Entry (see Entry.AppendEncode), then empties
// the Table, keeping its memory for reuse. The slices passed to emit are only
// valid during the call. If emit fails, Flush stops and returns its error,
// and the Table is emptied all the same.
func (t *Table) Flush(emit func(key, enc []byte) error) error {
	return t.FlushSplit(func(key []byte, _ uint32, enc []byte) error { return emit(key, enc) }, nil)
}

// FlushSplit is Flush, except that emit and single also get the
// position's Occurrence.Hash, and that when single is not nil, a position
// reached by a single game is given to single instead of emit, with that
// game's Occurrence.Local: a position with one occurrence, with a game
// reference, not marked by MarkShared. Its statistics are those of the
// game's one occurrence.
func (t *Table) FlushSplit(emit func(key []byte, hash uint32, enc []byte) error, single func(key []byte, hash, local uint32) error) error {
	defer t.Reset()
	t.order = t.order[:0]
	var buf [16]byte
	for i := range t.occs {
		r := &t.occs[i]
		clear(buf[:])
		copy(buf[:], t.key(r))
		t.order = append(t.order, sortRec{hi: binary.BigEndian.Uint64(buf[:8]), lo: binary.BigEndian.Uint64(buf[8:]), idx: uint32(i), move: r.move, n: r.keyLen})
	}
	t.sortOrder()
	for i := 0; i < len(t.order); {
		first := &t.order[i]
		key := t.key(&t.occs[first.idx])
		j := i + 1
		for j < len(t.order) && t.sameKey(first, &t.order[j]) {
			j++
		}
		if single != nil && j == i+1 {
			r := &t.occs[first.idx]
			if g := &t.games[r.game]; !r.shared && g.ref.ID != 0 {
				if err := single(key, r.hash, g.local); err != nil {
					return err
				}
				i = j
				continue
			}
		}
		t.entry.Reset()
		for k := i; k < j; k++ {
			r := &t.occs[t.order[k].idx]
			if k == i || r.move != t.entry.Moves[len(t.entry.Moves)-1].Move {
				t.entry.Moves = append(t.entry.Moves, MoveEntry{Move: r.move})
			}
			ms := &t.entry.Moves[len(t.entry.Moves)-1].MoveStats
			g := &t.games[r.game]
			ms.Add(g.result, int(r.moverRating), g.date)
			ms.LowPly = lowerKnown32(ms.LowPly, r.lowPly)
			ms.FirstSeen = lowerKnown64(ms.FirstSeen, r.seen)
			if g.ref.ID != 0 {
				ms.Refs.Add(g.ref)
			}
		}
		t.enc = t.entry.AppendEncode(t.enc[:0])
		if err := emit(key, t.occs[first.idx].hash, t.enc); err != nil {
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
			if c := bytes.Compare(t.key(&t.occs[a.idx])[16:], t.key(&t.occs[b.idx])[16:]); c != 0 {
				return c
			}
		} else if a.n != b.n {
			// Equal first 16 bytes, zero-padded: the shorter key is a
			// prefix of the longer one and sorts first.
			return cmp.Compare(a.n, b.n)
		}
		if a.move != b.move {
			return cmp.Compare(a.move, b.move)
		}
		return cmp.Compare(a.idx, b.idx)
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
	t.occs = t.occs[:0]
	t.games = t.games[:0]
	t.arena = t.arena[:0]
}
