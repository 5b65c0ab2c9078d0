package merge

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/chessbook/chessbook/book/build"
	"github.com/chessbook/chessbook/gamedb"
	"github.com/chessbook/chessbook/store"
)

// Merging stores: stores built separately (one per month, say, or the
// shards of a distributed build) become one store, exactly the store one
// build of all their inputs, in the order the stores are given, would have
// made: the same statistics (first-seen stamps, lowest plies, top games
// and histories included), the same game records, the same game index
// answers. See Run.

// Options configure Run.
type Options struct {
	// MemBudget, when not 0, sets the aggregation tables' memory in bytes
	// of the builds that replay a store (see build.Options.MemBudget); 0: the
	// default budget's share.
	MemBudget int64
	// Progress, if not nil, is called as the merge goes on with what it
	// is doing ("checking overlaps", "replaying STORE", "merging
	// positions", ...), and how far it got, in records or games, out of
	// total (0: unknown).
	Progress func(what string, done, total int64)
	// KeepStamps keeps the first-seen stamps of -count occurrence stores
	// as they are. By default a store's stamps (its input's index << 44 |
	// line << 12 | ply: see build.Options.Inputs) are moved past those of the
	// stores before it, by the largest input index their stamps hold, as
	// if its inputs came after theirs in one build; a store given again
	// keeps the stamps of its first place, as one build given the same
	// input names again stamps their games by their first place. Stores whose builds
	// were given the same, global, build.Options.Inputs (shards of one build
	// split by game, like the Beam pipeline's) have stamps that agree
	// already, and must keep them.
	KeepStamps bool
	// Workers is the number of goroutines that replay a store rebuilt
	// from its game records; 0: one per CPU.
	Workers int

	// mutation is the tests' hook (export_test.go): none when zero.
	mutation mutation
}

// Stats are what a merge did.
type Stats struct {
	Stores     int64 // stores merged
	Games      int64 // games in the merged store
	Duplicates int64 // games of a store that an earlier store holds (default mode): stored and counted once
	// Replayed is the number of stores that share games with an earlier
	// one, which were rebuilt from their game records (the exact, slower
	// path); the others were copied record by record.
	Replayed      int64
	ReplayedGames int64 // games those rebuilds replayed
	Records       int64 // records written to the merged store
}

// ErrMismatch is wrapped by Run's error when the stores were built
// with build options that change what their numbers mean (MaxPly,
// CountMode, KeepDuplicates) and differ: one store can not hold both.
var ErrMismatch = errors.New("stores built with different options")

// ErrTarget is wrapped by Run's error when the destination is not
// a new store: it holds games, or it is one of the stores merged.
var ErrTarget = errors.New("merge destination must be a new or empty store")

// Run merges the stores at srcs (opened read-only, in this order) into
// a new store at dst (which must not exist, or be empty: a store with no
// games, such as an interrupted merge leaves), as one build of all their
// inputs in that order would have built it.
//
// Stores that share no game with an earlier one are copied record by
// record: their statistics records, histories and tallies add up (the
// store's merge operators), game records and the game order index are
// united, the game numbers (in the game number records, the single
// references and the game index) are moved past those of the stores
// before, and in -count occurrence stores the first-seen stamps too (see
// Options.KeepStamps). A store that shares games with an earlier one
// cannot be copied: its records count those games, and what one game added
// to a position (its lowest ply, first-seen stamp, top games) cannot be
// taken out again. Such a store is rebuilt from its game records, its
// games replayed into a scratch store in the destination's scratch
// directory as a build of its inputs would have counted them after the
// earlier stores': without the games an earlier store holds, or, in a
// KeepDuplicates store, with the copies of a content numbered after the
// earlier stores' copies. That store is then copied as the others.
//
// Everything is written to dst in one atomic ingestion, with the Meta
// counting the games: a merge interrupted (ctx, or a kill) leaves an empty
// store at dst (and scratch files that its next writable open removes),
// into which the merge can simply be run again.
//
// The stores must agree on MaxPly, CountMode and KeepDuplicates (an error
// wrapping ErrMismatch otherwise), and have a complete game index
// (store.Meta.GameIndex; bookbuild -reindex writes one). Their game
// records keep their coding, which may differ.
func Run(ctx context.Context, dst string, srcs []string, o Options) (Stats, error) {
	var ms Stats
	if len(srcs) == 0 {
		return ms, errors.New("merge: no store to merge")
	}
	if err := checkMergeTarget(dst, srcs); err != nil {
		return ms, err
	}
	sources := make([]*mergeSource, 0, len(srcs))
	defer func() {
		for _, s := range sources {
			s.close()
		}
	}()
	for _, dir := range srcs {
		// A small cache: the sources are read in order, once, but for
		// the lookups of a replay (and a merge may read many).
		st, err := store.Open(dir, store.Options{ReadOnly: true, CacheSize: mergeCache})
		if err != nil {
			return ms, fmt.Errorf("merge: %w", err)
		}
		sources = append(sources, &mergeSource{dir: dir, st: st, meta: st.Meta()})
		prefixes, err := st.Prefixes()
		if err != nil {
			return ms, fmt.Errorf("merge: %s: %w", dir, err)
		}
		if err := checkKinds(dir, prefixes); err != nil {
			return ms, err
		}
	}
	first := sources[0].meta
	for _, s := range sources {
		m := s.meta
		if m.MaxPly != first.MaxPly || m.CountMode != first.CountMode || m.KeepDuplicates != first.KeepDuplicates {
			return ms, fmt.Errorf("merge: %s (-max-ply %s, -count %s, -keep-duplicates=%t) and %s (-max-ply %s, -count %s, -keep-duplicates=%t): %w",
				sources[0].dir, plyName(first.MaxPly), first.CountMode, first.KeepDuplicates,
				s.dir, plyName(m.MaxPly), m.CountMode, m.KeepDuplicates, ErrMismatch)
		}
		if err := m.SameVariant(s.dir, &first, sources[0].dir); err != nil {
			return ms, fmt.Errorf("merge: %w (%w)", err, ErrMismatch)
		}
		if m.GameIndex != gamedb.Version && m.Games > 0 {
			return ms, fmt.Errorf("merge: %s has no complete game index (written by an older bookbuild): run bookbuild -reindex -db %s first", s.dir, s.dir)
		}
	}
	if st, err := store.Open(dst, store.Options{ReadOnly: true}); err == nil {
		m := st.Meta()
		_ = st.Close()
		if m.Games > 0 || m.NextGame > 0 {
			return ms, fmt.Errorf("merge: %s holds %d games: %w", dst, m.Games, ErrTarget)
		}
	}
	meta := &store.Meta{MaxPly: first.MaxPly, CountMode: first.CountMode, KeepDuplicates: first.KeepDuplicates, GameIndex: gamedb.Version}
	out, err := store.Open(dst, store.Options{Meta: meta, CacheSize: mergeCache, MemTableSize: mergeCache})
	if err != nil {
		return ms, fmt.Errorf("merge: %w", err)
	}
	m := out.Meta()
	if m.Games > 0 || m.NextGame > 0 {
		_ = out.Close()
		return ms, fmt.Errorf("merge: %s holds %d games: %w", dst, m.Games, ErrTarget)
	}
	err = merge(ctx, out, sources, o, &ms)
	for _, s := range sources { // the scratch stores first: out's Close removes its scratch directory
		s.close()
	}
	if cerr := out.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("merge: closing %s: %w", dst, cerr)
	}
	if err != nil && ctx.Err() != nil {
		err = fmt.Errorf("%w: %w", build.ErrInterrupted, ctx.Err())
	}
	if err != nil && store.IsDamage(err) {
		err = damagedSource(err, dst, sources)
	}
	return ms, err
}

// mergeCache is the block cache of each store a merge reads, and the
// block cache and memtable of the store it writes (which takes its data
// in sstables).
const mergeCache = 16 << 20

// plyName is a MaxPly as bookbuild's -max-ply says it.
func plyName(n int) string {
	if n == 0 {
		return "0 (all)"
	}
	return fmt.Sprint(n)
}

// checkMergeTarget refuses a destination that is one of the sources, or
// a directory holding something that is not a store.
func checkMergeTarget(dst string, srcs []string) error {
	ad, err := filepath.Abs(dst)
	if err != nil {
		return fmt.Errorf("merge: %w", err)
	}
	di, derr := os.Stat(ad)
	for _, s := range srcs {
		as, err := filepath.Abs(s)
		if err != nil {
			return fmt.Errorf("merge: %w", err)
		}
		same := as == ad
		if !same && derr == nil {
			if si, err := os.Stat(as); err == nil && os.SameFile(si, di) {
				same = true
			}
		}
		if same {
			return fmt.Errorf("merge: %s is one of the stores merged: %w", dst, ErrTarget)
		}
	}
	return nil
}

// merge runs the merge of sources into out.
func merge(ctx context.Context, out *store.Store, sources []*mergeSource, o Options, ms *Stats) error {
	ms.Stores = int64(len(sources))
	if err := shiftStamps(sources, o.KeepStamps); err != nil {
		return err
	}
	if err := findOverlaps(ctx, sources, o.Progress); err != nil {
		return err
	}
	for i, s := range sources {
		if !s.replay {
			continue
		}
		if err := replaySource(ctx, out, sources[:i], s, i, o, ms); err != nil {
			return err
		}
		ms.Replayed++
	}
	var next uint64
	var games uint64
	for _, s := range sources {
		m := s.copied().Meta()
		s.numOff = next
		next += max(m.NextGame, 1) - 1
		games += m.Games
	}
	if next >= 1<<50 {
		return fmt.Errorf("merge: the stores number %d games: too many for one store", next)
	}
	return copyRecords(ctx, out, sources, games, o.Progress, o.mutation, ms)
}
