package savings

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"sync"
	"time"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/book"
	"github.com/chessbook/chessbook/book/counting"
	"github.com/chessbook/chessbook/gamecode"
	"github.com/chessbook/chessbook/keys"
	"github.com/chessbook/chessbook/pgn"
	"github.com/chessbook/chessbook/stats"
	"github.com/chessbook/chessbook/store"
	"github.com/klauspost/compress/zstd"
)

// DefaultSample is the number of games Summarize replays by default.
const DefaultSample = 2000

// Summary is the short answer of bookquery savings: what the store takes,
// per game and per position, against its games written as PGN, that PGN
// under zstd and a Polyglot book of the same moves, and what the position
// keys save. Its figures come from a sample of the stored games (see
// Summarize); they are exact when the sample is every stored game
// (Exact), and the full report (FromStore) measures them all.
type Summary struct {
	Store       int64   `json:"store_bytes"`
	Games       uint64  `json:"games"`
	Positions   uint64  `json:"positions"`
	Entries     uint64  `json:"position_moves"`
	PGN         int64   `json:"pgn_bytes"`       // the stored games written as PGN
	PGNZstd     int64   `json:"pgn_zstd_bytes"`  // that PGN under zstd's default level (zstd -3)
	Polyglot    int64   `json:"polyglot_bytes"`  // a Polyglot book of every position-move: 16 bytes each
	KeyBits     float64 `json:"key_bits_mean"`   // our lossless key, weighted by games
	FENBits     float64 `json:"fen_bits_mean"`   // FEN text, weighted by games
	ZobristBits float64 `json:"zobrist_bits"`    // Polyglot's 64-bit hash (lossy)
	ElapsedSecs float64 `json:"elapsed_seconds"` // measuring time

	// SampledGames is how many stored games the figures come from, the
	// first in the order of their ids (a content hash: a random sample).
	SampledGames uint64 `json:"sampled_games"`
	// Exact is set when SampledGames is every stored game: then every
	// figure is what the full report measures.
	Exact bool `json:"exact"`
	// PositionsMargin, EntriesMargin and PGNMargin are the 95% margins of
	// error of Positions, Entries and PGN relative to them (0.01: ±1%),
	// from the spread of the sampled games; 0 when Exact.
	PositionsMargin float64 `json:"positions_margin"`
	EntriesMargin   float64 `json:"position_moves_margin"`
	PGNMargin       float64 `json:"pgn_margin"`
}

// SummaryOptions configure Summarize.
type SummaryOptions struct {
	// Sample is how many stored games to replay: 0 means DefaultSample,
	// a negative number every game (exact, and as slow as the store is
	// big).
	Sample int
	// Progress, when not nil, gets the games sampled so far and in all.
	Progress func(what string, done, total int64)
}

// Summarize answers the summary of st from a sample of its games, in time
// and memory that do not grow with the store: the store's size on disk
// and game count (its metadata), and, from the first o.Sample games in id
// order (ids are content hashes, so these are a random sample), the games
// written as PGN and under zstd, and the positions and position-moves.
//
// Each sampled game is replayed under the store's counting rule (its
// max-ply and count mode): every position it counts contributes its key's
// and its FEN's sizes (the means are weighted by games, as the full
// report weighs them), 1/g to the positions, where g is the position's
// games (what its moves' statistics add up to), and 1/m to the
// position-moves, where m is its move's games. Summed over every stored
// game these are exactly the store's positions and position-moves; over
// a sample, scaled by the games, an unbiased estimate, whose margin of
// error comes from the spread between games. A position's statistics are
// looked up in the store (book.LookupInto); one that a single game
// reaches, kept as the store's one reference to it, is known to have
// one game and one move without replaying that game again.
func Summarize(ctx context.Context, st *store.Store, o SummaryOptions) (*Summary, error) {
	start := time.Now()
	progress := o.Progress
	if progress == nil {
		progress = func(string, int64, int64) {}
	}
	meta := st.Meta()
	n := uint64(o.Sample)
	switch {
	case o.Sample == 0:
		n = DefaultSample
	case o.Sample < 0 || n > meta.Games:
		n = meta.Games
	}
	var zc countWriter
	zw, err := zstd.NewWriter(&zc, zstd.WithEncoderLevel(zstd.SpeedDefault))
	if err != nil {
		return nil, err
	}
	// This goroutine reads the games and writes them as PGN, into one
	// zstd stream (as FromStore does, in id order); the workers replay
	// them and look their positions up.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	workers := make([]*sampler, min(runtime.NumCPU(), 4))
	games := make(chan sampledGame, 4*len(workers))
	errs := make(chan error, len(workers))
	var wg sync.WaitGroup
	for w := range workers {
		workers[w] = newSampler(st, meta)
		wg.Add(1)
		go func(sm *sampler) {
			defer wg.Done()
			for g := range games {
				if err := sm.game(&g.game); err != nil {
					err = fmt.Errorf("game %s: %w", g.id, err)
					errs <- err
					cancel()
					for range games {
					}
					return
				}
			}
		}(workers[w])
	}
	var pgnBytes moment
	var buf []byte
	var done uint64
	err = st.Games(func(id store.GameID, rec []byte) (bool, error) {
		if done >= n {
			return false, nil
		}
		if done%64 == 0 {
			if err := ctx.Err(); err != nil {
				return false, err
			}
			progress("games sampled", int64(done), int64(n))
		}
		done++
		g, err := gamecode.DecodeGame(rec)
		if err != nil {
			return false, fmt.Errorf("game %s: %w (corrupt store?)", id, err)
		}
		buf = pgn.Append(buf[:0], &g)
		pgnBytes.add(float64(len(buf)))
		if _, err := zw.Write(buf); err != nil {
			return false, err
		}
		select {
		case games <- sampledGame{g, id}:
		case <-ctx.Done():
			return false, ctx.Err()
		}
		return true, nil
	})
	close(games)
	wg.Wait()
	close(errs)
	if werr := <-errs; werr != nil {
		err = werr
	}
	if cerr := zw.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, fmt.Errorf("savings: sampling the stored games: %w", err)
	}
	progress("games sampled", int64(done), int64(n))
	total := workers[0]
	for _, w := range workers[1:] {
		total.merge(w)
	}
	s := total.summary(meta.Games, done, pgnBytes, zc.n)
	s.Store = store.DirSize(st.Dir())
	s.ElapsedSecs = time.Since(start).Seconds()
	return s, nil
}

// moment accumulates one per-game figure: its sum and sum of squares.
type moment struct{ sum, sq float64 }

func (m *moment) add(x float64) { m.sum += x; m.sq += x * x }

// estimate returns the figure's total over all games, scaled from k
// sampled games of n, and its 95% margin of error relative to it (with
// the finite population correction: 0 when k is n).
func (m *moment) estimate(k, n uint64) (total, margin float64) {
	if k == 0 {
		return 0, 0
	}
	fk, fn := float64(k), float64(n)
	mean := m.sum / fk
	total = mean * fn
	if k < 2 || k >= n || total == 0 {
		return total, 0
	}
	variance := max(m.sq/fk-mean*mean, 0) * fk / (fk - 1)
	se := fn * math.Sqrt(variance/fk*(fn-fk)/(fn-1))
	return total, 1.96 * se / total
}

// sampledGame is a game of the sample, decoded, and its id.
type sampledGame struct {
	game pgn.Game
	id   store.GameID
}

// sampler measures the positions of sampled games: one per worker.
type sampler struct {
	st   *store.Store
	rule *counting.Rule // the store's counting rule (max-ply, count mode)

	positions, entries        moment
	keyBits, fenBits, counted float64 // sums over the counted positions

	// cache holds the statistics of the positions looked up that are
	// not a single game's (at most cacheMax of them); the most reached
	// ones, near the start, are looked up once.
	cache map[string]*stats.Entry
	// reused between games
	key []byte
	e   stats.Entry
}

// cacheMax bounds a sampler's cache of statistics.
const cacheMax = 1 << 15

func newSampler(st *store.Store, meta store.Meta) *sampler {
	return &sampler{st: st, rule: counting.NewRule(meta.MaxPly, meta.CountMode), cache: map[string]*stats.Entry{}}
}

// merge adds what o measured to s.
func (s *sampler) merge(o *sampler) {
	s.positions.sum += o.positions.sum
	s.positions.sq += o.positions.sq
	s.entries.sum += o.entries.sum
	s.entries.sq += o.entries.sq
	s.keyBits += o.keyBits
	s.fenBits += o.fenBits
	s.counted += o.counted
}

// game measures the positions that the stored game g counts.
func (s *sampler) game(g *pgn.Game) error {
	var positions, entries float64
	err := s.rule.Each(&g.Start, g.Moves, func(pos *board.Position, m board.Move, hash uint64) error {
		s.key = keys.Append(s.key[:0], pos)
		games, moveGames, err := s.lookup(s.key, store.SingleHashOf(hash), m)
		if err != nil {
			return err
		}
		positions += 1 / float64(games)
		entries += 1 / float64(moveGames)
		s.sizes(pos, len(s.key))
		return nil
	})
	if err != nil {
		return err
	}
	s.positions.add(positions)
	s.entries.add(entries)
	return nil
}

// sizes adds the sizes of position p, whose key takes keyLen bytes, as
// the full report measures a stored position: decoded from its key, with
// clocks "0 1".
func (s *sampler) sizes(p *board.Position, keyLen int) {
	q := normalize(p)
	q.SetClocks(0, 1)
	s.keyBits += float64(8 * keyLen)
	s.fenBits += float64(8 * fenLen(&q))
	s.counted++
}

// lookup returns the games of the position with key k and single hash h
// (store.SingleHash) and of its move m, as the store counts them.
func (s *sampler) lookup(k []byte, h uint32, m board.Move) (games, moveGames uint64, err error) {
	e, ok := s.cache[string(k)]
	if !ok {
		found, err := s.st.StatsRecordInto(&s.e, k)
		if err != nil {
			return 0, 0, err
		}
		refs := 0
		if !found {
			err = s.st.SinglesOf(h, func(uint64) error { refs++; return nil })
			if err != nil {
				return 0, 0, err
			}
			if refs == 1 {
				// The one reference under its hash is this game's:
				// the position has one game and one move.
				return 1, 1, nil
			}
		}
		if _, err := book.LookupInto(s.st, &s.e, k); err != nil {
			return 0, 0, err
		}
		e = &s.e
		if len(s.cache) < cacheMax {
			e = &stats.Entry{Moves: append([]stats.MoveEntry(nil), s.e.Moves...)}
			s.cache[string(k)] = e
		}
	}
	for _, me := range e.Moves {
		if me.Move == m {
			if g := e.Games(); g > 0 && me.Games() > 0 {
				return g, me.Games(), nil
			}
		}
	}
	return 0, 0, errors.New("a position the game counts has no statistics for its move in the store (corrupt store? run 'bookquery check')")
}

// summary turns the sums over k sampled games of n into the summary;
// pgnBytes are the sampled games' sizes as PGN, zstdBytes all of them
// under zstd.
func (s *sampler) summary(n, k uint64, pgnBytes moment, zstdBytes int64) *Summary {
	sum := &Summary{Games: n, SampledGames: k, Exact: k == n, ZobristBits: 64}
	pgnTotal, pgnMargin := pgnBytes.estimate(k, n)
	positions, posMargin := s.positions.estimate(k, n)
	entries, entMargin := s.entries.estimate(k, n)
	sum.PGN, sum.PGNMargin = int64(math.Round(pgnTotal)), pgnMargin
	sum.Positions, sum.PositionsMargin = uint64(math.Round(positions)), posMargin
	sum.Entries, sum.EntriesMargin = uint64(math.Round(entries)), entMargin
	if k > 0 {
		sum.PGNZstd = int64(math.Round(float64(zstdBytes) * float64(n) / float64(k)))
	}
	sum.Polyglot = 16 * int64(sum.Entries)
	if s.counted > 0 {
		sum.KeyBits = s.keyBits / s.counted
		sum.FENBits = s.fenBits / s.counted
	}
	return sum
}
