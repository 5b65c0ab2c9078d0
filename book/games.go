package book

import (
	"crypto/sha256"
	"encoding/binary"
	"hash"
	"slices"
	"sync"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/pgn"
	"github.com/chessbook/chessbook/store"
)

// A game's identity is its content: the players, date, round, result and
// moves (and the start position of a game set up from a FEN). Event, site,
// ratings, clocks and comments are not part of it, so the same game found
// in two dumps with different annotations is one game.
//
// The id is the first 8 bytes of the SHA-256 of that content: stable across
// runs, machines and versions. Two different games share an id with
// probability about n²/2⁶⁵ (3e-4 for 100 million games); the second of
// them would then be taken for a duplicate.

// contentHasher computes content hashes; one per worker.
type contentHasher struct {
	h   hash.Hash
	buf []byte
	sum [sha256.Size]byte
}

func newContentHasher() *contentHasher { return &contentHasher{h: sha256.New()} }

// identityTags are the tags that, with the moves, identify a game.
var identityTags = [...]string{"White", "Black", "Date", "Round"}

// content returns the content hash of g.
func (c *contentHasher) content(g *pgn.Game) [sha256.Size]byte {
	b := c.buf[:0]
	for _, name := range identityTags {
		v := g.Tag(name)
		b = binary.AppendUvarint(b, uint64(len(v)))
		b = append(b, v...)
	}
	b = append(b, byte(g.Result))
	if g.FromFEN {
		b = append(b, 1)
		b = appendPosition(b, &g.Start)
	} else {
		b = append(b, 0)
	}
	b = binary.AppendUvarint(b, uint64(len(g.Moves)))
	for _, m := range g.Moves {
		b = binary.LittleEndian.AppendUint16(b, uint16(m))
	}
	c.buf = b
	c.h.Reset()
	c.h.Write(b)
	c.h.Sum(c.sum[:0])
	return c.sum
}

// appendPosition appends the start position's FEN.
func appendPosition(b []byte, p *board.Position) []byte {
	return append(b, p.FEN()...)
}

// idOf returns the game id for a content hash and the copy number k (0 for
// the first copy; only -keep-duplicates counts further copies).
func (c *contentHasher) idOf(sum [sha256.Size]byte, k uint32) store.GameID {
	var id uint64
	if k == 0 {
		id = binary.BigEndian.Uint64(sum[:8])
	} else {
		b := append(c.buf[:0], sum[:]...)
		b = binary.BigEndian.AppendUint32(b, k)
		c.buf = b
		c.h.Reset()
		c.h.Write(b)
		var s2 [sha256.Size]byte
		c.h.Sum(s2[:0])
		id = binary.BigEndian.Uint64(s2[:8])
	}
	if id == 0 {
		id = 1 // 0 is no game
	}
	return store.GameID(id)
}

// dedupe tracks the games of this run that are not yet in the store, and
// which ids may be in the store: every game the store held when the build
// began may be (storeHadGames), and so may the games this run committed
// (committed, a Bloom filter). An id that is neither is not in the store,
// and a build can skip the store lookup for it: a fresh build then makes
// no lookup at all but for the filter's rare false positives. (A store has
// one writer at a time: its lock.)
type dedupe struct {
	mu            sync.Mutex
	pending       map[store.GameID]struct{}
	copies        map[[sha256.Size]byte]uint32 // -keep-duplicates: copies seen in this run
	storeHadGames bool
	committed     idFilter
}

func newDedupe(keep, storeHadGames bool) *dedupe {
	d := &dedupe{pending: make(map[store.GameID]struct{}), storeHadGames: storeHadGames}
	if keep {
		d.copies = make(map[[sha256.Size]byte]uint32)
	}
	return d
}

// copyNumber returns the number of earlier copies of a content in this run
// (always 0 unless duplicates are kept).
func (d *dedupe) copyNumber(sum [sha256.Size]byte) uint32 {
	if d.copies == nil {
		return 0
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	k := d.copies[sum]
	d.copies[sum] = k + 1
	return k
}

// claim marks id as pending and reports claimed true, or reports false if
// it is already pending. maybeStored is false when id is certainly not in
// the store (see dedupe); when it is true the caller must ask the store.
func (d *dedupe) claim(id store.GameID) (claimed, maybeStored bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if _, ok := d.pending[id]; ok {
		return false, true
	}
	d.pending[id] = struct{}{}
	return true, d.storeHadGames || d.committed.mayContain(uint64(id))
}

// release forgets pending ids: they are in the store now (committed true)
// or never will be. Committed ids enter the filter before they leave the
// pending set, under one lock, so that no claim can miss both.
func (d *dedupe) release(ids []pendingGame, committed bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, g := range ids {
		if committed {
			d.committed.add(uint64(g.id))
		}
		delete(d.pending, g.id)
	}
}

// idFilter is a Bloom filter of game ids that grows with what it holds:
// a chain of blocks of 2^23 bits (1 MiB), each taking up to filterBlockIDs
// ids at about 1% false positives (10 bits and 7 probes per id). Ids are
// hashes already, so the probes come from the id's own bits. A build of
// 100 million games holds about 120 MiB of filter; the zero value is empty.
type idFilter struct {
	blocks [][]uint64 // the last one is being filled
	n      int        // ids in the last block
}

const (
	filterBlockBits = 1 << 23
	filterBlockIDs  = filterBlockBits / 10
	filterProbes    = 7
)

// add adds id.
func (f *idFilter) add(id uint64) {
	if len(f.blocks) == 0 || f.n == filterBlockIDs {
		f.blocks = append(f.blocks, make([]uint64, filterBlockBits/64))
		f.n = 0
	}
	b := f.blocks[len(f.blocks)-1]
	h1, h2 := uint32(id), uint32(id>>32)|1
	for i := range uint32(filterProbes) {
		bit := (h1 + i*h2) & (filterBlockBits - 1)
		b[bit/64] |= 1 << (bit % 64)
	}
	f.n++
}

// mayContain reports whether id may have been added; false means it was
// not.
func (f *idFilter) mayContain(id uint64) bool {
	h1, h2 := uint32(id), uint32(id>>32)|1
	for _, b := range f.blocks {
		in := true
		for i := range uint32(filterProbes) {
			bit := (h1 + i*h2) & (filterBlockBits - 1)
			if b[bit/64]&(1<<(bit%64)) == 0 {
				in = false
				break
			}
		}
		if in {
			return true
		}
	}
	return false
}

// pendingGame is one encoded game waiting in a unit: its id, where its
// record is in the unit's buffer, and its first-seen stamp (0: none).
type pendingGame struct {
	id       store.GameID
	off, end int
	stamp    uint64
}

// gameBatch holds the encoded games of one unit.
type gameBatch struct {
	games []pendingGame
	buf   []byte
}

func (b *gameBatch) reset() { b.games, b.buf = b.games[:0], b.buf[:0] }

// sorted returns the games in id order.
func (b *gameBatch) sorted() []pendingGame {
	slices.SortFunc(b.games, func(x, y pendingGame) int {
		switch {
		case x.id < y.id:
			return -1
		case x.id > y.id:
			return 1
		}
		return 0
	})
	return b.games
}
