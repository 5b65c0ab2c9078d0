package export

import (
	"bufio"
	"cmp"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/internal/kway"
	"github.com/chessbook/chessbook/internal/scratch"
	"github.com/chessbook/chessbook/polyglot"
)

// The entries of a book are sorted in memory that does not grow with the
// book: they are collected in chunks of at most chunkEntries, each sorted
// and, once full, written to a temporary file (a sorted run of fixed-size
// records); the runs and the last chunk are then merged. A book of up to
// chunkEntries entries never touches the disk.

// defaultChunkEntries is the most entries held at once: 4 Mi entries, 128
// MiB (a ranked is 32 bytes).
const defaultChunkEntries = 4 << 20

// rankedSize is the size of a ranked in a run file: the Polyglot entry's
// 16 bytes, the first-seen stamp and the move.
const rankedSize = polyglot.EntrySize + 8 + 2

// runBufferSize is the buffer of each run file, written and read.
const runBufferSize = 256 << 10

// compareRanked orders entries into book order: polyglot.CompareEntries
// (key, then weight descending), then first seen (unknown stamps, 0,
// last), then move. Entries it finds equal are byte-identical.
func compareRanked(a, b *ranked) int {
	if c := polyglot.CompareEntries(a.Entry, b.Entry); c != 0 {
		return c
	}
	if a.seen != b.seen {
		switch {
		case a.seen == 0:
			return 1
		case b.seen == 0:
			return -1
		}
		return cmp.Compare(a.seen, b.seen)
	}
	return cmp.Compare(a.move, b.move)
}

// sortLimits replace an entrySorter's chunk size, and count its runs
// (tests).
type sortLimits struct {
	chunkEntries int // entries per chunk
	runs         int // runs spilled
}

// entrySorter sorts the ranked entries of a book in bounded memory.
type entrySorter struct {
	limits *sortLimits // nil: defaultChunkEntries
	buf    []ranked    // the chunk being filled
	dir    string      // the temporary directory of the runs, made at the first spill
	lock   *os.File    // dir open, holding its lock (see package internal/scratch)
	runs   []string    // the runs' files
}

// add adds r.
func (s *entrySorter) add(r ranked) error {
	limit := defaultChunkEntries
	if s.limits != nil {
		limit = max(s.limits.chunkEntries, 1)
	}
	if len(s.buf) == cap(s.buf) {
		if len(s.buf) >= limit {
			if err := s.spill(); err != nil {
				return err
			}
		} else {
			// Double, but never past the chunk.
			buf := make([]ranked, len(s.buf), min(max(2*cap(s.buf), 1024), limit))
			copy(buf, s.buf)
			s.buf = buf
		}
	}
	s.buf = append(s.buf, r)
	return nil
}

// sortChunk sorts the chunk.
func (s *entrySorter) sortChunk() {
	slices.SortFunc(s.buf, func(a, b ranked) int { return compareRanked(&a, &b) })
}

// spill sorts the chunk and writes it to a new run, then empties it.
func (s *entrySorter) spill() (err error) {
	if s.dir == "" {
		if s.lock, err = scratch.CreateLocked(os.TempDir(), spillPattern, true); err != nil {
			return fmt.Errorf("sorting the book's entries: %w", err)
		}
		s.dir = s.lock.Name()
	}
	s.sortChunk()
	path := filepath.Join(s.dir, fmt.Sprintf("%06d.run", len(s.runs)))
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("sorting the book's entries: %w", err)
	}
	s.runs = append(s.runs, path)
	if s.limits != nil {
		s.limits.runs++
	}
	w := bufio.NewWriterSize(f, runBufferSize)
	var rec [rankedSize]byte
	for i := range s.buf {
		encodeRanked(rec[:], &s.buf[i])
		if _, err = w.Write(rec[:]); err != nil {
			break
		}
	}
	if err == nil {
		err = w.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("sorting the book's entries: %s: %w", path, err)
	}
	s.buf = s.buf[:0]
	return nil
}

// each calls fn with every entry added, in book order (see
// compareRanked), and releases the chunk; close removes the runs.
func (s *entrySorter) each(ctx context.Context, fn func(polyglot.Entry) error) error {
	s.sortChunk()
	if len(s.runs) == 0 {
		for i := range s.buf {
			if i%4096 == 0 {
				if err := ctx.Err(); err != nil {
					return err
				}
			}
			if err := fn(s.buf[i].Entry); err != nil {
				return err
			}
		}
		s.buf = nil
		return nil
	}
	// The last chunk takes part in the merge from memory.
	srcs := make([]kway.Source[ranked], 0, len(s.runs)+1)
	var cursors []*runCursor
	defer func() {
		for _, c := range cursors {
			c.close()
		}
	}()
	for _, path := range s.runs {
		f, err := os.Open(path)
		if err != nil {
			return fmt.Errorf("sorting the book's entries: %w", err)
		}
		c := &runCursor{f: f, r: bufio.NewReaderSize(f, runBufferSize), path: path}
		cursors = append(cursors, c)
		srcs = append(srcs, c)
	}
	if len(s.buf) > 0 {
		srcs = append(srcs, kway.Slice(s.buf))
	}
	s.buf = nil
	// Ties (byte-identical entries) go to the earlier run.
	return kway.Each(ctx, srcs, compareRanked, func(r *ranked, _ int) error { return fn(r.Entry) })
}

// close removes the runs' files and their directory.
func (s *entrySorter) close() {
	if s.dir != "" {
		_ = os.RemoveAll(s.dir)
		_ = s.lock.Close()
		s.dir, s.lock, s.runs = "", nil, nil
	}
}

// encodeRanked writes r to b: the entry, big-endian as in a book, then the
// first-seen stamp and the move.
func encodeRanked(b []byte, r *ranked) {
	_ = b[rankedSize-1]
	binary.BigEndian.PutUint64(b[0:], r.Key)
	binary.BigEndian.PutUint16(b[8:], r.Entry.Move)
	binary.BigEndian.PutUint16(b[10:], r.Weight)
	binary.BigEndian.PutUint32(b[12:], r.Learn)
	binary.BigEndian.PutUint64(b[16:], r.seen)
	binary.BigEndian.PutUint16(b[24:], uint16(r.move))
}

// decodeRanked decodes what encodeRanked wrote.
func decodeRanked(b []byte) ranked {
	_ = b[rankedSize-1]
	return ranked{
		Entry: polyglot.Entry{
			Key:    binary.BigEndian.Uint64(b[0:]),
			Move:   binary.BigEndian.Uint16(b[8:]),
			Weight: binary.BigEndian.Uint16(b[10:]),
			Learn:  binary.BigEndian.Uint32(b[12:]),
		},
		seen: binary.BigEndian.Uint64(b[16:]),
		move: board.Move(binary.BigEndian.Uint16(b[24:])),
	}
}

// runCursor reads a sorted run file.
type runCursor struct {
	f    *os.File
	r    *bufio.Reader
	path string
	rec  [rankedSize]byte
}

// Next reads the run's next entry; false at the end.
func (c *runCursor) Next() (ranked, bool, error) {
	if _, err := io.ReadFull(c.r, c.rec[:]); err != nil {
		if errors.Is(err, io.EOF) {
			return ranked{}, false, nil
		}
		return ranked{}, false, fmt.Errorf("sorting the book's entries: %s: %w", c.path, err)
	}
	return decodeRanked(c.rec[:]), true, nil
}

func (c *runCursor) close() {
	if c.f != nil {
		_ = c.f.Close()
		c.f = nil
	}
}
