package build

import (
	"errors"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"

	"github.com/chessbook/chessbook/ingest"
	"github.com/chessbook/chessbook/internal/tally"
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
	// failed, and running the build again adds them.
	Uncommitted int64
	Unstorable  int64             // games the game codec refused (a bug; see Errors)
	Filtered    [numFilters]int64 // games left out, by filter
	Positions   int64             // (position, move) occurrences added
	Distinct    int64             // distinct positions added, estimated (about 1% error)
	Flushes     int64             // sorted runs written
	Commits     int64             // commits: sorted runs merged into the store atomically
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
	// interrupted: Interrupt was called: drop the units not written as
	// runs yet, commit the runs written.
	interrupted atomic.Bool
	// commitEvery is the longest time between commits while the workers
	// add games (Options.commitEvery, or commitInterval): then the workers
	// hand over the units they hold (when they see flushGen change) and
	// the runs pending are committed. 0: commits by size only.
	commitEvery time.Duration
	flushGen    atomic.Uint64 // bumped to ask every worker to hand over its unit
	lastCommit  time.Time     // when the last batch of runs went to the committer, or the build started (flusher only)
	// onCommit, if not nil, is called after each commit with the games
	// committed so far (see RunOptions.Committed).
	onCommit func(games int64)
	start    sync.Once
	distinct *distinctCounter // the positions flushed so far (under mu)
	dedupe   *dedupe
	inputs   map[string]uint64 // input name -> 1 + its index
	nextGame uint64            // the next game number to hand out; 0: not read from the store yet (under mu)
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
	per := int(tables / int64(workers+1) * 10 / 11 / tally.RecordBytes)
	per = max(per, 1024)
	inputs := make(map[string]uint64, len(opts.Inputs))
	for i, name := range opts.Inputs {
		if _, dup := inputs[name]; !dup {
			inputs[name] = uint64(i + 1)
		}
	}
	every := opts.commitEvery
	if every == 0 {
		every = commitInterval
	}
	return &Builder{st: st, opts: opts, perTable: per, unitGames: per * tally.RecordBytes / 10,
		commitAt: commitAt, commitGames: plan.CommitGames, distinct: newDistinctCounter(), commitEvery: max(every, 0),
		free: make(chan *unit, workers+1), full: make(chan *unit, workers+1), done: make(chan struct{}),
		commits: make(chan []*run), committed: make(chan struct{}),
		dedupe: newDedupe(opts.KeepDuplicates, st.Meta().Games > 0), inputs: inputs}
}

func (b *Builder) newUnit() *unit {
	t := tally.NewTable(b.perTable)
	t.KeepHistory()
	return &unit{t: t}
}

// commitInterval is the longest time a build goes without a commit
// while its workers add games (see Builder.flusher): what a crash or an
// interruption loses is at most that much work. A commit costs a merge of
// the runs pending and an ingestion, and adds a layer of sstables to the
// store (store.Meta.Runs; see compactAfter).
const commitInterval = 30 * time.Second

// handOverGrace is how long the flusher waits, once it asked the
// workers to hand over their units for a time-based commit, before it
// commits what it has: a worker adding games hands its unit over before
// its next game; one waiting for input keeps it for the next commit.
const handOverGrace = time.Second

// flusher writes the full tables as sorted runs, one at a time, commits
// the runs when enough are pending, or when the last commit is
// commitEvery old (having asked the workers to hand over the tables they
// hold), and returns the tables to the free list.
func (b *Builder) flusher() {
	defer close(b.done)
	var tick <-chan time.Time
	if b.commitEvery > 0 {
		t := time.NewTicker(min(b.commitEvery/4, handOverGrace))
		defer t.Stop()
		tick = t.C
	}
	b.lastCommit = time.Now()
	var asked time.Time // when the workers were asked to hand over their units; zero: not asked
	for {
		select {
		case u, ok := <-b.full:
			if !ok {
				return
			}
			b.setErr(b.spill(u))
			b.free <- u // emptied by spill
		case <-tick:
		}
		due := b.commitEvery > 0 && time.Since(b.lastCommit) >= b.commitEvery && !b.interrupted.Load() && !b.aborted.Load()
		if due && asked.IsZero() {
			asked = time.Now()
			b.flushGen.Add(1) // each worker hands its unit over before its next game
			continue
		}
		// A time-based commit waits for the units handed over (they are
		// queued, or the grace has not passed).
		timed := due && len(b.full) == 0 && time.Since(asked) >= min(handOverGrace, b.commitEvery)
		b.mu.Lock()
		var runs []*run
		if len(b.pending) >= b.commitAt || b.pendingN >= b.commitGames || (timed && len(b.pending) > 0) {
			runs, b.pending, b.pendingN = b.pending, nil, 0
		}
		b.mu.Unlock()
		if runs != nil || timed {
			b.lastCommit, asked = time.Now(), time.Time{}
		}
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
	w.counts.SetRule(b.opts.MaxPly, b.opts.CountMode)
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

// Interrupt makes the Builder stop as soon as it can, keeping what is
// written: the runs written already (and the commit under way) are
// committed, by Finish, and what is not written as a run yet is dropped:
// the tables the workers hold, those waiting for the flusher, and the
// one being written. As with Abort, everything committed stays whole, the
// games dropped are counted in Stats.Uncommitted, and running the build
// again on the same input adds them. The runs pending are at most
// commitEvery of work (see flusher), so committing them takes a fraction
// of that. Call it when the build is interrupted, from any goroutine,
// before or during Finish.
func (b *Builder) Interrupt() { b.interrupted.Store(true) }

// dropping reports whether what is not written as a run yet is to be
// dropped: Abort or Interrupt was called.
func (b *Builder) dropping() bool { return b.aborted.Load() || b.interrupted.Load() }

// Finish flushes what every worker still holds (unless Abort or
// Interrupt was called) and commits the runs pending (unless Abort was
// called). Call it once, after the pipeline has returned.
func (b *Builder) Finish() error {
	// The flusher drains what was handed over during the build while the
	// workers' last tables are written in parallel: nothing else is left
	// to overlap with. Then every run still pending is committed.
	var wg sync.WaitGroup
	errs := make([]error, len(b.workers))
	for i, w := range b.workers {
		// Games read but never claimed or added: the pipeline stopped before
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
