package savings

import (
	"sync"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/keys"
)

// distinct counts the distinct positions of a corpus exactly (by their
// key, which is canonical: equal keys mean equal positions), its distinct
// position-move entries, and the collisions of the Polyglot key and of the
// 128-bit hash among the distinct positions, from many goroutines at once.
//
// The set is indexed by the Polyglot key, so that positions sharing one
// meet in the same probe sequence: a new key meeting a stored key with the
// same Polyglot key is a collision, counted and kept as an example. It
// keeps each distinct key once with its first move (about 17 bytes), a
// table slot (about 12 bytes), and the further moves of the positions
// that have several.
type distinct struct {
	shards [distinctShards]distinctShard
	// The hashes whose collisions are counted: zobristKey and hash128
	// (tests put weaker ones in).
	zob  func(*board.Position) uint64
	h128 func(*board.Position) [2]uint64
}

const distinctShards = 256

// distinctShard is one lock's share of the set, chosen by the top byte of
// the Polyglot key. Its tables are indexed by the key's low 32 bits (the
// tag), plenty below 2^32 slots per shard.
type distinctShard struct {
	mu     sync.Mutex
	arena  []byte   // each key as: length byte, key bytes, first move (2 bytes, little-endian)
	slots  []uint64 // open addressing: 0 empty, else (offset+1)<<32 | tag
	n      int      // keys
	more   []uint64 // open addressing: 0 empty, else (offset<<16 | move) + 1, for moves after a key's first
	nmore  int
	c64    int         // new keys whose Polyglot key an earlier key had
	c128   int         // new keys whose 128-bit hash an earlier key had
	pairs  [][2][]byte // examples of colliding keys
	decErr error       // a stored key that did not decode (cannot happen)
}

// newDistinct returns an empty set.
func newDistinct() *distinct { return &distinct{zob: zobristKey, h128: hash128} }

// Add records the position with key key and Polyglot key zob (see
// zobristKey), and the move m played from it.
func (d *distinct) Add(key []byte, zob uint64, m board.Move) {
	sh := &d.shards[zob>>56]
	sh.mu.Lock()
	sh.add(d, key, zob, m)
	sh.mu.Unlock()
}

func (sh *distinctShard) add(d *distinct, key []byte, zob uint64, m board.Move) {
	if 10*(sh.n+1) > 7*len(sh.slots) {
		sh.slots = regrow(sh.slots, func(s uint64) uint64 { return s & 0xffffffff })
	}
	mask := uint64(len(sh.slots) - 1)
	tag := zob & 0xffffffff
	var same []int // stored keys with the same Polyglot key
	for i := tag & mask; ; i = (i + 1) & mask {
		s := sh.slots[i]
		if s == 0 {
			off := len(sh.arena)
			sh.arena = append(sh.arena, byte(len(key)))
			sh.arena = append(sh.arena, key...)
			sh.arena = append(sh.arena, byte(m), byte(m>>8))
			sh.slots[i] = uint64(off+1)<<32 | tag
			sh.n++
			if len(same) > 0 {
				sh.collide(d, key, same)
			}
			return
		}
		if s&0xffffffff != tag {
			continue
		}
		off := int(s>>32) - 1
		l := int(sh.arena[off])
		stored := sh.arena[off+1 : off+1+l]
		if string(stored) == string(key) {
			first := board.Move(sh.arena[off+1+l]) | board.Move(sh.arena[off+2+l])<<8
			if m != first {
				sh.addMove(uint64(off)<<16 | uint64(m))
			}
			return
		}
		// A different position with the same 32-bit tag: is its whole
		// Polyglot key the same? (About once in 2^31 probes.)
		p, err := keys.Decode(stored)
		if err != nil {
			sh.decErr = err
			continue
		}
		if d.zob(&p) == zob {
			same = append(same, off)
		}
	}
}

// collide records a new key whose Polyglot key the stored keys at offs
// have.
func (sh *distinctShard) collide(d *distinct, key []byte, offs []int) {
	sh.c64++
	p, err := keys.Decode(key)
	if err != nil {
		sh.decErr = err
		return
	}
	h := d.h128(&p)
	for _, off := range offs {
		stored := sh.arena[off+1 : off+1+int(sh.arena[off])]
		q, err := keys.Decode(stored)
		if err != nil {
			sh.decErr = err
			continue
		}
		if d.h128(&q) == h {
			sh.c128++
			break
		}
	}
	if len(sh.pairs) < 5 {
		sh.pairs = append(sh.pairs, [2][]byte{append([]byte(nil), sh.arena[offs[0]+1:offs[0]+1+int(sh.arena[offs[0]])]...), append([]byte(nil), key...)})
	}
}

// moreHash spreads a further-move value over its table.
func moreHash(v uint64) uint64 { return (v * 0x9e3779b97f4a7c15) >> 20 }

// addMove adds the further move v (offset<<16 | move) if new.
func (sh *distinctShard) addMove(v uint64) {
	if 10*(sh.nmore+1) > 7*len(sh.more) {
		sh.more = regrow(sh.more, func(s uint64) uint64 { return moreHash(s - 1) })
	}
	mask := uint64(len(sh.more) - 1)
	for i := moreHash(v) & mask; ; i = (i + 1) & mask {
		switch sh.more[i] {
		case 0:
			sh.more[i] = v + 1
			sh.nmore++
			return
		case v + 1:
			return
		}
	}
}

// regrow returns a table twice the size of old (at least 1024 slots)
// holding old's non-zero slots, placed by hash.
func regrow(old []uint64, hash func(uint64) uint64) []uint64 {
	t := make([]uint64, max(2*len(old), 1024))
	mask := uint64(len(t) - 1)
	for _, s := range old {
		if s == 0 {
			continue
		}
		i := hash(s) & mask
		for t[i] != 0 {
			i = (i + 1) & mask
		}
		t[i] = s
	}
	return t
}

// distinctCounts is what a distinct found.
type distinctCounts struct {
	Positions   uint64      // distinct positions
	Entries     uint64      // distinct position-move pairs
	KeyBytes    uint64      // total length of the distinct positions' keys
	Collisions  uint64      // positions whose Polyglot key an earlier position had
	Collisions2 uint64      // positions whose 128-bit hash an earlier position had
	Examples    [][2]string // FENs of colliding positions
}

// Counts returns the counts. Call it when no Add is running.
func (d *distinct) Counts() (distinctCounts, error) {
	var c distinctCounts
	for i := range d.shards {
		sh := &d.shards[i]
		if sh.decErr != nil {
			return c, sh.decErr
		}
		c.Positions += uint64(sh.n)
		c.Entries += uint64(sh.n + sh.nmore)
		c.KeyBytes += uint64(len(sh.arena) - 3*sh.n)
		c.Collisions += uint64(sh.c64)
		c.Collisions2 += uint64(sh.c128)
		for _, pr := range sh.pairs {
			a, errA := keys.Decode(pr[0])
			b, errB := keys.Decode(pr[1])
			if errA == nil && errB == nil {
				c.Examples = append(c.Examples, [2]string{a.FEN(), b.FEN()})
			}
		}
	}
	return c, nil
}
