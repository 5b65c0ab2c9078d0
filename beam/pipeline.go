package bookbeam

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"reflect"
	"slices"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"github.com/chessbook/chessbook/book/build"
	"github.com/chessbook/chessbook/gamecode"
	"github.com/chessbook/chessbook/ingest"
	"github.com/chessbook/chessbook/pgn"
)

// Config is what a pipeline builds. It travels with the pipeline's steps
// to the workers (as JSON), so everything in it must be plain data, and
// every path in it must name the same file on every worker (a shared
// file system on a cluster).
type Config struct {
	// Inputs are the PGN files, in the global input order (directories
	// expanded: see ingest.ExpandInputs). A game's first-seen stamp, and
	// which copy of a game counts, follow this order, as in bookbuild.
	Inputs []string
	// Options are the build's options; Options.Inputs is set to Inputs.
	// Memory is each shard build's budget.
	Options build.Options
	// Shards is the number of content-id ranges the games are
	// partitioned into, each built into a store of its own.
	Shards int
	// Workdir holds the shard stores (shard-NNNN/store) and the run's
	// report (report.json).
	Workdir string
	// DB is the store the shard stores are merged into; empty: the shard
	// stores are left in Workdir, not merged.
	DB string
	// ReadWorkers is the number of goroutines that replay one input
	// (ingest.Options.Workers); 0: one per CPU.
	ReadWorkers int
}

// FileReport is what reading one input found, as bookbuild's summary
// counts it.
type FileReport struct {
	Input      int
	Games      int64   // games seen (ingest.Summary.Games)
	Ingested   int64   // games replayed
	Plies      int64   // their plies
	Bytes      int64   // input bytes read
	GamesIn    int64   // games found (not counting text that is no game)
	Skipped    []int64 // by ingest.SkipReason
	Errors     []string
	Warned     int64
	Warnings   []string
	Filtered   []int64  // by build.Filter
	Unstorable int64    // games the game codec refused
	NotStored  []string // why, for the first few
	Emitted    int64    // games handed on to the deduplication
	Seconds    float64  // the time reading took
	// ReadError says why the input could not be read to its end (a file
	// cut short, a compressed stream that is damaged), as bookbuild says
	// it: the games read before are kept, as bookbuild keeps them.
	ReadError string `json:",omitempty"`
}

// The pipeline's counters (beam metrics, namespace "bookbeam").
var (
	gamesEmitted = beam.NewCounter("bookbeam", "games_emitted")
	bytesDedupe  = beam.NewCounter("bookbeam", "bytes_into_dedupe")
	gamesUnique  = beam.NewCounter("bookbeam", "games_into_shards")
	bytesShard   = beam.NewCounter("bookbeam", "bytes_into_shards")
)

// maxErrorLines is the number of skip reports and warnings an input's
// FileReport keeps (all are counted).
const maxErrorLines = 100

func init() {
	beam.RegisterType(reflect.TypeOf(FileReport{}))
	beam.RegisterType(reflect.TypeOf(ShardResult{}))
	register.DoFn4x1[context.Context, int, func(uint64, Game), func(FileReport), error](&readFn{})
	register.Emitter2[uint64, Game]()
	register.Emitter1[FileReport]()
	register.Function2x1(earliest)
	register.DoFn2x2[uint64, Game, int, Game](&shardFn{})
	register.DoFn4x1[context.Context, int, func(*Game) bool, func(ShardResult), error](&buildShardFn{})
	register.Emitter1[ShardResult]()
	register.Iter1[Game]()
	register.Iter1[ShardResult]()
	register.Iter1[FileReport]()
	register.DoFn4x1[context.Context, []byte, func(*ShardResult) bool, func(*FileReport) bool, error](&finishFn{})
}

// Construct adds the build of cfg to the pipeline at s:
//
//  1. the inputs' indices, one element each, spread over the workers;
//  2. read: each input replayed by the ingest pipeline (the same
//     checks and per-game errors as bookbuild), filtered by the build's
//     filters, each game keyed by its content id (build.ContentID) with
//     its place in the global input order and its gamecode record;
//  3. dedupe: CombinePerKey on the content id keeps the earliest copy
//     (skipped with Options.KeepDuplicates: every copy goes on);
//  4. partition: GroupByKey on the content id's range, Shards ranges;
//  5. build: each shard's games, in global input order, built into a
//     store of their own with build.Run (shard-NNNN/store in Workdir,
//     written to a temporary directory and renamed: a retried bundle
//     finds the shard done, or replaces it, never adds to it);
//  6. finish: once every shard is built, the shard stores are merged
//     into DB (merge.Run), and the report written.
func Construct(s beam.Scope, cfg Config) {
	cfg.Options.Inputs = cfg.Inputs
	idx := make([]int, len(cfg.Inputs))
	for i := range idx {
		idx[i] = i
	}
	inputs := beam.Reshuffle(s, beam.CreateList(s.Scope("inputs"), idx))
	games, reports := beam.ParDo2(s.Scope("read"), &readFn{Cfg: cfg}, inputs)
	if !cfg.Options.KeepDuplicates {
		games = beam.CombinePerKey(s.Scope("dedupe"), earliest, games)
	}
	keyed := beam.ParDo(s.Scope("partition"), &shardFn{Shards: cfg.Shards}, games)
	shards := beam.ParDo(s.Scope("build"), &buildShardFn{Cfg: cfg}, beam.GroupByKey(s.Scope("partition"), keyed))
	beam.ParDo0(s.Scope("finish"), &finishFn{Cfg: cfg}, beam.Impulse(s),
		beam.SideInput{Input: shards}, beam.SideInput{Input: reports})
}

// earliest is the dedupe combiner: of two copies of a content, the one
// first in the global input order (the one bookbuild stores and stamps).
func earliest(a, b Game) Game {
	if b.before(&a) {
		return b
	}
	return a
}

// readFn reads one input (step 2).
type readFn struct {
	Cfg Config
}

// ProcessElement replays input i and emits its games, filtered, keyed by
// content id, and a FileReport.
func (f *readFn) ProcessElement(ctx context.Context, i int, emit func(uint64, Game), report func(FileReport)) error {
	path := f.Cfg.Inputs[i]
	start := time.Now()
	st := &readState{input: i, emit: emit, ctx: ctx}
	var sinks []*readSink
	sum, err := ingest.Run(ctx, []string{path}, ingest.Options{Workers: f.Cfg.ReadWorkers}, func(int) ingest.Sink {
		s := &readSink{st: st, opts: &f.Cfg.Options}
		sinks = append(sinks, s)
		return s
	})
	var readErr string
	if err != nil {
		if !damaged(ctx, err) {
			return fmt.Errorf("reading %s: %w", path, err) // the bundle fails: its output is dropped, and retried whole
		}
		readErr = err.Error() // the games before are emitted: a retry would read the same
	}
	r := FileReport{ReadError: readErr, Input: i, Games: sum.Games, Ingested: sum.Ingested, Plies: sum.Plies, Bytes: sum.Bytes,
		GamesIn: sum.GamesIn[path], Skipped: sum.Skipped[:], Warned: sum.Warned, Filtered: make([]int64, 4), Emitted: st.seq}
	for _, e := range sum.Errors[:min(len(sum.Errors), maxErrorLines)] {
		r.Errors = append(r.Errors, e.Error())
	}
	for _, w := range sum.Warnings[:min(len(sum.Warnings), maxErrorLines)] {
		r.Warnings = append(r.Warnings, w.String())
	}
	for _, s := range sinks {
		for k, n := range s.filtered {
			r.Filtered[k] += n
		}
		r.Unstorable += s.unstorable
		r.NotStored = append(r.NotStored, s.errors...)
	}
	r.Seconds = time.Since(start).Seconds()
	report(r)
	return nil
}

// damaged reports whether err, which ended the reading of an input, is
// one a retry would meet again: the content is cut short or damaged (not
// an error of the file system, nor an interruption).
func damaged(ctx context.Context, err error) bool {
	var pe *fs.PathError
	return ctx.Err() == nil && !errors.As(err, &pe) && !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded)
}

// readState is one input's reading: the next game's number and the
// emitter, used in the ingest pipeline's ordered steps only (one at a
// time, in input order).
type readState struct {
	ctx   context.Context
	input int
	seq   int64
	emit  func(uint64, Game)
}

// readSink is one replay worker's sink: it filters, identifies and codes
// its chunk's games in parallel with the others, and emits them in its
// ordered step, numbered in input order.
type readSink struct {
	st         *readState
	opts       *build.Options
	games      []Game
	filtered   [4]int64
	unstorable int64
	errors     []string
}

// Game implements ingest.Sink.
func (s *readSink) Game(g *pgn.Game) error {
	if f, drop := s.opts.Leaves(g); drop {
		s.filtered[f]++
		return nil
	}
	rec, err := gamecode.AppendGame(nil, g)
	if err != nil {
		// The builder would not store it either, nor let it claim its
		// content (book/build/worker.go).
		s.unstorable++
		if len(s.errors) < 10 {
			s.errors = append(s.errors, fmt.Sprintf("%s:%d: game not stored: %v", g.File, g.Line, err))
		}
		return nil
	}
	s.games = append(s.games, Game{Input: s.st.input, Line: int64(g.Line), ID: uint64(build.ContentID(g)), Rec: rec})
	return nil
}

// Skip implements ingest.Sink: the pipeline counts and reports skips.
func (s *readSink) Skip(*ingest.GameError) {}

// Ordered implements ingest.OrderedSink: the chunk's games get their
// numbers and go on.
func (s *readSink) Ordered() error {
	st := s.st
	for i := range s.games {
		g := &s.games[i]
		g.Seq = st.seq
		st.seq++
		gamesEmitted.Inc(st.ctx, 1)
		bytesDedupe.Inc(st.ctx, 8+encodedSize(g)) // the key, and the game
		st.emit(g.ID, *g)
	}
	s.games = s.games[:0]
	return nil
}

// Unordered implements ingest.OrderedSink.
func (s *readSink) Unordered() error { return nil }

// shardFn keys each game by its shard (step 4).
type shardFn struct {
	Shards int
}

// ProcessElement returns g's shard and g.
func (f *shardFn) ProcessElement(id uint64, g Game) (int, Game) {
	return ShardOf(id, f.Shards), g
}

// sortGames sorts games in the global input order.
func sortGames(games []Game) {
	slices.SortFunc(games, func(a, b Game) int {
		switch {
		case a.before(&b):
			return -1
		case b.before(&a):
			return 1
		}
		return 0
	})
}
