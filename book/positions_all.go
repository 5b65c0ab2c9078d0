package book

import (
	"bytes"
	"cmp"
	"context"
	"encoding/binary"
	"fmt"
	"github.com/chessbook/chessbook/book/counting"
	"github.com/chessbook/chessbook/internal/runfiles"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/gamecode"
	"github.com/chessbook/chessbook/internal/scratch"
	"github.com/chessbook/chessbook/internal/tally"
	"github.com/chessbook/chessbook/keys"
	"github.com/chessbook/chessbook/stats"
	"github.com/chessbook/chessbook/store"
	"github.com/cockroachdb/pebble/v2/vfs"
)

// Every position of a store without a ply limit, in memory that does not
// grow with the store beyond 8 bytes per statistics record:
//
//  1. the hashes of the statistics records, sorted (with a bound of their
//     games, to prune);
//  2. the single references, read in hash order and merge-joined with
//     them, pick the references to replay: those under the hash of a
//     record, or under a hash several games are referenced under, that
//     may reach minGames;
//  3. those references are read a range of game numbers at a time (at
//     most positionsLimits.wantChunk in memory), and their games replayed once, on two
//     goroutines, each only until it reached every hash it is referenced
//     under (a game has one counted occurrence under the hash of each of
//     its single references: see tally.Table.FlushSplit);
//  4. what the games add is tallied (tally.Table) and spilled in sorted
//     runs to a temporary directory (package internal/runfiles), whose k-way merge is
//     joined with the statistics records in key order.

// positionsLimits bound positionsAll's memory; tests lower them (see
// PositionsOptions.limits) to make the chunks and the spills happen on
// small stores, and read what happened.
type positionsLimits struct {
	// wantChunk is the most references to replay held at once (8 bytes
	// each).
	wantChunk int
	// spillOccurrences is the most occurrences a replay worker tallies
	// before it spills them to a sorted run (tally.RecordBytes and a key
	// each).
	spillOccurrences int
	// chunks and runs count the ranges of game numbers replayed and the
	// runs spilled.
	chunks, runs int
}

// defaultLimits are positionsAll's limits: 64 MiB of references, and
// about 100 MiB of tallied occurrences per replay worker.
var defaultLimits = positionsLimits{wantChunk: 8 << 20, spillOccurrences: 1 << 20}

// replayWorkers is the number of goroutines that replay games.
const replayWorkers = 2

// recordHash is the hash of a statistics record's position (high 32 bits)
// and a bound of its games (low 32).
type recordHash = uint64

// refGroup is the single references under one hash: their game numbers.
type refGroup struct {
	hash uint32
	nums []uint64
}

// positionsAll is PositionsWith without a ply limit.
func positionsAll(ctx context.Context, st *store.Store, o PositionsOptions, fn func(pos []byte, e *stats.Entry) error) error {
	minGames := o.MinGames
	progress := o.Progress
	if progress == nil {
		progress = func(string, int64, int64) {}
	}
	lim := o.limits
	if lim == nil {
		l := defaultLimits
		lim = &l
	}
	recs, records, err := recordHashes(ctx, st, minGames, o.PerMove, progress)
	if err != nil {
		return err
	}
	// classify says whether the references under a hash are replayed,
	// from the records' bound and their number; recs is read in hash
	// order, as the references come.
	var ri int
	classify := func(g *refGroup) (record, want bool) {
		for ri < len(recs) && uint32(recs[ri]>>32) < g.hash {
			ri++
		}
		n := uint64(len(g.nums))
		if ri < len(recs) && uint32(recs[ri]>>32) == g.hash {
			return true, minGames <= 1 || uint64(uint32(recs[ri]))+n >= minGames
		}
		return false, n >= 2 && n >= minGames
	}
	// First pass: how many references are replayed in each range of game
	// numbers, the hashes a single game is referenced under among those
	// of records (what it adds to another position under that hash is
	// left to the lone singles), and with minGames <= 1 the hashes of
	// several games.
	end := max(st.Meta().NextGame, 1)
	const buckets = 1024
	var (
		perBucket [buckets]int64
		lone      []uint32 // record hashes of one reference
		multi     []uint32 // hashes of several references (minGames <= 1)
		total     int
	)
	bucketOf := func(num uint64) int { return int(min(num*buckets/end, buckets-1)) }
	// The games to replay, one bit each, and how many: the total of the
	// replay's progress (often few of the store's games).
	wantGame := make([]uint64, end/64+1)
	var toReplay int64
	err = eachRefGroup(ctx, st, progress, func(g *refGroup) error {
		total += len(g.nums)
		record, want := classify(g)
		if len(g.nums) >= 2 && minGames <= 1 {
			multi = append(multi, g.hash)
		}
		if !want {
			return nil
		}
		if record && len(g.nums) == 1 {
			lone = append(lone, g.hash)
		}
		for _, num := range g.nums {
			perBucket[bucketOf(num)]++
			if num >= end {
				continue // a damaged reference: no game to replay
			}
			if w, bit := &wantGame[num/64], uint64(1)<<(num%64); *w&bit == 0 {
				*w |= bit
				toReplay++
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	tmp, err := newTempScratch()
	if err != nil {
		return err
	}
	defer tmp.removeAll()
	agg := &spillAggregator{scratch: tmp, spillOccurrences: lim.spillOccurrences}
	defer agg.remove()
	// The ranges of game numbers, each with at most wantChunk references
	// (or one bucket): bucket b holds the numbers from startOf(b).
	startOf := func(b int) uint64 {
		if b >= buckets {
			return end
		}
		return (uint64(b)*end + buckets - 1) / buckets
	}
	var replayed atomic.Int64
	for b := 0; b < buckets; {
		var n int64
		e := b
		for e < buckets && (e == b || n+perBucket[e] <= int64(lim.wantChunk)) {
			n += perBucket[e]
			e++
		}
		if lo, hi := max(startOf(b), 1), startOf(e); n > 0 && hi > lo {
			ri = 0
			lim.chunks++
			if err := replayChunk(ctx, st, agg, classify, lo, hi, n, &replayed, toReplay, progress); err != nil {
				return err
			}
		}
		b = e
	}
	if toReplay > 0 {
		progress("games replayed", replayed.Load(), toReplay)
	}
	lim.runs = len(agg.runs)
	if err := joinRecords(ctx, st, agg, lone, records, fn, progress); err != nil {
		return err
	}
	agg.remove()
	if minGames > 1 {
		return nil
	}
	singles := newSingleReplayer(st, -1)
	singles.fn, singles.progress = fn, progress
	singles.isRecord = func(h uint32) bool {
		_, ok := slices.BinarySearchFunc(recs, h, func(r recordHash, h uint32) int { return cmp.Compare(uint32(r>>32), h) })
		return ok
	}
	singles.isMulti = func(h uint32) bool { _, ok := slices.BinarySearch(multi, h); return ok }
	return singles.singlePositions(ctx, total)
}

// recordHashes returns the hashes of the statistics records, sorted, each
// with a bound of its position's games (the most of the records under the
// hash): with perMove the games of its most played move, else all its
// games; 0 when minGames <= 1 (no pruning, the entries are not read).
// It also returns the number of records.
func recordHashes(ctx context.Context, st *store.Store, minGames uint64, perMove bool, progress func(string, int64, int64)) ([]recordHash, int64, error) {
	var recs []recordHash
	err := positionKeys(ctx, st, minGames > 1, progress, func(pos []byte, e *stats.Entry) {
		var games uint64
		if e != nil {
			if perMove {
				for i := range e.Moves {
					games = max(games, e.Moves[i].Games())
				}
			} else {
				games = e.Total().Games()
			}
		}
		recs = append(recs, uint64(store.SingleHash(pos))<<32|min(games, 1<<32-1))
	})
	if err != nil {
		return nil, 0, err
	}
	records := int64(len(recs))
	slices.Sort(recs)
	// Under each hash, the last (the highest bound) stays.
	out := recs[:0]
	for i, r := range recs {
		if i+1 < len(recs) && recs[i+1]>>32 == r>>32 {
			continue
		}
		out = append(out, r)
	}
	return slices.Clip(out), records, nil
}

// eachRefGroup calls fn with the single references of each hash, in hash
// order. The group is only valid during the call.
func eachRefGroup(ctx context.Context, st *store.Store, progress func(string, int64, int64), fn func(g *refGroup) error) error {
	var g refGroup
	n := 0
	err := st.AllSingles(func(r store.SingleRef) (bool, error) {
		if n++; n%(1<<16) == 0 {
			if ctx.Err() != nil {
				return false, ctx.Err()
			}
			if progress != nil {
				progress("game references read", int64(n), 0)
			}
		}
		if len(g.nums) > 0 && r.Hash != g.hash {
			if err := fn(&g); err != nil {
				return false, err
			}
			g.nums = g.nums[:0]
		}
		g.hash = r.Hash
		g.nums = append(g.nums, r.Game)
		return true, nil
	})
	if err != nil {
		return err
	}
	if len(g.nums) > 0 {
		return fn(&g)
	}
	return nil
}

// replayJob is a game to replay and the hashes of its wanted references,
// sorted.
type replayJob struct {
	id     store.GameID
	stamp  uint64
	hashes []uint32
}

// replayChunk replays the games numbered [lo, hi) that classify wants
// (n references in all) and gives what they add to agg.
func replayChunk(ctx context.Context, st *store.Store, agg *spillAggregator, classify func(*refGroup) (bool, bool),
	lo, hi uint64, n int64, replayed *atomic.Int64, toReplay int64, progress func(string, int64, int64)) error {
	refs := make([]uint64, 0, n) // (number - lo) << 32 | hash
	// Finding the chunk's games is part of the replay: its progress.
	scanning := func(string, int64, int64) { progress("games replayed", replayed.Load(), toReplay) }
	err := eachRefGroup(ctx, st, scanning, func(g *refGroup) error {
		if _, want := classify(g); !want {
			return nil
		}
		for _, num := range g.nums {
			if num >= lo && num < hi {
				refs = append(refs, (num-lo)<<32|uint64(g.hash))
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	slices.Sort(refs)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	jobs := make(chan []replayJob, 2*replayWorkers)
	errs := make([]error, replayWorkers)
	var wg sync.WaitGroup
	for w := range replayWorkers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rw := newReplayWorker(st, agg)
			for batch := range jobs {
				if errs[w] != nil {
					continue // drain
				}
				for i := range batch {
					if err := rw.game(&batch[i]); err != nil {
						errs[w] = err
						cancel()
						break
					}
				}
			}
			if errs[w] == nil {
				errs[w] = rw.flush()
			}
		}()
	}
	var batch []replayJob
	i := 0
	err = st.GameNumbers(lo, hi, func(num uint64, id store.GameID, stamp uint64) (bool, error) {
		if i == len(refs) {
			return false, nil
		}
		off := num - lo
		if refs[i]>>32 != off {
			return true, nil
		}
		j := i
		hs := make([]uint32, 0, 8)
		for ; j < len(refs) && refs[j]>>32 == off; j++ {
			hs = append(hs, uint32(refs[j]))
		}
		i = j
		batch = append(batch, replayJob{id: id, stamp: stamp, hashes: hs})
		if len(batch) == 256 {
			select {
			case jobs <- batch:
			case <-ctx.Done():
				return false, ctx.Err()
			}
			batch = nil
			if r := replayed.Add(256); r/4096 != (r-256)/4096 {
				progress("games replayed", r, toReplay)
			}
		}
		return true, nil
	})
	if err == nil && len(batch) > 0 {
		select {
		case jobs <- batch:
		case <-ctx.Done():
		}
		replayed.Add(int64(len(batch)))
	}
	close(jobs)
	wg.Wait()
	// A worker's error first: the others then stopped on the
	// cancelled context.
	for _, e := range errs {
		if e != nil {
			err = e
			break
		}
	}
	if err == nil && i < len(refs) {
		err = fmt.Errorf("single reference to game number %d: %w", lo+refs[i]>>32, store.ErrGameNotFound)
	}
	if err == nil {
		err = ctx.Err()
	}
	return err
}

// replayWorker replays games for positionsAll and tallies what they add
// to the positions under their wanted hashes.
type replayWorker struct {
	st     *store.Store
	agg    *spillAggregator
	counts counting.Walker
	table  *tally.Table
	found  []bool
	hasher keys.Hasher
	key    []byte
}

func newReplayWorker(st *store.Store, agg *spillAggregator) *replayWorker {
	w := &replayWorker{st: st, agg: agg, table: tally.NewTable(agg.spillOccurrences)}
	m := st.Meta()
	w.counts.SetRule(m.MaxPly, m.CountMode)
	return w
}

// game replays one game, decoding it only until it reached every hash of
// j.
func (w *replayWorker) game(j *replayJob) error {
	rec, err := w.st.Game(j.id)
	if err != nil {
		return fmt.Errorf("single reference: %w", err)
	}
	hs := j.hashes
	w.found = slices.Grow(w.found[:0], len(hs))[:len(hs)]
	clear(w.found)
	left := len(hs)
	g, err := gamecode.DecodeGameUntil(rec, func(ply int, p *board.Position, m board.Move) bool {
		if ply == 0 {
			w.hasher.Reset(p)
		}
		h := store.SingleHashOf(w.hasher.Hash(p))
		w.hasher.Play(p, m)
		if i, ok := slices.BinarySearch(hs, h); ok && !w.found[i] {
			w.found[i] = true
			left--
		}
		return left == 0
	})
	if err != nil {
		return fmt.Errorf("game %s: %w", j.id, err)
	}
	if !w.table.HasRoom(len(hs)) {
		if err := w.flush(); err != nil {
			return err
		}
	}
	it := &w.counts
	it.Reset(&g.Start, g.Moves, counting.CountOf(&g, j.id, j.stamp))
	for it.Next() {
		h := store.SingleHashOf(it.Hash)
		if _, ok := slices.BinarySearch(hs, h); !ok {
			continue
		}
		w.key = keys.Append(w.key[:0], &it.Pos)
		occ := *it.Occurrence()
		occ.Hash = h
		w.table.AddOccurrence(w.key, it.Move, &occ)
	}
	return nil
}

// flush spills the worker's table to a sorted run.
func (w *replayWorker) flush() error {
	if w.table.Len() == 0 {
		return nil
	}
	return w.agg.spill(w.table)
}

// spillAggregator holds the sorted runs the replay workers spill: each a
// runfiles.Positions section of position key -> SingleHash + encoded
// stats.Entry.
type spillAggregator struct {
	scratch          *tempScratch
	spillOccurrences int // per replay worker
	mu               sync.Mutex
	runs             []*runfiles.Run
}

// spill writes t's positions to a new run and empties t.
func (a *spillAggregator) spill(t *tally.Table) error {
	rw := runfiles.NewWriter(a.scratch)
	var val []byte
	err := t.FlushSplit(func(key []byte, hash uint32, enc, _ []byte) error {
		val = binary.BigEndian.AppendUint32(val[:0], hash)
		val = append(val, enc...)
		return rw.Add(runfiles.Positions, key, val)
	}, nil)
	if err != nil {
		rw.Abort()
		return err
	}
	r, err := rw.Finish()
	if err != nil {
		return err
	}
	a.mu.Lock()
	a.runs = append(a.runs, r)
	a.mu.Unlock()
	return nil
}

// remove removes the runs' files.
func (a *spillAggregator) remove() {
	for _, r := range a.runs {
		r.Remove(a.scratch)
	}
	a.runs = nil
}

// joinRecords calls fn with every statistics record, merged with what the
// replays added to its position, and with the positions the replays
// found under a hash of several references that have no record, all in
// key order. Positions under the hash of a record with one reference
// (lone) that are not the record's are left to the lone singles.
func joinRecords(ctx context.Context, st *store.Store, agg *spillAggregator, lone []uint32, records int64, fn func(pos []byte, e *stats.Entry) error, progress func(string, int64, int64)) error {
	it, err := st.NewStatsIter()
	if err != nil {
		return err
	}
	defer func() { _ = it.Close() }()
	var e, x stats.Entry
	n := int64(0)
	ok := it.First()
	record := func(extra []byte) error {
		if n++; n%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
			progress("positions with statistics read", n, records)
		}
		if err := it.EntryInto(&e); err != nil {
			return err
		}
		if extra != nil {
			if err := stats.DecodeInto(&x, extra); err != nil {
				return fmt.Errorf("replayed position %x: %w", it.Key(), err)
			}
			e.Merge(x)
		}
		if err := fn(it.Key(), &e); err != nil {
			return err
		}
		ok = it.Next()
		return nil
	}
	err = runfiles.MergeSection(agg.scratch, agg.runs, runfiles.Positions, runfiles.Pairwise(runfiles.MergePositionValues), func(k, v []byte) error {
		if len(v) < 4 {
			return fmt.Errorf("replayed position %x: short record", k)
		}
		for ok && bytes.Compare(it.Key(), k) < 0 {
			if err := record(nil); err != nil {
				return err
			}
		}
		if ok && bytes.Equal(it.Key(), k) {
			return record(v[4:])
		}
		if _, isLone := slices.BinarySearch(lone, binary.BigEndian.Uint32(v)); isLone {
			return nil
		}
		if err := stats.DecodeInto(&x, v[4:]); err != nil {
			return fmt.Errorf("replayed position %x: %w", k, err)
		}
		return fn(k, &x)
	})
	if err != nil {
		return err
	}
	for ok {
		if err := record(nil); err != nil {
			return err
		}
	}
	progress("positions with statistics read", n, n)
	return it.Close()
}

// tempScratch is a temporary directory for the sorted runs of a reader of
// a store, which may be open read-only: in the system's temporary
// directory, locked while the reader runs (package internal/scratch).
type tempScratch struct {
	dir  string
	lock *os.File // dir open, holding its lock
	seq  atomic.Int64
}

// tempScratchPattern names the directories of tempScratch.
const tempScratchPattern = "chessbook-positions-*"

// newTempScratch makes a tempScratch, after removing the directories
// that killed readers left.
func newTempScratch() (*tempScratch, error) {
	scratch.RemoveStale(os.TempDir(), tempScratchPattern)
	lock, err := scratch.CreateLocked(os.TempDir(), tempScratchPattern, true)
	if err != nil {
		return nil, fmt.Errorf("scratch directory: %w", err)
	}
	return &tempScratch{dir: lock.Name(), lock: lock}, nil
}

// CreateScratch creates a new file in the directory.
func (s *tempScratch) CreateScratch() (vfs.File, string, error) {
	path := filepath.Join(s.dir, fmt.Sprintf("%06d.run", s.seq.Add(1)))
	f, err := vfs.Default.Create(path, vfs.WriteCategoryUnspecified)
	if err != nil {
		return nil, "", fmt.Errorf("scratch file: %w", err)
	}
	return f, path, nil
}

// OpenScratch opens a file CreateScratch made.
func (s *tempScratch) OpenScratch(path string) (vfs.File, error) {
	f, err := vfs.Default.Open(path)
	if err != nil {
		return nil, fmt.Errorf("scratch file: %w", err)
	}
	return f, nil
}

// RemoveScratch removes a file CreateScratch made.
func (s *tempScratch) RemoveScratch(path string) error {
	if err := vfs.Default.Remove(path); err != nil {
		return fmt.Errorf("scratch file: %w", err)
	}
	return nil
}

// removeAll removes the directory, and releases its lock.
func (s *tempScratch) removeAll() {
	_ = os.RemoveAll(s.dir)
	_ = s.lock.Close()
}
