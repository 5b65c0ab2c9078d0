package book

import (
	"bytes"
	"context"
	"fmt"
	"github.com/chessbook/chessbook/book/counting"
	"runtime"
	"sync"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/gamecode"
	"github.com/chessbook/chessbook/keys"
	"github.com/chessbook/chessbook/store"
)

// Every game through a position, found by scanning the game records: the
// statistics keep only a few game references per move (stats.MaxRefs top
// and recent games), so listing all the games of a position, or writing
// them as PGN, replays the stored games. A game is replayed only until it
// reaches the position or can no longer reach it (see reachable), so a scan
// for an opening position decodes a few plies of each game.

// ThroughOptions are the options of GamesThrough.
type ThroughOptions struct {
	// Sel keeps the games it selects (by their tags); the zero Selection
	// keeps all.
	Sel Selection
	// Progress, when not nil, is called every 4096 games scanned, and at
	// the end (also when fn stops the scan), with the number of games
	// scanned so far.
	Progress func(scanned int)
	// Workers is the number of goroutines that replay the games; 0 for
	// one per CPU (GOMAXPROCS). A server running several scans at once
	// gives each a share of the CPUs, so that its light requests keep one.
	Workers int
}

// checkEvery is how many games a GamesThrough worker replays between two
// looks at the context: a few milliseconds of work at most, even for
// games replayed to their end.
const checkEvery = 256

// GamesThrough calls fn with every stored game that reaches position p and
// that opts.Sel keeps, in the order of game ids, with its record (valid
// during the call only) and the ply at which the game first reaches p,
// counted from White's first move by the game's move numbers (a game set
// up from a FEN at move 20 starts at ply 38). It
// stops when fn returns false or an error, or when ctx is done (returning
// ctx's error): fn is not called once ctx is done, and the workers stop
// within checkEvery games each. A record that cannot be decoded fails the
// scan with an error naming the game.
//
// The games are scanned in chunks of the id space, on opts.Workers
// goroutines (every CPU by default), a few chunks ahead of fn at most; fn
// is called from the caller's goroutine.
func GamesThrough(ctx context.Context, st *store.Store, p *board.Position, opts ThroughOptions, fn func(id store.GameID, rec []byte, ply int) (bool, error)) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	workers := opts.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	n := max(1, min(int(st.Meta().Games/4096), 1<<12)) // chunks of about 4096 games
	step := ^uint64(0) / uint64(n)
	chunks := make([]*throughChunk, n)
	for i := range chunks {
		c := &throughChunk{lo: store.GameID(uint64(i) * step), done: make(chan struct{})}
		if i+1 < n {
			c.hi = store.GameID(uint64(i+1) * step)
		}
		chunks[i] = c
	}
	// ahead bounds the chunks scanned but not yet given to fn.
	ahead := make(chan struct{}, 2*workers)
	next := make(chan *throughChunk)
	var wg sync.WaitGroup
	go func() {
		defer close(next)
		for _, c := range chunks {
			select {
			case ahead <- struct{}{}:
			case <-ctx.Done():
				return
			}
			select {
			case next <- c:
			case <-ctx.Done():
				return
			}
		}
	}()
	s := throughScan{target: board.NewReach(p), hash: keys.Hash(p), p: p, sel: opts.Sel}
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for c := range next {
				c.err = st.GamesBetween(c.lo, c.hi, func(id store.GameID, rec []byte) (bool, error) {
					c.scanned++
					if c.scanned%checkEvery == 0 && ctx.Err() != nil {
						return false, ctx.Err()
					}
					ply, err := s.game(id, rec)
					if ply >= 0 && err == nil {
						c.found = append(c.found, throughMatch{id: id, rec: bytes.Clone(rec), ply: ply})
					}
					return err == nil, err
				})
				close(c.done)
			}
		}()
	}
	defer wg.Wait()
	defer cancel() // before wg.Wait: the workers stop
	scanned := 0
	for _, c := range chunks {
		select {
		case <-c.done:
		case <-ctx.Done():
			return ctx.Err()
		}
		if c.err != nil {
			return c.err
		}
		for _, m := range c.found {
			if err := ctx.Err(); err != nil {
				return err
			}
			more, err := fn(m.id, m.rec, m.ply)
			if err != nil || !more {
				if opts.Progress != nil {
					opts.Progress(scanned + c.scanned)
				}
				return err
			}
		}
		scanned += c.scanned
		c.found = nil
		<-ahead
		if opts.Progress != nil {
			opts.Progress(scanned)
		}
	}
	return ctx.Err()
}

// throughChunk is one range of game ids [lo, hi) of a GamesThrough scan
// (hi 0: no bound), and what its scan found.
type throughChunk struct {
	lo, hi  store.GameID
	found   []throughMatch
	scanned int
	err     error
	done    chan struct{} // closed when the chunk is scanned
}

// throughMatch is a game a GamesThrough scan found.
type throughMatch struct {
	id  store.GameID
	rec []byte
	ply int
}

// throughScan tells which games reach a position.
type throughScan struct {
	target board.Reach
	hash   uint64
	p      *board.Position
	sel    Selection
}

// game returns the ply at which the game of record rec first reaches the
// position (see counting.PlyOf), -1 if it never does or the selection does not
// keep it.
func (s *throughScan) game(id store.GameID, rec []byte) (int, error) {
	if !s.sel.IsZero() {
		g, _, err := gamecode.DecodeGameInfo(rec)
		if err != nil {
			return -1, fmt.Errorf("game %s: %w (corrupt store?)", id, err)
		}
		if !s.sel.KeepsGame(&g) {
			return -1, nil
		}
	}
	at, lost := -1, false
	g, err := gamecode.DecodeGameUntil(rec, func(_ int, q *board.Position, _ board.Move) bool {
		if keys.Hash(q) == s.hash && keys.Equal(q, s.p) {
			at = counting.PlyOf(q)
			return true
		}
		lost = !s.target.ReachableFrom(q)
		return lost
	})
	if err != nil {
		return -1, fmt.Errorf("game %s: %w (corrupt store?)", id, err)
	}
	if at >= 0 || lost {
		return at, nil
	}
	// The game stayed able to reach p to its end, and its last position
	// is not given to the callback: the game, decoded whole, may end on p.
	q := g.Start
	for _, m := range g.Moves {
		q.Play(m)
	}
	if keys.Equal(&q, s.p) {
		return counting.PlyOf(&q), nil
	}
	return -1, nil
}
