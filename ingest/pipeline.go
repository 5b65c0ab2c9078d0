package ingest

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/chessbook/chessbook/pgn"
)

// Options control a pipeline run. The zero value is usable.
type Options struct {
	// Workers is the number of replay goroutines; 0 means runtime.NumCPU().
	Workers int
	// Buffers is the number of chunk buffers (ChunkBufferSize bytes each)
	// the reader and the workers share; 0 means three per worker, fewer
	// than two per worker are taken as two. A chunk that needs more (it
	// holds a game of hundreds of KiB, up to pgn.DefaultMaxGameSize) gets
	// a buffer of its own, which is not kept, and the reader hands out one
	// such buffer at a time (see maxGrownInFlight).
	Buffers int
	// MaxErrors bounds how many GameErrors the Summary keeps (all are
	// counted); 0 means 100,000.
	MaxErrors int
	// Progress, when set, is called about every 200 ms from a separate
	// goroutine with the progress so far.
	Progress func(Progress)
}

// Progress is a snapshot of a running pipeline.
type Progress struct {
	File      string // the input being read
	FileIndex int    // its index in the inputs
	Read      int64  // bytes of that input read so far (compressed bytes for compressed input)
	Size      int64  // its size in bytes, or -1 when unknown (stdin)
	Games     int64  // games finished so far, all inputs
	Plies     int64  // plies replayed so far, all inputs
}

// Summary is the outcome of a pipeline run.
type Summary struct {
	Games    int64                 // games seen: Ingested + skipped
	Ingested int64                 // games handed to the Sink
	Plies    int64                 // plies of ingested games
	Skipped  [numSkipReasons]int64 // skipped games by reason (index SkipNone unused)
	Errors   []*GameError          // the first Options.MaxErrors skip reports, in no particular order across workers
	Warned   int64                 // warnings about games ingested all the same
	Warnings []*Warning            // the first Options.MaxErrors of them
	Bytes    int64                 // input bytes read (as stored, i.e. compressed)
	Elapsed  time.Duration         // wall time of the run
	// GamesIn counts the games found in each input, by name: the games
	// read, skipped ones included, but for text that is no game at all
	// (GameError.NotGame). An input with none is missing: it holds no PGN
	// game.
	GamesIn map[string]int64
}

// SkippedTotal returns the number of skipped games.
func (s *Summary) SkippedTotal() int64 {
	var n int64
	for _, c := range s.Skipped {
		n += c
	}
	return n
}

// ChunkBufferSize is the size of the pipeline's chunk buffers: a chunk
// of pgn.DefaultChunkSize, a game beyond it, and a read.
const ChunkBufferSize = 2 * pgn.DefaultChunkSize

// chunk is a piece of input holding whole games.
type chunk struct {
	seq    uint64 // its place among all the chunks of the run, from 0
	file   string
	line   int
	data   []byte
	last   bool // the input's last chunk: see pgn.Parser.ParseEnd
	cut    bool // the input failed to read after it
	tokens int  // grown tokens held by data (see pipeline.grown)
}

// OrderedSink is a Sink that makes some of its decisions in input order,
// whatever the scheduling of the workers: which copy of a game met twice
// is the first, say. The pipeline hands the input to the workers in
// chunks (a few hundred KiB of whole games each); after a worker has
// handed the games of a chunk to Game, it calls Ordered, then Unordered.
// The Ordered calls of all workers come one at a time, in the chunks'
// input order: a worker waits for the Ordered call of the chunk before
// its own to return. Both are called for every chunk, also one with no
// game, unless the run is interrupted or a Sink failed (then some are
// not called at all). Run uses this protocol when every worker's Sink is
// an OrderedSink.
type OrderedSink interface {
	Sink
	// Ordered is called after Game for the chunk's games, in input order
	// across the workers; an error stops the run.
	Ordered() error
	// Unordered is called right after Ordered, in parallel with the other
	// workers; an error stops the run.
	Unordered() error
}

// turnstile lets the Ordered calls of the workers through one at a time,
// in the order of their chunks.
type turnstile struct {
	mu      sync.Mutex
	cond    sync.Cond
	next    uint64 // the chunk whose turn it is
	stopped bool   // the run was interrupted: nobody waits any longer
}

func newTurnstile() *turnstile {
	t := &turnstile{}
	t.cond.L = &t.mu
	return t
}

// await waits for chunk seq's turn; it returns false, at once, when the
// run has been stopped.
func (t *turnstile) await(seq uint64) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	for t.next != seq && !t.stopped {
		t.cond.Wait()
	}
	return !t.stopped
}

// pass ends the current chunk's turn.
func (t *turnstile) pass() {
	t.mu.Lock()
	t.next++
	t.mu.Unlock()
	t.cond.Broadcast()
}

// stop releases every waiter for good.
func (t *turnstile) stop() {
	t.mu.Lock()
	t.stopped = true
	t.mu.Unlock()
	t.cond.Broadcast()
}

// counter wraps a worker's Sink to count games, plies and skips.
type counter struct {
	Sink
	p      *pipeline
	games  int64
	plies  int64
	byFile map[string]int64 // games by input
}

func (c *counter) Game(g *pgn.Game) error {
	c.games++
	c.byFile[g.File]++
	c.plies += int64(len(g.Moves))
	atomic.AddInt64(&c.p.games, 1)
	atomic.AddInt64(&c.p.plies, int64(len(g.Moves)))
	return c.Sink.Game(g)
}

// skip counts a skipped game: one a worker could not replay, or one the
// reader dropped (too long).
func (pl *pipeline) skip(e *GameError) {
	atomic.AddInt64(&pl.games, 1)
	pl.mu.Lock()
	pl.sum.Skipped[e.Reason]++
	if !e.NotGame {
		pl.sum.GamesIn[e.File]++
	}
	if len(pl.sum.Errors) < pl.maxErrors {
		pl.sum.Errors = append(pl.sum.Errors, e)
	}
	pl.mu.Unlock()
}

// Warn counts a warning about a game ingested.
func (c *counter) Warn(w *Warning) {
	c.p.mu.Lock()
	c.p.sum.Warned++
	if len(c.p.sum.Warnings) < c.p.maxErrors {
		x := *w
		c.p.sum.Warnings = append(c.p.sum.Warnings, &x)
	}
	c.p.mu.Unlock()
}

// Skip counts a game that could not be replayed and hands it on.
func (c *counter) Skip(e *GameError) {
	c.p.skip(e)
	c.Sink.Skip(e)
}

// pipeline is one Run: the channels between its reader and its workers,
// the counters they share, and the progress of the input being read.
type pipeline struct {
	ctx       context.Context
	cancel    context.CancelCauseFunc
	inputs    []string
	maxErrors int
	chunks    chan chunk  // the reader's chunks for the workers
	free      chan []byte // chunk buffers back from the workers
	// grown holds a token for every grownToken bytes of the buffers
	// bigger than ChunkBufferSize in flight: the reader takes tokens for
	// such a chunk before handing it out, the worker gives them back.
	grown    chan struct{}
	counters []*counter // one per worker
	turns    *turnstile // orders the OrderedSinks' Ordered calls; nil unless every Sink is one
	seq      uint64     // the next chunk's seq (the reader's)
	wg       sync.WaitGroup

	games int64 // atomic
	plies int64 // atomic
	mu    sync.Mutex
	sum   Summary

	cur readState
}

// readState is what the reader tells the progress reporter and the Summary.
type readState struct {
	sync.Mutex
	file      string
	index     int
	cr        *CountingReader
	size      int64
	open      *CountingReader // the input being read, not yet in bytesDone
	bytesDone int64           // input bytes read of the inputs done with
}

// Run reads every input in turn, splits it into chunks of whole games,
// parses and replays the chunks on Options.Workers goroutines, and hands
// each worker's games to its own Sink made by newSink(worker). It returns
// when all input is consumed, a Sink fails, ctx is cancelled, or an input
// cannot be read; the Summary counts what was done until then.
func Run(ctx context.Context, inputs []string, opts Options, newSink func(worker int) Sink) (*Summary, error) {
	start := time.Now()
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	pl := newPipeline(ctx, cancel, inputs, opts)
	pl.startWorkers(newSink)
	stopProgress := pl.startProgress(opts.Progress)
	readErr := pl.readAll()
	pl.wg.Wait()
	stopProgress()
	sum := pl.summary(start)
	return sum, pl.runErr(readErr)
}

// newPipeline sets up a run with its workers' channels and chunk buffers.
func newPipeline(ctx context.Context, cancel context.CancelCauseFunc, inputs []string, opts Options) *pipeline {
	workers := opts.Workers
	if workers <= 0 {
		workers = runtime.NumCPU()
	}
	buffers := opts.Buffers
	if buffers <= 0 {
		buffers = 3 * workers
	}
	buffers = max(buffers, 2*workers)
	pl := &pipeline{
		ctx:       ctx,
		cancel:    cancel,
		inputs:    inputs,
		maxErrors: opts.MaxErrors,
		chunks:    make(chan chunk, buffers),
		free:      make(chan []byte, buffers),
		grown:     make(chan struct{}, maxGrownInFlight),
		counters:  make([]*counter, workers),
		sum:       Summary{GamesIn: map[string]int64{}},
	}
	if pl.maxErrors <= 0 {
		pl.maxErrors = 100000
	}
	for range buffers {
		pl.free <- make([]byte, 0, ChunkBufferSize)
	}
	return pl
}

// grownToken is the memory one token of pipeline.grown stands for, and
// maxGrownInFlight the tokens there are: enough for one chunk of the
// biggest a Splitter makes.
const (
	grownToken       = 1 << 20
	maxGrownInFlight = (pgn.DefaultMaxGameSize+pgn.DefaultChunkSize+(1<<20))/grownToken + 1
)

// grownTokens returns the tokens a buffer of capacity c takes.
func grownTokens(c int) int {
	if c <= ChunkBufferSize {
		return 0
	}
	return min((c+grownToken-1)/grownToken, maxGrownInFlight)
}

// handOut prepares data, a chunk Next made in the pooled buffer buf (and
// may have grown out of it), to be handed to a worker: a short chunk in a
// grown buffer (the games before one too long) is copied back into buf,
// and a chunk that needs a grown buffer waits until the chunks of grown
// buffers in flight leave room for it. It returns the chunk and the
// tokens it holds, or ok false when the run is interrupted.
func (pl *pipeline) handOut(data, buf []byte) (out []byte, tokens int, ok bool) {
	if cap(data) > ChunkBufferSize && len(data) <= cap(buf) {
		data = append(buf[:0], data...)
	}
	tokens = grownTokens(cap(data))
	for i := range tokens {
		select {
		case pl.grown <- struct{}{}:
		case <-pl.ctx.Done():
			pl.release(i)
			return nil, 0, false
		}
	}
	return data, tokens, true
}

// release gives back n grown tokens.
func (pl *pipeline) release(n int) {
	for range n {
		<-pl.grown
	}
}

// startWorkers starts one worker goroutine per counter, each with its own
// Sink. When every Sink is an OrderedSink, their Ordered calls go through
// a turnstile, released when the run is interrupted.
func (pl *pipeline) startWorkers(newSink func(worker int) Sink) {
	ordered := true
	for w := range pl.counters {
		pl.counters[w] = &counter{Sink: newSink(w), p: pl, byFile: map[string]int64{}}
		_, ok := pl.counters[w].Sink.(OrderedSink)
		ordered = ordered && ok
	}
	if ordered {
		pl.turns = newTurnstile()
		context.AfterFunc(pl.ctx, pl.turns.stop)
	}
	for _, c := range pl.counters {
		pl.wg.Add(1)
		go func() {
			defer pl.wg.Done()
			pl.work(c)
		}()
	}
}

// work parses and replays chunks until there are no more or the run is
// interrupted, with one Replayer per input file.
func (pl *pipeline) work(c *counter) {
	var parser pgn.Parser
	reps := map[string]*Replayer{}
	for {
		var ch chunk
		var ok bool
		select {
		case ch, ok = <-pl.chunks:
		case <-pl.ctx.Done():
			return // interrupted: the reader may be stuck in a read
		}
		if !ok {
			return
		}
		rep := reps[ch.file]
		if rep == nil {
			rep = NewReplayer(ch.file, c)
			reps[ch.file] = rep
		}
		if pl.ctx.Err() == nil {
			if ch.last {
				parser.ParseEnd(ch.data, ch.line, rep, ch.cut)
			} else {
				parser.Parse(ch.data, ch.line, rep)
			}
			if err := rep.Err(); err != nil {
				pl.cancel(err)
			}
		}
		if cap(ch.data) > ChunkBufferSize {
			// A buffer grown for a big game is not kept: the pool
			// would hold its memory for the rest of the run.
			pl.release(ch.tokens)
			pl.free <- make([]byte, 0, ChunkBufferSize)
		} else {
			pl.free <- ch.data[:0]
		}
		if pl.turns != nil { // the chunk's games are the sink's now
			pl.ordered(c.Sink.(OrderedSink), ch.seq)
		}
	}
}

// ordered makes sink's Ordered call for chunk seq in its turn, then its
// Unordered call; a failure stops the run.
func (pl *pipeline) ordered(sink OrderedSink, seq uint64) {
	if !pl.turns.await(seq) {
		return // interrupted
	}
	err := sink.Ordered()
	pl.turns.pass()
	if err == nil {
		err = sink.Unordered()
	}
	if err != nil {
		pl.cancel(err)
	}
}

// startProgress calls report about every 200 ms from a goroutine of its
// own, and once more when the returned stop function is called; stop
// returns after that last report. A nil report is never called.
func (pl *pipeline) startProgress(report func(Progress)) (stop func()) {
	stopProgress := make(chan struct{})
	progressDone := make(chan struct{})
	go func() {
		defer close(progressDone)
		if report == nil {
			return
		}
		t := time.NewTicker(200 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-t.C:
				report(pl.progress())
			case <-stopProgress:
				report(pl.progress())
				return
			}
		}
	}()
	return func() {
		close(stopProgress)
		<-progressDone
	}
}

// progress returns a snapshot of the run.
func (pl *pipeline) progress() Progress {
	pl.cur.Lock()
	p := Progress{File: pl.cur.file, FileIndex: pl.cur.index, Size: pl.cur.size}
	if pl.cur.cr != nil {
		p.Read = pl.cur.cr.Count()
	}
	pl.cur.Unlock()
	p.Games = atomic.LoadInt64(&pl.games)
	p.Plies = atomic.LoadInt64(&pl.plies)
	return p
}

// readAll runs the reader and returns its error once it is done or, when
// the run is interrupted, at once: the reader runs on its own goroutine so
// that an interruption need not wait for a read that may never return (a
// stalled pipe or stdin): the workers stop at once, and the reader ends at
// its next read.
func (pl *pipeline) readAll() error {
	readDone := make(chan error, 1)
	go func() {
		err := pl.read()
		close(pl.chunks)
		readDone <- err
	}()
	select {
	case err := <-readDone:
		return err
	case <-pl.ctx.Done():
		select {
		case err := <-readDone:
			return err
		default:
			return nil
		}
	}
}

// read reads the inputs one after the other.
func (pl *pipeline) read() error {
	for i, name := range pl.inputs {
		if pl.ctx.Err() != nil {
			return context.Cause(pl.ctx)
		}
		if err := pl.readInput(i, name); err != nil {
			return err
		}
	}
	return nil
}

// readInput opens input i and sends its chunks to the workers.
func (pl *pipeline) readInput(i int, name string) error {
	rc, cr, size, err := openCounted(name)
	if err != nil {
		return err
	}
	pl.cur.Lock()
	pl.cur.file, pl.cur.index, pl.cur.cr, pl.cur.size, pl.cur.open = name, i, cr, size, cr
	pl.cur.Unlock()
	sp := pgn.NewSplitter(rc)
	for {
		var buf []byte
		select {
		case buf = <-pl.free:
		case <-pl.ctx.Done():
		}
		if pl.ctx.Err() != nil {
			pl.doneWith(cr)
			rc.Close()
			return context.Cause(pl.ctx)
		}
		data, line, err := sp.Next(buf)
		if len(data) > 0 {
			out, tokens, ok := pl.handOut(data, buf)
			if ok {
				select {
				case pl.chunks <- chunk{seq: pl.seq, file: name, line: line, data: out, last: sp.Done(), cut: sp.Done() && sp.ReadFailed(), tokens: tokens}:
					pl.seq++
				case <-pl.ctx.Done(): // the workers are gone
					pl.release(tokens)
				}
			}
		} else {
			pl.free <- buf // (Next may have grown a buffer for a game it dropped: not kept)
		}
		if err == io.EOF {
			break
		}
		var long *pgn.GameTooLongError
		if errors.As(err, &long) { // dropped, to bound memory: a skipped game
			pl.skip(&GameError{File: name, Line: long.Line, Reason: SkipTooLong,
				Detail: fmt.Sprintf("%d bytes, more than the %d a game may have (a huge tag or comment?)", long.Size, long.Max)})
			continue
		}
		var bin *pgn.BinaryDataError
		if errors.As(err, &bin) { // dropped: one skip for the region (and the game it cuts)
			pl.skip(&GameError{File: name, Line: bin.Line, Reason: SkipBinary, Detail: bin.Detail(), NotGame: bin.GameLine == 0})
			continue
		}
		if err != nil {
			pl.doneWith(cr)
			rc.Close()
			return fmt.Errorf("reading %s: %w", name, err)
		}
	}
	pl.doneWith(cr)
	if err := rc.Close(); err != nil {
		return fmt.Errorf("closing %s: %w", name, err)
	}
	return nil
}

// doneWith counts the bytes of an input the reader is done with.
func (pl *pipeline) doneWith(cr *CountingReader) {
	pl.cur.Lock()
	pl.cur.bytesDone += cr.Count()
	pl.cur.open = nil
	pl.cur.Unlock()
}

// summary completes the Summary once the workers are done: the counts,
// the skip reports in input order, the bytes read and the elapsed time.
func (pl *pipeline) summary(start time.Time) *Summary {
	sum := &pl.sum
	for _, c := range pl.counters {
		sum.Ingested += c.games
		sum.Plies += c.plies
		for f, n := range c.byFile {
			sum.GamesIn[f] += n
		}
	}
	sum.Games = sum.Ingested + sum.SkippedTotal()
	sortErrors(sum.Errors, pl.inputs)
	sortByPlace(sum.Warnings, pl.inputs, func(w *Warning) (string, int) { return w.File, w.Line })
	pl.cur.Lock()
	sum.Bytes = pl.cur.bytesDone
	if pl.cur.open != nil {
		sum.Bytes += pl.cur.open.Count()
	}
	pl.cur.Unlock()
	sum.Elapsed = time.Since(start)
	return sum
}

// sortErrors sorts skip reports by input (in the order of inputs, a
// repeated input at its first place) and line.
func sortErrors(errs []*GameError, inputs []string) {
	sortByPlace(errs, inputs, func(e *GameError) (string, int) { return e.File, e.Line })
}

// sortByPlace sorts reports by input (in the order of inputs, a repeated
// input at its first place) and line.
func sortByPlace[T any](reports []T, inputs []string, place func(T) (string, int)) {
	order := make(map[string]int, len(inputs))
	for i, in := range inputs {
		if _, dup := order[in]; !dup {
			order[in] = i
		}
	}
	slices.SortStableFunc(reports, func(a, b T) int {
		fa, la := place(a)
		fb, lb := place(b)
		if c := cmp.Compare(order[fa], order[fb]); c != 0 {
			return c
		}
		return cmp.Compare(la, lb)
	})
}

// runErr returns the error Run returns: the reader's, else why the run was
// interrupted (a Sink's error, or ctx's).
func (pl *pipeline) runErr(readErr error) error {
	if readErr != nil {
		return readErr
	}
	if cause := context.Cause(pl.ctx); cause != nil && !errors.Is(cause, context.Canceled) {
		return cause
	}
	return pl.ctx.Err()
}
