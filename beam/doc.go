// Package bookbeam is the book build as an Apache Beam pipeline (command
// bookbeam): the store bookbuild builds from the same inputs with the same
// options, read, deduplicated, partitioned and built on the workers of a
// Beam runner (Prism in this process; Flink, Spark or Dataflow on a
// cluster). It is a module of its own (beam/go.mod), so that the core
// module and its commands do not carry Beam's dependencies.
//
// # The pipeline
//
// Construct lays it out; Run runs it and reads the report of its last
// step.
//
//  1. inputs: the input files' indices, in the global input order
//     (Config.Inputs: bookbuild's order, directories expanded), spread
//     over the workers (Reshuffle).
//  2. read (ParDo): each input replayed by package ingest (ingest.Run,
//     the same formats, checks and per-game errors as bookbuild), each
//     game filtered by the build's filters (build.Options.Leaves) and
//     keyed by its content id (build.ContentID), with its place in the
//     global order (input index, game number, line: the first-seen
//     stamp's) and the game as a gamecode record (Game). A report per
//     input (FileReport) is a second output.
//  3. dedupe (CombinePerKey on the content id): of the copies of a
//     content the earliest in the global order stays, the one bookbuild
//     stores and stamps. Left out with KeepDuplicates: every copy goes on,
//     and the copies of a content, all in one shard, are numbered there
//     as bookbuild numbers them.
//  4. partition (GroupByKey): games grouped by content-id range
//     (ShardOf), Config.Shards ranges.
//  5. build (ParDo, one shard per element): a shard's games sorted in
//     the global order and built into a store by build.Run
//     (build.RunOptions.Games), with Options.Inputs the whole input list, so
//     that first-seen stamps are the global ones; into a temporary
//     directory renamed to Workdir/shard-NNNN when complete, with the
//     digest of what it was built from. A retried bundle, or a run again
//     on the same inputs, finds the shard with the same digest and keeps
//     it; a shard of other games is replaced: a shard is never added to.
//  6. finish (ParDo on an Impulse, the shards and reports as side
//     inputs, so it runs once, after all of them): the shard stores merged
//     into Config.DB by merge.Run (in a temporary directory renamed into
//     place), and Workdir/report.json written.
//
// # How this maps onto the words, and why
//
// "Deduplicate games across all inputs by content id" is step 3, a
// combiner (earliest), which a runner lifts before the shuffle.
// "Replay and aggregate with combiners" is done inside each shard's
// build: the builder's tally is the combiner that adds up what each game
// adds to each position, and it is the counting rule itself (lowest ply,
// first-seen stamp, single references, top games, histories), so the
// pipeline counts exactly as bookbuild does with one implementation of
// the rule, not a second one written as Beam combiners. "Partition by key
// range" is step 4 on the content-id range; "sorted sstables and game
// records per range, written idempotently" are the shard stores (each a
// Pebble store of sorted sstables holding its range's games and what they
// count), written by rename; "ingest them into a store" is step 6, which
// copies them record by record (the shards share no game, and their stamps
// are global: merge.Options.KeepStamps), the merge's fast path.
//
// Positions are not the partition key: one position is reached by games
// of every shard, so the shards' statistics overlap and the last step
// adds them up on one machine (see docs/beam.md for what bounds a run and
// what would lift it).
//
// # Paths
//
// Everything in Config travels to the workers as JSON: the inputs,
// Workdir and DB must name the same files on every worker (a shared file
// system on a cluster).
package bookbeam
