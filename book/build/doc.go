// Package build builds the opening book from games, the write side of
// package book: it filters the games the ingest pipeline hands over,
// stores each one once, counts what each adds to the positions it reaches
// (under the counting rule of package book/counting), and commits both to
// a store (package store) in atomic batches. Run runs a whole build into a
// store directory (open, ingest, abort or finish, compact, close); Builder
// is the pipeline's sink it uses. Package book reads the store back;
// package book/merge merges stores; the Polyglot export and the dump of
// every position are package book/export.
//
// # The write path
//
// build.go runs a build (Run): it plans the memory budget (memory.go: -mem is
// the whole process's, for the command and a library caller alike), opens
// the store, runs the ingest pipeline into a Builder, finishes or aborts
// it, compacts and closes the store. builder.go holds the Builder's
// lifecycle: its workers, the flusher and committer goroutines, Abort and
// Finish. worker.go holds a pipeline worker: it filters each game
// (Options' filters, counted by Filter in Stats), hashes its content and
// codes its record (package gamecode), claims the chunk's games in input
// order (dedupe.go), then adds the games claimed to its own unit: their
// records, and their counted positions to its table (package
// internal/tally), hashed but not keyed. commit.go turns a full unit
// into a sorted run in scratch files (writeRecords, and writeGames for
// every record a stored game has; package internal/runfiles holds the
// run files and their k-way merge), and merges batches of runs into sstables ingested
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
//     per commit, which Run compacts from compactAfter of them).
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
// # Words
//
// A "run" is a sorted run: a flush's records in scratch files, until they
// are committed; a "commit" merges runs into the store atomically
// (store.Meta.Runs counts the commits since the last compaction). A
// "filter" leaves games out of a build (Filter, Options); a "selection"
// keeps games in a query (book.Selection, book.Select).
package build
