package savings

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"time"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/book"
	"github.com/chessbook/chessbook/gamecode"
	"github.com/chessbook/chessbook/ingest"
	"github.com/chessbook/chessbook/keys"
	"github.com/chessbook/chessbook/pgn"
	"github.com/chessbook/chessbook/stats"
	"github.com/chessbook/chessbook/store"
	"github.com/klauspost/compress/zstd"
)

// Options configure FromPGN and FromStore.
type Options struct {
	// Workers is the number of measuring goroutines; 0 means one per CPU.
	Workers int
	// Bands is how samples are banded: BandPly or BandMen. FromPGN
	// defaults to BandPly; FromStore to BandPly when the store records
	// each move's lowest ply, else BandMen.
	Bands BandKind
	// GamecodeEvery, above 1, measures the game code on one game in
	// GamecodeEvery (FromPGN): it is the costliest measurement.
	GamecodeEvery int
	// KeepDuplicates makes FromPGN measure every copy of a game; by
	// default a game met again (same players, date, round, result and
	// moves) is skipped, as bookbuild skips it.
	KeepDuplicates bool
	// Progress, when set, receives FromPGN's pipeline progress.
	Progress func(ingest.Progress)
	// Count, when set, receives FromStore's progress: what is being
	// read, how many so far and how many in all (0: not known).
	Count func(what string, done, total int64)
	// Memory is FromStore's memory budget in bytes (0: DefaultMemory):
	// past an eighth of it, the positions' hashes kept for the collision
	// count are spilled to temporary files.
	Memory int64
}

// DefaultMemory is FromStore's default memory budget: 1 GiB, as
// bookbuild's.
const DefaultMemory = 1 << 30

// memory returns the memory budget.
func (o *Options) memory() int64 {
	if o.Memory <= 0 {
		return DefaultMemory
	}
	return o.Memory
}

func (o *Options) workers() int {
	if o.Workers <= 0 {
		return runtime.NumCPU()
	}
	return o.Workers
}

// accSink feeds a worker's games to its accumulator.
type accSink struct{ a *accumulator }

// Game measures g.
func (s accSink) Game(g *pgn.Game) error { return s.a.AddGame(g) }

// Skip ignores a game that could not be replayed: the pipeline's
// ingest.Summary counts it (not this package's Summary, Summarize's).
func (accSink) Skip(*ingest.GameError) {}

// FromPGN measures every encoding on the games of the PGN inputs (plain
// or compressed, as bookbuild reads them), with ingest.Run's parallel
// pipeline and one accumulator per worker.
func FromPGN(ctx context.Context, inputs []string, o Options) (*Report, error) {
	start := time.Now()
	if o.Bands == "" {
		o.Bands = BandPly
	}
	d := newDistinct()
	var dedupe *dedupe
	if !o.KeepDuplicates {
		dedupe = newDedupe()
	}
	workers := o.workers()
	accs, err := pgnAccumulators(workers, accumulatorOptions{Bands: o.Bands, Distinct: d, Games: true, GamecodeEvery: o.GamecodeEvery, Cache: newGameCache(), Dedupe: dedupe})
	if err != nil {
		return nil, err
	}
	sum, err := ingest.Run(ctx, inputs, ingest.Options{Workers: workers, Progress: o.Progress}, func(w int) ingest.Sink {
		return accSink{accs[w]}
	})
	total, err := closeAndMerge(accs, err)
	if err != nil {
		return nil, fmt.Errorf("savings: measuring %v: %w", inputs, err)
	}
	if total == nil {
		return nil, errors.New("savings: no input")
	}
	dc, err := d.Counts()
	if err != nil {
		return nil, fmt.Errorf("savings: %w", err)
	}
	r := pgnReport(total, sum, dc, inputs, o, dedupe != nil)
	if r.Claims, err = seedClaims(r); err != nil {
		return nil, err
	}
	r.elapsed(start)
	return r, nil
}

// pgnAccumulators returns one accumulator per worker, all with options ao.
func pgnAccumulators(workers int, ao accumulatorOptions) ([]*accumulator, error) {
	accs := make([]*accumulator, workers)
	for w := range accs {
		a, err := newAccumulator(ao)
		if err != nil {
			return nil, err
		}
		accs[w] = a
	}
	return accs, nil
}

// closeAndMerge closes the accumulators and merges them into the first,
// which it returns (nil when there are none), with err or else the first
// error of a Close.
func closeAndMerge(accs []*accumulator, err error) (*accumulator, error) {
	var total *accumulator
	for _, a := range accs {
		if cerr := a.Close(); cerr != nil && err == nil {
			err = cerr
		}
		if total == nil {
			total = a
		} else {
			total.Merge(a)
		}
	}
	return total, err
}

// pgnReport builds FromPGN's report from the merged accumulator, the
// pipeline's summary and the distinct positions' counts.
func pgnReport(total *accumulator, sum *ingest.Summary, dc distinctCounts, inputs []string, o Options, deduped bool) *Report {
	r := total.build()
	r.Source = "pgn"
	r.Inputs = inputs
	r.Weighting = "every position before a move, once per occurrence; every move once"
	r.DuplicateGames = total.duplicates
	if deduped {
		r.Weighting += "; copies of a game skipped (as bookbuild does)"
	} else {
		r.Weighting += "; every copy of a game measured"
	}
	r.Games = total.games
	r.SkippedGames = sum.SkippedTotal()
	r.Distinct = dc.Positions
	r.Entries = dc.Entries
	r.Hashes = hashRows(dc.Positions, dc.Collisions, dc.Collisions2, dc.Examples)
	if total.gameErr != nil {
		r.Notes = append(r.Notes, fmt.Sprintf("gamecode failed on %d games, first: %v", total.gameFail[gmGamecode], total.gameErr))
	}
	if o.GamecodeEvery > 1 {
		r.Notes = append(r.Notes, fmt.Sprintf("gamecode measured on %d of %d games (one in %d, by line number): a sample", total.gamecodeGames, total.games, o.GamecodeEvery))
	}
	r.Disk = pgnDiskRows(r, sum, dc.KeyBytes)
	return r
}

// pgnDiskRows compares the input's size with our keys' and a PolyGlot
// book's. The input holds every game given, copies and unplayable games
// too: per game and per move of what was replayed.
func pgnDiskRows(r *Report, sum *ingest.Summary, keyBytes uint64) []DiskRow {
	plies := float64(max(sum.Plies, 1))
	games := float64(max(sum.Games, 1))
	return []DiskRow{
		{What: "input as read (compressed PGN, all games, tags and comments)", Bytes: float64(sum.Bytes),
			PerPosition: perOf(float64(sum.Bytes), r.Distinct), PerGame: float64(sum.Bytes) / games, BitsPerMove: 8 * float64(sum.Bytes) / plies},
		{What: "our keys of the distinct positions (no statistics)", Bytes: float64(keyBytes),
			PerPosition: perOf(float64(keyBytes), r.Distinct), Note: "a store adds each position's move statistics and Pebble's overhead: see 'bookquery savings'"},
		{What: "PolyGlot book, every entry (16 bytes each)", Bytes: 16 * float64(r.Entries),
			PerPosition: perOf(16*float64(r.Entries), r.Distinct), PerEntry: 16, Note: "make-book keeps only moves played often enough: fewer entries"},
	}
}

// perOf returns v/n, 0 when n is 0.
func perOf(v float64, n uint64) float64 {
	if n == 0 {
		return 0
	}
	return v / float64(n)
}

// storeBatch is a batch of stored positions for a worker.
type storeBatch struct {
	keys, values [][]byte
}

// storeCounts are what a worker saw of the store: bytes of keys and
// values, positions and position-move entries.
type storeCounts struct{ keyBytes, valueBytes, positions, entries uint64 }

// storeWorker measures the stored positions of the batches it is given
// with its own accumulator.
type storeWorker struct {
	acc    *accumulator
	bands  BandKind
	counts storeCounts
	// hashes holds the records of the positions' hashes (see
	// hashSpill) not yet given to spill, nHashes of them.
	spill   *hashSpill
	hashes  []byte
	nHashes int
	err     error // the first error; later batches are drained unread
	// reused between positions
	e       stats.Entry
	moves   []board.Move
	weights []uint64
}

// FromStore measures every position encoding on the positions of a store,
// each weighted by its games (what its moves' statistics add up to: games
// or occurrences, as the store counts), and the move codes on every
// position-move entry, weighted by its games; then it writes every stored
// game as PGN, plain and under zstd, for the sizes on disk. Its memory
// stays within o.Memory: the positions are read as book.Positions lists
// them (in bounded memory), and the hashes kept for the collision count
// go to temporary files past an eighth of the budget.
func FromStore(ctx context.Context, st *store.Store, o Options) (*Report, error) {
	start := time.Now()
	if o.Bands == "" {
		b, err := storeBands(st)
		if err != nil {
			return nil, err
		}
		o.Bands = b
	}
	spill := newHashSpill(int(min(o.memory()/8, 1<<30)))
	defer spill.close()
	workers := make([]*storeWorker, o.workers())
	for w := range workers {
		a, err := newAccumulator(accumulatorOptions{Bands: o.Bands})
		if err != nil {
			return nil, err
		}
		workers[w] = &storeWorker{acc: a, bands: o.Bands, spill: spill}
	}
	if err := measureStore(ctx, st, workers, o.Count); err != nil {
		return nil, err
	}
	total := workers[0].acc
	for _, w := range workers[1:] {
		total.Merge(w.acc)
	}
	pgnBytes, zstdBytes, err := storePGN(ctx, st, o.Count)
	if err != nil {
		return nil, err
	}
	r := storeReport(st, total, workers, pgnBytes, zstdBytes)
	if r.Hashes, err = spill.report(); err != nil {
		return nil, err
	}
	if r.Claims, err = seedClaims(r); err != nil {
		return nil, err
	}
	r.elapsed(start)
	return r, nil
}

// storePGN writes every stored game as PGN and returns the bytes written
// and the bytes of that PGN under zstd's default level (one stream, the
// games in the order of their ids).
func storePGN(ctx context.Context, st *store.Store, progress func(string, int64, int64)) (pgnBytes, zstdBytes int64, err error) {
	if progress == nil {
		progress = func(string, int64, int64) {}
	}
	var done, total int64 = 0, int64(st.Meta().Games)
	var zc countWriter
	zw, err := zstd.NewWriter(&zc, zstd.WithEncoderLevel(zstd.SpeedDefault))
	if err != nil {
		return 0, 0, err
	}
	var buf []byte
	err = st.Games(func(id store.GameID, rec []byte) (bool, error) {
		if done++; done%1024 == 0 {
			if err := ctx.Err(); err != nil {
				return false, err
			}
			progress("games written as PGN", done, total)
		}
		g, err := gamecode.DecodeGame(rec)
		if err != nil {
			return false, fmt.Errorf("game %s: %w (corrupt store?)", id, err)
		}
		buf = pgn.Append(buf[:0], &g)
		pgnBytes += int64(len(buf))
		_, err = zw.Write(buf)
		return err == nil, err
	})
	if cerr := zw.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return 0, 0, fmt.Errorf("savings: writing the stored games as PGN: %w", err)
	}
	progress("games written as PGN", done, total)
	return pgnBytes, zc.n, nil
}

// measureStore reads the store in batches and has the workers measure
// them, one goroutine each. It returns the first reading or measuring
// error.
func measureStore(ctx context.Context, st *store.Store, workers []*storeWorker, progress func(string, int64, int64)) error {
	batches := make(chan storeBatch, 2*len(workers))
	var wg sync.WaitGroup
	for _, w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for b := range batches {
				if w.err == nil {
					w.err = w.batch(b)
				}
			}
			if w.err == nil {
				w.err = w.flushHashes()
			}
		}()
	}
	iterErr := sendBatches(ctx, st, batches, progress)
	close(batches)
	wg.Wait()
	if iterErr != nil {
		return fmt.Errorf("savings: reading the store: %w", iterErr)
	}
	for _, w := range workers {
		if w.err != nil {
			return w.err
		}
	}
	return nil
}

// sendBatches reads every position of the store (see book.Positions;
// the values are the entries encoded) and sends
// them in batches of at most 2048 positions or about 200 KiB, each batch
// in one new arena. It stops at the first error or when ctx is done.
func sendBatches(ctx context.Context, st *store.Store, batches chan<- storeBatch, progress func(string, int64, int64)) error {
	var b storeBatch
	var arena []byte
	err := book.PositionsWith(ctx, st, book.PositionsOptions{Progress: progress}, func(k []byte, e *stats.Entry) error {
		if len(b.keys) == 0 {
			arena = make([]byte, 0, 256<<10)
		}
		n := len(arena)
		arena = append(arena, k...)
		arena = e.AppendEncode(arena)
		b.keys = append(b.keys, arena[n:n+len(k):n+len(k)])
		b.values = append(b.values, arena[n+len(k):len(arena):len(arena)])
		if len(b.keys) == 2048 || len(arena) > 200<<10 {
			select {
			case batches <- b:
			case <-ctx.Done():
				return ctx.Err()
			}
			b = storeBatch{}
		}
		return nil
	})
	if err != nil {
		return err
	}
	if len(b.keys) > 0 {
		batches <- b
	}
	return nil
}

// batch measures the positions of a batch.
func (w *storeWorker) batch(b storeBatch) error {
	for i, k := range b.keys {
		if err := w.position(k, b.values[i]); err != nil {
			return err
		}
	}
	return nil
}

// flushHashes gives the worker's hash records to the spill.
func (w *storeWorker) flushHashes() error {
	err := w.spill.add(w.hashes, w.nHashes)
	w.hashes, w.nHashes = w.hashes[:0], 0
	return err
}

// position measures one stored position, its key k and statistics v: the
// position weighted by its games, banded by the lowest ply of its moves
// (or its men), and each move weighted by its games.
func (w *storeWorker) position(k, v []byte) error {
	p, err := keys.Decode(k)
	if err != nil {
		return fmt.Errorf("savings: store key %x: %w", k, err)
	}
	if err := stats.DecodeInto(&w.e, v); err != nil {
		return fmt.Errorf("savings: store entry of %s: %w", p.FEN(), err)
	}
	w.moves, w.weights = w.moves[:0], w.weights[:0]
	var total uint64
	ply := -1
	for _, m := range w.e.Moves {
		g := m.Games()
		w.moves = append(w.moves, m.Move)
		w.weights = append(w.weights, g)
		total += g
		if mp, ok := m.MinPly(); ok && (ply < 0 || mp < ply) {
			ply = mp
		}
	}
	if w.bands == BandPly && ply < 0 {
		return fmt.Errorf("savings: position %s has no recorded ply: use the men bands", p.FEN())
	}
	if err := w.acc.AddPosition(&p, ply, total, w.moves, w.weights); err != nil {
		return err
	}
	w.hashes = appendHashRecord(w.hashes, zobristKey(&p), k)
	if w.nHashes++; len(w.hashes) >= 64<<10 {
		if err := w.flushHashes(); err != nil {
			return err
		}
	}
	c := &w.counts
	c.keyBytes += uint64(len(k))
	c.valueBytes += uint64(len(v))
	c.positions++
	c.entries += uint64(len(w.e.Moves))
	return nil
}

// storeReport turns the merged accumulator and the workers' counts into
// the report of the store: figures, sizes on disk and notes (without the
// hashes and claims).
func storeReport(st *store.Store, total *accumulator, workers []*storeWorker, pgnBytes, zstdBytes int64) *Report {
	r := total.build()
	r.Source = "store"
	r.Inputs = []string{st.Dir()}
	meta := st.Meta()
	r.Weighting = fmt.Sprintf("every stored position weighted by its games (count mode %s), every position-move entry by its games", meta.CountMode)
	r.Games = meta.Games
	var kb, vb uint64
	for _, w := range workers {
		r.Distinct += w.counts.positions
		r.Entries += w.counts.entries
		kb += w.counts.keyBytes
		vb += w.counts.valueBytes
	}
	dir := store.DirSize(st.Dir())
	fd, fe := float64(r.Distinct), float64(r.Entries)
	r.Disk = []DiskRow{
		{What: "store directory on disk (Pebble: statistics, single references, games, index, compression)", Bytes: float64(dir),
			PerPosition: perOf(float64(dir), r.Distinct), PerEntry: perOf(float64(dir), r.Entries), PerGame: perOf(float64(dir), meta.Games)},
		{What: "position keys, uncompressed (had every position a statistics record: positions of one game are single references instead)", Bytes: float64(kb), PerPosition: perOf(float64(kb), r.Distinct)},
		{What: "statistics values, uncompressed (had every position a statistics record)", Bytes: float64(vb), PerPosition: perOf(float64(vb), r.Distinct), PerEntry: perOf(float64(vb), r.Entries)},
		{What: "PolyGlot book, every entry (16 bytes each)", Bytes: 16 * fe, PerPosition: 16 * fe / max(fd, 1), PerEntry: 16,
			Note: "make-book keeps only moves played often enough: fewer entries"},
		{What: "the stored games written as PGN (tags and moves, as 'bookquery game' writes them)", Bytes: float64(pgnBytes),
			PerPosition: perOf(float64(pgnBytes), r.Distinct), PerGame: perOf(float64(pgnBytes), meta.Games)},
		{What: "that PGN under zstd -3 (one stream)", Bytes: float64(zstdBytes),
			PerPosition: perOf(float64(zstdBytes), r.Distinct), PerGame: perOf(float64(zstdBytes), meta.Games)},
	}
	r.StoreBytes, r.PGNBytes, r.PGNZstdBytes = dir, pgnBytes, zstdBytes
	r.Notes = append(r.Notes, fmt.Sprintf("store built with max-ply %d, count mode %s; its clocks are not kept (FEN measured with \"0 1\")", meta.MaxPly, meta.CountMode))
	return r
}

// storeBands returns BandPly when the store's first position records the
// lowest ply of its moves, else BandMen.
func storeBands(st *store.Store) (BandKind, error) {
	it, err := st.NewStatsIter()
	if err != nil {
		return "", fmt.Errorf("savings: %w", err)
	}
	defer it.Close()
	if !it.First() {
		return BandMen, nil
	}
	var e stats.Entry
	if err := it.EntryInto(&e); err != nil {
		return "", fmt.Errorf("savings: %w", err)
	}
	for _, m := range e.Moves {
		if _, ok := m.MinPly(); ok {
			return BandPly, nil
		}
	}
	return BandMen, nil
}
