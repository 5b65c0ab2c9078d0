package merge

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"github.com/chessbook/chessbook/book/build"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/chessbook/chessbook/gamecode"
	"github.com/chessbook/chessbook/gamedb"
	"github.com/chessbook/chessbook/stats"
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
	}
	first := sources[0].meta
	for _, s := range sources {
		m := s.meta
		if m.MaxPly != first.MaxPly || m.CountMode != first.CountMode || m.KeepDuplicates != first.KeepDuplicates {
			return ms, fmt.Errorf("merge: %s (-max-ply %s, -count %s, -keep-duplicates=%t) and %s (-max-ply %s, -count %s, -keep-duplicates=%t): %w",
				sources[0].dir, plyName(first.MaxPly), first.CountMode, first.KeepDuplicates,
				s.dir, plyName(m.MaxPly), m.CountMode, m.KeepDuplicates, ErrMismatch)
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

// damagedSource names in err, an error from damaged data, the store it
// was read from: a source's directory (or dst, for its scratch stores),
// found by the damaged file's path; err as it is when none is.
func damagedSource(err error, dst string, sources []*mergeSource) error {
	file := store.DamagedFile(err)
	if file == "" {
		return err
	}
	in := func(dir string) bool {
		a, err1 := os.Stat(filepath.Dir(file))
		b, err2 := os.Stat(dir)
		return err1 == nil && err2 == nil && os.SameFile(a, b)
	}
	inner := strings.TrimPrefix(err.Error(), "merge: ")
	for _, s := range sources {
		if in(s.dir) {
			return &wrapErr{fmt.Sprintf("merge: store %s is damaged (in its file %s; 'bookquery -db %s check' lists what): %s", s.dir, filepath.Base(file), s.dir, inner), err}
		}
	}
	return &wrapErr{fmt.Sprintf("merge: damaged data in %s (of %s): %s", file, dst, inner), err}
}

// wrapErr is an error whose message says more than the error it wraps.
type wrapErr struct {
	msg string
	err error
}

func (e *wrapErr) Error() string { return e.msg }
func (e *wrapErr) Unwrap() error { return e.err }

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

// mergeSource is one store merged: the store as given, or the scratch
// store it was rebuilt into (replayed).
type mergeSource struct {
	dir    string
	st     *store.Store
	meta   store.Meta
	replay bool // shares games with an earlier store: rebuilt
	// rebuilt is the scratch store of a replayed source, its stamps moved
	// already; scratch its directory.
	rebuilt *store.Store
	scratch string
	// maxInput is the largest input index its stamps hold, shift what is
	// added to them, numOff what is added to its game numbers.
	maxInput uint64
	shift    uint64
	numOff   uint64
}

// copied returns the store whose records are copied: the rebuilt one of
// a replayed source.
func (s *mergeSource) copied() *store.Store {
	if s.rebuilt != nil {
		return s.rebuilt
	}
	return s.st
}

// copyShift returns the shift of the copied store's stamps: a rebuilt
// store's are moved already.
func (s *mergeSource) copyShift() uint64 {
	if s.rebuilt != nil {
		return 0
	}
	return s.shift
}

func (s *mergeSource) close() {
	if s.rebuilt != nil {
		_ = s.rebuilt.Close()
		s.rebuilt = nil
		_ = os.RemoveAll(s.scratch)
	}
	if s.st != nil {
		_ = s.st.Close()
		s.st = nil
	}
}

// stampInputShift is where a stamp's input index starts (see seenStamp).
const stampInputShift = 44

// merge runs the merge of sources into out.
func merge(ctx context.Context, out *store.Store, sources []*mergeSource, o Options, ms *Stats) error {
	ms.Stores = int64(len(sources))
	occurrence := sources[0].meta.CountMode == store.CountOccurrence
	var inputs uint64
	for i, s := range sources {
		if occurrence {
			max, err := lastStamp(s.st)
			if err != nil {
				return fmt.Errorf("merge: %s: %w", s.dir, err)
			}
			s.maxInput = max >> stampInputShift
			if !o.KeepStamps {
				if e := sameStore(sources[:i], s.dir); e != nil {
					// The same store given again: its inputs are the
					// earlier one's, which one build given the same
					// names again stamps by their first place.
					s.shift = e.shift
				} else {
					s.shift = inputs << stampInputShift
					inputs += s.maxInput
				}
			}
		}
	}
	if inputs >= 1<<(64-stampInputShift) {
		return fmt.Errorf("merge: the stores' inputs (%d) do not fit in first-seen stamps", inputs)
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
	return copyRecords(ctx, out, sources, games, o.Progress, ms)
}

// sameStore returns the source among earlier whose directory is dir, or
// nil.
func sameStore(earlier []*mergeSource, dir string) *mergeSource {
	fi, err := os.Stat(dir)
	if err != nil {
		return nil
	}
	for _, e := range earlier {
		if ei, err := os.Stat(e.dir); err == nil && os.SameFile(fi, ei) {
			return e
		}
	}
	return nil
}

// lastStamp returns the greatest first-seen stamp of st's game order
// index (0: none).
func lastStamp(st *store.Store) (uint64, error) {
	it, err := st.NewRecordIter('o')
	if err != nil {
		return 0, err
	}
	var s uint64
	if it.Last() {
		k := it.Key()
		if len(k) != 16 {
			_ = it.Close()
			return 0, fmt.Errorf("bad game order key %x", k)
		}
		s = binary.BigEndian.Uint64(k)
	}
	return s, it.Close()
}

// findOverlaps marks the sources that hold a game an earlier one holds
// (by id, which in a KeepDuplicates store is also the first copy of a
// content): they are replayed. It reads the game records' keys of all
// sources in one merged pass.
func findOverlaps(ctx context.Context, sources []*mergeSource, progress func(string, int64, int64)) error {
	if len(sources) < 2 {
		return nil
	}
	its, err := recordIters(sources, 'g', (*mergeSource).originalStore)
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
	return kway(ctx, its, nil, func(k []byte, vals []kwayVal) error {
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

func (s *mergeSource) originalStore() *store.Store { return s.st }

// recordIters opens an iterator over the records of kind prefix of each
// source's store (of).
func recordIters(sources []*mergeSource, prefix byte, of func(*mergeSource) *store.Store) ([]*store.RecordIter, error) {
	its := make([]*store.RecordIter, len(sources))
	for i, s := range sources {
		it, err := of(s).NewRecordIter(prefix)
		if err != nil {
			closeIters(its)
			return nil, fmt.Errorf("merge: %s: %w", s.dir, err)
		}
		its[i] = it
	}
	return its, nil
}

func closeIters(its []*store.RecordIter) {
	for _, it := range its {
		if it != nil {
			_ = it.Close()
		}
	}
}

// kwayVal is one source's value of a key in a k-way merge.
type kwayVal struct {
	src int
	v   []byte
}

// kway merges the records of its (one iterator per source, in source
// order) by key, calling fn once per key with the value of every source
// holding it, in source order, and closes the iterators. key, if not
// nil, maps a source's key to the key it merges under (appending to
// buf); it must keep each source's keys in order. Keys and values are
// valid during the call only.
func kway(ctx context.Context, its []*store.RecordIter, key func(src int, buf, k []byte) ([]byte, error),
	fn func(k []byte, vals []kwayVal) error) error {
	defer closeIters(its) // on failure; closed below otherwise
	type head struct {
		ok  bool
		key []byte
	}
	heads := make([]head, len(its))
	load := func(i int, ok bool) error {
		heads[i].ok = ok
		if !ok {
			return nil
		}
		k := its[i].Key()
		if key == nil {
			heads[i].key = append(heads[i].key[:0], k...)
			return nil
		}
		var err error
		heads[i].key, err = key(i, heads[i].key[:0], k)
		return err
	}
	for i, it := range its {
		if err := load(i, it.First()); err != nil {
			return err
		}
	}
	// A heap of the sources at a record, by (key, source): a merge of
	// many stores (the shards of a distributed build) costs log(stores)
	// per record.
	h := make([]int, 0, len(its))
	less := func(a, b int) bool {
		if c := bytes.Compare(heads[a].key, heads[b].key); c != 0 {
			return c < 0
		}
		return a < b
	}
	down := func(i int) {
		for {
			l, m := 2*i+1, i
			if l < len(h) && less(h[l], h[m]) {
				m = l
			}
			if r := l + 1; r < len(h) && less(h[r], h[m]) {
				m = r
			}
			if m == i {
				return
			}
			h[i], h[m] = h[m], h[i]
			i = m
		}
	}
	push := func(src int) {
		h = append(h, src)
		for i := len(h) - 1; i > 0; {
			p := (i - 1) / 2
			if !less(h[i], h[p]) {
				break
			}
			h[i], h[p] = h[p], h[i]
			i = p
		}
	}
	pop := func() int {
		top := h[0]
		h[0] = h[len(h)-1]
		h = h[:len(h)-1]
		down(0)
		return top
	}
	for i := range heads {
		if heads[i].ok {
			push(i)
		}
	}
	var vals []kwayVal
	var moved []int
	var cur []byte
	var n int
	for len(h) > 0 {
		if n++; n%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		cur = append(cur[:0], heads[h[0]].key...)
		vals, moved = vals[:0], moved[:0]
		for len(h) > 0 && bytes.Equal(heads[h[0]].key, cur) {
			i := pop() // in source order among those at cur
			v, err := its[i].Value()
			if err != nil {
				return err
			}
			vals = append(vals, kwayVal{src: i, v: v})
			moved = append(moved, i)
		}
		if err := fn(cur, vals); err != nil {
			return err
		}
		for _, i := range moved {
			if err := load(i, its[i].Next()); err != nil {
				return err
			}
			if heads[i].ok {
				if bytes.Compare(heads[i].key, cur) <= 0 {
					return fmt.Errorf("records out of order: %x after %x", heads[i].key, cur)
				}
				push(i)
			}
		}
	}
	for i, it := range its {
		if err := it.Close(); err != nil {
			its[i] = nil
			return err
		}
		its[i] = nil
	}
	return nil
}

// shiftEntry appends the encoded stats.Entry enc to dst with every
// first-seen stamp moved by shift, decoding it into e (scratch).
func shiftEntry(dst []byte, e *stats.Entry, enc []byte, shift uint64) ([]byte, error) {
	if err := stats.DecodeInto(e, enc); err != nil {
		return dst, err
	}
	for i := range e.Moves {
		if e.Moves[i].FirstSeen != 0 {
			e.Moves[i].FirstSeen += shift
		}
	}
	return e.AppendEncode(dst), nil
}

// entryMerger merges the encoded entries of one key from several
// sources, moving each source's stamps, into its own buffers.
type entryMerger struct {
	e        stats.Entry
	a, b, sh []byte
}

// merge returns the merge of vals, each source's stamps moved by
// shift(src); valid until the next call.
func (m *entryMerger) merge(vals []kwayVal, shift func(src int) uint64) ([]byte, error) {
	for i, kv := range vals {
		v := kv.v
		if s := shift(kv.src); s != 0 {
			var err error
			m.sh, err = shiftEntry(m.sh[:0], &m.e, v, s)
			if err != nil {
				return nil, err
			}
			v = m.sh
		}
		if i == 0 {
			m.a = append(m.a[:0], v...)
			continue
		}
		var err error
		m.b, err = stats.MergeEncoded(m.b[:0], m.a, v)
		if err != nil {
			return nil, err
		}
		m.a, m.b = m.b, m.a
	}
	return m.a, nil
}

// copyRecords writes the records of every source (the rebuilt store of a
// replayed one) to out in one atomic ingestion: four writers filled in
// parallel, as a builder's commit does.
func copyRecords(ctx context.Context, out *store.Store, sources []*mergeSource, games uint64,
	progress func(string, int64, int64), ms *Stats) error {
	var ssts [4]*store.SSTWriter
	closeAll := func() {
		for _, w := range ssts {
			if w != nil {
				_ = w.Close()
			}
		}
	}
	for i := range ssts {
		w, err := out.NewSSTWriter()
		if err != nil {
			closeAll()
			return fmt.Errorf("merge: %w", err)
		}
		ssts[i] = w
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var mu sync.Mutex
	var records int64
	report := func(what string, n int64) {
		mu.Lock()
		records += n
		r := records
		mu.Unlock()
		if progress != nil {
			progress("records merged", r, 0)
		}
	}
	jobs := []func() error{
		func() error { return copyMain(ctx, ssts[0], sources, games, report) },
		func() error { return copySingles(ctx, ssts[1], sources, report) },
		func() error { return copyHistories(ctx, ssts[2], sources, report) },
		func() error { return copyIndex(ctx, ssts[3], sources, report) },
	}
	errs := make([]error, len(jobs))
	var wg sync.WaitGroup
	for i, job := range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if errs[i] = job(); errs[i] != nil {
				cancel()
			}
		}()
	}
	wg.Wait()
	for _, err := range errs { // a real error before the cancellations it caused
		if err != nil && !errors.Is(err, context.Canceled) {
			closeAll()
			return fmt.Errorf("merge: %w", err)
		}
	}
	for _, err := range errs {
		if err != nil {
			closeAll()
			return fmt.Errorf("merge: %w", err)
		}
	}
	if err := ctx.Err(); err != nil {
		closeAll()
		return err
	}
	ssts[0].AddGames(games)
	ssts[0].SetGameIndex(gamedb.Version)
	if err := ssts[0].IngestWith(ssts[1:]...); err != nil {
		return fmt.Errorf("merge: %w", err)
	}
	ms.Games = int64(games)
	ms.Records = records
	return nil
}

// copyMain writes the en-passant side records, the game records, the
// game numbers, the game order index and the statistics records of the
// sources to w, in that order (the order an SSTWriter takes them in).
func copyMain(ctx context.Context, w *store.SSTWriter, sources []*mergeSource, games uint64, report func(string, int64)) error {
	var em entryMerger
	shift := func(src int) uint64 { return sources[src].copyShift() }
	var n int64
	count := func(what string) {
		if n++; n%65536 == 0 {
			report(what, 65536)
		}
	}
	its, err := recordIters(sources, 'e', (*mergeSource).copied)
	if err != nil {
		return err
	}
	err = kway(ctx, its, nil, func(k []byte, vals []kwayVal) error {
		v, err := em.merge(vals, shift)
		if err != nil {
			return fmt.Errorf("en-passant record %x: %w", k, err)
		}
		if len(k) < 2 {
			return fmt.Errorf("bad en-passant record key %x", k)
		}
		count("merging en-passant records")
		return w.MergeEPTrusted(int(k[0]), k[1:], v)
	})
	if err != nil {
		return err
	}
	its, err = recordIters(sources, 'g', (*mergeSource).copied)
	if err != nil {
		return err
	}
	var stored uint64
	err = kway(ctx, its, nil, func(k []byte, vals []kwayVal) error {
		if len(vals) > 1 || len(k) != 8 {
			return fmt.Errorf("game %x in %s and %s", k, sources[vals[0].src].dir, sources[vals[len(vals)-1].src].dir)
		}
		stored++
		count("copying games")
		return w.SetGame(store.GameID(binary.BigEndian.Uint64(k)), vals[0].v)
	})
	if err != nil {
		return err
	}
	if stored != games {
		return fmt.Errorf("the stores hold %d game records and count %d games: check them (bookquery check)", stored, games)
	}
	// Game numbers: each source's after the previous one's.
	for _, s := range sources {
		it, err := s.copied().NewRecordIter('n')
		if err != nil {
			return err
		}
		for ok := it.First(); ok; ok = it.Next() {
			k := it.Key()
			v, err := it.Value()
			if err == nil && len(k) != 8 {
				err = fmt.Errorf("bad game number key %x", k)
			}
			if err != nil {
				_ = it.Close()
				return fmt.Errorf("%s: %w", s.dir, err)
			}
			num := binary.BigEndian.Uint64(k)
			id, stamp, err := store.DecodeGameNumber(num, v)
			if err != nil {
				_ = it.Close()
				return fmt.Errorf("%s: %w", s.dir, err)
			}
			if stamp != 0 {
				stamp += s.copyShift()
			}
			if err := w.SetGameNumber(num+s.numOff, id, stamp); err != nil {
				_ = it.Close()
				return err
			}
			count("copying game numbers")
		}
		if err := it.Close(); err != nil {
			return fmt.Errorf("%s: %w", s.dir, err)
		}
		if err := ctx.Err(); err != nil {
			return err
		}
	}
	its, err = recordIters(sources, 'o', (*mergeSource).copied)
	if err != nil {
		return err
	}
	err = kway(ctx, its, func(src int, buf, k []byte) ([]byte, error) {
		if len(k) != 16 {
			return buf, fmt.Errorf("bad game order key %x", k)
		}
		buf = binary.BigEndian.AppendUint64(buf, binary.BigEndian.Uint64(k)+sources[src].copyShift())
		return append(buf, k[8:]...), nil
	}, func(k []byte, vals []kwayVal) error {
		count("merging the game order")
		return w.SetGameOrder(binary.BigEndian.Uint64(k), store.GameID(binary.BigEndian.Uint64(k[8:])))
	})
	if err != nil {
		return err
	}
	its, err = recordIters(sources, 'p', (*mergeSource).copied)
	if err != nil {
		return err
	}
	err = kway(ctx, its, nil, func(k []byte, vals []kwayVal) error {
		v, err := em.merge(vals, shift)
		if err != nil {
			return fmt.Errorf("position %x: %w", k, err)
		}
		count("merging positions")
		return w.MergeTrusted(k, v)
	})
	report("merging positions", n%65536)
	return err
}

// copySingles writes the single references of the sources to w, their
// game numbers moved, a bucket at a time.
func copySingles(ctx context.Context, w *store.SSTWriter, sources []*mergeSource, report func(string, int64)) error {
	its, err := recordIters(sources, 'q', (*mergeSource).copied)
	if err != nil {
		return err
	}
	var refs []store.SingleRef
	var n int64
	err = kway(ctx, its, nil, func(k []byte, vals []kwayVal) error {
		refs = refs[:0]
		for _, kv := range vals {
			off := sources[kv.src].numOff
			err := store.DecodeSingles(k, kv.v, func(r store.SingleRef) bool {
				r.Game += off
				refs = append(refs, r)
				return true
			})
			if err != nil {
				return fmt.Errorf("%s: %w", sources[kv.src].dir, err)
			}
		}
		if len(vals) > 1 {
			slices.SortFunc(refs, store.SingleRef.Compare)
		}
		if n++; n%4096 == 0 {
			report("merging single references", 4096)
		}
		return w.MergeSingles(refs)
	})
	report("merging single references", n%4096)
	return err
}

// copyHistories writes the histories of the sources to w, merged.
func copyHistories(ctx context.Context, w *store.SSTWriter, sources []*mergeSource, report func(string, int64)) error {
	its, err := recordIters(sources, 'h', (*mergeSource).copied)
	if err != nil {
		return err
	}
	var a, b []byte
	var n int64
	err = kway(ctx, its, nil, func(k []byte, vals []kwayVal) error {
		a = append(a[:0], vals[0].v...)
		for _, kv := range vals[1:] {
			var err error
			b, err = stats.MergeHistory(b[:0], a, kv.v)
			if err != nil {
				return fmt.Errorf("history %x: %w", k, err)
			}
			a, b = b, a
		}
		if n++; n%65536 == 0 {
			report("merging histories", 65536)
		}
		return w.MergeHistory(k, a)
	})
	report("merging histories", n%65536)
	return err
}

// copyIndex writes the game index records of the sources to w: game
// numbers moved (gamedb.RenumberKey), tallies merged.
func copyIndex(ctx context.Context, w *store.SSTWriter, sources []*mergeSource, report func(string, int64)) error {
	its, err := recordIters(sources, 'x', (*mergeSource).copied)
	if err != nil {
		return err
	}
	var a, b []byte
	var n int64
	err = kway(ctx, its, func(src int, buf, k []byte) ([]byte, error) {
		buf, _, err := gamedb.RenumberKey(buf, k, sources[src].numOff)
		return buf, err
	}, func(k []byte, vals []kwayVal) error {
		a = append(a[:0], vals[0].v...)
		if len(vals) > 1 {
			if _, tally, _ := gamedb.RenumberKey(b[:0], k, 0); !tally {
				return fmt.Errorf("index record %x in %s and %s", k, sources[vals[0].src].dir, sources[vals[1].src].dir)
			}
			for _, kv := range vals[1:] {
				var err error
				b, err = store.MergeTally(b[:0], a, kv.v)
				if err != nil {
					return fmt.Errorf("index record %x: %w", k, err)
				}
				a, b = b, a
			}
		}
		if n++; n%65536 == 0 {
			report("merging the game index", 65536)
		}
		return gamedb.Put(w, k, a)
	})
	report("merging the game index", n%65536)
	return err
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
