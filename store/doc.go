// Package store keeps the opening book in a Pebble database: one record per
// position, holding the [stats.Entry] of every move played from it, built up
// through a single merge operator so that batches and ingested sstables from
// any number of runs simply add up.
//
// # Key schema
//
// Every key starts with a one-byte prefix naming its kind; the rest of the
// key depends on the kind:
//
//	'e' + file (1 byte, 0..7) + position key
//	                    -> stats.Entry, encoded; MERGE records (en-passant side records)
//	'g' + id (8 bytes, big-endian) -> a game record (package gamecode); a SET
//	'm'                 -> Meta, JSON (see [Meta]); a SET, never merged
//	'o' + stamp (8 bytes, big-endian) + id (8 bytes, big-endian)
//	                    -> empty; a SET (the game order index)
//	'p' + position key  -> stats.Entry, encoded (see package stats); MERGE records
//
// Position keys are the opaque byte strings of package keys (1 to 26 bytes,
// usually about 12); the store never looks inside them, and [Store.Positions]
// lists positions in the byte order of their keys. Iterators over positions
// ([Store.NewIter], [Store.Positions]) are bounded to the 'p' prefix and
// never see the other kinds.
//
// The 'e' and 'o' records exist for the Polyglot export (package book) to
// equal PolyGlot's make-book exactly (format version 3 stores have them
// from their first build):
//
//   - En-passant side records. Our position keys are canonical: they drop
//     the en-passant square when no en-passant capture is legal. PolyGlot's
//     key has the en-passant file whenever a pawn of the side to move
//     stands beside the pawn that just stepped twice, even if that pawn is
//     pinned. The builder adds each occurrence of such a position (after
//     the double step) both to the position's 'p' record, which stays the
//     full canonical statistics, and to its 'e' record for that file; the
//     export writes the 'e' counts under PolyGlot's key with the file and
//     the 'p' counts minus them under the key without. They merge with the
//     same operator as 'p' records, and are written to the sstable that
//     holds the games and Meta (the tables of one ingestion must not
//     overlap), before the games ([SSTWriter.MergeEPTrusted]).
//   - Game order index. -count occurrence builds record every stored
//     game's first-seen stamp (its input's index << 44 | its line << 12)
//     with its id, in the same ingestion as the game ([SSTWriter.SetGameOrder]),
//     so that [Store.GameOrder] lists the games in input order: the export
//     replays them in that order where PolyGlot's counts depend on it. The
//     id in the key keeps games of separate runs (whose stamps may be
//     equal) apart.
//
// A game's id is a hash of its content ([GameID]); the builder stores a game
// in the same atomic ingestion as the statistics it adds, so "the game is in
// the store" means "its statistics are counted": a re-run skips it.
//
// Prefixes not listed are reserved, in particular 's' (sources) and 'x'
// (secondary indexes). The merge operator does not look at the prefix: it
// merges every MERGE operand as an encoded stats.Entry ('e' and 'p'
// records); the other kinds are SETs and never reach it. A new prefix whose
// values must be merged with other semantics than stats entries gets its
// own branch in the merge operator (which sees the key) and a new
// [FormatVersion].
//
// # Format version and build options
//
// The Meta record holds [FormatVersion], which covers this key schema, the
// stats encoding, the merge operator's name ([MergerName]) and the rules by
// which the builder counts games (version 3: in [CountGame] stores a game
// counts once per position, at its first visit, under the move it played
// then). Opening a store written with another format version fails with an
// [*IncompatibleError] (errors.Is(err, [ErrIncompatible])) that asks for a
// rebuild. So does opening
// a store for writing with build options that change what the numbers mean
// (MaxPly, CountMode) other than the ones it was built with: adding games
// counted one way to games counted another would silently mix them.
//
// # Merge operator
//
// One Pebble merge operator, named [MergerName], merges encoded entries with
// [stats.MergeEncoded]: sums add up, first dates take the minimum, last dates
// the maximum. The operation is associative and commutative, so Pebble may
// merge operands in any grouping (in batches, flushes, compactions, partial
// merges without the base value, reads), and builders may write in any order
// and in parallel. Every operand is validated on the way in ([Batch.Merge],
// [SSTWriter.Merge]): one corrupt operand would otherwise fail every later
// compaction touching its key.
//
// # Writing, and atomicity of the counters
//
// The builder writes either through a [Batch] (merge records into the
// memtable and WAL) or through an [SSTWriter] (a sorted run written straight
// into an sstable that is then ingested). Ingested sstables hold MERGE
// records, not SETs, so they merge with what the store already holds exactly
// like batches do; Pebble supports MERGE keys in ingested tables.
//
// Counters in Meta (games ingested) change in the same atomic write as the
// data they count: [Batch.Commit] adds the Meta record to the batch, and
// [SSTWriter.Ingest] ingests a second, one-key sstable holding the new Meta
// in the same (atomic) ingestion. After a crash the store holds either both
// or neither. Commits and ingestions that carry Meta are serialised by a
// mutex in the Store so that the Meta written last is the one that counts
// everything.
//
// # Files
//
// The store directory is a Pebble directory. Sstables being written for
// ingestion live in its subdirectory "chessbook-ingest" until Pebble links
// them in; leftovers from a crashed run are removed on the next writable
// Open.
package store
