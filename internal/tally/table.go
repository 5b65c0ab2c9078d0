// Package tally is the builder's in-memory table (package book): it
// tallies the occurrences the workers add, game by game, and flushes them
// as encoded statistics (package stats) in position key order, or as
// single references for the positions one game reached.
package tally

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"math/bits"
	"slices"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/keys"
	"github.com/chessbook/chessbook/pgn"
	"github.com/chessbook/chessbook/stats"
)

// Table aggregates move statistics in memory: occurrences of (position
// key, move) are added game by game, then flushed as encoded Entries in
// position key order, ready to merge into the store.
//
// It is built for the builder's hot path. Adding an occurrence appends a
// fixed-size record to one slice and its key to one byte arena: no hashing,
// no allocation of its own beyond amortised growth, and the garbage
// collector sees a handful of large objects. A caller that has the games
// (StartGame, AddPly) need not even key the positions: it gives each its
// keys.Hash, and FlushSplit keys only the positions that need a key (those
// reached more than once, or by a game without a reference), by playing
// their games' moves again; most positions of a big input are reached
// once. Flush sorts the records
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

	// The games StartGame started: their moves, one after the other, and
	// their start positions (consecutive duplicates merged); cur is the
	// current game's place in both.
	moves  []board.Move
	starts []board.Position
	cur    gameMoves
	// need marks the occurrences FlushSplit must key (bit i: occs[i]).
	need []uint64
	// keyCache holds positions keyed in this flush, by hash: most
	// positions that need a key recur (openings), and comparing a position
	// is much cheaper than keying it. Allocated at the first flush that
	// needs it; gen tells this flush's entries from older ones.
	keyCache []cachedKey
	gen      uint32

	// Flush's scratch: the occurrences' hash << 32 | index, sorted, and
	// the radix sort's other buffer; the occurrences grouped by position;
	// the positions to emit.
	hashes, hashScratch []hashRec
	members             []uint32
	positions           []posRec
	byMove              []uint64
	histKeys            []uint64
	hist                []byte

	history bool        // see KeepHistory
	entry   stats.Entry // scratch for Flush
	enc     []byte      // scratch for Flush
}

// occRec is one occurrence: 32 bytes.
type occRec struct {
	keyOff uint32 // where its key is in the arena; the ply, when unkeyed
	keyLen uint8
	// unkeyed: added by AddPly and not keyed yet; keyOff is the ply of
	// its game's moves it was played at.
	unkeyed     bool
	move        board.Move
	moverRating uint32
	lowPly      uint32 // the ply plus one; 0: not recorded (see stats.MoveStats.LowPly)
	game        uint32 // index into Table.games
	hash        uint32 // stats.Occurrence.Hash
	seen        uint64 // see stats.MoveStats.FirstSeen
}

// gameInfo is what the occurrences of one game share.
type gameInfo struct {
	ref    stats.GameRef
	date   stats.Date
	result pgn.Result
	cell   stats.Cell
	local  uint32
	moves  gameMoves // for AddPly's occurrences
}

// cachedKey is a position keyed in a flush and where its key is in the
// arena.
type cachedKey struct {
	pos    board.Position
	keyOff uint32
	keyLen uint8
	gen    uint32 // the flush it was keyed in (Table.gen)
}

// keyCacheSize is the number of Table.keyCache entries (about 160 bytes
// each).
const keyCacheSize = 1 << 14

// gameMoves is where a game's moves start in Table.moves and its start
// position in Table.starts.
type gameMoves struct {
	off, start uint32
}

// posRec is a position for FlushSplit's emit: the first 16 key bytes as
// two big-endian words, so that most comparisons never touch the arena,
// and its occurrences, members[start:end].
type posRec struct {
	hi, lo     uint64
	start, end uint32
	n          uint8 // key length
}

// RecordBytes is the memory one occurrence costs, for sizing a Table to a
// memory budget: the record (32), its move (2), its key bytes (about 13 on
// average, when it needs a key: an AddPly occurrence reached once needs
// none, and in big inputs most are; 6 reserved) and its place in the
// flush's sort (2 x 16, the radix sort's source and destination, and 4 in
// the grouping), with room for the positions to emit (24 bytes each, one
// per few occurrences).
const RecordBytes = 32 + 2 + 6 + 36 + 12

// keyBytes is the key space NewTable reserves per occurrence.
const keyBytes = 6

// NewTable returns a Table sized for about n occurrences before it must
// grow.
func NewTable(n int) *Table {
	return &Table{
		occs:  make([]occRec, 0, n),
		games: make([]gameInfo, 0, n/32+16),
		arena: make([]byte, 0, n*keyBytes),
		moves: make([]board.Move, 0, n),
	}
}

// KeepHistory makes FlushSplit encode each emitted position's
// stats.History (by the period of the game's date, the move and the
// occurrence's cell).
func (t *Table) KeepHistory() { t.history = true }

// Len returns the number of occurrences held.
func (t *Table) Len() int { return len(t.occs) }

// HasRoom reports whether n more occurrences (with keys of about the usual
// length) fit without growing the Table's memory. A builder checks it
// before adding a game, and flushes first when it is false, so that memory
// stays within what NewTable reserved.
func (t *Table) HasRoom(n int) bool {
	return len(t.occs)+n <= cap(t.occs) && len(t.arena)+n*24 <= cap(t.arena) && len(t.moves)+n <= cap(t.moves)
}

// Add adds one game's contribution for move m played from the position
// whose key is key (at most 255 bytes): the game's result, the mover's
// rating (0: unknown) and the game's date (0: unknown).
func (t *Table) Add(key []byte, m board.Move, r pgn.Result, moverRating int, d stats.Date) {
	t.AddOccurrence(key, m, &stats.Occurrence{Result: r, MoverRating: moverRating, Date: d, Ply: -1})
}

// AddOccurrence adds o for move m played from the position whose key is
// key (at most 255 bytes).
func (t *Table) AddOccurrence(key []byte, m board.Move, o *stats.Occurrence) {
	t.add(m, o, gameMoves{})
	r := &t.occs[len(t.occs)-1]
	r.keyOff, r.keyLen = uint32(len(t.arena)), uint8(len(key))
	t.arena = append(t.arena, key...)
}

// add appends the record of o, for move m, with no key yet.
func (t *Table) add(m board.Move, o *stats.Occurrence, moves gameMoves) {
	g := gameInfo{ref: o.Game, date: o.Date, result: o.Result, cell: o.Cell, local: o.Local, moves: moves}
	if n := len(t.games); n == 0 || t.games[n-1] != g {
		t.games = append(t.games, g)
	}
	var ply uint32
	if o.Ply >= 0 && o.Ply < 1<<31 {
		ply = uint32(o.Ply) + 1
	}
	t.occs = append(t.occs, occRec{move: m, moverRating: uint32(min(max(o.MoverRating, 0), 1<<32-1)),
		lowPly: ply, game: uint32(len(t.games) - 1), hash: o.Hash, seen: o.Seen})
}

// keyNeeded keys the occurrences FlushSplit needs keys of (marked in
// t.need) that AddPly added unkeyed, replaying each of their games once, in
// occurrence order (the order of games, and of plies within a game).
func (t *Table) keyNeeded() {
	if t.keyCache == nil {
		t.keyCache = make([]cachedKey, keyCacheSize)
	}
	if t.gen++; t.gen == 0 { // wrapped: forget every entry
		clear(t.keyCache)
		t.gen = 1
	}
	var pos board.Position
	game, ply := -1, 0
	for w, bitsW := range t.need {
		for ; bitsW != 0; bitsW &= bitsW - 1 {
			r := &t.occs[w<<6|bits.TrailingZeros64(bitsW)]
			if !r.unkeyed {
				continue
			}
			g := &t.games[r.game]
			if int(r.game) != game || int(r.keyOff) < ply {
				game, ply = int(r.game), 0
				pos = t.starts[g.moves.start]
			}
			for ; ply < int(r.keyOff); ply++ {
				pos.Play(t.moves[int(g.moves.off)+ply])
			}
			c := &t.keyCache[r.hash%keyCacheSize]
			if c.gen != t.gen || !keys.Equal(&c.pos, &pos) {
				off := len(t.arena)
				t.arena = keys.Append(t.arena, &pos)
				*c = cachedKey{pos: pos, keyOff: uint32(off), keyLen: uint8(len(t.arena) - off), gen: t.gen}
			}
			r.keyOff, r.keyLen, r.unkeyed = c.keyOff, c.keyLen, false
		}
	}
}

// StartGame starts a game whose occurrences AddPly adds: its start
// position and its moves (at least those of the occurrences), which
// FlushSplit replays to key the positions that need a key.
func (t *Table) StartGame(start *board.Position, moves []board.Move) {
	if n := len(t.starts); n == 0 || t.starts[n-1] != *start {
		t.starts = append(t.starts, *start)
	}
	t.cur = gameMoves{off: uint32(len(t.moves)), start: uint32(len(t.starts) - 1)}
	t.moves = append(t.moves, moves...)
}

// AddPly adds o for the move played at ply of the game StartGame started
// (moves[ply]), from the position that ply reaches, which o.Hash (the
// high 32 bits of its keys.Hash) stands for: the position is keyed only if
// FlushSplit needs its key.
func (t *Table) AddPly(ply int, o *stats.Occurrence) {
	t.add(t.moves[int(t.cur.off)+ply], o, t.cur)
	r := &t.occs[len(t.occs)-1]
	r.keyOff, r.unkeyed = uint32(ply), true
}

func (t *Table) key(r *occRec) []byte {
	return t.arena[r.keyOff : r.keyOff+uint32(r.keyLen)]
}

// Flush calls emit once per position, in increasing key order, with the
// position's key and its encoded stats.Entry (see
// stats.Entry.AppendEncode), then empties the Table, keeping its memory
// for reuse. The slices passed to emit are only
// valid during the call. If emit fails, Flush stops and returns its error,
// and the Table is emptied all the same.
func (t *Table) Flush(emit func(key, enc []byte) error) error {
	return t.FlushSplit(func(key []byte, _ uint32, enc, _ []byte) error { return emit(key, enc) }, nil)
}

// FlushSplit is Flush, except that emit also gets the position's
// stats.Occurrence.Hash and, when the Table keeps them (KeepHistory), its
// encoded History (nil otherwise), and that when single is not nil, a position reached by
// a single game is given to single instead of emit, with its hash and
// that game's stats.Occurrence.Local: a position with one occurrence, with a
// game reference, whose game has no other occurrence with the same hash
// (a reader that finds the game under the hash could not tell which of
// its positions the single stands for). Its statistics are those of the
// game's one occurrence. Positions go to emit in increasing key order,
// and to single in increasing hash order.
//
// The occurrences are sorted by hash (a radix sort of 16-byte records
// that carry what a single needs), which groups each position's
// occurrences and finds the singles without touching their records or
// keys again: in a big table most are singles, and reading them in hash
// order would be a cache miss each. Only the positions for emit, far
// fewer than the occurrences, are then sorted by key.
func (t *Table) FlushSplit(emit func(key []byte, hash uint32, enc, hist []byte) error, single func(hash, local uint32) error) error {
	defer t.Reset()
	n := len(t.occs)
	if n == 0 {
		return nil
	}
	hs := slices.Grow(t.hashes[:0], n) // exactly: grown by appends, it would touch twice the memory
	for i := range t.occs {
		r := &t.occs[i]
		h := hashRec{key: uint64(r.hash)<<32 | uint64(i)}
		if g := &t.games[r.game]; g.ref.ID != 0 {
			h.single = 1<<32 | uint64(g.local)
		}
		hs = append(hs, h)
	}
	hs, t.hashScratch = radixSortHigh(hs, t.hashScratch)
	t.hashes = hs
	// Key the occurrences that need one: all but the singles.
	t.need = slices.Grow(t.need[:0], (n+63)/64)[:(n+63)/64]
	clear(t.need)
	for i := 0; i < n; {
		h := uint32(hs[i].key >> 32)
		j := i + 1
		for j < n && uint32(hs[j].key>>32) == h {
			j++
		}
		if j > i+1 || single == nil || hs[i].single == 0 {
			for _, v := range hs[i:j] {
				idx := uint32(v.key)
				t.need[idx>>6] |= 1 << (idx & 63)
			}
		}
		i = j
	}
	t.keyNeeded()
	// Group by hash, then by key within a group (a group holds several
	// positions only when their hashes collide).
	t.members, t.positions = t.members[:0], t.positions[:0]
	for i := 0; i < n; {
		h := uint32(hs[i].key >> 32)
		j := i + 1
		for j < n && uint32(hs[j].key>>32) == h {
			j++
		}
		if j == i+1 && single != nil && hs[i].single != 0 {
			if err := single(h, uint32(hs[i].single)); err != nil {
				return err
			}
			i = j
			continue
		}
		start := len(t.members)
		for _, v := range hs[i:j] {
			t.members = append(t.members, uint32(v.key))
		}
		group := t.members[start:]
		if len(group) > 1 && !t.allSameKey(group) {
			slices.SortFunc(group, func(a, b uint32) int { return t.compareOccs(a, b) })
		}
		for k := 0; k < len(group); {
			first := &t.occs[group[k]]
			key := t.key(first)
			l := k + 1
			for l < len(group) && bytes.Equal(t.key(&t.occs[group[l]]), key) {
				l++
			}
			if single != nil && l == k+1 && !t.sameGame(group, k) {
				if g := &t.games[first.game]; g.ref.ID != 0 {
					if err := single(h, g.local); err != nil {
						return err
					}
					k = l
					continue
				}
			}
			var buf [16]byte
			copy(buf[:], key)
			t.positions = append(t.positions, posRec{hi: binary.BigEndian.Uint64(buf[:8]), lo: binary.BigEndian.Uint64(buf[8:]),
				start: uint32(start + k), end: uint32(start + l), n: first.keyLen})
			k = l
		}
		i = j
	}
	slices.SortFunc(t.positions, func(a, b posRec) int {
		if a.hi != b.hi {
			return cmp.Compare(a.hi, b.hi)
		}
		if a.lo != b.lo {
			return cmp.Compare(a.lo, b.lo)
		}
		if a.n > 16 && b.n > 16 {
			return bytes.Compare(t.key(&t.occs[t.members[a.start]])[16:], t.key(&t.occs[t.members[b.start]])[16:])
		}
		// Equal first 16 bytes, zero-padded: the shorter key is a prefix
		// of the longer one and sorts first.
		return cmp.Compare(a.n, b.n)
	})
	for _, p := range t.positions {
		occs := t.members[p.start:p.end]
		if len(occs) > 1 {
			// By move, then by index: packed words sort faster than a
			// comparison that reads the records.
			byMove := t.byMove[:0]
			for _, idx := range occs {
				byMove = append(byMove, uint64(t.occs[idx].move)<<32|uint64(idx))
			}
			slices.Sort(byMove)
			for k, v := range byMove {
				occs[k] = uint32(v)
			}
			t.byMove = byMove
		}
		t.entry.Reset()
		for k, idx := range occs {
			r := &t.occs[idx]
			if k == 0 || r.move != t.entry.Moves[len(t.entry.Moves)-1].Move {
				t.entry.Moves = append(t.entry.Moves, stats.MoveEntry{Move: r.move})
			}
			g := &t.games[r.game]
			t.entry.Moves[len(t.entry.Moves)-1].AddOccurrence(&stats.Occurrence{Result: g.result,
				MoverRating: int(r.moverRating), Date: g.date, Ply: int(r.lowPly) - 1, Seen: r.seen, Game: g.ref})
		}
		t.enc = t.entry.AppendEncode(t.enc[:0])
		var hist []byte
		if t.history {
			hist = t.encodeHistory(occs)
		}
		first := &t.occs[occs[0]]
		if err := emit(t.key(first), first.hash, t.enc, hist); err != nil {
			return err
		}
	}
	return nil
}

// encodeHistory returns the encoded History of the occurrences occs of
// one position, valid until the next call; it may reorder occs.
func (t *Table) encodeHistory(occs []uint32) []byte {
	keyOf := func(idx uint32) uint64 {
		r := &t.occs[idx]
		g := &t.games[r.game]
		return uint64(stats.PeriodOf(g.date))<<24 | uint64(r.move)<<8 | uint64(g.cell)
	}
	// at returns the i-th occurrence in history order and its row key.
	var at func(i int) (uint64, uint32)
	if len(occs) < 1<<24 {
		// Keys packed with the occurrence's place in occs: plain words
		// sort faster than records.
		hk := t.histKeys[:0]
		for j, idx := range occs {
			hk = append(hk, keyOf(idx)<<24|uint64(j))
		}
		slices.Sort(hk)
		t.histKeys = hk
		at = func(i int) (uint64, uint32) { return hk[i] >> 24, occs[hk[i]&(1<<24-1)] }
	} else { // 16 M occurrences of one position in one table
		slices.SortFunc(occs, func(a, b uint32) int { return cmp.Compare(keyOf(a), keyOf(b)) })
		at = func(i int) (uint64, uint32) { return keyOf(occs[i]), occs[i] }
	}
	out := t.hist[:0]
	var prev stats.HistoryRow
	for i := 0; i < len(occs); {
		k, _ := at(i)
		row := stats.HistoryRow{Period: stats.Period(k >> 24), Move: board.Move(k >> 8), Cell: stats.Cell(k)}
		for ; i < len(occs); i++ {
			ki, idx := at(i)
			if ki != k {
				break
			}
			r := &t.occs[idx]
			row.Add(t.games[r.game].result, int(r.moverRating))
		}
		if len(out) == 0 {
			out = stats.AppendHistoryRow(out, nil, &row)
		} else {
			out = stats.AppendHistoryRow(out, &prev, &row)
		}
		prev = row
	}
	t.hist = out
	return t.hist
}

// hashRec is an occurrence's place in FlushSplit's sort: its hash << 32 |
// its index, and, when it may be a single, 1 << 32 | its game's Local.
type hashRec struct {
	key, single uint64
}

// sameGame reports whether another occurrence of group than group[k]
// comes from the same game.
func (t *Table) sameGame(group []uint32, k int) bool {
	g := t.occs[group[k]].game
	for m, idx := range group {
		if m != k && t.occs[idx].game == g {
			return true
		}
	}
	return false
}

// allSameKey reports whether the occurrences idx all have the same key.
func (t *Table) allSameKey(idx []uint32) bool {
	first := &t.occs[idx[0]]
	k := t.key(first)
	for _, i := range idx[1:] {
		// Occurrences keyed from keyCache share their key's bytes.
		if r := &t.occs[i]; r.keyOff != first.keyOff && !bytes.Equal(t.key(r), k) {
			return false
		}
	}
	return true
}

// compareOccs orders occurrences by key, then by index.
func (t *Table) compareOccs(a, b uint32) int {
	if c := bytes.Compare(t.key(&t.occs[a]), t.key(&t.occs[b])); c != 0 {
		return c
	}
	return cmp.Compare(a, b)
}

// radixSortHigh sorts v by its high 32 bits, keeping the order of values
// whose high bits are equal (an LSD radix sort, skipping the bytes every
// value shares), with scratch as the other buffer. It returns the sorted
// slice and the other buffer, to keep.
func radixSortHigh(v, scratch []hashRec) (sorted, other []hashRec) {
	n := len(v)
	if cap(scratch) < n {
		scratch = make([]hashRec, n, cap(v))
	}
	src, dst := v, scratch[:n]
	var counts [256]int
	for shift := uint(32); shift < 64; shift += 8 {
		clear(counts[:])
		for i := range src {
			counts[byte(src[i].key>>shift)]++
		}
		if counts[byte(src[0].key>>shift)] == n {
			continue
		}
		sum := 0
		for d, c := range counts {
			counts[d] = sum
			sum += c
		}
		for i := range src {
			d := byte(src[i].key >> shift)
			dst[counts[d]] = src[i]
			counts[d]++
		}
		src, dst = dst, src
	}
	return src, dst[:0]
}

// Reset empties the Table, keeping its memory.
func (t *Table) Reset() {
	t.occs = t.occs[:0]
	t.games = t.games[:0]
	t.arena = t.arena[:0]
	t.moves = t.moves[:0]
	t.starts = t.starts[:0]
}
