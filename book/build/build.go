package build

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"runtime/debug"
	"time"

	"github.com/chessbook/chessbook/book/counting"
	"github.com/chessbook/chessbook/gamedb"
	"github.com/chessbook/chessbook/ingest"
	"github.com/chessbook/chessbook/pgn"
	"github.com/chessbook/chessbook/store"
)

// ErrInterrupted is returned, wrapping the context's error, by a Run
// whose context was cancelled: the store keeps what was committed before,
// and running the same build again adds the rest (see Builder.Interrupt).
var ErrInterrupted = errors.New("build interrupted")

// RunOptions configure Run.
type RunOptions struct {
	// Options are what the book records; Options.Inputs are also the
	// inputs read, in order (PGN files, plain or compressed, or "-" for
	// stdin; see ingest.Run).
	Options
	// Dir is the store directory, created if missing. Empty: the inputs
	// are only replayed, nothing is stored.
	Dir string
	// Workers is the number of replay goroutines; 0 means one per CPU.
	// A build runs fewer when Options.Memory cannot afford them (see
	// PlanMemory; Result.Plan says how many ran).
	Workers int
	// Compact compacts the store once everything is committed when it
	// has taken compactAfter commits or more since it was last compacted
	// (store.Meta.Runs, each commit a layer of sstables across the key
	// range): lookups look into one layer again, and the store is
	// smallest.
	Compact bool
	// Games, when not nil, is where the games come from instead of
	// reading Options.Inputs, which still name the inputs for first-seen
	// stamps: Games calls yield for each game in input order, replayed
	// already (legal moves, as the ingest pipeline or gamecode.DecodeGame
	// gives them) with its File (one of Options.Inputs) and Line set, and
	// returns yield's first error, or its own (with Dir set: without a
	// store Inputs are read). One worker adds the games,
	// in the order given, so the store is the one a build of the inputs
	// those games came from makes (a distributed pipeline feeds each of
	// its partitions this way). The Summary counts the games given.
	Games func(yield func(*pgn.Game) error) error
	// Progress, if not nil, is called with the pipeline's progress.
	Progress func(ingest.Progress)
	// Committed, if not nil, is called after each commit with the games
	// this build committed so far (Stats.Games): those a Ctrl-C keeps.
	// A build commits at least every 30 s while it adds games, and when
	// its runs waiting for a commit are many (Options.CommitRuns).
	Committed func(games int64)
	// ReindexProgress, if not nil, is called as a store written before
	// the game index existed (format version 8 or less) is indexed, before
	// the reading starts (see Reindex), with the games indexed so far and
	// the store's games.
	ReindexProgress func(done, total uint64)
	// Phase, if not nil, is called as each phase after the reading starts:
	// PhaseWrite once the inputs are read (sum: the pipeline's final
	// counts), PhaseCompact before a compaction, PhaseClose before the
	// store is closed (its background work waited for).
	Phase func(phase Phase, sum *ingest.Summary)
}

// Phase is a phase of a build after the reading, for progress displays.
type Phase int

// The phases of a build, in order.
const (
	PhaseWrite   Phase = iota + 1 // the workers' last tables are merged and committed
	PhaseCompact                  // the store is compacted
	PhaseClose                    // the store is closed
)

// String names the phase as progress displays say it.
func (p Phase) String() string {
	switch p {
	case PhaseWrite:
		return "writing the store"
	case PhaseCompact:
		return "compacting the store"
	case PhaseClose:
		return "closing the store"
	}
	return "phase?"
}

// Result is what a build did, as far as it went.
type Result struct {
	// Plan is how the build spent its memory budget (without a store,
	// only its workers and chunk buffers count).
	Plan MemoryPlan
	// Summary is the pipeline's account of the games read, with Elapsed
	// the time from the start of the pipeline to the store's close; nil if
	// the pipeline never ran (the store did not open).
	Summary *ingest.Summary
	// Stats are the builder's counters; nil without a store.
	Stats *Stats
	// Store describes the store after it closed; nil without a store.
	Store *StoreInfo
}

// StoreInfo describes a store at the end of a build.
type StoreInfo struct {
	Dir  string     // the store directory
	Meta store.Meta // its metadata: games in all, build options
	Size int64      // bytes on disk, as du counts them (store.DirSize)
}

// Run runs a whole build: it opens (or creates) the store at o.Dir,
// replays o.Inputs through the ingest pipeline into a Builder, finishes
// it, compacts the store if asked, and closes it. Everything is sized
// from PlanMemory(o.Memory, o.Workers, o.CommitRuns): the tables, the
// number of workers, the pipeline's buffers, the store's cache and
// memtable; and unless the process has a Go memory limit already (see
// runtime/debug.SetMemoryLimit), Run sets the plan's GoLimit for its
// duration, so that the process stays within o.Memory. It returns what
// was done even when it fails part way, with the first error:
//
//   - a budget under MinMemory: nothing was read or written;
//   - store.ErrLocked, store.ErrIncompatible, store.ErrNotStore (test with
//     errors.Is): the store could not be opened; nothing was read or
//     written;
//   - ErrInterrupted: ctx was cancelled (before the input was read to
//     its end and every game committed: cancelled during the last commit,
//     the build completes it and carries on). The build stops as soon as it
//     has committed the runs it wrote already (Builder.Interrupt: at most
//     30 s of work, see RunOptions.Committed), keeping what was
//     committed; Stats.Uncommitted counts the games dropped, which
//     running the same build again adds;
//   - any other error: reading an input or writing the store failed (an
//     I/O error); what was committed before stays, whole.
func Run(ctx context.Context, o RunOptions) (*Result, error) {
	res := &Result{}
	plan, err := o.Plan()
	if err != nil {
		return res, err
	}
	res.Plan = plan
	workers := plan.Workers
	if o.Games != nil {
		workers = 1 // feedGames's one sink gets the tables' memory
	}
	if debug.SetMemoryLimit(-1) == math.MaxInt64 {
		debug.SetMemoryLimit(plan.GoLimit)
		defer debug.SetMemoryLimit(math.MaxInt64)
	}
	if o.Dir == "" {
		start := time.Now()
		sum, err := ingest.Run(ctx, o.Inputs, ingest.Options{Workers: workers, Buffers: plan.ChunkBuffers, Progress: o.Progress},
			func(int) ingest.Sink { return nullSink{} })
		sum.Elapsed = time.Since(start)
		res.Summary = sum
		return res, interrupted(ctx, err)
	}
	if o.CountMode == "" {
		o.CountMode = store.CountGame
	}
	st, err := store.Open(o.Dir, store.Options{Meta: &store.Meta{MaxPly: o.MaxPly, CountMode: o.CountMode, KeepDuplicates: o.KeepDuplicates,
		GameIndex: gamedb.Version}, CacheSize: plan.Cache, MemTableSize: uint64(plan.MemTable)})
	if err != nil {
		return res, err
	}
	if needsReindex(st) {
		// The games stored before the index existed are indexed first,
		// so that the store's index covers every game after this build.
		if err := gamedb.Reindex(ctx, st, gamedb.ReindexOptions{Facts: counting.GameFacts, Progress: o.ReindexProgress}); err != nil {
			_ = st.Close()
			return res, interrupted(ctx, err)
		}
	}
	start := time.Now()
	b := NewBuilder(st, o.Options, workers) // sized by the same plan
	b.onCommit = o.Committed
	sum, runErr := ingestInto(ctx, b, o, workers, plan.ChunkBuffers)
	if runErr == nil && o.Compact && st.Meta().Runs >= compactAfter {
		o.phase(PhaseCompact, sum)
		runErr = compact(ctx, st)
	}
	o.phase(PhaseClose, sum)
	res.Store, err = closeStore(st)
	if err != nil && runErr == nil {
		runErr = err
	}
	s := b.Stats()
	res.Stats = &s
	sum.Elapsed = time.Since(start)
	res.Summary = sum
	return res, interrupted(ctx, runErr)
}

// Plan returns the plan of o's memory budget that Run follows:
// PlanMemory(o.Memory, o.Workers or one per CPU, o.CommitRuns). A caller
// that tells its user what the budget affords (fewer workers than asked
// for, see MemoryPlan.Reduced) before the build calls it first.
func (o *RunOptions) Plan() (MemoryPlan, error) {
	workers := o.Workers
	if workers <= 0 {
		workers = runtime.NumCPU()
	}
	return PlanMemory(o.Memory, workers, o.CommitRuns)
}

// ingestInto runs the pipeline on o.Inputs into b, with workers workers
// and buffers chunk buffers, and finishes b. When ctx is cancelled it
// interrupts b: the runs written already are committed (at most
// commitInterval of work), the tables the workers hold are dropped
// (writing them could take seconds), and running the build again adds
// the games dropped (the games stored are skipped). It returns the
// pipeline's summary.
func ingestInto(ctx context.Context, b *Builder, o RunOptions, workers, buffers int) (*ingest.Summary, error) {
	stopInterrupt := context.AfterFunc(ctx, b.Interrupt)
	defer stopInterrupt()
	var sum *ingest.Summary
	var err error
	if o.Games != nil {
		sum, err = feedGames(ctx, b, o.Games)
	} else {
		sum, err = ingest.Run(ctx, o.Inputs, ingest.Options{Workers: workers, Buffers: buffers, Progress: o.Progress}, b.Sink)
	}
	if ctx.Err() != nil {
		b.Interrupt() // AfterFunc's call may still be on its way
	}
	o.phase(PhaseWrite, sum)
	// Whole games only ever reach a table, so what the workers hold is
	// consistent; after an interruption (Abort) it is dropped.
	if ferr := b.Finish(); ferr != nil && err == nil {
		err = ferr
	}
	if err == nil && ctx.Err() != nil && b.Stats().Uncommitted > 0 {
		err = ctx.Err() // interrupted after the input ended: Finish dropped what it held
	}
	// Interrupted during the last commit, which went through: the input
	// was read to its end and every game is committed, the build is done.
	return sum, err
}

// feedBatch is the number of games feedGames hands its sink between two
// Ordered steps, as a chunk of input would.
const feedBatch = 1024

// feedGames adds the games games gives to b through one worker's sink, in
// batches, following the ingest.OrderedSink protocol as ingest.Run does
// for a chunk, and counts them in a Summary.
func feedGames(ctx context.Context, b *Builder, games func(yield func(*pgn.Game) error) error) (*ingest.Summary, error) {
	sink := b.Sink(0).(ingest.OrderedSink)
	sum := &ingest.Summary{GamesIn: map[string]int64{}}
	inBatch := 0
	step := func() error {
		inBatch = 0
		if err := sink.Ordered(); err != nil {
			return err
		}
		return sink.Unordered()
	}
	err := games(func(g *pgn.Game) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := sink.Game(g); err != nil {
			return err
		}
		sum.Games++
		sum.Ingested++
		sum.Plies += int64(len(g.Moves))
		sum.GamesIn[g.File]++
		if inBatch++; inBatch == feedBatch {
			return step()
		}
		return nil
	})
	if err == nil && inBatch > 0 {
		err = step()
	}
	return sum, err
}

// phase calls o.Phase, if set.
func (o *RunOptions) phase(p Phase, sum *ingest.Summary) {
	if o.Phase != nil {
		o.Phase(p, sum)
	}
}

// compactAfter is the number of commits since the last compaction
// (store.Meta.Runs) from which a build with Compact set compacts the
// store when done. Each commit of a build adds a layer of sstables that
// spans the whole key range (a build into an empty store of up to about a
// million games is one commit, in the last level); the store compacts
// nothing on its own. Compacting rewrites the whole store, so doing it
// for every small addition would make adding a file cost what rewriting
// the store does; waiting for compactAfter commits makes it one rewrite
// every few additions, and keeps a lookup within that many layers (each a
// bloom filter probe, and a block read when it holds the key).
const compactAfter = 6

// compact compacts st; when ctx is cancelled it returns ctx's error:
// everything is committed, only the compaction stopped.
func compact(ctx context.Context, st *store.Store) error {
	if err := st.Compact(ctx); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return err
	}
	return nil
}

// closeStore closes st, waiting for its background work (part of the
// build) and flushing what its memtable holds, so that its manifest names
// every table and its write-ahead logs hold nothing it needs, and
// describes it.
func closeStore(st *store.Store) (*StoreInfo, error) {
	info := &StoreInfo{Dir: st.Dir(), Meta: st.Meta()}
	err := st.Close()
	info.Size = store.DirSize(info.Dir)
	if err != nil {
		return info, fmt.Errorf("closing the store: %w", err)
	}
	return info, nil
}

// interrupted wraps err with ErrInterrupted when it is ctx's error: ctx
// was cancelled (or its deadline passed).
func interrupted(ctx context.Context, err error) error {
	if err != nil && ctx.Err() != nil && errors.Is(err, ctx.Err()) {
		return fmt.Errorf("%w: %w", ErrInterrupted, err)
	}
	return err
}

// nullSink accepts every game: replay alone is the job without a store.
type nullSink struct{}

func (nullSink) Game(*pgn.Game) error   { return nil }
func (nullSink) Skip(*ingest.GameError) {}

// needsReindex reports whether st holds games that its game index does
// not cover.
func needsReindex(st *store.Store) bool {
	m := st.Meta()
	return m.GameIndex != gamedb.Version && m.Games > 0
}
