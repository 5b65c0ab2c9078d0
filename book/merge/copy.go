package merge

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/chessbook/chessbook/gamedb"
	"github.com/chessbook/chessbook/stats"
	"github.com/chessbook/chessbook/store"
)

// The copy: every kind of the store's registry, one function per kind,
// written to the merged store in one atomic ingestion.

// mutation is a test hook (export_test.go): merge drops or miscopies one
// kind of record, so that the tests can show that they see it.
type mutation struct {
	kind store.Prefix
	how  string        // dropMutation, ...; "": none
	hits *atomic.Int64 // counts the records it changes
}

// The mutations of the test hook.
const (
	dropMutation     = "dropped"           // the kind's records are not written
	numbersMutation  = "numbers not moved" // game numbers kept as in their store
	stampsMutation   = "stamps not moved"  // first-seen stamps kept as in their store
	unmergedMutation = "not merged"        // a key's records of several stores: the first store's only
)

// kindCopy is how merge copies one kind of record of the store's
// registry (store.Kinds): the SSTWriter it writes to (the kinds of one
// writer are copied in the registry's order, which is the order of
// their prefixes, as an SSTWriter takes them), and the copy; writer -1:
// the ingestion writes the record (the Meta: the merged store's games
// and game index).
type kindCopy struct {
	writer int
	copy   func(ctx context.Context, c *copier, w *store.SSTWriter) error
}

// copyWriters is the number of SSTWriters a merge fills in parallel.
const copyWriters = 4

// copyOf returns how merge copies the records of kind p (see the
// registry's Kind.Copy and Kind.MergeNote); nil for a kind merge does
// not know, which fails the merge.
func copyOf(p store.Prefix) *kindCopy {
	switch p {
	case store.KindEnPassant:
		return &kindCopy{0, copyEP}
	case store.KindGame:
		return &kindCopy{0, copyGames}
	case store.KindGameNumber:
		return &kindCopy{0, copyNumbers}
	case store.KindGameOrder:
		return &kindCopy{0, copyOrder}
	case store.KindPosition:
		return &kindCopy{0, copyPositions}
	case store.KindSingles:
		return &kindCopy{1, copySingles}
	case store.KindHistory:
		return &kindCopy{2, copyHistories}
	case store.KindIndex:
		return &kindCopy{3, copyIndex}
	case store.KindMeta:
		return &kindCopy{writer: -1}
	}
	return nil
}

// checkKinds fails on a kind of record of dir's store (prefixes) that is
// not in the store's registry: written by a newer program, its records
// would be lost.
func checkKinds(dir string, prefixes []store.Prefix) error {
	for _, p := range prefixes {
		if _, ok := p.Kind(); !ok {
			return fmt.Errorf("merge: %s holds records of a kind this program does not know (prefix %q): written by a newer one?", dir, byte(p))
		}
	}
	return nil
}

// copier is the state of the copy of one kind of record.
type copier struct {
	kind    store.Prefix
	sources []*mergeSource
	games   uint64 // the games the sources count
	report  func(what string, n int64)
	n       int64 // records copied since the last report
	mut     string
	hits    *atomic.Int64 // the mutation's: counts the records it changes
}

// hit counts a record the mutation changed.
func (c *copier) hit() {
	if c.hits != nil {
		c.hits.Add(1)
	}
}

// numOff is what is added to the game numbers of source src.
func (c *copier) numOff(src int) uint64 {
	if c.mut == numbersMutation {
		if c.sources[src].numOff != 0 {
			c.hit()
		}
		return 0
	}
	return c.sources[src].numOff
}

// shift is what is added to the first-seen stamps of source src.
func (c *copier) shift(src int) uint64 {
	if c.mut == stampsMutation {
		if c.sources[src].copyShift() != 0 {
			c.hit()
		}
		return 0
	}
	return c.sources[src].copyShift()
}

// merged returns the values of one key to merge.
func (c *copier) merged(vals []kwayVal) []kwayVal {
	if c.mut == unmergedMutation && len(vals) > 1 {
		c.hit()
		return vals[:1]
	}
	return vals
}

// count counts one record copied, reporting what every every records.
func (c *copier) count(what string, every int64) {
	if c.n++; c.n%every == 0 {
		c.report(what, every)
	}
}

// copyRecords writes the records of every source (the rebuilt store of a
// replayed one) to out in one atomic ingestion: four writers filled in
// parallel, as a builder's commit does, each copying its kinds of the
// store's registry in turn.
func copyRecords(ctx context.Context, out *store.Store, sources []*mergeSource, games uint64,
	progress func(string, int64, int64), mut mutation, ms *Stats) error {
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
	var jobs [copyWriters][]*copier
	var copies [copyWriters][]*kindCopy
	rebuiltMeta := false
	for _, k := range store.Kinds() {
		kc := copyOf(k.Prefix)
		if kc == nil {
			return fmt.Errorf("merge: the store's %s records (prefix %q) have no copy in merge (copyOf)", k.Name, byte(k.Prefix))
		}
		c := &copier{kind: k.Prefix, sources: sources, games: games, report: report}
		if mut.kind == k.Prefix {
			c.mut, c.hits = mut.how, mut.hits
		}
		if c.mut == dropMutation {
			continue
		}
		if kc.writer < 0 {
			rebuiltMeta = true
			continue
		}
		jobs[kc.writer] = append(jobs[kc.writer], c)
		copies[kc.writer] = append(copies[kc.writer], kc)
	}
	var ssts [copyWriters]*store.SSTWriter
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
	errs := make([]error, copyWriters)
	var wg sync.WaitGroup
	for i := range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j, c := range jobs[i] {
				if errs[i] = copies[i][j].copy(ctx, c, ssts[i]); errs[i] != nil {
					cancel()
					return
				}
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
	if rebuiltMeta {
		ssts[0].AddGames(games)
		ssts[0].SetGameIndex(gamedb.Version)
	}
	if err := ssts[0].IngestWith(ssts[1:]...); err != nil {
		return fmt.Errorf("merge: %w", err)
	}
	ms.Games = int64(games)
	ms.Records = records
	return nil
}

// copyEP writes the en-passant side records of the sources, merged, their
// stamps moved.
func copyEP(ctx context.Context, c *copier, w *store.SSTWriter) error {
	var em entryMerger
	its, err := recordIters(c.sources, store.KindEnPassant, (*mergeSource).copied)
	if err != nil {
		return err
	}
	err = mergeRecords(ctx, its, nil, func(k []byte, vals []kwayVal) error {
		v, err := em.merge(c.merged(vals), c.shift)
		if err != nil {
			return fmt.Errorf("en-passant record %x: %w", k, err)
		}
		if len(k) < 2 {
			return fmt.Errorf("bad en-passant record key %x", k)
		}
		c.count("merging en-passant records", 65536)
		return w.MergeEPTrusted(int(k[0]), k[1:], v)
	})
	c.report("merging en-passant records", c.n%65536)
	return err
}

// copyGames writes the game records of the sources, which must hold
// games games.
func copyGames(ctx context.Context, c *copier, w *store.SSTWriter) error {
	its, err := recordIters(c.sources, store.KindGame, (*mergeSource).copied)
	if err != nil {
		return err
	}
	var stored uint64
	err = mergeRecords(ctx, its, nil, func(k []byte, vals []kwayVal) error {
		if len(vals) > 1 || len(k) != 8 {
			return fmt.Errorf("game %x in %s and %s", k, c.sources[vals[0].src].dir, c.sources[vals[len(vals)-1].src].dir)
		}
		stored++
		c.count("copying games", 65536)
		return w.SetGame(store.GameID(binary.BigEndian.Uint64(k)), vals[0].v)
	})
	c.report("copying games", c.n%65536)
	if err != nil {
		return err
	}
	if stored != c.games {
		return fmt.Errorf("the stores hold %d game records and count %d games: check them (bookquery check)", stored, c.games)
	}
	return nil
}

// copyNumbers writes the game numbers of the sources: each source's
// after the previous one's, stamps moved.
func copyNumbers(ctx context.Context, c *copier, w *store.SSTWriter) error {
	for src, s := range c.sources {
		it, err := s.copied().NewRecordIter(store.KindGameNumber)
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
				stamp += c.shift(src)
			}
			if err := w.SetGameNumber(num+c.numOff(src), id, stamp); err != nil {
				_ = it.Close()
				return err
			}
			c.count("copying game numbers", 65536)
		}
		if err := it.Close(); err != nil {
			return fmt.Errorf("%s: %w", s.dir, err)
		}
		if err := ctx.Err(); err != nil {
			return err
		}
	}
	c.report("copying game numbers", c.n%65536)
	return nil
}

// copyOrder writes the game order indexes of the sources, united, their
// stamps moved.
func copyOrder(ctx context.Context, c *copier, w *store.SSTWriter) error {
	its, err := recordIters(c.sources, store.KindGameOrder, (*mergeSource).copied)
	if err != nil {
		return err
	}
	err = mergeRecords(ctx, its, func(src int, buf, k []byte) ([]byte, error) {
		if len(k) != 16 {
			return buf, fmt.Errorf("bad game order key %x", k)
		}
		buf = binary.BigEndian.AppendUint64(buf, binary.BigEndian.Uint64(k)+c.shift(src))
		return append(buf, k[8:]...), nil
	}, func(k []byte, vals []kwayVal) error {
		c.count("merging the game order", 65536)
		return w.SetGameOrder(binary.BigEndian.Uint64(k), store.GameID(binary.BigEndian.Uint64(k[8:])))
	})
	c.report("merging the game order", c.n%65536)
	return err
}

// copyPositions writes the statistics records of the sources, merged,
// their stamps moved.
func copyPositions(ctx context.Context, c *copier, w *store.SSTWriter) error {
	var em entryMerger
	its, err := recordIters(c.sources, store.KindPosition, (*mergeSource).copied)
	if err != nil {
		return err
	}
	err = mergeRecords(ctx, its, nil, func(k []byte, vals []kwayVal) error {
		v, err := em.merge(c.merged(vals), c.shift)
		if err != nil {
			return fmt.Errorf("position %x: %w", k, err)
		}
		c.count("merging positions", 65536)
		return w.MergeTrusted(k, v)
	})
	c.report("merging positions", c.n%65536)
	return err
}

// copySingles writes the single references of the sources to w, their
// game numbers moved, a bucket at a time.
func copySingles(ctx context.Context, c *copier, w *store.SSTWriter) error {
	its, err := recordIters(c.sources, store.KindSingles, (*mergeSource).copied)
	if err != nil {
		return err
	}
	var refs []store.SingleRef
	err = mergeRecords(ctx, its, nil, func(k []byte, vals []kwayVal) error {
		refs = refs[:0]
		vals = c.merged(vals)
		for _, kv := range vals {
			off := c.numOff(kv.src)
			err := store.DecodeSingles(k, kv.v, func(r store.SingleRef) bool {
				r.Game += off
				refs = append(refs, r)
				return true
			})
			if err != nil {
				return fmt.Errorf("%s: %w", c.sources[kv.src].dir, err)
			}
		}
		if len(vals) > 1 {
			slices.SortFunc(refs, store.SingleRef.Compare)
		}
		c.count("merging single references", 4096)
		return w.MergeSingles(refs)
	})
	c.report("merging single references", c.n%4096)
	return err
}

// copyHistories writes the histories of the sources to w, merged.
func copyHistories(ctx context.Context, c *copier, w *store.SSTWriter) error {
	its, err := recordIters(c.sources, store.KindHistory, (*mergeSource).copied)
	if err != nil {
		return err
	}
	var a, b []byte
	err = mergeRecords(ctx, its, nil, func(k []byte, vals []kwayVal) error {
		vals = c.merged(vals)
		a = append(a[:0], vals[0].v...)
		for _, kv := range vals[1:] {
			var err error
			b, err = stats.MergeHistory(b[:0], a, kv.v)
			if err != nil {
				return fmt.Errorf("history %x: %w", k, err)
			}
			a, b = b, a
		}
		c.count("merging histories", 65536)
		return w.MergeHistory(k, a)
	})
	c.report("merging histories", c.n%65536)
	return err
}

// copyIndex writes the game index records of the sources to w: game
// numbers moved (gamedb.RenumberKey), tallies merged.
func copyIndex(ctx context.Context, c *copier, w *store.SSTWriter) error {
	its, err := recordIters(c.sources, store.KindIndex, (*mergeSource).copied)
	if err != nil {
		return err
	}
	var a, b []byte
	err = mergeRecords(ctx, its, func(src int, buf, k []byte) ([]byte, error) {
		buf, _, err := gamedb.RenumberKey(buf, k, c.numOff(src))
		return buf, err
	}, func(k []byte, vals []kwayVal) error {
		vals = c.merged(vals)
		a = append(a[:0], vals[0].v...)
		if len(vals) > 1 {
			if _, tally, _ := gamedb.RenumberKey(b[:0], k, 0); !tally {
				return fmt.Errorf("index record %x in %s and %s", k, c.sources[vals[0].src].dir, c.sources[vals[1].src].dir)
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
		c.count("merging the game index", 65536)
		return gamedb.Put(w, k, a)
	})
	c.report("merging the game index", c.n%65536)
	return err
}
