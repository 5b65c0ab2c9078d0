package build

import (
	"fmt"
	"github.com/chessbook/chessbook/internal/runfiles"
	"unsafe"

	"github.com/chessbook/chessbook/ingest"
	"github.com/chessbook/chessbook/internal/tally"
	"github.com/chessbook/chessbook/pgn"
)

// The memory model. A build's memory budget (Options.Memory) is the whole
// process's: PlanMemory splits it among everything a build holds, and
// Run sizes each part from the plan, so that the process's peak resident
// memory stays within the budget whatever the number of workers asked for
// and whatever the input. The parts are the aggregation tables (the bulk,
// what is left once the rest is paid for), the fixed costs of the process
// (the Go runtime and the program, the input's decompressor, the store's
// own structures), the store's block cache and memtable (outside the Go
// heap), the pipeline's chunk buffers and a game up to the parser's limit,
// each worker's scratch, the sorted-run writers of the flushes, the merge
// of a commit (its run readers and sstable writers), the games of the runs
// waiting for their commit, and the Go heap's room for garbage between
// collections. A build asks Go to collect before its heap passes
// MemoryPlan.GoLimit (see Run).
//
// A budget that cannot give every worker asked for a table of its own of
// at least minTableBytes, and the buffers a worker needs, runs fewer
// workers (MemoryPlan.Workers); one that cannot run one is refused.

// DefaultMemory is the default memory budget of a build: 1 GiB for the
// whole process.
const DefaultMemory = 1 << 30

// The planned costs, measured on the benchmark corpora (see README.md,
// "memory"): upper bounds of what each part holds at its peak.
const (
	// planFixed is what a build holds whatever its size: the Go runtime,
	// the program's code and goroutine stacks, the input's decompressor
	// (zstd's window and blocks), the store's own structures (table and
	// file caches, manifest) and the distinct-position counters.
	planFixed = 48 << 20
	// perWorkerScratch is a worker's own memory besides its table and
	// chunk buffers: parser and replayer scratch, the game being
	// replayed, the builder's per-game scratch.
	perWorkerScratch = 1 << 20
	// chunkBuffersPerWorker is how many chunk buffers the pipeline keeps
	// per worker (one being parsed, one queued, one being filled).
	chunkBuffersPerWorker = 3
	// runWriterBytes is the buffers of one sorted-run writer (a flush).
	runWriterBytes = 7 * runfiles.WriteBuffer
	// runReaderBytes is the buffers of one run read by a commit's merge.
	runReaderBytes = 7 * runfiles.ReadBuffer
	// sstWriterBytes is one sstable writer's buffers (data, index and
	// value blocks, compression).
	sstWriterBytes = 4 << 20
	// pendingGameBytes is what a game costs until its run is committed:
	// its entry in the dedupe's pending set and in its run's game list.
	pendingGameBytes = 96
	// minTableBytes is the smallest table a worker gets: smaller tables
	// flush too often to be worth a worker.
	minTableBytes = 8 << 20
	// codeBytes is the part of planFixed outside everything Go counts:
	// the program's code and read-only data, the C library's own (Pebble
	// allocates its cache and memtables with it). At 256 MiB the peak
	// resident memory of a build was 57 MiB above its Go heap's goal,
	// 24 of them the cache and memtable: this leaves a margin.
	codeBytes = 24 << 20
)

// pendingGameSize is what a unit holds for each game besides its record.
const pendingGameSize = int(unsafe.Sizeof(pendingGame{}))

// MemoryPlan is how a build spends its memory budget: every part's share,
// which add up to Total. PlanMemory makes it.
type MemoryPlan struct {
	Total int64 // the whole process's budget, in bytes

	// Workers is the number of replay goroutines: those asked for, or
	// fewer when the budget cannot afford them (Requested says how many
	// were asked for).
	Workers, Requested int

	Fixed    int64 // the runtime, the program, the decompressor, the store's structures
	Cache    int64 // the store's block cache (outside the Go heap)
	MemTable int64 // the store's memtable (outside the Go heap)

	ChunkBuffers int   // the pipeline's chunk buffers (ingest.Options.Buffers)
	Chunks       int64 // their memory: ChunkBuffers × ingest.ChunkBufferSize
	HugeGame     int64 // a game up to pgn.DefaultMaxGameSize: the Splitter's buffer and one such chunk in flight
	Scratch      int64 // the workers' own scratch
	Flush        int64 // the sorted-run writers: one per table, all flushing at the end

	// CommitRuns is the number of runs committed together (see
	// Options.CommitRuns), and CommitGames the number of games whose runs
	// wait for their commit that makes a commit anyway.
	CommitRuns, CommitGames int
	Commit                  int64 // a commit's merge: its run readers and three sstable writers
	Pending                 int64 // the games waiting for their commit: CommitGames × pendingGameBytes

	Headroom int64 // the Go heap's room for garbage between collections

	// Tables is the aggregation tables' memory: one table per worker and
	// one being flushed, TableBytes each (TableRecords occurrences, a
	// tenth of whose memory their game records may take), and Spare what
	// dividing it among them leaves.
	Tables, TableBytes int64
	TableRecords       int
	Spare              int64

	// GoLimit is the Go runtime's memory limit for the build (see
	// runtime/debug.SetMemoryLimit): the budget less what Go does not
	// count (the store's cache and memtable, the program's code).
	GoLimit int64
}

// Sum returns the sum of the plan's parts: Total.
func (p *MemoryPlan) Sum() int64 {
	return p.Fixed + p.Cache + p.MemTable + p.Chunks + p.HugeGame + p.Scratch + p.Flush +
		p.Commit + p.Pending + p.Headroom + p.Tables + p.Spare
}

// Reduced reports whether the plan runs fewer workers than were asked for.
func (p *MemoryPlan) Reduced() bool { return p.Workers < p.Requested }

// String describes the plan in MiB.
func (p *MemoryPlan) String() string {
	m := func(n int64) string { return fmt.Sprintf("%.0f", float64(n)/(1<<20)) }
	return fmt.Sprintf("%s MiB: %d workers, tables %s (%d x %s), fixed %s, cache %s, memtable %s, chunks %s, huge game %s, scratch %s, flush %s, commit %s (%d runs), pending %s (%d games), headroom %s, spare %s; Go limit %s",
		m(p.Total), p.Workers, m(p.Tables), p.Workers+1, m(p.TableBytes), m(p.Fixed), m(p.Cache), m(p.MemTable), m(p.Chunks),
		m(p.HugeGame), m(p.Scratch), m(p.Flush), m(p.Commit), p.CommitRuns, m(p.Pending), p.CommitGames, m(p.Headroom), m(p.Spare), m(p.GoLimit))
}

// PlanMemory splits total, a build's whole-process memory budget in bytes
// (0: DefaultMemory), among the parts of a build run with workers replay
// goroutines (at least 1) that commits commitRuns sorted runs together (0:
// by the budget). Fewer workers, then fewer runs per commit, are planned
// when the budget cannot afford those asked for. It fails for a budget
// under MinMemory.
func PlanMemory(total int64, workers, commitRuns int) (MemoryPlan, error) {
	if total <= 0 {
		total = DefaultMemory
	}
	workers = max(workers, 1)
	p := MemoryPlan{Total: total, Requested: workers}
	if total < MinMemory {
		return p, fmt.Errorf("a memory budget of %d MiB is too small: a build needs at least %d MiB", total>>20, MinMemory>>20)
	}
	p.Fixed = planFixed
	p.Cache = clamp(total/16, 8<<20, 64<<20)
	p.MemTable = clamp(total/32, 4<<20, 32<<20)
	p.HugeGame = 2 * int64(pgn.NewSplitter(nil).MaxBuffer())
	p.Headroom = max(total/16, 16<<20)
	p.CommitGames = int(clamp(total/16, 8<<20, 64<<20) / pendingGameBytes)
	p.Pending = int64(p.CommitGames) * pendingGameBytes
	// By default one run per 16 MiB of the budget, 4 to 64 (64 at the
	// default budget).
	p.CommitRuns = commitRuns
	if p.CommitRuns <= 0 {
		p.CommitRuns = int(clamp(total>>24, 4, 64))
	}
	// What each worker costs besides its table, and what is left for the
	// workers and the tables once the rest is paid: the commit merges up
	// to CommitRuns runs, and at the end each table's last one.
	perWorker := int64(chunkBuffersPerWorker*ingest.ChunkBufferSize+perWorkerScratch+runWriterBytes) + runReaderBytes
	left := func() int64 {
		return total - p.Fixed - p.Cache - p.MemTable - p.HugeGame - p.Headroom - p.Pending -
			(int64(p.CommitRuns+1)*runReaderBytes + 3*sstWriterBytes) - runWriterBytes - minTableBytes
	}
	for left() < perWorker+minTableBytes {
		if p.CommitRuns == 1 {
			return p, fmt.Errorf("a memory budget of %d MiB is too small for a build", total>>20)
		}
		p.CommitRuns = max(1, p.CommitRuns/2)
	}
	workers = int(min(int64(workers), left()/(perWorker+minTableBytes)))
	p.Workers = workers
	p.Commit = int64(p.CommitRuns+workers+1)*runReaderBytes + 3*sstWriterBytes
	p.ChunkBuffers = chunkBuffersPerWorker * workers
	p.Chunks = int64(p.ChunkBuffers) * ingest.ChunkBufferSize
	p.Scratch = int64(workers) * perWorkerScratch
	p.Flush = int64(workers+1) * runWriterBytes
	p.Tables = total - p.Fixed - p.Cache - p.MemTable - p.HugeGame - p.Headroom - p.Pending - p.Commit - p.Chunks - p.Scratch - p.Flush
	p.TableBytes = p.Tables / int64(workers+1)
	// A tenth of a table's share is for the game records of its games.
	p.TableRecords = int(p.TableBytes * 10 / 11 / tally.RecordBytes)
	p.Spare = p.Tables - p.TableBytes*int64(workers+1)
	p.Tables -= p.Spare
	p.GoLimit = total - p.Cache - p.MemTable - codeBytes
	return p, nil
}

// MinMemory is the smallest memory budget a build runs in: 256 MiB.
const MinMemory = 256 << 20

func clamp(x, lo, hi int64) int64 { return min(max(x, lo), hi) }
