// Package book builds the opening book from replayed games: it filters the
// games the ingest pipeline hands over, keys every position (package keys),
// adds each move's result, rating and date to an in-memory stats.Table per
// worker, and flushes the tables as sorted runs whenever the memory budget
// is reached, committing them to the store in batches. Build runs a whole build into a store
// directory (open, ingest, abort or finish, compact, close); Builder is the
// pipeline's sink it uses.
//
// Design notes:
//   - Each pipeline worker owns its Table: no locks on the hot path.
//   - A flush writes its table as a sorted run to scratch files (runs.go),
//     not to the store. Runs are committed in batches (commitRuns, and
//     at the end): merged run against run into one set of sstables of
//     MERGE records, ingested together with the games they count and the
//     new games counter in one atomic ingestion, so the store's statistics
//     and its games counter always agree, and incremental builds simply
//     add up through the store's merge operator. Merging the runs here,
//     once, instead of ingesting every flush and leaving Pebble to merge
//     their overlapping tables level after level, took a third off the
//     CPU time of a 412k-game build; into a new store, a build of up to
//     about a million games is one ingestion into the last level, with
//     nothing left to compact.
//   - A game is always flushed whole: tables are flushed between games.
//   - A Table appends occurrences flat and aggregates them when flushed.
//     A position one game counted once in a flush is written as a single
//     reference to that game (see package store) instead of statistics;
//     Entry and Positions (lookup.go) rebuild its statistics by replaying
//     the game with the builder's own rules (newOccurrence, setPly), and
//     every reader goes through them. The oracle test builds the same
//     input with and without single references and compares every
//     position.
//   - Every game is stored (package gamecode, in Options.GameCoding)
//     under an id that is a hash of its content, in the same ingestion
//     as the statistics it adds. A game whose id is already in the store,
//     or pending in this run, is a duplicate and adds nothing.
//   - Which copy of a game is the first (the one stored, with its tags
//     and first-seen stamp) and, with KeepDuplicates, each copy's number
//     (part of its id) follow the input's order, not the workers'
//     scheduling: the workers replay their chunks of input, code the
//     games' records and hash their content in parallel, then claim the
//     chunk's games one chunk at a time in input order (an
//     ingest.OrderedSink, dedupe.claimChunk), then add the games claimed
//     to their tables in parallel again. So a build's store is the same
//     whatever the number of workers and their scheduling, and a build
//     killed at any point and run again on the same inputs ends with
//     exactly the store of an uninterrupted build: the same statistics,
//     first-seen stamps included, and the same game records.
//   - For a PolyGlot-exact export, each flush also writes, in the same
//     ingestion, two kinds of side records (see package store): after a
//     double pawn step beside a pawn of the side to move whose en-passant
//     capture is illegal, the occurrence once more under the en-passant
//     record of the position ('e'; PolyGlot's key has the file, ours does
//     not); and, in -count occurrence builds, each game's first-seen stamp
//     in the game order index ('o'). Export splits positions by the
//     former and replays the games in input order with the latter where
//     PolyGlot halved counts.
package book

import (
	"math/rand/v2"

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
	// MemoryPlan); Build sizes everything from that plan.
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
	// a build at chosen points (see hooks_test.go).
	hook     func(hookPoint, *rand.Rand)
	hookSeed uint64
}

// hookPoint is a point of a build where Options.hook is called.
type hookPoint uint8

const (
	hookRead     hookPoint = iota // a worker is about to read a game (worker.Game)
	hookAdd                       // a worker is about to add a claimed game (worker.Unordered)
	hookIngest                    // the committer is about to ingest a commit
	hookIngested                  // the committer has ingested a commit
)
