package store

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/pgn"
	"github.com/chessbook/chessbook/stats"
)

var (
	benchRecords   = flag.Int("bench.records", 1<<20, "records merged per BenchmarkWrite iteration")
	benchChunkSize = flag.Int("bench.chunk", 1<<17, "records per flush (batch commit or sstable) in BenchmarkWrite")
)

// BenchmarkWrite merges -bench.records (position key, one-game entry)
// records into a new store, in flushes of -bench.chunk records, through
// batches or through sstable ingestion. Keys are random 12-byte strings
// drawn with a Zipf distribution (a few hot positions, a long tail), so
// records merge both within a flush and across flushes.
//
// Like the builder, each flush first sums its records per position (not
// timed: both paths need it); the ingest path then sorts them (timed). The
// time covers the writes and a final Flush; the full compaction after it is
// reported separately, with the size of the live sstables before it, and
// after it (and Close) the size of the sstables and of the whole directory
// (which includes the WAL files Pebble keeps for recycling).
//
//	go test -run X -bench Write -benchtime 1x ./store
func BenchmarkWrite(b *testing.B) {
	chunks := benchChunks(*benchRecords, *benchChunkSize)
	merges := 0 // merge records written: distinct positions per flush
	for _, c := range chunks {
		merges += len(c.keys)
	}
	for _, mode := range []string{"batch", "ingest"} {
		b.Run(fmt.Sprintf("mode=%s/records=%d", mode, *benchRecords), func(b *testing.B) {
			var writeDur, compactDur time.Duration
			var before, after, afterSST uint64
			for i := 0; b.Loop(); i++ {
				dir, err := os.MkdirTemp(b.TempDir(), "store")
				if err != nil {
					b.Fatal(err)
				}
				s, err := Open(dir, buildOpts())
				if err != nil {
					b.Fatal(err)
				}
				start := time.Now()
				for _, c := range chunks {
					if mode == "batch" {
						err = writeBatch(s, c)
					} else {
						err = writeSST(s, c)
					}
					if err != nil {
						b.Fatal(err)
					}
				}
				if err := s.Flush(); err != nil {
					b.Fatal(err)
				}
				writeDur += time.Since(start)
				before += s.Metrics().Table.Local.LiveSize
				start = time.Now()
				if err := s.Compact(context.Background()); err != nil {
					b.Fatal(err)
				}
				compactDur += time.Since(start)
				if err := s.Close(); err != nil {
					b.Fatal(err)
				}
				all, sst := dirSize(b, dir)
				after += all
				afterSST += sst
				_ = os.RemoveAll(dir)
			}
			n := float64(b.N)
			b.ReportMetric(float64(*benchRecords)*n/writeDur.Seconds(), "records/s")
			b.ReportMetric(float64(merges)*n/writeDur.Seconds(), "merges/s")
			b.ReportMetric(compactDur.Seconds()/n, "compact-s")
			b.ReportMetric(float64(before)/n/(1<<20), "MB-tables-before-compact")
			b.ReportMetric(float64(afterSST)/n/(1<<20), "MB-sst-final")
			b.ReportMetric(float64(after)/n/(1<<20), "MB-dir-final")
		})
	}
}

// dirSize returns the bytes taken by the files under dir, and by the
// sstables among them.
func dirSize(b *testing.B, dir string) (all, sst uint64) {
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		fi, err := d.Info()
		if err == nil {
			all += uint64(fi.Size())
			if strings.HasSuffix(path, ".sst") {
				sst += uint64(fi.Size())
			}
		}
		return err
	})
	if err != nil {
		b.Fatal(err)
	}
	return all, sst
}

// benchChunk is one flush: positions with their summed entries, encoded.
type benchChunk struct {
	keys [][]byte
	encs [][]byte
}

func benchChunks(records, chunk int) []benchChunk {
	r := rand.New(rand.NewPCG(42, 42))
	pool := make([][]byte, records)
	for i := range pool {
		pool[i] = make([]byte, 12)
		for j := range pool[i] {
			pool[i][j] = byte(r.Uint32())
		}
	}
	zipf := rand.NewZipf(r, 1.1, 1, uint64(records-1))
	var chunks []benchChunk
	for done := 0; done < records; done += chunk {
		sums := map[string]*stats.Entry{}
		for i := 0; i < min(chunk, records-done); i++ {
			k := pool[zipf.Uint64()]
			e := sums[string(k)]
			if e == nil {
				e = new(stats.Entry)
				sums[string(k)] = e
			}
			e.Add(board.Move(1+r.IntN(20)), []pgn.Result{pgn.Unknown, pgn.WhiteWins, pgn.Draw, pgn.BlackWins}[r.IntN(4)], 1500+r.IntN(1300),
				stats.NewDate(2000+r.IntN(25), 1+r.IntN(12), 1+r.IntN(28)))
		}
		var c benchChunk
		for k, e := range sums { // map order: unsorted, as a hash map flush is
			c.keys = append(c.keys, []byte(k))
			c.encs = append(c.encs, e.AppendEncode(nil))
		}
		chunks = append(chunks, c)
	}
	return chunks
}

func writeBatch(s *Store, c benchChunk) error {
	b := s.NewBatch()
	defer b.Close()
	for i := range c.keys {
		if err := b.Merge(c.keys[i], c.encs[i]); err != nil {
			return err
		}
	}
	b.AddGames(uint64(len(c.keys)))
	return b.Commit(false)
}

func writeSST(s *Store, c benchChunk) error {
	idx := make([]int, len(c.keys))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int { return bytes.Compare(c.keys[a], c.keys[b]) })
	w, err := s.NewSSTWriter()
	if err != nil {
		return err
	}
	defer w.Close()
	for _, i := range idx {
		if err := w.Merge(c.keys[i], c.encs[i]); err != nil {
			return err
		}
	}
	w.AddGames(uint64(len(c.keys)))
	return w.Ingest()
}
