package book

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/gamecode"
	"github.com/chessbook/chessbook/gamedb"
	"github.com/chessbook/chessbook/ingest"
	"github.com/chessbook/chessbook/keys"
	"github.com/chessbook/chessbook/pgn"
	"github.com/chessbook/chessbook/stats"
	"github.com/chessbook/chessbook/store"
)

// Filter is a reason a replayed game was left out of the book.
type Filter uint8

// The filters, each counted in Stats.
const (
	FilterFEN    Filter = iota // started from a FEN (-standard-start-only)
	FilterRating               // a player below -min-rating or unrated
	FilterDate                 // outside -since/-until, or undated
	FilterSpeed                // not one of -speed, or no usable TimeControl
	numFilters
)

var filterNames = [numFilters]string{"starts from a FEN", "rating", "date", "speed"}

// String names the filter.
func (f Filter) String() string {
	if f < numFilters {
		return filterNames[f]
	}
	return "unknown"
}

// Stats are a build's counters.
type Stats struct {
	Games      int64 // games added to the book (and stored): committed to the store
	Duplicates int64 // games already in the store or earlier in the input
	// Uncommitted counts games that were accepted but whose write to the
	// store failed (or was dropped after an earlier failure): the build
	// failed, and a re-run adds them.
	Uncommitted int64
	Unstorable  int64             // games the game codec refused (a bug; see Errors)
	Filtered    [numFilters]int64 // games left out, by filter
	Positions   int64             // (position, move) occurrences added
	Distinct    int64             // distinct positions added, estimated (about 1% error)
	Flushes     int64             // sorted runs written
	Commits     int64             // atomic ingestions of runs into the store
	// Errors holds the first few reasons games could not be stored.
	Errors []string
}

// FilteredTotal returns the number of games left out by filters.
func (s *Stats) FilteredTotal() int64 {
	var n int64
	for _, c := range s.Filtered {
		n += c
	}
	return n
}

// Builder turns replayed games into book statistics in a store. Use Sink
// as the ingest pipeline's sink factory, then Finish.
type Builder struct {
	st   *store.Store
	opts Options

	mu      sync.Mutex
	workers []*worker
	stats   Stats

	// Tables rotate between the workers and one flusher goroutine: a worker
	// whose table is full hands it to the flusher and takes a free one, so
	// replay goes on while the full table is sorted and written.
	perTable  int // records per table
	unitGames int // bytes of game records (and their pendingGame entries) a unit holds at most
	// commitGames is the number of games in pending runs that makes a
	// commit, however few runs they are (see MemoryPlan.CommitGames).
	commitGames int
	free        chan *unit    // empty units
	full        chan *unit    // units waiting for the flusher
	done        chan struct{} // closed when the flusher has stopped
	// The flusher hands batches of runs to the committer goroutine, so
	// that flushes go on while a batch is merged and ingested.
	commits   chan []*run
	committed chan struct{}     // closed when the committer has stopped
	flushErr  error             // the flusher's first error (under mu)
	pending   []*run            // runs written and not committed yet (under mu)
	pendingN  int               // their games (under mu)
	commitAt  int               // the number of pending runs that makes a commit (see commitRuns)
	refs      []store.SingleRef // mergeRuns' scratch (one commit at a time)
	aborted   atomic.Bool       // Abort was called: drop what is not committed
	start     sync.Once
	distinct  *distinctCounter // the positions flushed so far (under mu)
	dedupe    *dedupe
	inputs    map[string]uint64 // input name -> 1 + its index
	nextGame  uint64            // the next game number to hand out; 0: not read from the store yet (under mu)
}

// unit is what is committed in one atomic ingestion: a table of statistics
// and the games they come from.
type unit struct {
	t         *stats.Table
	games     gameBatch
	positions int64 // (position, move) occurrences added to t
	// ep holds the occurrences of positions with a PolyGlot-only
	// en-passant file (see worker.addEP), keyed by that file's byte then
	// the position key; nil until the first one.
	ep *stats.Table
	// singles, val and index are writeRecords' scratch.
	singles []uint64 // the single references of one hash: hash << 32 | the game's index in games.games
	val     []byte
	index   gamedb.Batch // the game index records of the unit's games
}

// NewBuilder returns a Builder writing to st, which must have been opened
// with the same MaxPly and CountMode as opts. workers is the number of
// pipeline workers that will share the tables' memory: at most the
// Workers of PlanMemory(opts.Memory, ...), which sizes the tables (Build
// sees to both). A Memory under MinMemory is taken as MinMemory.
func NewBuilder(st *store.Store, opts Options, workers int) *Builder {
	if opts.CountMode == "" {
		opts.CountMode = store.CountGame
	}
	workers = max(workers, 1)
	plan, err := PlanMemory(opts.Memory, workers, opts.CommitRuns)
	if err != nil {
		plan, _ = PlanMemory(MinMemory, workers, opts.CommitRuns)
	}
	// One table per worker plus one being flushed; a tenth of each
	// table's share is for its games' records.
	tables, commitAt := plan.Tables, plan.CommitRuns
	if opts.MemBudget > 0 {
		tables, commitAt = opts.MemBudget, commitRuns(opts)
	}
	per := int(tables / int64(workers+1) * 10 / 11 / stats.RecordBytes)
	per = max(per, 1024)
	inputs := make(map[string]uint64, len(opts.Inputs))
	for i, name := range opts.Inputs {
		if _, dup := inputs[name]; !dup {
			inputs[name] = uint64(i + 1)
		}
	}
	return &Builder{st: st, opts: opts, perTable: per, unitGames: per * stats.RecordBytes / 10,
		commitAt: commitAt, commitGames: plan.CommitGames, distinct: newDistinctCounter(),
		free: make(chan *unit, workers+1), full: make(chan *unit, workers+1), done: make(chan struct{}),
		commits: make(chan []*run), committed: make(chan struct{}),
		dedupe: newDedupe(opts.KeepDuplicates, st.Meta().Games > 0), inputs: inputs}
}

func (b *Builder) newUnit() *unit {
	t := stats.NewTable(b.perTable)
	t.KeepHistory()
	return &unit{t: t}
}

// flusher writes the full tables as sorted runs, one at a time, commits
// the runs when enough are pending, and returns the tables to the free
// list.
func (b *Builder) flusher() {
	defer close(b.done)
	for u := range b.full {
		b.setErr(b.spill(u))
		b.free <- u // emptied by spill
		b.mu.Lock()
		var runs []*run
		if len(b.pending) >= b.commitAt || b.pendingN >= b.commitGames {
			runs, b.pending, b.pendingN = b.pending, nil, 0
		}
		b.mu.Unlock()
		if runs != nil {
			b.commits <- runs
		}
	}
}

// committer commits the batches of runs the flusher hands it.
func (b *Builder) committer() {
	defer close(b.committed)
	for runs := range b.commits {
		b.setErr(b.commit(runs))
	}
}

// setErr records err, if not nil, as the build's error unless it has one.
func (b *Builder) setErr(err error) {
	if err == nil {
		return
	}
	b.mu.Lock()
	if b.flushErr == nil {
		b.flushErr = err
	}
	b.mu.Unlock()
}

// commitRuns returns the number of runs pending from which the flusher
// commits them when the tables' memory is set (Options.MemBudget):
// o.CommitRuns, or one per 8 MiB of MemBudget, between 4 and 64.
// Otherwise PlanMemory says (64 at the default budget: about 100
// million occurrences, 1.6 million master games, a minute of work on the
// benchmark machine lost at most to a crash, and a single commit for
// inputs up to that size; a smaller budget commits more often).
func commitRuns(o Options) int {
	if o.CommitRuns > 0 {
		return o.CommitRuns
	}
	return int(min(max(o.MemBudget>>23, 4), 64))
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
	if b.err() != nil || b.aborted.Load() {
		return nil, nil
	}
	w := newRunWriter(b.st)
	if err := b.writeRecords(w, u); err != nil {
		w.abort()
		if err == errAborted {
			return nil, nil
		}
		return nil, fmt.Errorf("flushing to the store: %w", err)
	}
	r, err := w.finish()
	if err != nil {
		return nil, fmt.Errorf("flushing to the store: %w", err)
	}
	r.games = slices.Clone(u.games.games)
	r.positions = u.positions
	return r, nil
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
			r.remove(b.st)
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
		b.mu.Unlock()
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
		errs[2] = mergeSection(b.st, runs, secHistory, mergeHistories(), func(k, v []byte) error {
			if b.aborted.Load() {
				return errAborted
			}
			return ssts[2].MergeHistory(k, v)
		})
	}()
	go func() {
		defer wg.Done()
		errs[3] = mergeSection(b.st, runs, secIndex, gamedb.Combine, func(k, v []byte) error {
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
		// The index covers every game after this commit when it did
		// before (an empty store's does).
		if m := b.st.Meta(); m.GameIndex == gamedb.Version || m.Games == 0 {
			sst.SetGameIndex(gamedb.Version)
		}
		if b.opts.hook != nil {
			b.opts.hook(hookIngest, nil)
		}
		err = sst.IngestWith(ssts[1], ssts[2], ssts[3])
		committed = err == nil
		if committed && b.opts.hook != nil {
			b.opts.hook(hookIngested, nil)
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
	bad := func(sec section, k, v []byte) error {
		return fmt.Errorf("sorted runs: bad %s record %x -> %x", sectionNames[sec], k, v)
	}
	err := mergeSection(b.st, runs, secEP, pairwise(stats.MergeEncoded), func(k, v []byte) error {
		if len(k) < 2 {
			return bad(secEP, k, v)
		}
		return sst.MergeEPTrusted(int(k[0]), k[1:], v)
	})
	if err != nil {
		return err
	}
	err = mergeSection(b.st, runs, secGames, nil, func(k, v []byte) error {
		if b.aborted.Load() {
			return errAborted
		}
		if len(k) != 8 {
			return bad(secGames, k, v)
		}
		return sst.SetGame(store.GameID(be64(k)), v)
	})
	if err != nil {
		return err
	}
	err = mergeSection(b.st, runs, secNumbers, nil, func(k, v []byte) error {
		if len(k) != 8 || len(v) != 16 {
			return bad(secNumbers, k, v)
		}
		return sst.SetGameNumber(be64(k), store.GameID(be64(v)), be64(v[8:]))
	})
	if err != nil {
		return err
	}
	err = mergeSection(b.st, runs, secOrder, nil, func(k, v []byte) error {
		if len(k) != 16 {
			return bad(secOrder, k, v)
		}
		return sst.SetGameOrder(be64(k), store.GameID(be64(k[8:])))
	})
	if err != nil {
		return err
	}
	return mergeSection(b.st, runs, secPositions, pairwise(mergePositionValues), func(k, v []byte) error {
		if b.aborted.Load() {
			return errAborted
		}
		if len(v) < 4 {
			return bad(secPositions, k, v)
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
	err := mergeRefs(b.st, runs, func(h uint32, num uint64) error {
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

// writeRecords writes the records of unit u to the run w (see runs.go).
// It stops with errAborted when Abort was called.
func (b *Builder) writeRecords(w *runWriter, u *unit) error {
	var kv [16]byte
	be := binary.BigEndian
	if u.ep != nil && u.ep.Len() > 0 {
		err := u.ep.Flush(func(key, enc []byte) error {
			return w.add(secEP, key, enc)
		})
		if err != nil {
			return err
		}
	}
	// Games are numbered in arrival order (their index in u.games.games,
	// which single references know them by), before sorting by id; the
	// game index knows them by number too.
	var base uint64 // the number of the unit's first game
	u.index.Reset()
	if len(u.games.games) > 0 {
		base = b.numbers(len(u.games.games))
		for i, g := range u.games.games {
			be.PutUint64(kv[:8], uint64(g.id))
			be.PutUint64(kv[8:], g.stamp)
			var k [8]byte
			be.PutUint64(k[:], base+uint64(i))
			if err := w.add(secNumbers, k[:], kv[:]); err != nil {
				return err
			}
			if err := u.index.Add(base+uint64(i), u.games.buf[g.end:g.entEnd]); err != nil {
				return fmt.Errorf("game %s: %w", g.id, err)
			}
		}
	}
	for _, g := range u.games.sorted() {
		if b.aborted.Load() {
			return errAborted
		}
		be.PutUint64(kv[:8], uint64(g.id))
		if err := w.add(secGames, kv[:8], u.games.buf[g.off:g.end]); err != nil {
			return err
		}
	}
	if b.opts.CountMode == store.CountOccurrence { // the only builds with stamps
		if err := writeOrder(w, u.games.games); err != nil {
			return err
		}
	}
	err := u.index.Records(func(k, v []byte) error { return w.add(secIndex, k, v) })
	u.index.Reset()
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
			if err := w.addSingle(x); err != nil {
				return err
			}
		}
		group = group[:0]
		return nil
	}
	if base != 0 && b.singles() {
		w.setBase(base)
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
		if b.aborted.Load() {
			return errAborted
		}
		u.val = be.AppendUint32(u.val[:0], h)
		u.val = append(u.val, enc...)
		if err := w.add(secPositions, key, u.val); err != nil {
			return err
		}
		return w.add(secHistory, key, hist)
	}, single)
	if err != nil || single == nil {
		return err
	}
	err = writeGroup()
	u.singles = group // keep the memory
	if err != nil {
		return err
	}
	if b.aborted.Load() {
		return errAborted
	}
	return nil
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

// singles reports whether the build keeps positions reached by a single
// game as single references (see store.SSTWriter.MergeSingles) instead of statistics
// records: in the count modes whose stores have them.
func (b *Builder) singles() bool {
	return !b.opts.noSingles
}

// err returns the flusher's first error.
func (b *Builder) err() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.flushErr
}

// Sink returns the sink of pipeline worker i (see ingest.Run): an
// ingest.OrderedSink, whose games are added only in its Ordered and
// Unordered steps, so it must be run by ingest.Run.
func (b *Builder) Sink(i int) ingest.Sink {
	b.start.Do(func() {
		b.free <- b.newUnit() // the spare
		go b.flusher()
		go b.committer()
	})
	w := &worker{b: b, unit: b.newUnit(), hasher: newContentHasher()}
	b.mu.Lock()
	if b.opts.hook != nil {
		w.rng = rand.New(rand.NewPCG(b.opts.hookSeed, uint64(len(b.workers))))
	}
	b.workers = append(b.workers, w)
	b.mu.Unlock()
	return w
}

// errAborted stops a write that Abort made pointless.
var errAborted = errors.New("book: build aborted")

// Abort makes the Builder drop what is not committed to the store yet
// instead of writing it: the tables the workers hold (Finish then returns
// at once), those waiting for the flusher, and the one being written unless
// its ingestion has begun. Everything committed stays, whole: a unit's games
// and statistics are committed in one atomic ingestion. The games dropped are
// counted in Stats.Uncommitted; running the build again on the same input
// adds them (the games committed are skipped as duplicates). Call it when
// the build is interrupted, from any goroutine, before or during Finish.
func (b *Builder) Abort() { b.aborted.Store(true) }

// Finish flushes what every worker still holds (unless Abort was called).
// Call it once, after the pipeline has returned.
func (b *Builder) Finish() error {
	// The flusher drains what was handed over during the run while the
	// workers' last tables are written in parallel: nothing else is left
	// to overlap with. Then every run still pending is committed.
	var wg sync.WaitGroup
	errs := make([]error, len(b.workers))
	for i, w := range b.workers {
		// Games read but never claimed or added: the run stopped before
		// their chunk's turn (see worker.Unordered).
		w.dropRead(w.read.games)
		w.read.reset()
		u := w.unit
		w.unit = nil
		w.handOver()
		if u == nil || (u.t.Len() == 0 && len(u.games.games) == 0) {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = b.spill(u)
		}()
	}
	started := true
	b.start.Do(func() { started = false }) // no worker ever started
	if started {
		close(b.full)
		<-b.done
		close(b.commits)
		<-b.committed
	}
	wg.Wait()
	for _, err := range errs {
		b.setErr(err)
	}
	b.mu.Lock()
	runs := b.pending
	b.pending, b.pendingN = nil, 0
	b.mu.Unlock()
	b.setErr(b.commit(runs))
	return b.err()
}

// Stats returns the counters so far.
func (b *Builder) Stats() Stats {
	b.mu.Lock()
	defer b.mu.Unlock()
	s := b.stats
	s.Distinct = b.distinct.estimate()
	return s
}

// worker is one pipeline worker's sink: its own table and scratch space.
type worker struct {
	b      *Builder
	unit   *unit
	hasher *contentHasher
	occ    stats.Occurrence
	moveIx gamecode.MoveIndexer // scratch for the game index entries
	read   chunkGames           // the games of the chunk being read, not added yet
	rng    *rand.Rand           // Options.hook's (tests); nil without it

	stats   Stats       // counters not yet added to the builder's
	epKey   []byte      // scratch for addEP
	zobrist keys.Hasher // the positions' hashes along a game
	visits  visits
}

// A worker takes a chunk of input in two steps (see ingest.OrderedSink),
// so that what the store ends with does not depend on the workers'
// scheduling. Game, as the worker replays the chunk, filters each game,
// hashes its content and codes its record into the worker's chunkGames
// (unless an earlier game claimed the content already: a duplicate).
// Ordered, called for the chunks one at a time in input order, decides
// each game's id and whether it is a duplicate (dedupe.claimChunk): of
// the copies of a content in the input the first is the one stored,
// with its tags and first-seen stamp, and with -keep-duplicates copy k in
// input order always gets the same id, in any run. Unordered then adds
// the games claimed to the worker's unit, in parallel with the others.

// Game implements ingest.Sink: it reads g into the chunk's games.
func (w *worker) Game(g *pgn.Game) error {
	white, black, date := gameRatings(g)
	if f, drop := w.filter(g, white, black, date); drop {
		w.stats.Filtered[f]++
		return nil
	}
	if w.b.opts.hook != nil {
		w.b.opts.hook(hookRead, w.rng)
	}
	sum := w.hasher.content(g)
	if w.b.dedupe.claimedBefore(w.hasher, sum) {
		w.stats.Duplicates++ // not worth coding
		return nil
	}
	c := &w.read
	off := len(c.recs)
	var err error
	var nums [gamedb.SummaryPlies]gamecode.MoveNumber // the record's coding numbers the moves: the index entry takes them
	var numbered int
	c.recs, numbered, err = gamecode.AppendGameCodedNumbered(c.recs, g, w.b.opts.GameCoding, nums[:])
	if err != nil {
		c.recs = c.recs[:off]
		w.stats.Unstorable++
		if len(w.stats.Errors) < 10 {
			w.stats.Errors = append(w.stats.Errors, fmt.Sprintf("%s:%d: game not stored: %v", g.File, g.Line, err))
		}
		return nil
	}
	cell := gameCell(g, white, black)
	recEnd := len(c.recs)
	c.recs = gamedb.AppendEntry(c.recs, g, gamedb.Facts{WhiteElo: white, BlackElo: black, Date: date, Cell: cell, Moves: nums[:numbered]}, &w.moveIx)
	rg := readGame{sum: sum, stamp: w.seenStamp(g), rec: off, recEnd: recEnd, entEnd: len(c.recs),
		moves: len(c.moves), start: -1, result: g.Result, white: int32(white), black: int32(black),
		date: date, cell: cell}
	c.moves = append(c.moves, g.Moves...)
	rg.movesEnd = len(c.moves)
	if g.FromFEN {
		rg.start = int32(len(c.starts))
		c.starts = append(c.starts, g.Start)
	}
	c.games = append(c.games, rg)
	return nil
}

// Ordered implements ingest.OrderedSink: it claims the chunk's games in
// input order (see dedupe.claimChunk).
func (w *worker) Ordered() error {
	w.stats.Duplicates += int64(w.b.dedupe.claimChunk(w.hasher, w.read.games))
	return nil
}

// Unordered implements ingest.OrderedSink: it adds the chunk's games that
// were claimed, and their moves, to the worker's unit. When that fails
// (the flusher failed, or the store lookup did), the games not added are
// counted as not written and released.
func (w *worker) Unordered() error {
	c := &w.read
	defer c.reset()
	for i := range c.games {
		g := &c.games[i]
		if g.state == gameDuplicate {
			continue
		}
		if w.b.opts.hook != nil {
			w.b.opts.hook(hookAdd, w.rng)
		}
		if err := w.addGame(g); err != nil {
			w.dropRead(c.games[i:])
			return err
		}
		g.state = gameDone
	}
	return nil
}

// addGame adds the claimed game g of the chunk, unless the store holds it
// already (a duplicate), to the unit: its record, and its moves up to
// MaxPly (see addMoves).
func (w *worker) addGame(g *readGame) error {
	if g.state == gameMaybeStored {
		stored, err := w.b.st.HasGame(g.id)
		if err != nil {
			return fmt.Errorf("checking for duplicates: %w", err)
		}
		if stored {
			w.b.dedupe.release([]pendingGame{{id: g.id}}, false)
			w.stats.Duplicates++
			return nil
		}
	}
	c := &w.read
	moves := c.moves[g.moves:g.movesEnd]
	if err := w.makeRoom(len(moves)); err != nil {
		return err
	}
	gb := &w.unit.games
	off := len(gb.buf)
	gb.buf = append(gb.buf, c.recs[g.rec:g.entEnd]...)
	gb.games = append(gb.games, pendingGame{id: g.id, off: off, end: off + g.recEnd - g.rec, entEnd: len(gb.buf), stamp: g.stamp})
	w.occ = occurrenceOf(g.result, g.cell, g.id, int(g.white), int(g.black), g.date)
	w.occ.Local = uint32(len(gb.games) - 1)
	start := &standardStart
	if g.start >= 0 {
		start = &c.starts[g.start]
	}
	w.addMoves(start, moves, int(g.white), int(g.black), g.stamp)
	return nil
}

// dropRead gives up the games of the chunk not added yet: each counts as
// not written, and those claimed are released.
func (w *worker) dropRead(games []readGame) {
	for i := range games {
		g := &games[i]
		switch g.state {
		case gameDone, gameDuplicate:
			continue
		case gameNew, gameMaybeStored:
			w.b.dedupe.release([]pendingGame{{id: g.id}}, false)
		}
		w.stats.Uncommitted++
		g.state = gameDone
	}
}

// standardStart is the standard start position; only read.
var standardStart = board.StartPosition()

// makeRoom hands the worker's unit over to the flusher, and takes a free
// one, when a game of plies plies could grow it past the memory budget:
// its table, or its game records. It fails when the flusher has failed:
// the build stops.
func (w *worker) makeRoom(plies int) error {
	u := w.unit
	if u.t.HasRoom(plies) && len(u.games.buf)+len(u.games.games)*pendingGameSize < w.b.unitGames ||
		u.t.Len() == 0 && len(u.games.games) == 0 {
		return nil
	}
	if err := w.b.err(); err != nil {
		return err
	}
	w.handOver()
	w.unit = <-w.b.free
	return nil
}

// addMoves adds each move of a game, up to MaxPly, to the unit's table as
// an occurrence w.occ: the game starts from start and plays moves; white
// and black are the players' ratings and stamp the game's first-seen stamp
// (see seenStamp). In CountGame mode a game counts
// once per position: at its first visit, under the move it played then; a
// later visit of the same position (a repetition) adds nothing, whatever
// move it plays. So a position's total is the number of games that played
// on from it. In CountOccurrence mode every visit counts.
func (w *worker) addMoves(start *board.Position, moves []board.Move, white, black int, stamp uint64) {
	o := &w.b.opts
	perGame := o.CountMode == store.CountGame
	pos := *start
	w.visits.reset()
	t := w.unit.t
	if o.MaxPly > 0 && len(moves) > o.MaxPly {
		moves = moves[:o.MaxPly]
	}
	// Positions are hashed, not keyed: the table keys those it must.
	t.StartGame(start, moves)
	w.zobrist.Reset(&pos)
	for ply, m := range moves {
		h := w.zobrist.Hash(&pos)
		if !perGame || w.visits.first(&pos, h) {
			setPly(&w.occ, ply, plyOf(&pos), pos.SideToMove(), white, black, stamp)
			w.occ.Hash = store.SingleHashOf(h)
			t.AddPly(ply, &w.occ)
			w.unit.positions++
			if pos.EPSquare() != board.NoSquare {
				w.addEP(&pos, m)
			}
		}
		w.zobrist.Play(&pos, m)
		pos.Play(m)
	}
}

// addEP adds the occurrence w.occ of move m from pos, a position just
// after a double pawn step, to the unit's en-passant side records when
// PolyGlot's key of pos has an en-passant file that our key drops:
// a pawn of the side to move stands beside the pawn that stepped, but no
// en-passant capture is legal (the pawn is pinned, or the capture would
// expose its king). The occurrence also stays counted under its key: the
// side record only tells the export which share of it PolyGlot files under
// the other key.
func (w *worker) addEP(pos *board.Position, m board.Move) {
	f := pos.PolyglotEPFile()
	if f < 0 || pos.LegalEPSquare() != board.NoSquare {
		return
	}
	if w.unit.ep == nil {
		w.unit.ep = stats.NewTable(64)
	}
	w.epKey = keys.Append(append(w.epKey[:0], byte(f)), pos)
	w.unit.ep.AddOccurrence(w.epKey, m, &w.occ)
}

// writeOrder writes the game order records of games (see
// store.SSTWriter.SetGameOrder), those with a first-seen stamp, to the run
// w, in stamp order. It sorts games in place: their records are written
// already.
func writeOrder(w *runWriter, games []pendingGame) error {
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
		if err := w.add(secOrder, k[:], nil); err != nil {
			return err
		}
	}
	return nil
}

// seenStamp returns g's first-seen stamp without its ply (see
// Options.Inputs): its input's index and its line, in CountOccurrence
// mode; 0 otherwise, or for a game of another input.
func (w *worker) seenStamp(g *pgn.Game) uint64 {
	if w.b.opts.CountMode != store.CountOccurrence {
		return 0
	}
	if in := w.b.inputs[g.File]; in != 0 && g.Line > 0 && g.Line < 1<<32 {
		return in<<44 | uint64(g.Line)<<12
	}
	return 0
}

// averageRating returns what ranks a game among a position's top games:
// the mean of both players' ratings when both are rated, else 0, so that
// games with an unrated player rank after every game of a rated pair (the
// lichess explorer takes its top games from rated pairs only).
func averageRating(white, black int) uint16 {
	if white <= 0 || black <= 0 {
		return 0
	}
	return uint16(min((white+black)/2, 65535))
}

// visits holds the positions a game reached since its last irreversible
// move (capture, pawn move), with their keys.Hash, to tell a first visit
// from a repetition: a position can only recur while no irreversible move
// is played, and a position whose hash matches is compared whole
// (keys.Equal), so this is exact. (Castling moves and moves that lose a
// castling right are irreversible too, but they do not reset the clock:
// the positions before them are kept for nothing, never matched.) The
// builder and the readers that replay games count with it.
type visits struct {
	hashes    []uint64
	positions []board.Position
}

// reset starts a new game.
func (v *visits) reset() { v.hashes, v.positions = v.hashes[:0], v.positions[:0] }

// first reports whether pos, whose keys.Hash is h, is reached for the
// first time in the game, and records it.
func (v *visits) first(pos *board.Position, h uint64) bool {
	if pos.HalfMoveClock() == 0 {
		v.reset()
	}
	for i, x := range v.hashes {
		if x == h && keys.Equal(&v.positions[i], pos) {
			return false
		}
	}
	v.hashes = append(v.hashes, h)
	v.positions = append(v.positions, *pos)
	return true
}

// filter reports whether a game, whose players' ratings and date are
// given, is left out, and by which filter.
func (w *worker) filter(g *pgn.Game, white, black int, date stats.Date) (Filter, bool) {
	o := &w.b.opts
	if o.StandardStartOnly && g.FromFEN {
		return FilterFEN, true
	}
	if o.MinRating > 0 && (white < o.MinRating || black < o.MinRating) {
		return FilterRating, true
	}
	if b, ok := stats.RatingBandOf(white, black); o.Bands != 0 && (!ok || !o.Bands.Has(b)) {
		return FilterRating, true
	}
	if o.Since != 0 || o.Until != 0 {
		if d := date; !d.Known() || (o.Since != 0 && d < o.Since) || (o.Until != 0 && d > o.Until) {
			return FilterDate, true
		}
	}
	if o.Speeds != 0 {
		s, ok := stats.SpeedOf(g.Tag("TimeControl"))
		if !ok || !o.Speeds.Has(s) {
			return FilterSpeed, true
		}
	}
	return 0, false
}

// Skip implements ingest.Sink; skipped games are counted by the pipeline.
func (w *worker) Skip(*ingest.GameError) {}

// handOver gives the worker's unit to the flusher, and adds the worker's
// counters to the builder's.
func (w *worker) handOver() {
	if w.unit != nil && (w.unit.t.Len() > 0 || len(w.unit.games.games) > 0) {
		w.b.full <- w.unit
		w.unit = nil
	}
	w.b.mu.Lock()
	s := &w.b.stats
	s.Duplicates += w.stats.Duplicates
	s.Uncommitted += w.stats.Uncommitted
	s.Unstorable += w.stats.Unstorable
	if room := 10 - len(s.Errors); room > 0 {
		s.Errors = append(s.Errors, w.stats.Errors[:min(room, len(w.stats.Errors))]...)
	}
	for i, n := range w.stats.Filtered {
		s.Filtered[i] += n
	}
	w.b.mu.Unlock()
	w.stats = Stats{}
}

// rating parses an Elo tag; 0 when missing or not a positive number.
func rating(v []byte) int {
	n, err := strconv.Atoi(string(bytes.TrimSpace(v)))
	if err != nil || n <= 0 {
		return 0
	}
	return n
}
