package build

import (
	"fmt"
	"slices"

	"github.com/chessbook/chessbook/gamecode"
	"github.com/chessbook/chessbook/store"
)

// Replayer returns a Replayer feeding worker i (see Sink) with the games
// of a store replayed after the stores earlier, whose games it leaves out
// (with KeepDuplicates: whose copies it numbers after), moving the
// replayed games' stamps by shift.
func (b *Builder) Replayer(i int, earlier []*store.Store, shift uint64) *Replayer {
	r := &Replayer{b: b, w: b.Sink(i).(*worker), earlier: earlier, keep: b.opts.KeepDuplicates, shift: shift}
	if r.keep {
		r.copies = make(map[[32]byte]*contentCopies)
	}
	return r
}

// Duplicates returns the games left out as held by an earlier store.
func (r *Replayer) Duplicates() int64 { return r.dups }

// Replayer feeds stored games (of a store a merge rebuilds) to one of a
// Builder's workers, a chunk at a time, as the ingest pipeline does (Game for each, then
// Ordered, then Unordered), with each game's id and stamp decided here.
type Replayer struct {
	b       *Builder
	w       *worker
	earlier []*store.Store
	keep    bool
	shift   uint64
	// chunk: the stamps and original ids of the games read (in
	// w.read.games' order).
	stamps []uint64
	ids    []store.GameID
	copies map[[32]byte]*contentCopies // KeepDuplicates: by content
	dups   int64
}

// contentCopies is what a KeepDuplicates replay knows of a content: the
// ids of its copies 0, 1, ... (as far as computed) and the number of its
// copies in the earlier sources.
type contentCopies struct {
	ids   []store.GameID
	nprev uint32
}

// replayBatch is the number of games a Replayer claims at a time.
const replayBatch = 256

// Add adds the game id of the store replayed, with its stamp (0: none;
// else moved by the Replayer's shift) and record. A game an earlier store
// holds is left out (without KeepDuplicates), counted by Duplicates.
func (r *Replayer) Add(id store.GameID, stamp uint64, rec []byte) error {
	if !r.keep {
		for _, s := range r.earlier {
			has, err := s.HasGame(id)
			if err != nil {
				return fmt.Errorf("%s: %w", s.Dir(), err)
			}
			if has {
				r.dups++
				return nil
			}
		}
	}
	g, err := gamecode.DecodeGame(rec)
	if err != nil {
		return fmt.Errorf("game %s: %w", id, err)
	}
	n := len(r.w.read.games)
	if err := r.w.Game(&g); err != nil {
		return err
	}
	if len(r.w.read.games) == n {
		return fmt.Errorf("game %s: not stored again: %v", id, r.w.stats.Errors)
	}
	if stamp != 0 {
		stamp += r.shift
	}
	r.w.read.games[n].stamp = stamp
	r.stamps = append(r.stamps, stamp)
	r.ids = append(r.ids, id)
	if len(r.ids) >= replayBatch {
		return r.Flush()
	}
	return nil
}

// Flush claims the games read and adds them to the worker's unit.
func (r *Replayer) Flush() error {
	games := r.w.read.games
	if len(games) == 0 {
		return nil
	}
	if r.keep {
		for i := range games {
			id, err := r.keepID(games[i].sum, r.ids[i])
			if err != nil {
				return err
			}
			games[i].id = id
		}
		r.b.dedupe.claimAs(games)
	} else if err := r.w.Ordered(); err != nil {
		return err
	}
	for i := range games {
		if games[i].state == gameDuplicate {
			return fmt.Errorf("game %s: duplicated in the store", r.ids[i])
		}
	}
	r.stamps, r.ids = r.stamps[:0], r.ids[:0]
	return r.w.Unordered()
}

// maxCopies bounds the copies of one content a KeepDuplicates replay
// looks for.
const maxCopies = 1 << 24

// keepID returns the id in the merged store of the game whose content
// hash is sum and whose id in its source is id: copy k of its content
// there is copy nprev+k in the merge, after the earlier sources' nprev
// copies.
func (r *Replayer) keepID(sum [32]byte, id store.GameID) (store.GameID, error) {
	h := r.w.hasher
	c := r.copies[sum]
	if c == nil {
		c = &contentCopies{}
		for _, s := range r.earlier {
			for j := uint32(0); j < maxCopies; j++ {
				has, err := s.HasGame(h.idOf(sum, j))
				if err != nil {
					return 0, fmt.Errorf("%s: %w", s.Dir(), err)
				}
				if !has {
					break
				}
				c.nprev++
			}
		}
		r.copies[sum] = c
	}
	k := slices.Index(c.ids, id)
	for k < 0 && len(c.ids) < maxCopies {
		next := h.idOf(sum, uint32(len(c.ids)))
		c.ids = append(c.ids, next)
		if next == id {
			k = len(c.ids) - 1
		}
	}
	if k < 0 {
		return 0, fmt.Errorf("game %s: its id is not one of its content's copies", id)
	}
	return h.idOf(sum, c.nprev+uint32(k)), nil
}
