package savings

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"time"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/ingest"
	"github.com/chessbook/chessbook/keys"
	"github.com/chessbook/chessbook/pgn"
	"github.com/chessbook/chessbook/stats"
	"github.com/chessbook/chessbook/store"
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
}

func (o *Options) workers() int {
	if o.Workers <= 0 {
		return runtime.NumCPU()
	}
	return o.Workers
}

// accSink feeds a worker's games to its accumulator.
type accSink struct{ a *Accumulator }

// Game measures g.
func (s accSink) Game(g *pgn.Game) error { return s.a.AddGame(g) }

// Skip ignores a game that could not be replayed (the Summary counts it).
func (accSink) Skip(*ingest.GameError) {}

// FromPGN measures every encoding on the games of the PGN inputs (plain
// or compressed, as bookbuild reads them), with ingest.Run's parallel
// pipeline and one accumulator per worker.
func FromPGN(ctx context.Context, inputs []string, o Options) (*Report, error) {
	start := time.Now()
	if o.Bands == "" {
		o.Bands = BandPly
	}
	d := NewDistinct()
	cache := NewGameCache()
	var dedupe *Dedupe
	if !o.KeepDuplicates {
		dedupe = NewDedupe()
	}
	workers := o.workers()
	accs := make([]*Accumulator, workers)
	for w := range accs {
		a, err := NewAccumulator(AccumulatorOptions{Bands: o.Bands, Distinct: d, Games: true, GamecodeEvery: o.GamecodeEvery, Cache: cache, Dedupe: dedupe})
		if err != nil {
			return nil, err
		}
		accs[w] = a
	}
	sum, err := ingest.Run(ctx, inputs, ingest.Options{Workers: workers, Progress: o.Progress}, func(w int) ingest.Sink {
		return accSink{accs[w]}
	})
	var total *Accumulator
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
	if err != nil {
		return nil, fmt.Errorf("savings: measuring %v: %w", inputs, err)
	}
	if total == nil {
		return nil, errors.New("savings: no input")
	}
	r := total.build()
	r.Source = "pgn"
	r.Inputs = inputs
	r.Weighting = "every position before a move, once per occurrence; every move once"
	r.DuplicateGames = total.duplicates
	if dedupe != nil {
		r.Weighting += "; copies of a game skipped (as bookbuild does)"
	} else {
		r.Weighting += "; every copy of a game measured"
	}
	r.Games = total.games
	r.SkippedGames = sum.SkippedTotal()
	dc, err := d.Counts()
	if err != nil {
		return nil, fmt.Errorf("savings: %w", err)
	}
	r.Distinct = dc.Positions
	r.Entries = dc.Entries
	r.Hashes = hashRows(dc.Positions, dc.Collisions, dc.Collisions2, dc.Examples)
	if total.gameErr != nil {
		r.Notes = append(r.Notes, fmt.Sprintf("gamecode failed on %d games, first: %v", total.gameFail[gmGamecode], total.gameErr))
	}
	if o.GamecodeEvery > 1 {
		r.Notes = append(r.Notes, fmt.Sprintf("gamecode measured on %d of %d games (one in %d, by line number): a sample", total.gamecodeGames, total.games, o.GamecodeEvery))
	}
	// The input holds every game given, copies and unplayable games too:
	// per game and per move of what was replayed.
	plies := float64(max(sum.Plies, 1))
	games := float64(max(sum.Games, 1))
	r.Disk = []DiskRow{
		{What: "input as read (compressed PGN, all games, tags and comments)", Bytes: float64(sum.Bytes),
			PerPosition: perOf(float64(sum.Bytes), r.Distinct), PerGame: float64(sum.Bytes) / games, BitsPerMove: 8 * float64(sum.Bytes) / plies},
		{What: "our keys of the distinct positions (no statistics)", Bytes: float64(dc.KeyBytes),
			PerPosition: perOf(float64(dc.KeyBytes), r.Distinct), Note: "a store adds each position's move statistics and Pebble's overhead: see 'bookquery savings'"},
		{What: "PolyGlot book, every entry (16 bytes each)", Bytes: 16 * float64(r.Entries),
			PerPosition: perOf(16*float64(r.Entries), r.Distinct), PerEntry: 16, Note: "make-book keeps only moves played often enough: fewer entries"},
	}
	if r.Claims, err = seedClaims(r); err != nil {
		return nil, err
	}
	r.elapsed(start)
	return r, nil
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

// FromStore measures every position encoding on the positions of a store,
// each weighted by its games (what its moves' statistics add up to: games
// or occurrences, as the store counts), and the move codes on every
// position-move entry, weighted by its games.
func FromStore(ctx context.Context, st *store.Store, o Options) (*Report, error) {
	start := time.Now()
	if o.Bands == "" {
		b, err := storeBands(st)
		if err != nil {
			return nil, err
		}
		o.Bands = b
	}
	workers := o.workers()
	batches := make(chan storeBatch, 2*workers)
	accs := make([]*Accumulator, workers)
	errs := make([]error, workers)
	counts := make([]struct{ keyBytes, valueBytes, positions, entries uint64 }, workers)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		a, err := NewAccumulator(AccumulatorOptions{Bands: o.Bands, CollectZobrists: true})
		if err != nil {
			return nil, err
		}
		accs[w] = a
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			var e stats.Entry
			var moves []board.Move
			var weights []uint64
			for b := range batches {
				if errs[w] != nil {
					continue
				}
				for i, k := range b.keys {
					p, err := keys.Decode(k)
					if err != nil {
						errs[w] = fmt.Errorf("savings: store key %x: %w", k, err)
						break
					}
					if err := stats.DecodeInto(&e, b.values[i]); err != nil {
						errs[w] = fmt.Errorf("savings: store entry of %s: %w", p.FEN(), err)
						break
					}
					moves, weights = moves[:0], weights[:0]
					var total uint64
					ply := -1
					for _, m := range e.Moves {
						g := m.Games()
						moves = append(moves, m.Move)
						weights = append(weights, g)
						total += g
						if mp, ok := m.MinPly(); ok && (ply < 0 || mp < ply) {
							ply = mp
						}
					}
					if o.Bands == BandPly && ply < 0 {
						errs[w] = fmt.Errorf("savings: position %s has no recorded ply: use the men bands", p.FEN())
						break
					}
					if err := a.AddPosition(&p, ply, total, moves, weights); err != nil {
						errs[w] = err
						break
					}
					c := &counts[w]
					c.keyBytes += uint64(len(k))
					c.valueBytes += uint64(len(b.values[i]))
					c.positions++
					c.entries += uint64(len(e.Moves))
				}
			}
		}(w)
	}
	it, err := st.NewIter()
	if err != nil {
		close(batches)
		wg.Wait()
		return nil, fmt.Errorf("savings: %w", err)
	}
	var iterErr error
	var b storeBatch
	var arena []byte
	for ok := it.First(); ok; ok = it.Next() {
		v, err := it.Value()
		if err != nil {
			iterErr = err
			break
		}
		if len(b.keys) == 0 {
			arena = make([]byte, 0, 256<<10)
		}
		k := it.Key()
		n := len(arena)
		arena = append(arena, k...)
		arena = append(arena, v...)
		b.keys = append(b.keys, arena[n:n+len(k):n+len(k)])
		b.values = append(b.values, arena[n+len(k):len(arena):len(arena)])
		if len(b.keys) == 2048 || len(arena) > 200<<10 {
			select {
			case batches <- b:
			case <-ctx.Done():
				iterErr = ctx.Err()
			}
			b = storeBatch{}
			if iterErr != nil {
				break
			}
		}
	}
	if iterErr == nil && len(b.keys) > 0 {
		batches <- b
	}
	close(batches)
	wg.Wait()
	if err := it.Close(); err != nil && iterErr == nil {
		iterErr = err
	}
	if iterErr != nil {
		return nil, fmt.Errorf("savings: reading the store: %w", iterErr)
	}
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	total := accs[0]
	for _, a := range accs[1:] {
		total.Merge(a)
	}
	r := total.build()
	r.Source = "store"
	r.Inputs = []string{st.Dir()}
	meta := st.Meta()
	r.Weighting = fmt.Sprintf("every stored position weighted by its games (count mode %s), every position-move entry by its games", meta.CountMode)
	r.Games = meta.Games
	var kb, vb uint64
	for _, c := range counts {
		r.Distinct += c.positions
		r.Entries += c.entries
		kb += c.keyBytes
		vb += c.valueBytes
	}
	dir := store.DirSize(st.Dir())
	fd, fe := float64(r.Distinct), float64(r.Entries)
	r.Disk = []DiskRow{
		{What: "store directory on disk (Pebble: keys, statistics, index, compression)", Bytes: float64(dir),
			PerPosition: perOf(float64(dir), r.Distinct), PerEntry: perOf(float64(dir), r.Entries), PerGame: perOf(float64(dir), meta.Games)},
		{What: "position keys, uncompressed", Bytes: float64(kb), PerPosition: perOf(float64(kb), r.Distinct)},
		{What: "statistics values, uncompressed", Bytes: float64(vb), PerPosition: perOf(float64(vb), r.Distinct), PerEntry: perOf(float64(vb), r.Entries)},
		{What: "PolyGlot book, every entry (16 bytes each)", Bytes: 16 * fe, PerPosition: 16 * fe / max(fd, 1), PerEntry: 16,
			Note: "make-book keeps only moves played often enough: fewer entries"},
	}
	r.Notes = append(r.Notes, fmt.Sprintf("store built with max-ply %d, count mode %s; its clocks are not kept (FEN measured with \"0 1\")", meta.MaxPly, meta.CountMode))
	hashes, err := hashReport(total.Zobrists(), func(dup map[uint64]bool) ([]board.Position, error) {
		var ps []board.Position
		err := st.Positions(func(pos []byte, _ *stats.Entry) error {
			p, err := keys.Decode(pos)
			if err != nil {
				return fmt.Errorf("savings: store key %x: %w", pos, err)
			}
			if dup[ZobristKey(&p)] {
				ps = append(ps, p)
			}
			return nil
		})
		return ps, err
	})
	if err != nil {
		return nil, err
	}
	r.Hashes = hashes
	if r.Claims, err = seedClaims(r); err != nil {
		return nil, err
	}
	r.elapsed(start)
	return r, nil
}

// storeBands returns BandPly when the store's first position records the
// lowest ply of its moves, else BandMen.
func storeBands(st *store.Store) (BandKind, error) {
	it, err := st.NewIter()
	if err != nil {
		return "", fmt.Errorf("savings: %w", err)
	}
	defer it.Close()
	if !it.First() {
		return BandMen, nil
	}
	e, err := it.Entry()
	if err != nil {
		return "", fmt.Errorf("savings: %w", err)
	}
	for _, m := range e.Moves {
		if _, ok := m.MinPly(); ok {
			return BandPly, nil
		}
	}
	return BandMen, nil
}
