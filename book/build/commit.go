package build

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"github.com/chessbook/chessbook/internal/runfiles"
	"slices"
	"sync"

	"github.com/chessbook/chessbook/gamedb"
	"github.com/chessbook/chessbook/internal/tally"
	"github.com/chessbook/chessbook/stats"
	"github.com/chessbook/chessbook/store"
)

// The commit side of the write path: a unit (a worker's table and the
// games it counts) is spilled as a sorted run (writeRun, writeRecords),
// and batches of runs are merged into sstables and ingested into the
// store in one atomic step (commit).

// unit is what is committed in one atomic ingestion: a table of statistics
// and the games they come from.
type unit struct {
	t         *tally.Table
	games     gameBatch
	positions int64 // (position, move) occurrences added to t
	// ep holds the occurrences of positions with a PolyGlot-only
	// en-passant file (see worker.addEP), keyed by that file's byte then
	// the position key; nil until the first one.
	ep *tally.Table
	// singles, val and index are writeRecords' scratch.
	singles []uint64 // the single references of one hash: hash << 32 | the game's index in games.games
	val     []byte
	index   gamedb.Batch // the game index records of the unit's games
}

// spill writes unit u as a sorted run (see writeRecords) that waits for
// its commit. The unit is empty afterwards, whatever happened; its games
// stay claimed (see dedupe) until the run is committed or dropped.
func (b *Builder) spill(u *unit) error {
	r, err := b.writeRun(u)
	b.mu.Lock()
	if r != nil {
		b.pending = append(b.pending, r)
		b.pendingN += len(r.games)
		b.stats.Flushes++
	} else {
		b.stats.Uncommitted += int64(len(u.games.games))
	}
	b.mu.Unlock()
	if r == nil {
		b.dedupe.release(u.games.games, false)
	}
	u.games.reset()
	u.t.Reset()
	if u.ep != nil {
		u.ep.Reset()
	}
	u.positions = 0
	return err
}

// writeRun writes unit u as a sorted run. It returns a nil run, and no
// error, when the build is failing or interrupted (the unit is dropped).
func (b *Builder) writeRun(u *unit) (*run, error) {
	if b.err() != nil || b.dropping() {
		return nil, nil
	}
	w := runfiles.NewWriter(b.st)
	if err := b.writeRecords(w, u); err != nil {
		w.Abort()
		if err == errAborted {
			return nil, nil
		}
		return nil, fmt.Errorf("flushing to the store: %w", err)
	}
	f, err := w.Finish()
	if err != nil {
		return nil, fmt.Errorf("flushing to the store: %w", err)
	}
	return &run{Run: f, games: slices.Clone(u.games.games), positions: u.positions}, nil
}

// run is a sorted run (package internal/runfiles) waiting for its
// commit, with what it counts.
type run struct {
	*runfiles.Run
	games     []pendingGame // the run's games (for dedupe.release; offsets are stale)
	positions int64         // occurrences added
}

// files returns the runs' files, for their merges.
func files(runs []*run) []*runfiles.Run {
	fs := make([]*runfiles.Run, len(runs))
	for i, r := range runs {
		fs[i] = r.Run
	}
	return fs
}

// commit merges runs into one set of sstables and ingests them with the
// number of their games in one atomic ingestion. The runs' files are
// removed, whatever happened.
func (b *Builder) commit(runs []*run) error {
	if len(runs) == 0 {
		return nil
	}
	committed := false
	defer func() {
		var games, positions int64
		for _, r := range runs {
			r.Remove(b.st)
			games += int64(len(r.games))
			positions += r.positions
			b.dedupe.release(r.games, committed)
		}
		b.mu.Lock()
		if committed {
			b.stats.Games += games
			b.stats.Positions += positions
			b.stats.Commits++
		} else {
			b.stats.Uncommitted += games
		}
		total := b.stats.Games
		b.mu.Unlock()
		if committed && b.onCommit != nil {
			b.onCommit(total)
		}
	}()
	if b.err() != nil || b.aborted.Load() {
		return nil // the build is failing or interrupted: drop the rest
	}
	// Four writers, filled in parallel, their key ranges apart: the
	// single references, the histories, the game index, and everything
	// else.
	var ssts [4]*store.SSTWriter
	closeAll := func() {
		for _, w := range ssts {
			if w != nil {
				w.Close()
			}
		}
	}
	for i := range ssts {
		w, err := b.st.NewSSTWriter()
		if err != nil {
			closeAll()
			return fmt.Errorf("committing to the store: %w", err)
		}
		ssts[i] = w
	}
	sst := ssts[0]
	seen, refsSeen := newDistinctCounter(), newDistinctCounter()
	var errs [4]error
	var wg sync.WaitGroup
	wg.Add(3)
	go func() {
		defer wg.Done()
		errs[1] = b.mergeSingles(ssts[1], runs, refsSeen)
	}()
	go func() {
		defer wg.Done()
		errs[2] = runfiles.MergeSection(b.st, files(runs), runfiles.History, runfiles.MergeHistories(), func(k, v []byte) error {
			if b.aborted.Load() {
				return errAborted
			}
			return ssts[2].MergeHistory(k, v)
		})
	}()
	go func() {
		defer wg.Done()
		errs[3] = runfiles.MergeSection(b.st, files(runs), runfiles.Index, runfiles.Pairwise(store.MergeTally), func(k, v []byte) error {
			return gamedb.Put(ssts[3], k, v)
		})
	}()
	errs[0] = b.mergeRuns(sst, runs, seen)
	wg.Wait()
	var err error
	for _, e := range errs { // a real error before errAborted
		if e != nil && (err == nil || err == errAborted) {
			err = e
		}
	}
	if err == errAborted {
		closeAll()
		return nil // dropped, as Abort asks
	}
	if err == nil {
		var games uint64
		for _, r := range runs {
			games += uint64(len(r.games))
		}
		sst.AddGames(games)
		if b.opts.hook != nil {
			b.opts.hook(hookCommit, nil)
		}
		// The index covers every game after this commit when it did
		// before (an empty store's does).
		if m := b.st.Meta(); m.GameIndex == gamedb.Version || m.Games == 0 {
			sst.SetGameIndex(gamedb.Version)
		}
		err = sst.IngestWith(ssts[1], ssts[2], ssts[3])
		committed = err == nil
		if committed && b.opts.hook != nil {
			b.opts.hook(hookCommitted, nil)
		}
	}
	if err != nil {
		closeAll()
		return fmt.Errorf("committing to the store: %w", err)
	}
	seen.merge(refsSeen)
	b.mu.Lock()
	b.distinct.merge(seen)
	b.mu.Unlock()
	return nil
}

// mergeRuns merges the sections of runs into sst, in the order it wants
// them (see store.SSTWriter), and shows the positions' hashes to seen. It
// stops with errAborted when Abort was called.
func (b *Builder) mergeRuns(sst *store.SSTWriter, runs []*run, seen *distinctCounter) error {
	be64 := binary.BigEndian.Uint64
	bad := func(sec runfiles.Section, k, v []byte) error {
		return fmt.Errorf("sorted runs: bad %s record %x -> %x", sec, k, v)
	}
	err := runfiles.MergeSection(b.st, files(runs), runfiles.EP, runfiles.Pairwise(stats.MergeEncoded), func(k, v []byte) error {
		if len(k) < 2 {
			return bad(runfiles.EP, k, v)
		}
		return sst.MergeEPTrusted(int(k[0]), k[1:], v)
	})
	if err != nil {
		return err
	}
	err = runfiles.MergeSection(b.st, files(runs), runfiles.Games, nil, func(k, v []byte) error {
		if b.aborted.Load() {
			return errAborted
		}
		if len(k) != 8 {
			return bad(runfiles.Games, k, v)
		}
		return sst.SetGame(store.GameID(be64(k)), v)
	})
	if err != nil {
		return err
	}
	err = runfiles.MergeSection(b.st, files(runs), runfiles.Numbers, nil, func(k, v []byte) error {
		if len(k) != 8 || len(v) != 16 {
			return bad(runfiles.Numbers, k, v)
		}
		return sst.SetGameNumber(be64(k), store.GameID(be64(v)), be64(v[8:]))
	})
	if err != nil {
		return err
	}
	err = runfiles.MergeSection(b.st, files(runs), runfiles.Order, nil, func(k, v []byte) error {
		if len(k) != 16 {
			return bad(runfiles.Order, k, v)
		}
		return sst.SetGameOrder(be64(k), store.GameID(be64(k[8:])))
	})
	if err != nil {
		return err
	}
	return runfiles.MergeSection(b.st, files(runs), runfiles.Positions, runfiles.Pairwise(runfiles.MergePositionValues), func(k, v []byte) error {
		if b.aborted.Load() {
			return errAborted
		}
		if len(v) < 4 {
			return bad(runfiles.Positions, k, v)
		}
		seen.addHash(binary.BigEndian.Uint32(v))
		return sst.MergeTrusted(k, v[4:])
	})
}

// mergeSingles merges the single references of runs into sst, a bucket
// at a time, and shows their hashes to seen. It stops with errAborted
// when Abort was called.
func (b *Builder) mergeSingles(sst *store.SSTWriter, runs []*run, seen *distinctCounter) error {
	refs := b.refs[:0]
	flushRefs := func() error {
		if len(refs) == 0 {
			return nil
		}
		err := sst.MergeSingles(refs)
		refs = refs[:0]
		return err
	}
	err := runfiles.MergeRefs(b.st, files(runs), func(h uint32, num uint64) error {
		if len(refs) > 0 && store.SingleBucket(refs[0].Hash) != store.SingleBucket(h) {
			if b.aborted.Load() {
				return errAborted
			}
			if err := flushRefs(); err != nil {
				return err
			}
		}
		seen.addHash(h)
		refs = append(refs, store.SingleRef{Hash: h, Game: num})
		return nil
	})
	if err == nil {
		err = flushRefs()
	}
	b.refs = refs[:0]
	return err
}

// writeRecords writes the records of unit u to the run w (see package internal/runfiles).
// It stops with errAborted when Abort or Interrupt was called.
func (b *Builder) writeRecords(w *runfiles.Writer, u *unit) error {
	be := binary.BigEndian
	if u.ep != nil && u.ep.Len() > 0 {
		err := u.ep.Flush(func(key, enc []byte) error {
			return w.Add(runfiles.EP, key, enc)
		})
		if err != nil {
			return err
		}
	}
	base, err := b.writeGames(w, &u.games, &u.index)
	if err != nil {
		return err
	}
	// Single references come in hash order: each is written at once, but
	// those of one hash (when hashes collide) together, by game.
	var single func(h, local uint32) error
	group := u.singles[:0]
	writeGroup := func() error {
		if len(group) > 1 {
			slices.Sort(group)
		}
		for _, x := range group {
			if err := w.AddSingle(x); err != nil {
				return err
			}
		}
		group = group[:0]
		return nil
	}
	if base != 0 && b.singles() {
		w.SetBase(base)
		single = func(h, local uint32) error {
			x := uint64(h)<<32 | uint64(local)
			if len(group) > 0 && group[0]>>32 != uint64(h) {
				if err := writeGroup(); err != nil {
					return err
				}
			}
			group = append(group, x)
			return nil
		}
	}
	err = u.t.FlushSplit(func(key []byte, h uint32, enc, hist []byte) error {
		if b.dropping() {
			return errAborted
		}
		u.val = be.AppendUint32(u.val[:0], h)
		u.val = append(u.val, enc...)
		if err := w.Add(runfiles.Positions, key, u.val); err != nil {
			return err
		}
		return w.Add(runfiles.History, key, hist)
	}, single)
	if err != nil || single == nil {
		return err
	}
	err = writeGroup()
	u.singles = group // keep the memory
	if err != nil {
		return err
	}
	if b.dropping() {
		return errAborted
	}
	return nil
}

// writeGames writes what the store keeps of each game of games to the
// run w: its record under its id (runfiles.Games), and the game numbers that
// single references know the games by (runfiles.Numbers, numbered in arrival
// order, their index in games.games) and the game order index of -count
// occurrence builds (runfiles.Order), which it sorts games by. Every record a
// stored game has is written here, and committed with the statistics the
// game adds. It returns the number of the first game (0 without single
// references). It stops with errAborted when Abort or Interrupt was called.
func (b *Builder) writeGames(w *runfiles.Writer, games *gameBatch, index *gamedb.Batch) (base uint64, err error) {
	var kv [16]byte
	be := binary.BigEndian
	index.Reset()
	if len(games.games) > 0 {
		base = b.numbers(len(games.games))
		for i, g := range games.games {
			be.PutUint64(kv[:8], uint64(g.id))
			be.PutUint64(kv[8:], g.stamp)
			var k [8]byte
			be.PutUint64(k[:], base+uint64(i))
			if err := w.Add(runfiles.Numbers, k[:], kv[:]); err != nil {
				return 0, err
			}
			if err := index.Add(base+uint64(i), games.buf[g.end:g.entEnd]); err != nil {
				return 0, fmt.Errorf("game %s: %w", g.id, err)
			}
		}
	}
	for _, g := range games.sorted() {
		if b.dropping() {
			return 0, errAborted
		}
		be.PutUint64(kv[:8], uint64(g.id))
		if err := w.Add(runfiles.Games, kv[:8], games.buf[g.off:g.end]); err != nil {
			return 0, err
		}
	}
	if b.opts.CountMode == store.CountOccurrence { // the only builds with stamps
		if err := writeOrder(w, games.games); err != nil {
			return 0, err
		}
	}
	err = index.Records(func(k, v []byte) error { return w.Add(runfiles.Index, k, v) })
	index.Reset()
	if err != nil {
		return 0, err
	}
	return base, nil
}

// numbers hands out n game numbers (see store.SSTWriter.SetGameNumber)
// and returns the first. Numbers of a flush that fails are not used again.
func (b *Builder) numbers(n int) uint64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.nextGame == 0 {
		b.nextGame = max(b.st.Meta().NextGame, 1)
	}
	first := b.nextGame
	b.nextGame += uint64(n)
	return first
}

// writeOrder writes the game order records of games (see
// store.SSTWriter.SetGameOrder), those with a first-seen stamp, to the run
// w, in stamp order. It sorts games in place: their records are written
// already.
func writeOrder(w *runfiles.Writer, games []pendingGame) error {
	slices.SortFunc(games, func(x, y pendingGame) int {
		if c := cmp.Compare(x.stamp, y.stamp); c != 0 {
			return c
		}
		return cmp.Compare(x.id, y.id)
	})
	var k [16]byte
	for _, g := range games {
		if g.stamp == 0 {
			continue
		}
		binary.BigEndian.PutUint64(k[:8], g.stamp)
		binary.BigEndian.PutUint64(k[8:], uint64(g.id))
		if err := w.Add(runfiles.Order, k[:], nil); err != nil {
			return err
		}
	}
	return nil
}

// pendingGame is one encoded game waiting in a unit: its id, where its
// record and then its game index entry are in the unit's buffer, and its
// first-seen stamp (0: none).
type pendingGame struct {
	id       store.GameID
	off, end int
	entEnd   int // the index entry is buf[end:entEnd]
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
