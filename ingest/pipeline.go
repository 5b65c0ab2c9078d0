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
)

// Options control a pipeline run. The zero value is usable.
type Options struct {
	// Workers is the number of replay goroutines; 0 means runtime.NumCPU().
	Workers int
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
	Bytes    int64                 // input bytes read (as stored, i.e. compressed)
	Elapsed  time.Duration         // wall time of the run
}

// SkippedTotal returns the number of skipped games.
func (s *Summary) SkippedTotal() int64 {
	var n int64
	for _, c := range s.Skipped {
		n += c
	}
	return n
}

// chunk is a piece of input holding whole games.
type chunk struct {
	file string
	line int
	data []byte
}

// counter wraps a worker's Sink to count games, plies and skips.
type counter struct {
	Sink
	p     *pipeline
	games int64
	plies int64
}

func (c *counter) Game(g *Game) error {
	c.games++
	c.plies += int64(len(g.Moves))
	atomic.AddInt64(&c.p.games, 1)
	atomic.AddInt64(&c.p.plies, int64(len(g.Moves)))
	return c.Sink.Game(g)
}

func (c *counter) Skip(e *GameError) {
	atomic.AddInt64(&c.p.games, 1)
	c.p.mu.Lock()
	c.p.sum.Skipped[e.Reason]++
	if len(c.p.sum.Errors) < c.p.maxErrors {
		c.p.sum.Errors = append(c.p.sum.Errors, e)
	}
	c.p.mu.Unlock()
	c.Sink.Skip(e)
}

type pipeline struct {
	maxErrors int
	games     int64 // atomic
	plies     int64 // atomic
	mu        sync.Mutex
	sum       Summary
}

// Run reads every input in turn, splits it into chunks of whole games,
// parses and replays the chunks on Options.Workers goroutines, and hands
// each worker's games to its own Sink made by newSink(worker). It returns
// when all input is consumed, a Sink fails, ctx is cancelled, or an input
// cannot be read; the Summary counts what was done until then.
func Run(ctx context.Context, inputs []string, opts Options, newSink func(worker int) Sink) (*Summary, error) {
	start := time.Now()
	workers := opts.Workers
	if workers <= 0 {
		workers = runtime.NumCPU()
	}
	pl := &pipeline{maxErrors: opts.MaxErrors}
	if pl.maxErrors <= 0 {
		pl.maxErrors = 100000
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)

	chunks := make(chan chunk, workers*2)
	free := make(chan []byte, workers*3)
	for range workers * 3 {
		free <- make([]byte, 0, 512<<10)
	}

	var wg sync.WaitGroup
	counters := make([]*counter, workers)
	for w := range workers {
		c := &counter{Sink: newSink(w), p: pl}
		counters[w] = c
		wg.Add(1)
		go func() {
			defer wg.Done()
			var parser Parser
			reps := map[string]*Replayer{}
			for {
				var ch chunk
				var ok bool
				select {
				case ch, ok = <-chunks:
				case <-ctx.Done():
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
				if ctx.Err() == nil {
					parser.Parse(ch.data, ch.line, rep)
					if err := rep.Err(); err != nil {
						cancel(err)
					}
				}
				free <- ch.data[:0]
			}
		}()
	}

	// Progress reporting.
	var cur struct {
		sync.Mutex
		file  string
		index int
		cr    *CountingReader
		size  int64
		open  *CountingReader // the input being read, not yet in bytesDone
	}
	var bytesDone int64 // input bytes read of the inputs done with (under cur's lock)
	stopProgress := make(chan struct{})
	progressDone := make(chan struct{})
	go func() {
		defer close(progressDone)
		if opts.Progress == nil {
			return
		}
		t := time.NewTicker(200 * time.Millisecond)
		defer t.Stop()
		report := func() {
			cur.Lock()
			p := Progress{File: cur.file, FileIndex: cur.index, Size: cur.size}
			if cur.cr != nil {
				p.Read = cur.cr.Count()
			}
			cur.Unlock()
			p.Games = atomic.LoadInt64(&pl.games)
			p.Plies = atomic.LoadInt64(&pl.plies)
			opts.Progress(p)
		}
		for {
			select {
			case <-t.C:
				report()
			case <-stopProgress:
				report()
				return
			}
		}
	}()

	doneWith := func(cr *CountingReader) {
		cur.Lock()
		bytesDone += cr.Count()
		cur.open = nil
		cur.Unlock()
	}
	read := func() error {
		for i, name := range inputs {
			if ctx.Err() != nil {
				return context.Cause(ctx)
			}
			rc, cr, size, err := openCounted(name)
			if err != nil {
				return err
			}
			cur.Lock()
			cur.file, cur.index, cur.cr, cur.size, cur.open = name, i, cr, size, cr
			cur.Unlock()
			sp := NewSplitter(rc)
			for {
				var buf []byte
				select {
				case buf = <-free:
				case <-ctx.Done():
				}
				if ctx.Err() != nil {
					doneWith(cr)
					rc.Close()
					return context.Cause(ctx)
				}
				data, line, err := sp.Next(buf)
				if len(data) > 0 {
					select {
					case chunks <- chunk{file: name, line: line, data: data}:
					case <-ctx.Done(): // the workers are gone
					}
				} else {
					free <- buf
				}
				if err == io.EOF {
					break
				}
				if err != nil {
					doneWith(cr)
					rc.Close()
					return fmt.Errorf("reading %s: %w", name, err)
				}
			}
			doneWith(cr)
			if err := rc.Close(); err != nil {
				return fmt.Errorf("closing %s: %w", name, err)
			}
		}
		return nil
	}
	// The reader runs on its own goroutine so that an interruption need not
	// wait for a read that may never return (a stalled pipe or stdin): the
	// workers stop at once, and the reader ends at its next read.
	readDone := make(chan error, 1)
	go func() {
		err := read()
		close(chunks)
		readDone <- err
	}()
	var readErr error
	select {
	case readErr = <-readDone:
	case <-ctx.Done():
		select {
		case readErr = <-readDone:
		default:
		}
	}
	wg.Wait()
	close(stopProgress)
	<-progressDone

	sum := &pl.sum
	for _, c := range counters {
		sum.Ingested += c.games
		sum.Plies += c.plies
	}
	sum.Games = sum.Ingested + sum.SkippedTotal()
	order := make(map[string]int, len(inputs))
	for i, in := range inputs {
		if _, dup := order[in]; !dup {
			order[in] = i
		}
	}
	slices.SortStableFunc(sum.Errors, func(a, b *GameError) int {
		if c := cmp.Compare(order[a.File], order[b.File]); c != 0 {
			return c
		}
		return cmp.Compare(a.Line, b.Line)
	})
	cur.Lock()
	sum.Bytes = bytesDone
	if cur.open != nil {
		sum.Bytes += cur.open.Count()
	}
	cur.Unlock()
	sum.Elapsed = time.Since(start)
	if readErr == nil {
		if cause := context.Cause(ctx); cause != nil && !errors.Is(cause, context.Canceled) {
			readErr = cause
		} else if err := ctx.Err(); err != nil {
			readErr = err
		}
	}
	return sum, readErr
}
