package book

import (
	"bytes"
	"fmt"
	"hash/maphash"
	"strconv"
	"sync"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/ingest"
	"github.com/chessbook/chessbook/keys"
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
	Games     int64             // games added to the book
	Filtered  [numFilters]int64 // games left out, by filter
	Positions int64             // (position, move) occurrences added
	Distinct  int64             // distinct positions added, estimated (about 1% error)
	Flushes   int64             // sorted runs written to the store
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
	perTable int               // records per table
	free     chan *stats.Table // empty tables
	full     chan fullTable    // tables waiting for the flusher
	done     chan struct{}     // closed when the flusher has stopped
	flushErr error             // the flusher's first error (under mu)
	start    sync.Once
	distinct *distinctCounter // the positions flushed so far (under mu)
}

// fullTable is a table handed to the flusher with the games it holds.
type fullTable struct {
	t     *stats.Table
	games uint64
}

// NewBuilder returns a Builder writing to st, which must have been opened
// with the same MaxPly and CountMode as opts. workers is the number of
// pipeline workers that will share the memory budget.
func NewBuilder(st *store.Store, opts Options, workers int) *Builder {
	if opts.CountMode == "" {
		opts.CountMode = store.CountGame
	}
	if opts.MemBudget <= 0 {
		opts.MemBudget = DefaultMemBudget
	}
	workers = max(workers, 1)
	// One table per worker plus one being flushed.
	per := int(opts.MemBudget / int64(workers+1) / stats.RecordBytes)
	return &Builder{st: st, opts: opts, perTable: max(per, 1024), distinct: newDistinctCounter(maphash.MakeSeed()),
		free: make(chan *stats.Table, workers+1), full: make(chan fullTable, workers+1), done: make(chan struct{})}
}

// flusher writes the full tables to the store, one at a time, and returns
// them to the free list.
func (b *Builder) flusher() {
	defer close(b.done)
	for ft := range b.full {
		err := b.write(ft)
		b.mu.Lock()
		if err != nil && b.flushErr == nil {
			b.flushErr = err
		}
		if err == nil {
			b.stats.Flushes++
		}
		b.mu.Unlock()
		b.free <- ft.t // emptied by write
	}
}

// write writes one table to the store as a sorted run, with the number of
// games it holds, in one atomic ingestion. The table is empty afterwards,
// whatever happened (Table.Flush empties it).
func (b *Builder) write(ft fullTable) error {
	b.mu.Lock()
	failed := b.flushErr != nil
	b.mu.Unlock()
	if failed {
		ft.t.Reset()
		return nil // the build is failing: drop the rest
	}
	sst, err := b.st.NewSSTWriter()
	if err != nil {
		ft.t.Reset()
		return fmt.Errorf("flushing to the store: %w", err)
	}
	seen := newDistinctCounter(b.distinct.seed)
	err = ft.t.Flush(func(key, enc []byte) error {
		seen.add(key)
		return sst.MergeTrusted(key, enc)
	})
	if err == nil {
		sst.AddGames(ft.games)
		err = sst.Ingest()
	}
	if err != nil {
		sst.Close()
		return fmt.Errorf("flushing to the store: %w", err)
	}
	if err := sst.Close(); err != nil {
		return fmt.Errorf("flushing to the store: %w", err)
	}
	b.mu.Lock()
	b.distinct.merge(seen)
	b.mu.Unlock()
	return nil
}

// err returns the flusher's first error.
func (b *Builder) err() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.flushErr
}

// Sink returns the sink of pipeline worker i (see ingest.Run).
func (b *Builder) Sink(i int) ingest.Sink {
	b.start.Do(func() {
		b.free <- stats.NewTable(b.perTable) // the spare
		go b.flusher()
	})
	w := &worker{b: b, table: stats.NewTable(b.perTable)}
	b.mu.Lock()
	b.workers = append(b.workers, w)
	b.mu.Unlock()
	return w
}

// Finish flushes what every worker still holds. Call it once, after the
// pipeline has returned.
func (b *Builder) Finish() error {
	// The flusher drains what was handed over during the run while the
	// workers' last tables are written in parallel: nothing else is left
	// to overlap with.
	var wg sync.WaitGroup
	errs := make([]error, len(b.workers))
	written := 0
	for i, w := range b.workers {
		ft := fullTable{t: w.table, games: w.games}
		w.table, w.games = nil, 0
		w.handOver()
		if ft.t == nil || (ft.t.Len() == 0 && ft.games == 0) {
			continue
		}
		written++
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = b.write(ft)
		}()
	}
	b.start.Do(func() { close(b.done) }) // no worker ever started
	select {
	case <-b.done:
	default:
		close(b.full)
		<-b.done
	}
	wg.Wait()
	b.mu.Lock()
	b.stats.Flushes += int64(written)
	for _, err := range errs {
		if err != nil && b.flushErr == nil {
			b.flushErr = err
		}
	}
	b.mu.Unlock()
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
	b     *Builder
	table *stats.Table

	games    uint64 // games in the table, not yet flushed
	stats    Stats  // counters not yet added to the builder's
	key      []byte
	seen     []byte // keys of this game's positions since the last irreversible move...
	seenOffs []seenRec
}

// seenRec is a (position, move) already counted in this game.
type seenRec struct {
	off, end int32
	move     board.Move
}

// Game implements ingest.Sink.
func (w *worker) Game(g *ingest.Game) error {
	o := &w.b.opts
	white, black := rating(g.Tag("WhiteElo")), rating(g.Tag("BlackElo"))
	date := stats.ParseDate(string(g.Tag("Date")))
	if f, drop := w.filter(g, white, black, date); drop {
		w.stats.Filtered[f]++
		return nil
	}
	res := result(g.Result)
	perGame := o.CountMode == store.CountGame
	if !w.table.HasRoom(len(g.Moves)) && w.table.Len() > 0 {
		// Hand the table over before the game rather than grow past the
		// memory budget.
		if err := w.b.err(); err != nil {
			return err
		}
		w.handOver()
		w.table = <-w.b.free
	}

	pos := g.Start
	w.seen, w.seenOffs = w.seen[:0], w.seenOffs[:0]
	for ply, m := range g.Moves {
		if o.MaxPly > 0 && ply >= o.MaxPly {
			break
		}
		w.key = keys.Append(w.key[:0], &pos)
		mover := white
		if pos.SideToMove() == board.Black {
			mover = black
		}
		if !perGame || !w.repeat(&pos, m) {
			w.table.Add(w.key, m, res, mover, date)
			w.stats.Positions++
		}
		pos.Play(m)
	}
	w.games++
	w.stats.Games++
	return nil
}

// repeat reports whether (the current key, m) was already counted in this
// game. A position can only recur while no irreversible move (capture, pawn
// move) has been played, so only the positions since the last one are kept
// and compared; this is exact, with no hashing.
func (w *worker) repeat(pos *board.Position, m board.Move) bool {
	if pos.HalfMoveClock() == 0 {
		w.seen, w.seenOffs = w.seen[:0], w.seenOffs[:0]
	}
	for _, r := range w.seenOffs {
		if r.move == m && bytes.Equal(w.seen[r.off:r.end], w.key) {
			return true
		}
	}
	off := int32(len(w.seen))
	w.seen = append(w.seen, w.key...)
	w.seenOffs = append(w.seenOffs, seenRec{off: off, end: int32(len(w.seen)), move: m})
	return false
}

// filter reports whether a game, whose players' ratings and date are
// given, is left out, and by which filter.
func (w *worker) filter(g *ingest.Game, white, black int, date stats.Date) (Filter, bool) {
	o := &w.b.opts
	if o.StandardStartOnly && g.FromFEN {
		return FilterFEN, true
	}
	if o.MinRating > 0 && (white < o.MinRating || black < o.MinRating) {
		return FilterRating, true
	}
	if o.Since != 0 || o.Until != 0 {
		if d := date; !d.Known() || (o.Since != 0 && d < o.Since) || (o.Until != 0 && d > o.Until) {
			return FilterDate, true
		}
	}
	if o.Speeds != 0 {
		s, ok := SpeedOf(g.Tag("TimeControl"))
		if !ok || !o.Speeds.Has(s) {
			return FilterSpeed, true
		}
	}
	return 0, false
}

// Skip implements ingest.Sink; skipped games are counted by the pipeline.
func (w *worker) Skip(*ingest.GameError) {}

// handOver gives the worker's table, and the games in it, to the flusher,
// and adds the worker's counters to the builder's.
func (w *worker) handOver() {
	if w.table != nil && (w.table.Len() > 0 || w.games > 0) {
		w.b.full <- fullTable{t: w.table, games: w.games}
		w.table = nil
	}
	w.games = 0
	w.b.mu.Lock()
	s := &w.b.stats
	s.Games += w.stats.Games
	s.Positions += w.stats.Positions
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

// result maps the game's termination marker to a stats.Result.
func result(r ingest.Result) stats.Result {
	switch r {
	case ingest.WhiteWins:
		return stats.ResultWhiteWin
	case ingest.BlackWins:
		return stats.ResultBlackWin
	case ingest.Draw:
		return stats.ResultDraw
	}
	return stats.ResultUnknown
}
