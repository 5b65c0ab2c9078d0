package build

import (
	"crypto/sha256"
	"encoding/binary"
	"hash"
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
// builds, machines and versions. Two different games share an id with
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

// ContentID returns the id a build stores game g under when it is the
// first copy of its content (the content hash's first 8 bytes, see above;
// with KeepDuplicates, copy k of a content has an id of its own made from
// the hash and k). Every copy of a content has the same ContentID, so it
// is the key a pipeline deduplicates or partitions games by.
func ContentID(g *pgn.Game) store.GameID {
	h := newContentHasher()
	return h.idOf(h.content(g), 0)
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

// dedupe tracks the games of this build that are not yet in the store, and
// which ids may be in the store: every game the store held when the build
// began may be (storeHadGames), and so may the games this build committed
// (committed, a Bloom filter). An id that is neither is not in the store,
// and a build can skip the store lookup for it: a fresh build then makes
// no lookup at all but for the filter's rare false positives. (A store has
// one writer at a time: its lock.)
type dedupe struct {
	mu            sync.Mutex
	pending       map[store.GameID]struct{}
	copies        map[[sha256.Size]byte]uint32 // -keep-duplicates: copies seen in this build
	storeHadGames bool
	committed     idBloom
}

func newDedupe(keep, storeHadGames bool) *dedupe {
	d := &dedupe{pending: make(map[store.GameID]struct{}), storeHadGames: storeHadGames}
	if keep {
		d.copies = make(map[[sha256.Size]byte]uint32)
	}
	return d
}

// claimChunk decides, for the games of one chunk in input order, their
// ids and whether each is new: it must be called for the chunks in input
// order (see ingest.OrderedSink), so that these decisions follow the
// input, whatever the scheduling of the workers. With -keep-duplicates a
// game's id is its content's hash with its copy number, its place among
// the copies of that content in this build's input (the first is copy 0,
// whose id is the content hash alone); otherwise every copy has the
// content hash as id, and the first copy in input order is the one
// claimed: the one stored, with its tags and first-seen stamp. A game
// claimed is pending (gameNew, or gameMaybeStored when the store may
// hold it already: the caller asks the store); one whose id is pending
// already is a duplicate. claimChunk returns the number of duplicates.
// The same build run again numbers the copies the same way, so it
// finds every game it stored already, whatever was committed before a
// crash. h is the calling worker's hasher.
func (d *dedupe) claimChunk(h *contentHasher, games []readGame) (dups int) {
	d.mu.Lock()
	defer d.mu.Unlock()
	for i := range games {
		g := &games[i]
		var k uint32
		if d.copies != nil {
			k = d.copies[g.sum]
			d.copies[g.sum] = k + 1
		}
		g.id = h.idOf(g.sum, k)
		if _, ok := d.pending[g.id]; ok {
			g.state = gameDuplicate
			dups++
			continue
		}
		d.pending[g.id] = struct{}{}
		g.state = gameNew
		if d.storeHadGames || d.committed.mayContain(uint64(g.id)) {
			g.state = gameMaybeStored
		}
	}
	return dups
}

// claimAs claims games under the ids they carry already (a merge's
// copies, numbered after an earlier store's), as new games: the caller
// has made sure none is a duplicate.
func (d *dedupe) claimAs(games []readGame) {
	d.mu.Lock()
	defer d.mu.Unlock()
	for i := range games {
		d.pending[games[i].id] = struct{}{}
		games[i].state = gameNew
	}
}

// claimedBefore reports whether the content sum is a duplicate of a game
// claimed already, without duplicates kept: then an earlier game in input
// order holds the claim, since claims are made in input order and the
// chunk of the game asking has not made its own. That game is pending, or
// in the store, or the build is failing (only then is a claim given up
// before its game is in the store), so the game asking is a duplicate,
// whatever happens next. h is the calling worker's hasher.
func (d *dedupe) claimedBefore(h *contentHasher, sum [sha256.Size]byte) bool {
	if d.copies != nil {
		return false
	}
	id := h.idOf(sum, 0)
	d.mu.Lock()
	_, ok := d.pending[id]
	d.mu.Unlock()
	return ok
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

// idBloom is a Bloom filter of game ids that grows with what it holds:
// a chain of blocks of 2^23 bits (1 MiB), each taking up to filterBlockIDs
// ids at about 1% false positives (10 bits and 7 probes per id). Ids are
// hashes already, so the probes come from the id's own bits. A build of
// 100 million games holds about 120 MiB of filter; the zero value is empty.
type idBloom struct {
	blocks [][]uint64 // the last one is being filled
	n      int        // ids in the last block
}

const (
	filterBlockBits = 1 << 23
	filterBlockIDs  = filterBlockBits / 10
	filterProbes    = 7
)

// add adds id.
func (f *idBloom) add(id uint64) {
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
func (f *idBloom) mayContain(id uint64) bool {
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
