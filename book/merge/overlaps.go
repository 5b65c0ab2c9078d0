package merge

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/chessbook/chessbook/book/build"
	"github.com/chessbook/chessbook/gamecode"
	"github.com/chessbook/chessbook/gamedb"
	"github.com/chessbook/chessbook/store"
)

// Sources that share games with an earlier one: found, then rebuilt from
// their game records into a scratch store.

// findOverlaps marks the sources that hold a game an earlier one holds
// (by id, which in a KeepDuplicates store is also the first copy of a
// content): they are replayed. It reads the game records' keys of all
// sources in one merged pass.
func findOverlaps(ctx context.Context, sources []*mergeSource, progress func(string, int64, int64)) error {
	if len(sources) < 2 {
		return nil
	}
	its, err := recordIters(sources, store.KindGame, (*mergeSource).originalStore)
	if err != nil {
		return err
	}
	var total int64
	for _, s := range sources {
		total += int64(s.meta.Games)
	}
	var done int64
	if progress != nil {
		progress("checking which stores share games", 0, total)
	}
	return mergeRecords(ctx, its, nil, func(k []byte, vals []kwayVal) error {
		done++
		if progress != nil && done%65536 == 0 {
			progress("checking which stores share games", done, total)
		}
		for _, v := range vals[1:] {
			sources[v.src].replay = true
		}
		return nil
	})
}

// replaySource rebuilds source s, which shares games with the sources
// before it (earlier), into a scratch store in out's scratch directory:
// its games, read from their records in number order, are replayed as a
// build of its inputs after theirs would have: a game an earlier source
// holds is a duplicate (unless duplicates are kept: then its copies are
// numbered after theirs), and its first-seen stamps move by s.shift.
func replaySource(ctx context.Context, out *store.Store, earlier []*mergeSource, s *mergeSource, i int,
	o Options, ms *Stats) error {
	m := s.meta
	s.scratch = filepath.Join(out.Dir(), "chessbook-ingest", fmt.Sprintf("merge-%d", i))
	_ = os.RemoveAll(s.scratch)
	st, err := store.Open(s.scratch, store.Options{Meta: &store.Meta{MaxPly: m.MaxPly, CountMode: m.CountMode,
		KeepDuplicates: m.KeepDuplicates, GameIndex: gamedb.Version}})
	if err != nil {
		return fmt.Errorf("merge: scratch store for %s: %w", s.dir, err)
	}
	s.rebuilt = st
	coding := gamecode.Indexed
	err = s.st.Games(func(_ store.GameID, rec []byte) (bool, error) {
		if len(rec) > 0 && rec[0] == gamecode.VersionRanked {
			coding = gamecode.Ranked
		}
		return false, nil
	})
	if err != nil {
		return fmt.Errorf("merge: %s: %w", s.dir, err)
	}
	opts := build.Options{MaxPly: m.MaxPly, CountMode: m.CountMode, KeepDuplicates: m.KeepDuplicates,
		MemBudget: o.MemBudget, GameCoding: coding}
	workers := o.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	b := build.NewBuilder(st, opts, workers)
	// The games are replayed on several workers at once, in no
	// particular order: unlike a build's, a replay's claims do not depend
	// on the order (a store's games are all distinct, the duplicates of
	// earlier stores are left out before, and KeepDuplicates copies get
	// their numbers from their ids).
	type numbered struct {
		id    store.GameID
		stamp uint64
	}
	chunks := make(chan []numbered, workers)
	free := make(chan []numbered, 2*workers)
	rs := make([]*build.Replayer, workers)
	prev := make([]*store.Store, len(earlier))
	for k, e := range earlier {
		prev[k] = e.st
	}
	errs := make([]error, workers)
	var failed atomic.Bool
	var wg sync.WaitGroup
	for j := range rs {
		r := b.Replayer(j, prev, s.shift)
		rs[j] = r
		wg.Add(1)
		go func() {
			defer wg.Done()
			for c := range chunks {
				for _, g := range c {
					if errs[j] != nil {
						break
					}
					rec, err := s.st.Game(g.id)
					if err != nil {
						errs[j] = fmt.Errorf("%s: %w", s.dir, err)
						break
					}
					errs[j] = r.Add(g.id, g.stamp, rec)
				}
				if errs[j] == nil {
					errs[j] = r.Flush()
				}
				if errs[j] != nil {
					failed.Store(true)
				}
				select {
				case free <- c[:0]:
				default:
				}
			}
		}()
	}
	what := "replaying " + s.dir
	var done int64
	var chunk []numbered
	send := func() {
		chunks <- chunk
		select {
		case chunk = <-free:
		default:
			chunk = make([]numbered, 0, mergeBatch)
		}
	}
	err = s.st.GameNumbers(0, max(m.NextGame, 1), func(_ uint64, id store.GameID, stamp uint64) (bool, error) {
		if done%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return false, err
			}
			if failed.Load() {
				return false, nil
			}
			if o.Progress != nil {
				o.Progress(what, done, int64(m.Games))
			}
		}
		done++
		chunk = append(chunk, numbered{id, stamp})
		if len(chunk) == mergeBatch {
			send()
		}
		return true, nil
	})
	if len(chunk) > 0 {
		send()
	}
	close(chunks)
	wg.Wait()
	for _, e := range errs {
		if err == nil {
			err = e
		}
	}
	if err != nil {
		b.Abort()
		_ = b.Finish()
		return fmt.Errorf("merge: %w", err)
	}
	for _, r := range rs {
		ms.Duplicates += r.Duplicates()
	}
	if err := b.Finish(); err != nil {
		return fmt.Errorf("merge: replaying %s: %w", s.dir, err)
	}
	bs := b.Stats()
	if bs.Unstorable > 0 || bs.Uncommitted > 0 {
		return fmt.Errorf("merge: replaying %s: %d games not stored: %v", s.dir, bs.Unstorable+bs.Uncommitted, bs.Errors)
	}
	ms.ReplayedGames += done
	if o.Progress != nil {
		o.Progress(what, done, int64(m.Games))
	}
	return nil
}

// mergeBatch is the number of games fed to a worker at a time.
const mergeBatch = 256
