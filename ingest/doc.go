// Package ingest turns PGN input into replayed games: it opens input files
// (plain, gzip, bzip2 or zstd, detected by their magic bytes; see [Open]),
// replays each game parsed by package pgn on a board, skipping those that
// cannot be replayed with a [GameError] saying why ([Replayer]), and runs
// the parallel pipeline that does both for many inputs ([Run]): one reader
// splits each input into chunks of whole games (pgn.Splitter), and worker
// goroutines parse and replay the chunks and hand each legal game to their
// own [Sink].
package ingest
