// Package runfiles holds sorted runs: records sorted by key in scratch
// files, merged run against run. The build (package book/build) writes
// its flushes as runs and commits them by merging them into sstables; the
// read side (book.Positions) spills what it tallies to runs and merges
// them with the store's records.
package runfiles

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/chessbook/chessbook/stats"
	"github.com/chessbook/chessbook/store"
	"github.com/cockroachdb/pebble/v2/vfs"
)

// Sorted runs. A flush does not write to the store: it writes its unit's
// records, sorted, to a run (a few files in the store's scratch
// directory). Runs are committed in batches (build's Builder.commit): their
// records are merged, run against run, into one sstable set ingested with
// the games they count and the new Meta in one atomic ingestion. Most
// builds commit once, at the end, into a store that holds nothing under
// their keys yet: Pebble puts the tables in its last level and has
// nothing to compact. Committing each flush instead cost the 412k-game
// benchmark a third of its CPU time in compactions, which merged the
// flushes' overlapping tables level after level.
//
// Every section of a run is a sequence of records, each a uvarint key
// length, the key, a uvarint value length and the value, in increasing
// key order (each key once in a run):
//
//	EP         file (1 byte) + position key -> encoded stats.Entry
//	Games      game id (8 bytes, big-endian) -> game record
//	History    position key -> encoded stats.History
//	Numbers    game number (8 bytes, big-endian) -> id (8) + stamp (8)
//	Order      stamp (8) + id (8) -> empty
//	Positions  position key -> SingleHash (4 bytes) + encoded stats.Entry
//	              (an export's spilled runs, see spill.go, hold a flag
//	              there instead)
//	Index      game index key (package gamedb) -> its value
//
// except Singles, the biggest: a sequence of little-endian uint64s,
// each a SingleHash << 32 | the game's number minus the run's base, in
// increasing order.
//
// Keys of different runs are merged by byte order, which for the
// big-endian numbers is numeric order; equal keys of different runs merge
// their entries (EP, History, Positions) or tallies (Index's
// dictionaries) and are a bug anywhere else.
type Section int

// WriteBuffer and ReadBuffer are the buffers of one section of a sorted
// run, written and read (the build's memory plan counts them).
const (
	WriteBuffer = 128 << 10
	ReadBuffer  = 64 << 10
)

const (
	EP Section = iota
	Games
	History
	Numbers
	Order
	Positions
	Singles
	Index
	numSections
)

// String names the section, for errors.
func (s Section) String() string { return sectionNames[s] }

var sectionNames = [numSections]string{"en-passant records", "games", "histories", "game numbers", "game order", "positions", "single references", "game index"}

// Run is a flush's sorted records, waiting in scratch files to be
// committed (the build keeps what they count beside it), or a reader's
// spilled positions.
type Run struct {
	paths [numSections]string // "": the section is empty
	base  uint64              // the number of the run's first game (see Singles)
}

// Writer writes one run.
type Writer struct {
	st    Scratch
	r     *Run
	files [numSections]vfs.File
	bufs  [numSections]*bufio.Writer
	last  [numSections][]byte
	tmp   [2 * binary.MaxVarintLen64]byte
}

// Scratch is where runs are written: a store's scratch directory
// (*store.Store, for a build), or a temporary directory (tempScratch, for
// a reader of a store open read-only).
type Scratch interface {
	CreateScratch() (vfs.File, string, error)
	OpenScratch(path string) (vfs.File, error)
	RemoveScratch(path string) error
}

// NewWriter returns a writer of a new run in st.
func NewWriter(st Scratch) *Writer {
	return &Writer{st: st, r: &Run{}}
}

// Add appends the record key -> value to section sec, whose keys must
// come in increasing order.
func (w *Writer) Add(sec Section, key, value []byte) error {
	b, first, err := w.buf(sec)
	if err != nil {
		return err
	}
	if !first && bytes.Compare(key, w.last[sec]) <= 0 {
		return fmt.Errorf("run %s: key %x after %x: %w", sectionNames[sec], key, w.last[sec], store.ErrUnsorted)
	}
	w.last[sec] = append(w.last[sec][:0], key...)
	n := binary.PutUvarint(w.tmp[:], uint64(len(key)))
	b.Write(w.tmp[:n])
	b.Write(key)
	n = binary.PutUvarint(w.tmp[:], uint64(len(value)))
	b.Write(w.tmp[:n])
	if _, err := b.Write(value); err != nil {
		return fmt.Errorf("writing a sorted run: %w", err)
	}
	return nil
}

// buf returns the writer of section sec, creating its file on first use
// (first true).
func (w *Writer) buf(sec Section) (b *bufio.Writer, first bool, err error) {
	if b := w.bufs[sec]; b != nil {
		return b, false, nil
	}
	f, path, err := w.st.CreateScratch()
	if err != nil {
		return nil, false, err
	}
	w.files[sec], w.r.paths[sec] = f, path
	w.bufs[sec] = bufio.NewWriterSize(f, WriteBuffer)
	return w.bufs[sec], true, nil
}

// AddSingles writes the sorted single references v (hash << 32 | game
// number - base) to Singles.
func (w *Writer) AddSingles(v []uint64, base uint64) error {
	for _, x := range v {
		if err := w.AddSingle(x); err != nil {
			return err
		}
	}
	w.r.base = base
	return nil
}

// AddSingle writes the single reference x (hash << 32 | game number -
// base), which must follow those written before in order, to Singles;
// the caller sets the run's base (SetBase).
func (w *Writer) AddSingle(x uint64) error {
	b, _, err := w.buf(Singles)
	if err != nil {
		return err
	}
	var buf [8]byte
	binary.LittleEndian.PutUint64(buf[:], x)
	if _, err := b.Write(buf[:]); err != nil {
		return fmt.Errorf("writing a sorted run: %w", err)
	}
	return nil
}

// SetBase sets the number of the run's first game, which its single
// references count from.
func (w *Writer) SetBase(base uint64) { w.r.base = base }

// Finish closes the run's files and returns it.
func (w *Writer) Finish() (*Run, error) {
	var first error
	for sec, b := range w.bufs {
		if b == nil {
			continue
		}
		err := b.Flush()
		if cerr := w.files[sec].Close(); err == nil {
			err = cerr
		}
		w.files[sec] = nil
		if err != nil && first == nil {
			first = fmt.Errorf("writing a sorted run: %w", err)
		}
	}
	if first != nil {
		w.r.Remove(w.st)
		return nil, first
	}
	return w.r, nil
}

// Abort closes and removes the run's files.
func (w *Writer) Abort() {
	for _, f := range w.files {
		if f != nil {
			_ = f.Close()
		}
	}
	w.r.Remove(w.st)
}

// Remove removes the run's files.
func (r *Run) Remove(st Scratch) {
	for i, p := range r.paths {
		if p != "" {
			_ = st.RemoveScratch(p)
			r.paths[i] = ""
		}
	}
}

// sectionFile is one section of a run open for reading.
type sectionFile struct {
	f   vfs.File
	br  *bufio.Reader
	run int // the run's place in the merge, to break ties
}

func (s *sectionFile) close() { _ = s.f.Close() }

// runReader reads one section of a run, a record at a time.
type runReader struct {
	sectionFile
	key, val []byte
}

// next reads the next record; it returns io.EOF after the last.
func (r *runReader) next() error {
	var err error
	if r.key, err = r.field(r.key); err != nil {
		if err == io.EOF {
			return io.EOF
		}
		return err
	}
	if r.val, err = r.field(r.val); err == io.EOF {
		err = io.ErrUnexpectedEOF
	}
	return err
}

func (r *runReader) field(dst []byte) ([]byte, error) {
	n, err := binary.ReadUvarint(r.br)
	if err != nil {
		return dst, err
	}
	if n > 1<<30 {
		return dst, errors.New("corrupt record length")
	}
	if uint64(cap(dst)) < n {
		dst = make([]byte, n, 2*n)
	}
	dst = dst[:n]
	if _, err := io.ReadFull(r.br, dst); err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return dst, err
	}
	return dst, nil
}

// Combiner merges the values vals of one key (at least two), appending
// the result to dst.
type Combiner func(dst []byte, vals [][]byte) ([]byte, error)

// Pairwise returns a combiner that folds the values with merge, which
// appends the merge of a and b to dst.
func Pairwise(merge func(dst, a, b []byte) ([]byte, error)) Combiner {
	var a, b []byte
	return func(dst []byte, vals [][]byte) ([]byte, error) {
		a = append(a[:0], vals[0]...)
		for _, v := range vals[1:] {
			var err error
			if b, err = merge(b[:0], a, v); err != nil {
				return dst, err
			}
			a, b = b, a
		}
		return append(dst, a...), nil
	}
}

// MergeHistories is the combiner of histories (see stats.MergeHistories).
func MergeHistories() Combiner {
	var rows stats.History
	return func(dst []byte, vals [][]byte) ([]byte, error) {
		var err error
		dst, rows, err = stats.MergeHistories(dst, rows, vals...)
		return dst, err
	}
}

// MergeSection merges section sec of runs in key order and calls emit
// once per key, with the values of equal keys combined by combine (nil:
// equal keys are an error). The slices given to emit are valid until it
// returns.
func MergeSection(st Scratch, runs []*Run, sec Section, combine Combiner, emit func(key, value []byte) error) error {
	h, err := openSection(st, runs, sec, func(f sectionFile) *runReader { return &runReader{sectionFile: f} },
		func(a, b *runReader) bool {
			if c := bytes.Compare(a.key, b.key); c != 0 {
				return c < 0
			}
			return a.run < b.run
		})
	if err != nil {
		return err
	}
	defer h.close()
	var key, buf, out []byte
	var ends []int
	var vals [][]byte
	for len(h.rs) > 0 {
		top := h.rs[0]
		key = append(key[:0], top.key...)
		buf = append(buf[:0], top.val...)
		ends = append(ends[:0], len(buf))
		if err := h.advance(); err != nil {
			return fmt.Errorf("reading a sorted run's %s: %w", sectionNames[sec], err)
		}
		for len(h.rs) > 0 && bytes.Equal(h.rs[0].key, key) {
			if combine == nil {
				return fmt.Errorf("sorted runs: %s key %x in two runs", sectionNames[sec], key)
			}
			buf = append(buf, h.rs[0].val...)
			ends = append(ends, len(buf))
			if err := h.advance(); err != nil {
				return fmt.Errorf("reading a sorted run's %s: %w", sectionNames[sec], err)
			}
		}
		value := buf
		if len(ends) > 1 {
			vals = vals[:0]
			start := 0
			for _, end := range ends {
				vals = append(vals, buf[start:end])
				start = end
			}
			if out, err = combine(out[:0], vals); err != nil {
				return fmt.Errorf("sorted runs: %s key %x: %w", sectionNames[sec], key, err)
			}
			value = out
		}
		if err := emit(key, value); err != nil {
			return err
		}
	}
	return nil
}

// sectionReader is what a readerHeap holds: a reader of one section of a
// run, positioned at a record.
type sectionReader interface {
	next() error // io.EOF after the last record
	close()
}

// readerHeap is a min-heap of section readers by less: the k-way merge of
// the runs' sections.
type readerHeap[R sectionReader] struct {
	rs   []R
	less func(a, b R) bool
}

// openSection opens section sec of every run that has it, wraps each file
// with wrap, reads each reader's first record and returns them as a heap.
// The heap's readers are the caller's to close (readerHeap.close).
func openSection[R sectionReader](st Scratch, runs []*Run, sec Section, wrap func(sectionFile) R, less func(a, b R) bool) (*readerHeap[R], error) {
	h := &readerHeap[R]{less: less}
	for i, rn := range runs {
		if rn.paths[sec] == "" {
			continue
		}
		f, err := st.OpenScratch(rn.paths[sec])
		if err != nil {
			h.close()
			return nil, err
		}
		r := wrap(sectionFile{f: f, br: bufio.NewReaderSize(f, ReadBuffer), run: i})
		if err := r.next(); err != nil {
			r.close()
			if err == io.EOF {
				continue
			}
			h.close()
			return nil, fmt.Errorf("reading a sorted run's %s: %w", sectionNames[sec], err)
		}
		h.rs = append(h.rs, r)
	}
	for i := len(h.rs)/2 - 1; i >= 0; i-- {
		h.down(i)
	}
	return h, nil
}

func (h *readerHeap[R]) down(i int) {
	rs := h.rs
	for {
		l := 2*i + 1
		if l >= len(rs) {
			return
		}
		m := l
		if r := l + 1; r < len(rs) && h.less(rs[r], rs[l]) {
			m = r
		}
		if !h.less(rs[m], rs[i]) {
			return
		}
		rs[i], rs[m] = rs[m], rs[i]
		i = m
	}
}

// advance moves the smallest reader to its next record, dropping it (and
// closing its file) at its end.
func (h *readerHeap[R]) advance() error {
	r := h.rs[0]
	err := r.next()
	if err == io.EOF {
		r.close()
		n := len(h.rs) - 1
		h.rs[0] = h.rs[n]
		h.rs = h.rs[:n]
		err = nil
	}
	if err != nil {
		return err
	}
	h.down(0)
	return nil
}

// close closes the readers left.
func (h *readerHeap[R]) close() {
	for _, r := range h.rs {
		r.close()
	}
	h.rs = nil
}

// MergePositionValues merges two Positions values: the hash, and the
// entries merged.
func MergePositionValues(dst, a, b []byte) ([]byte, error) {
	if len(a) < 4 || len(b) < 4 {
		return dst, errors.New("short position record")
	}
	dst = append(dst, a[:4]...)
	return stats.MergeEncoded(dst, a[4:], b[4:])
}

// MergeRefs merges the single references of runs (section Singles)
// in (hash, game number) order and calls emit with each.
//
// Most of a store's positions are single references, so this merge sees
// the most records: it reads them in blocks and merges with a tournament
// tree of plain integer keys (one comparison per level of the tree, where
// a heap makes two through an indirect call).
func MergeRefs(st *store.Store, runs []*Run, emit func(h uint32, num uint64) error) error {
	runs = slices.Clone(runs)
	slices.SortFunc(runs, func(a, b *Run) int { return cmp.Compare(a.base, b.base) })
	h, err := openSection(st, runs, Singles, func(f sectionFile) *refReader {
		return &refReader{sectionFile: f, base: runs[f.run].base}
	}, func(a, b *refReader) bool { return false }) // merged below, not as a heap
	if err != nil {
		return err
	}
	defer h.close()
	rs := h.rs
	if len(rs) == 0 {
		return nil
	}
	// A reader's key orders it: its current hash, then its place (the
	// runs are in game number order, their numbers disjoint); ^0 when it
	// is done.
	keys := make([]uint64, len(rs))
	keyOf := func(i int) uint64 { return rs[i].cur>>32<<32 | uint64(i) }
	for i := range rs {
		keys[i] = keyOf(i)
	}
	t := newLoserTree(keys)
	for {
		w := t.winner()
		if keys[w] == ^uint64(0) {
			return nil
		}
		r := rs[w]
		if err := emit(uint32(r.cur>>32), r.base+r.cur&(1<<32-1)); err != nil {
			return err
		}
		switch err := r.next(); err {
		case nil:
			keys[w] = keyOf(w)
		case io.EOF:
			keys[w] = ^uint64(0)
		default:
			return fmt.Errorf("reading a sorted run's %s: %w", sectionNames[Singles], err)
		}
		t.update(w)
	}
}

// loserTree is a tournament tree over keys (one per input of a k-way
// merge): node 0 holds the index of the smallest key, nodes 1..k-1 the
// losers of the matches below them; the leaves are implicit (input i is
// node i+k). Equal keys are not allowed.
type loserTree struct {
	keys []uint64
	node []int
}

func newLoserTree(keys []uint64) *loserTree {
	t := &loserTree{keys: keys, node: make([]int, len(keys))}
	var build func(n int) int
	build = func(n int) int {
		if n >= len(keys) {
			return n - len(keys)
		}
		a, b := build(2*n), build(2*n+1)
		if keys[b] < keys[a] {
			a, b = b, a
		}
		t.node[n] = b
		return a
	}
	t.node[0] = build(1)
	return t
}

// winner returns the index of the smallest key.
func (t *loserTree) winner() int { return t.node[0] }

// update restores the tree after the key of w, the winner, changed.
func (t *loserTree) update(w int) {
	for n := (w + len(t.keys)) / 2; n >= 1; n /= 2 {
		if l := t.node[n]; t.keys[l] < t.keys[w] {
			t.node[n], w = w, l
		}
	}
	t.node[0] = w
}

// refBlock is how many single references a refReader decodes from one
// read.
const refBlock = 512

// refReader reads a run's single references.
type refReader struct {
	sectionFile
	raw  [refBlock * 8]byte
	rest []byte // what is left of the block read last
	cur  uint64
	base uint64 // the run's first game number
}

func (r *refReader) next() error {
	if len(r.rest) == 0 {
		n, err := io.ReadFull(r.br, r.raw[:])
		switch {
		case err == io.EOF:
			return err
		case err != nil && err != io.ErrUnexpectedEOF:
			return err
		case n%8 != 0:
			return io.ErrUnexpectedEOF // a record cut short
		}
		r.rest = r.raw[:n]
	}
	r.cur = binary.LittleEndian.Uint64(r.rest)
	r.rest = r.rest[8:]
	return nil
}
