package store

import (
	"errors"
	"fmt"

	"github.com/chessbook/chessbook/stats"
	"github.com/cockroachdb/pebble/v2"
)

// What only the tests use of a Store: a Batch (merge records written
// through the memtable and the WAL, as the builder wrote them before it
// wrote sstables; the tests use it to compare both ways of writing),
// SSTWriter.MergeEntry and Ingest, the statistics record of a position
// decoded (StatsRecord) and Pebble's metrics.

// StatsRecord returns the statistics record of the position with key pos,
// and whether it has one: see [Store.StatsRecordInto].
func (s *Store) StatsRecord(pos []byte) (stats.Entry, bool, error) {
	var e stats.Entry
	ok, err := s.StatsRecordInto(&e, pos)
	return e, ok, err
}

// Metrics returns Pebble's metrics, or nil after Close.
func (s *Store) Metrics() *pebble.Metrics {
	if s.closed.Load() {
		return nil
	}
	return s.db.Metrics()
}

// MergeEntry adds e to the position with key pos; see [SSTWriter.Merge].
func (w *SSTWriter) MergeEntry(pos []byte, e stats.Entry) error {
	return w.Merge(pos, e.AppendEncode(nil))
}

// Ingest is IngestWith for w alone.
func (w *SSTWriter) Ingest() error { return w.IngestWith() }

// Batch collects merge records and a games count, and writes them to the
// store atomically with [Batch.Commit]. A Batch is for one goroutine; use
// one per flushing goroutine.
type Batch struct {
	s     *Store
	b     *pebble.Batch
	games uint64
	enc   []byte // scratch for MergeEntry
}

var errBatchClosed = errors.New("store: batch is closed")

// NewBatch returns an empty batch. Committing it fails with [ErrReadOnly]
// on a read-only store.
func (s *Store) NewBatch() *Batch {
	return &Batch{s: s, b: s.db.NewBatch()}
}

// Merge adds the encoded stats.Entry enc to the position with key pos. The
// entry is validated (a corrupt operand would break every later compaction
// of its key); Merge returns an error wrapping stats.ErrCorrupt for a bad
// one. pos and enc are copied.
func (b *Batch) Merge(pos, enc []byte) error {
	if b.b == nil {
		return errBatchClosed
	}
	if len(pos) == 0 {
		return errors.New("store: merge: empty position key")
	}
	if err := stats.ValidateEncoded(enc); err != nil {
		return fmt.Errorf("store: merge position %x: %w", pos, err)
	}
	op := b.b.MergeDeferred(1+len(pos), len(enc))
	op.Key[0] = prefixPosition
	copy(op.Key[1:], pos)
	copy(op.Value, enc)
	return op.Finish()
}

// MergeEntry adds e to the position with key pos; see [Batch.Merge].
func (b *Batch) MergeEntry(pos []byte, e stats.Entry) error {
	b.enc = e.AppendEncode(b.enc[:0])
	return b.Merge(pos, b.enc)
}

// AddGames adds n to the games counted by the batch: [Meta].Games grows by
// it in the same atomic write as the batch's data.
func (b *Batch) AddGames(n uint64) { b.games += n }

// Len returns the number of merge records in the batch.
func (b *Batch) Len() int { return int(b.b.Count()) }

// Size returns the size of the batch in bytes, to decide when to flush.
func (b *Batch) Size() int { return b.b.Len() }

// Commit writes the batch's records and the store's updated Meta (games
// count and update time) atomically. With sync, it returns after the write
// is on stable storage; without, a crash may lose it, but never half of it.
// An empty batch with no games commits nothing. After a successful Commit
// the batch is empty and may be reused; after a failed one, Close it.
func (b *Batch) Commit(sync bool) error {
	if b.b == nil {
		return errBatchClosed
	}
	if b.s.opts.ReadOnly {
		return ErrReadOnly
	}
	if b.b.Empty() && b.games == 0 {
		return nil
	}
	if err := b.s.commitMeta(b.b, b.games, 0, sync); err != nil {
		return fmt.Errorf("store: commit batch: %w", err)
	}
	b.b.Reset()
	b.games = 0
	return nil
}

// Close discards what the batch holds and releases it.
func (b *Batch) Close() error {
	if b.b == nil {
		return nil
	}
	err := b.b.Close()
	b.b = nil
	return err
}
