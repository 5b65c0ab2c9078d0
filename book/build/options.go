package build

import (
	"math/rand/v2"
	"time"

	"github.com/chessbook/chessbook/gamecode"
	"github.com/chessbook/chessbook/stats"
	"github.com/chessbook/chessbook/store"
)

// Options are the build options. The zero value builds everything with the
// default counting mode and memory budget.
type Options struct {
	// MaxPly is the number of plies recorded from the start of each game;
	// 0 records all of them.
	MaxPly int
	// CountMode says what a game adds to a position it reaches more than
	// once. store.CountGame (the default) counts it once per position, at
	// its first visit, under the move it played then; later visits add
	// nothing, whatever move they play (as the lichess opening explorer
	// does): a position's total is the number of games that played on from
	// it. store.CountOccurrence counts every visit, under the move played
	// at each, as PolyGlot's make-book does.
	CountMode store.CountMode
	// MinRating keeps only games where both players are rated at least
	// this much (WhiteElo and BlackElo tags); 0 keeps all.
	MinRating int
	// Bands keeps only games whose players' mean rating is in these
	// rating bands (as Selection.Bands); 0 keeps all.
	Bands stats.RatingBandSet
	// Since and Until keep only games dated within [Since, Until] (Date
	// tag); 0 leaves that end open. Games with an unknown date are dropped
	// when either is set.
	Since, Until stats.Date
	// Speeds keeps only games of these speeds (from the TimeControl tag,
	// lichess's bounds); 0 keeps all.
	Speeds stats.SpeedSet
	// StandardStartOnly drops games that start from a FEN tag.
	StandardStartOnly bool
	// Memory is the build's memory budget in bytes, for the whole
	// process: 0 means DefaultMemory. PlanMemory splits it among the
	// aggregation tables, the store, the pipeline and the rest (see
	// MemoryPlan); Run sizes everything from that plan.
	Memory int64
	// MemBudget, when not 0, sets the aggregation tables' memory in bytes
	// across all workers instead of the share of Memory that PlanMemory
	// gives them (tests set it small to make builds flush often).
	MemBudget int64
	// CommitRuns is the number of sorted runs (flushes) committed to the
	// store together; 0: from Memory (64 at the default, fewer with less).
	// Fewer lose less work to a crash and make more, smaller sorted runs
	// in the store. A budget too small for the readers of that many runs
	// gets fewer.
	CommitRuns int
	// KeepDuplicates stores and counts every copy of a game that occurs
	// more than once in the input (PolyGlot does), each under an id made
	// of its content and its copy number in input order; by default a
	// game whose content is already in the store, or earlier in the
	// input, is counted once (the first copy in input order). The store
	// must have been created with the same setting.
	KeepDuplicates bool
	// Inputs lists the input names in the order given, for first-seen
	// stamps (see stats.MoveStats.FirstSeen): a game's stamp orders it by
	// input, then line. Games of other inputs get no stamp.
	Inputs []string
	// GameCoding is how the stored game records code their moves:
	// gamecode.Indexed (the default: the fastest) or gamecode.Ranked
	// (records 10-15% smaller with their tags, game coding about 2.5
	// times slower). Records name their coding, so one store may hold
	// both.
	GameCoding gamecode.Coding

	// noSingles writes every position as a statistics record, even in
	// count modes whose stores keep single references: the tests' oracle
	// for them.
	noSingles bool
	// hook, when set, is called at the points of a build named by
	// hookPoint: by each worker, with its own random source (seeded from
	// hookSeed and the worker's number), and by the committer, with nil.
	// It is the tests' way to shuffle the workers' scheduling and to kill
	// a build at chosen points (see export_test.go).
	hook     func(hookPoint, *rand.Rand)
	hookSeed uint64
	// commitEvery, when not 0, is the longest time between two commits
	// while games are added instead of commitInterval; below 0: none (the
	// tests' way to commit often, or only by size).
	commitEvery time.Duration
}

// hookPoint is a point of a build where Options.hook is called.
type hookPoint uint8

const (
	hookRead      hookPoint = iota // a worker is about to read a game (worker.Game)
	hookAdd                        // a worker is about to add a claimed game (worker.Unordered)
	hookCommit                     // the committer is about to commit (ingest a commit's sstables)
	hookCommitted                  // the committer has committed
)
