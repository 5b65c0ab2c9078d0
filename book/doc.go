// Package book builds the opening book from games and reads it back: it
// filters the games the ingest pipeline hands over, stores each one once,
// counts what each adds to the positions it reaches, and commits both to a
// store (package store) in atomic batches; its readers rebuild the
// statistics of the positions the store keeps as single references, and
// scan the stored games. Build runs a whole build into a store directory
// (open, ingest, abort or finish, compact, close); Builder is the
// pipeline's sink it uses. The Polyglot export and the dump of every
// position are package book/export.
//
// # The write path
//
// build.go runs a build: it plans the memory budget (memory.go: -mem is
// the whole process's, for the command and a library caller alike), opens
// the store, runs the ingest pipeline into a Builder, finishes or aborts
// it, compacts and closes the store. builder.go holds the Builder's
// lifecycle: its workers, the flusher and committer goroutines, Abort and
// Finish. worker.go holds a pipeline worker: it filters each game
// (Options' filters, counted by Filter in Stats), hashes its content and
// codes its record (package gamecode), claims the chunk's games in input
// order (dedupe.go), then adds the games claimed to its own unit: their
// records, and their counted positions to its table (package
// book/internal/tally), hashed but not keyed. commit.go turns a full unit
// into a sorted run in scratch files (writeRecords, and writeGames for
// every record a stored game has; runfiles.go holds the run files and
// their k-way merge), and merges batches of runs into sstables ingested
// by the store in one atomic commit with the games they count and the new
// games counter.
//
//   - Each worker owns its unit and table: no locks on the hot path, and
//     no allocation per move once the buffers have grown.
//   - A flush writes its table as a sorted run to scratch files, not to
//     the store. Runs are committed in batches (commitRuns; at least
//     every commitInterval, 30 s, while games are added: the workers then
//     hand over their units however full, so that a crash or Ctrl-C loses
//     at most that much work; at Interrupt, the runs written already; and
//     at the end): merged run against run into one set of sstables of MERGE
//     records, ingested together with the games they count and the new
//     games counter in one atomic step, so the store's statistics and its
//     games counter always agree, and incremental builds simply add up
//     through the store's merge operator. Merging the runs here, once,
//     instead of ingesting every flush and leaving Pebble to merge their
//     overlapping tables level after level, took a third off the CPU time
//     of a 412k-game build; into a new store, a build of up to about a
//     million games done within 30 s is one commit into the last level,
//     with nothing left to compact (a longer one adds a layer of sstables
//     per commit, which Build compacts from compactAfter of them).
//   - A game is always flushed whole: units are handed over between
//     games, and a unit's games and statistics are committed together.
//   - Every game is stored (package gamecode, in Options.GameCoding)
//     under an id that is a hash of its content, in the same commit as the
//     statistics it adds. A game whose id is already in the store, or
//     pending in this build, is a duplicate and adds nothing.
//   - For a PolyGlot-exact export, each flush also writes two kinds of
//     side records (see package store): after a double pawn step beside a
//     pawn of the side to move whose en-passant capture is illegal, the
//     occurrence once more under the en-passant record of the position
//     ('e'; PolyGlot's key has the file, ours does not); and, in -count
//     occurrence builds, each game's first-seen stamp in the game order
//     index ('o'). The export splits positions by the former and replays
//     the games in input order with the latter where PolyGlot halved
//     counts.
//
// # Determinism: claims in input order
//
// Which copy of a game is the first (the one stored, with its tags and
// first-seen stamp) and, with KeepDuplicates, each copy's number (part of
// its id) follow the input's order, not the workers' scheduling: the
// workers read their chunks of input, code the games' records and hash
// their content in parallel, then claim the chunk's games one chunk at a
// time in input order (an ingest.OrderedSink, dedupe.claimChunk), then add
// the games claimed to their units in parallel again. So a build's store
// is the same whatever the number of workers and their scheduling, and a
// build killed at any point and run again on the same inputs ends with
// exactly the store of an uninterrupted build: the same statistics,
// first-seen stamps included, and the same game records.
//
// # The counting rule
//
// What a game adds to a position is written once, in counting.go, and the
// builder and every reader count with it: the game's part (its result,
// date, cell, reference and the mean rating the references rank by, read
// from its tags by tagsOf), the position's part (the lowest ply, by move
// numbers; the mover's rating; the first-seen stamp with the ply from the
// game's start), and which plies count (counting.Counter: those before
// Options.MaxPly from the game's start; with store.CountGame only the
// first visit of each position, under the move played then, with
// store.CountOccurrence every visit). counting.Walker walks a game's
// counted positions; the builder walks the moves it parsed, the readers
// the moves they decode, under the max-ply and count mode the store
// records.
//
// # The read side: single references rebuilt at read time
//
// A position one game counted once in a flush is written as a single
// reference to that game (see package store) instead of a statistics
// record: most positions of a big book are. Its statistics are what that
// game adds to it, which the readers rebuild by replaying the game under
// the counting rule. Every reader of a position's statistics goes through
// them: Entry (singles.go) for one position, its statistics record merged
// with what each game referenced under its hash adds to it (the games are
// decoded only as far as the position); Select (selection.go) for the
// games a query-time Selection keeps (speed, rating band, month), from the
// position's history and its single references' tags; Positions
// (positions.go, positions_all.go) for every position of the store: the
// records' hashes merge-joined with the references read in hash order,
// the games referenced under a record's hash or under a hash of several
// games replayed once each (a range of game numbers at a time, on two
// goroutines, each only until it reached those hashes), what they add
// tallied, spilled to sorted runs and merged with the records in key
// order; and the positions only single references reach found by
// replaying every referenced game once.
// TestSinglesOracle and TestSinglesOracleTestdata build the same inputs
// with and without single references and compare every position.
//
// GamesThrough (through.go) is the one reader that does not count: it
// scans the stored game records for every game through a position (the
// statistics keep only a few references per move), replaying each only
// until it reaches the position or can no longer reach it.
//
// # Merging stores
//
// Merge (merge.go) makes one store of stores built separately, equal to
// one build of all their inputs in the order of the stores: what the
// positions dump, the game records, the game index and the export say
// (the game numbers differ, as they do between two builds). Records of
// stores that share no game add up at the record level, as the runs of
// one build do: statistics, histories and tallies through the store's
// merge operators, single references and the game index with their game
// numbers moved past the stores before, and in -count occurrence stores
// the first-seen stamps past the earlier stores' inputs
// (MergeOptions.KeepStamps keeps them, for shards of one build that were
// given its whole input list). A store that shares games with an earlier
// one cannot be added that way (what a game added is not subtractable:
// lowest plies, first-seen stamps, top games), so it is first rebuilt
// from its game records into a scratch store, each record decoded and fed
// to a Builder's workers as if parsed, with its stored stamp, the games
// an earlier store holds left out (with KeepDuplicates: each copy renamed
// to its copy number after the earlier stores' copies). Everything is
// written in one atomic ingestion.
//
// # Words
//
// A "run" is a sorted run: a flush's records in scratch files, until they
// are committed; a "commit" merges runs into the store atomically
// (store.Meta.Runs counts the commits since the last compaction). To
// "replay" a game is to play its moves again from its start, position by
// position: the pipeline replays the PGN games, the readers the stored
// ones. A "filter" leaves games out of a build (Filter, Options); a
// "selection" keeps games in a query (Selection, Select).
package book
