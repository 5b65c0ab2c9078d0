package book

import (
	"cmp"
	"context"
	"fmt"
	"github.com/chessbook/chessbook/book/counting"
	"maps"
	"slices"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/gamecode"
	"github.com/chessbook/chessbook/keys"
	"github.com/chessbook/chessbook/stats"
	"github.com/chessbook/chessbook/store"
)

// Every position of a store, with its statistics: the statistics records
// joined with what the single references add, found by replaying their
// games.

// Positions calls fn with every position of the store that at least
// minGames games may have reached (0 or 1: every position), with its
// statistics (see Entry): those with a statistics record (whatever their
// games) and those that several single references reach (one game per
// flush), in the byte order of position keys (with a ply limit, see
// PositionsOptions, the records first, then the others); then, when
// minGames is 0 or 1, every position reached by one game only, in the
// order of the games' numbers. A few positions of fewer games may be
// listed, some with part of their statistics: callers filter on the
// statistics. pos and e are only valid during the call. Positions reached
// by one game are typically most of a store: a caller that wants only
// positions of at least two games skips replaying every stored game, and
// the higher minGames, the fewer games it replays.
//
// The single references are read in hash order and merge-joined with the
// hashes of the statistics records (a sorted array, 8 bytes a record),
// rather than looked up once per position; the games to replay are read a
// range of game numbers at a time, replayed once each and only as far as
// they are needed, and what they add is spilled to sorted runs on disk
// (see positions_all.go): memory does not grow with the store.
func Positions(ctx context.Context, st *store.Store, minGames uint64, fn func(pos []byte, e *stats.Entry) error) error {
	return PositionsWith(ctx, st, PositionsOptions{MinGames: minGames}, fn)
}

// PositionsOptions are the options of PositionsWith.
type PositionsOptions struct {
	// MinGames is Positions' minGames.
	MinGames uint64
	// LimitPly, with MaxPly, asks only for the positions reached at ply
	// MaxPly or earlier (counted as counting.PlyOf counts, from White's first
	// move), each with all its statistics: the games are replayed only
	// that far, but for those that reach, under the same hash, a position
	// reached by then, which are replayed in full. Positions with a
	// statistics record first reached later are still listed, with the
	// statistics of their record alone: callers filter on the lowest ply.
	// With MinGames 0 or 1, the positions of one game come first: their
	// replays find the others reached by the limit.
	LimitPly bool
	MaxPly   int
	// PerMove says that the caller keeps moves, not positions, by their
	// games (as a Polyglot export does): a position none of whose moves
	// may have been played MinGames times need not be completed, and may
	// be listed with part of its statistics (the statistics record
	// alone). Without it, a position is completed unless all its games
	// may not reach MinGames.
	PerMove bool
	// Progress, when not nil, is called now and then with the step
	// under way ("positions read", "game references read", "games
	// replayed": of the games the positions need, "positions with
	// statistics read", "games replayed for the positions one game
	// reached"), how many so far and how many in all (0: not known).
	Progress func(what string, done, total int64)
	// limits, when not nil, replace the memory limits (tests).
	limits *positionsLimits
}

// PositionsWith is Positions with options: a ply limit, progress.
func PositionsWith(ctx context.Context, st *store.Store, o PositionsOptions, fn func(pos []byte, e *stats.Entry) error) error {
	if o.LimitPly {
		return positionsLimited(ctx, st, o, fn)
	}
	return positionsAll(ctx, st, o, fn)
}

// positionsLimited is PositionsWith with a ply limit. It holds the hashes
// and game numbers it replays in maps: the dumps it serves (bookquery
// positions -max-ply) replay a few plies of each game.
func positionsLimited(ctx context.Context, st *store.Store, o PositionsOptions, fn func(pos []byte, e *stats.Entry) error) error {
	minGames := o.MinGames
	progress := o.Progress
	if progress == nil {
		progress = func(string, int64, int64) {}
	}
	limit := -1 // the last ply wanted, -1: all
	if o.LimitPly {
		limit = max(o.MaxPly, 0)
	}
	// The hashes of the statistics records, and with a limit those of
	// the records reached by then.
	pHashes := map[uint32][]uint64{} // -> the numbers of the games referenced under it
	near := map[uint32]bool{}
	err := positionKeys(ctx, st, limit >= 0, progress, func(pos []byte, e *stats.Entry) {
		h := store.SingleHash(pos)
		pHashes[h] = nil
		if e != nil {
			if ply, ok := e.Total().MinPly(); ok && ply <= limit {
				near[h] = true
			}
		}
	})
	if err != nil {
		return err
	}
	records := int64(len(pHashes))
	// One pass over the references: those under the hash of a statistics
	// record, and how many there are and under which hashes several.
	var total int
	var last store.SingleRef
	multi := map[uint32][]uint64{} // hashes several games are referenced under -> their numbers
	err = st.AllSingles(func(r store.SingleRef) (bool, error) {
		if nums, ok := pHashes[r.Hash]; ok {
			pHashes[r.Hash] = append(nums, r.Game)
		}
		if total > 0 && r.Hash == last.Hash {
			if len(multi[r.Hash]) == 0 {
				multi[r.Hash] = append(multi[r.Hash], last.Game)
			}
			multi[r.Hash] = append(multi[r.Hash], r.Game)
		}
		total++
		last = r
		return true, nil
	})
	if err != nil {
		return err
	}
	singles := newSingleReplayer(st, -1)
	singles.fn, singles.progress = fn, progress
	singles.isRecord = func(h uint32) bool { _, ok := pHashes[h]; return ok }
	singles.isMulti = func(h uint32) bool { _, ok := multi[h]; return ok }
	complete := false // near holds every hash of a position reached by the limit
	if limit >= 0 && minGames <= 1 {
		// The positions of one game first: their replays, cut at the
		// limit, also find every position reached by then under the
		// hashes of the others.
		singles.limit, singles.reached = limit, near
		if err := singles.singlePositions(ctx, total); err != nil {
			return err
		}
		complete = true
	}
	// The games referenced under those hashes, each replayed once: what
	// they add to the positions with statistics records.
	extra, err := gamesAt(ctx, st, pHashes, limit, near, complete)
	if err != nil {
		return err
	}
	it, err := st.NewStatsIter()
	if err != nil {
		return err
	}
	var e stats.Entry
	n := 0
	for ok := it.First(); ok; ok = it.Next() {
		if n++; n%4096 == 0 && ctx.Err() != nil {
			_ = it.Close()
			return ctx.Err()
		}
		if err := it.EntryInto(&e); err != nil {
			_ = it.Close()
			return err
		}
		if x := extra[string(it.Key())]; x != nil {
			e.Merge(*x)
		}
		if err := fn(it.Key(), &e); err != nil {
			_ = it.Close()
			return err
		}
		if n%4096 == 0 {
			progress("positions with statistics read", int64(n), records)
		}
	}
	if err := it.Close(); err != nil {
		return err
	}
	progress("positions with statistics read", int64(n), records)
	// Positions with no statistics record that several games reach, one
	// per flush (each a single reference): their games replayed once;
	// only under hashes with enough references to reach minGames.
	wanted := multi
	if minGames > 2 {
		wanted = map[uint32][]uint64{}
		for h, nums := range multi {
			if uint64(len(nums)) >= minGames {
				wanted[h] = nums
			}
		}
	}
	several, err := gamesAt(ctx, st, wanted, limit, near, complete)
	if err != nil {
		return err
	}
	for _, k := range slices.Sorted(maps.Keys(several)) {
		if _, ok := pHashes[store.SingleHash([]byte(k))]; ok {
			found, err := st.StatsRecordInto(&e, []byte(k))
			if err != nil {
				return err
			}
			if found {
				continue // reported with the statistics records
			}
		}
		if err := fn([]byte(k), several[k]); err != nil {
			return err
		}
	}
	if minGames > 1 {
		return nil
	}
	if complete {
		return nil // listed first
	}
	return singles.singlePositions(ctx, total)
}

// positionKeys calls fn with the key of every statistics record, and with
// its statistics when withEntry is set (else nil). Every 65536 keys it
// calls progress, when not nil, with "positions read" and how many so far.
func positionKeys(ctx context.Context, st *store.Store, withEntry bool, progress func(string, int64, int64), fn func(pos []byte, e *stats.Entry)) error {
	it, err := st.NewStatsIter()
	if err != nil {
		return err
	}
	var e *stats.Entry
	if withEntry {
		e = &stats.Entry{}
	}
	n := 0
	for ok := it.First(); ok; ok = it.Next() {
		if n++; n%4096 == 0 && ctx.Err() != nil {
			_ = it.Close()
			return ctx.Err()
		}
		if n%(1<<16) == 0 && progress != nil {
			progress("positions read", int64(n), 0)
		}
		if e != nil {
			if err := it.EntryInto(e); err != nil {
				_ = it.Close()
				return err
			}
		}
		fn(it.Key(), e)
	}
	return it.Close()
}

// gamesAt replays every game referenced under a hash of hashes (hash ->
// game numbers) once, and returns what they add to each position they
// counted under those hashes (those the caller wants, and others with the
// same hash, which it ignores).
//
// With a limit (a ply, -1 for none) only the hashes of positions reached
// by then count: those of near, and (unless complete says that near holds
// them already) those under which a game, replayed up to the limit,
// reaches a position. The games under them are replayed in full: the
// positions reached by the limit are counted whole.
func gamesAt(ctx context.Context, st *store.Store, hashes map[uint32][]uint64, limit int, near map[uint32]bool, complete bool) (map[string]*stats.Entry, error) {
	if limit >= 0 && complete {
		wanted := map[uint32][]uint64{}
		for h, nums := range hashes {
			if near[h] {
				wanted[h] = nums
			}
		}
		hashes = wanted
	} else if limit >= 0 {
		reached := map[uint32]bool{}
		for h := range near {
			reached[h] = true
		}
		r := newSingleReplayer(st, limit)
		err := eachGameAt(ctx, st, hashes, func(id store.GameID, stamp uint64, hs []uint32) error {
			return r.replay(id, stamp, func(h uint32) bool {
				_, ok := slices.BinarySearch(hs, h)
				return ok
			}, func(_ []byte, h uint32, _ board.Move, _ *stats.Occurrence) error {
				reached[h] = true
				return nil
			})
		})
		if err != nil {
			return nil, err
		}
		wanted := map[uint32][]uint64{}
		for h, nums := range hashes {
			if reached[h] {
				wanted[h] = nums
			}
		}
		hashes = wanted
	}
	extra := map[string]*stats.Entry{}
	r := newSingleReplayer(st, -1)
	err := eachGameAt(ctx, st, hashes, func(id store.GameID, stamp uint64, hs []uint32) error {
		return r.replay(id, stamp, func(h uint32) bool {
			_, ok := slices.BinarySearch(hs, h)
			return ok
		}, func(pos []byte, _ uint32, mv board.Move, occ *stats.Occurrence) error {
			e := extra[string(pos)]
			if e == nil {
				e = &stats.Entry{}
				extra[string(pos)] = e
			}
			e.AddOccurrence(mv, occ)
			return nil
		})
	})
	if err != nil {
		return nil, err
	}
	return extra, nil
}

// eachGameAt calls fn once with each game referenced under a hash of
// hashes (hash -> game numbers), in the order of the games' numbers, with
// the hashes it is referenced under, in order.
func eachGameAt(ctx context.Context, st *store.Store, hashes map[uint32][]uint64, fn func(id store.GameID, stamp uint64, hs []uint32) error) error {
	games := map[uint64][]uint32{} // game number -> the hashes it is referenced under
	for h, nums := range hashes {
		for _, num := range nums {
			games[num] = append(games[num], h)
		}
	}
	for _, num := range slices.Sorted(maps.Keys(games)) {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		id, stamp, err := st.GameByNumber(num)
		if err != nil {
			return fmt.Errorf("single reference: %w", err)
		}
		hs := games[num]
		slices.Sort(hs)
		if err := fn(id, stamp, hs); err != nil {
			return err
		}
	}
	return nil
}

// singlesWhat names the progress of singlePositions, which replays every
// game: a step of its own, apart from the "games replayed" of the games
// the other positions need.
const singlesWhat = "games replayed for the positions one game reached"

// singleChunk is the most single references singlePositions holds in
// memory at once (8 bytes each); a store with more is listed in several
// passes over its games.
const singleChunk = 32 << 20

// singlePositions calls r.fn with every position that only single
// references reach, once each. It replays every numbered game and reports
// each position the game counted and holds a single reference for, unless
// it has a statistics record (Positions reported it). total is the number
// of references, r.isRecord tells the hashes of the statistics records and
// r.isMulti those with references from several games (Positions reported
// the positions under them). The references are read into memory, a range
// of game numbers at a time.
func (r *singleReplayer) singlePositions(ctx context.Context, total int) error {
	st := r.st
	m := st.Meta()
	end := max(m.NextGame, 1)
	passes := uint64(total/singleChunk + 1)
	step := (end-1)/passes + 1
	var replayed int64
	for lo := uint64(1); lo < end; lo += step {
		hi := min(lo+step, end)
		refs := make([]uint64, 0, min(total, singleChunk+singleChunk/4))
		err := st.AllSingles(func(r store.SingleRef) (bool, error) {
			if r.Game >= lo && r.Game < hi {
				refs = append(refs, (r.Game-lo)<<32|uint64(r.Hash))
			}
			return true, nil
		})
		if err != nil {
			return err
		}
		slices.Sort(refs)
		err = st.GameNumbers(lo, hi, func(num uint64, id store.GameID, stamp uint64) (bool, error) {
			if replayed++; replayed%1024 == 0 {
				if ctx.Err() != nil {
					return false, ctx.Err()
				}
				r.progress(singlesWhat, int64(num), int64(end-1))
			}
			i, _ := slices.BinarySearch(refs, (num-lo)<<32)
			j, _ := slices.BinarySearch(refs, (num-lo+1)<<32)
			if i == j {
				return true, nil // no single reference to this game
			}
			return true, r.game(id, stamp, refs[i:j])
		})
		if err != nil {
			return err
		}
	}
	r.progress(singlesWhat, int64(end-1), int64(end-1))
	return ctx.Err()
}

// singleReplayer replays games for singlePositions.
type singleReplayer struct {
	st *store.Store
	// limit is the last ply (see counting.PlyOf) replayed, -1 for none: the
	// positions after it are not wanted.
	limit    int
	progress func(what string, done, total int64)
	// reached, when not nil, gets the hash of every position the games
	// replayed reach, by the limit, under a hash they are referenced under.
	reached map[uint32]bool
	// isRecord tells the hashes of statistics records, isMulti those
	// with references from several games.
	isRecord, isMulti func(h uint32) bool
	fn                func(pos []byte, e *stats.Entry) error
	key               []byte
	counts            counting.Walker // under the store's rule
	e                 stats.Entry
}

// newSingleReplayer returns a singleReplayer of st's games that replays
// them up to ply limit (-1: to their end).
func newSingleReplayer(st *store.Store, limit int) *singleReplayer {
	r := &singleReplayer{st: st, limit: limit}
	m := st.Meta()
	r.counts.SetRule(m.MaxPly, m.CountMode)
	return r
}

// game replays game num (id), whose single references are refs (low 32
// bits: the hashes, in order), and reports the positions only single
// references reach, or gathers them when other games may reach them too.
func (r *singleReplayer) game(id store.GameID, stamp uint64, refs []uint64) error {
	return r.replay(id, stamp, func(h uint32) bool {
		_, ok := slices.BinarySearchFunc(refs, h, func(v uint64, h uint32) int { return cmp.Compare(uint32(v), h) })
		return ok
	}, func(pos []byte, h uint32, mv board.Move, occ *stats.Occurrence) error {
		if r.reached != nil {
			r.reached[h] = true
		}
		if r.isRecord(h) {
			found, err := r.st.StatsRecordInto(&r.e, pos)
			if err != nil {
				return err
			}
			if found {
				return nil // reported with the statistics records
			}
		}
		if r.isMulti(h) {
			return nil // other games may reach it too: Positions reported it
		}
		r.e.Reset()
		r.e.AddOccurrence(mv, occ)
		return r.fn(pos, &r.e)
	})
}

// replay replays game id (first-seen stamp stamp) and calls found with
// each position it counted (as the builder counts) whose hash want
// accepts, with that hash, the move played there and what the game adds to it. pos
// and occ are only valid during the call.
func (r *singleReplayer) replay(id store.GameID, stamp uint64, want func(h uint32) bool, found func(pos []byte, h uint32, mv board.Move, occ *stats.Occurrence) error) error {
	rec, err := r.st.Game(id)
	if err != nil {
		return fmt.Errorf("single reference: %w", err)
	}
	var stop func(int, *board.Position, board.Move) bool
	if r.limit >= 0 {
		// Only the moves played up to the limit are decoded.
		stop = func(_ int, p *board.Position, _ board.Move) bool { return counting.PlyOf(p) >= r.limit }
	}
	g, err := gamecode.DecodeGameUntil(rec, stop)
	if err != nil {
		return fmt.Errorf("game %s: %w", id, err)
	}
	it := &r.counts
	it.Reset(&g.Start, g.Moves, counting.CountOf(&g, id, stamp))
	for it.Next() {
		if r.limit >= 0 && counting.PlyOf(&it.Pos) > r.limit {
			break
		}
		h := store.SingleHashOf(it.Hash)
		if !want(h) {
			continue
		}
		r.key = keys.Append(r.key[:0], &it.Pos)
		if err := found(r.key, h, it.Move, it.Occurrence()); err != nil {
			return err
		}
	}
	return nil
}
