// Package store keeps the opening book in a Pebble database: a statistics
// record per position reached by several games, holding the [stats.Entry]
// of every move played from it, and a single reference to the game for
// each position one game reached, built up through one merge operator so
// that batches and ingested sstables from any number of runs simply add up.
//
// # Key schema
//
// Every key starts with a one-byte prefix naming its kind; the rest of the
// key depends on the kind:
//
//	'e' + file (1 byte, 0..7) + position key
//	                    -> stats.Entry, encoded; MERGE records (en-passant side records)
//	'g' + id (8 bytes, big-endian) -> a game record (package gamecode); a SET
//	'h' + position key  -> stats.History, encoded: the position's games by
//	                       month, move, speed and rating band; MERGE records
//	'm'                 -> Meta, JSON (see [Meta]); a SET, never merged
//	'n' + number (8 bytes, big-endian)
//	                    -> game id (8 bytes, big-endian) + first-seen stamp
//	                       (uvarint, absent when 0); a SET (game numbers)
//	'o' + stamp (8 bytes, big-endian) + id (8 bytes, big-endian)
//	                    -> empty; a SET (the game order index)
//	'p' + position key  -> stats.Entry, encoded (see package stats); MERGE records
//	'q' + bucket (3 bytes, big-endian: the high 18 bits of a SingleHash)
//	                    -> single references, encoded; MERGE records
//	'x' + index key     -> the game index (package gamedb): game summaries,
//	                       posting lists (SETs) and name dictionaries
//	                       (MERGE records whose values are tallies)
//
// Position keys are the opaque byte strings of package keys (1 to 26 bytes,
// usually about 12); the store never looks inside them. The readers of the
// statistics records ([Store.StatsRecordInto], [Store.NewStatsIter],
// [Store.StatsRecords]) list them in the byte order of their keys, bounded
// to the 'p' prefix; they see only the positions that have a record, not
// those kept as single references (below): a position's statistics are
// what package book answers (book.Lookup, book.Positions), which adds the
// games referenced to the records.
//
// # Single references
//
// Most positions of a big book are reached by one game only (96% of the
// 412k-game benchmark's), and a statistics record for each made stores ten
// times their compressed input. A flush that counted a position once, from
// one game, writes no statistics record for it but a single reference:
// the game's number under the position's [SingleHash] (the high 32 bits of
// the position's keys.Hash). The position's statistics are what that game adds
// to it, which package book rebuilds by replaying the game. A position's
// statistics are its 'p' record (if any) plus the contribution of every
// game referenced under its hash that reaches it; the builder keeps a
// position out of the references when another position its game counted
// has the same hash, so a reference always names one position of its
// game. References are kept in buckets (a 'q' record per value of the
// hash's high 18 bits), each a list sorted by (low 14 bits of the hash,
// game number): per reference, the difference of the low bits from the
// previous reference's as a uvarint, then the game number as a uvarint,
// or its difference from the previous number when the low bits are equal.
// A bucket's operands merge by their union. Games are named by a number
// ('n' records, handed out from [Meta].NextGame, each ingestion recording
// the numbers of its games) because a number of a few bytes makes a
// reference about 4 bytes where an 8-byte id would make it 10. The 'n'
// record also carries the game's first-seen stamp, the one part of a
// -count occurrence statistic that the game record does not hold. On the
// benchmark this makes the store 2x its zstd-compressed input instead of
// 10x, and the build faster (a few hundred thousand keys per flush instead
// of millions).
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
//     holds the games (the tables of one ingestion must not overlap),
//     before the games ([SSTWriter.MergeEPTrusted]).
//   - Game order index. -count occurrence builds record every stored
//     game's first-seen stamp (its input's index << 44 | its line << 12)
//     with its id, in the same ingestion as the game ([SSTWriter.SetGameOrder]),
//     so that [Store.GameOrder] lists the games in input order: the export
//     replays them in that order where PolyGlot's counts depend on it. The
//     id in the key keeps games of separate runs (whose stamps may be
//     equal) apart.
//
// A game's id is a hash of its content ([GameID]; in a KeepDuplicates store,
// of its content and its copy number, its place among the copies of that
// content in the input of its run); the builder stores a game in the same
// atomic ingestion as the statistics it adds, so "the game is in the store"
// means "its statistics are counted": a re-run skips it. The builder
// decides which copy of a content is stored (the first in input order) and
// numbers the copies in input order, whatever its workers' scheduling, so a
// run killed and run again on the same inputs ends with the store an
// uninterrupted run makes.
//
// Histories. The query-time filters of an explorer (speeds, rating bands,
// months) and its per-month history need more than a 'p' record's totals:
// each position with a 'p' record also has an 'h' record, its games by
// (period, move, cell) (see stats.History), written by the same flushes
// and merged by adding up. A filtered query adds up the rows that pass;
// a position kept as single references needs none, its games' tags say
// it all. They sit apart from the 'p' records so that unfiltered lookups
// and exports do not read them.
//
// Game index. Searching games by player, event, site or tags, and a
// player's opening tree, read the 'x' records (format version 9): what is
// under them is package gamedb's (its documentation has the byte formats);
// the store writes them ([SSTWriter.SetIndex], [SSTWriter.MergeIndex]),
// reads them ([Store.NewIndexIter], [Store.IndexGet]) and merges them
// without looking inside, but for the MERGE records, whose values are
// tallies (tally.go: counters that merge by sum, minimum or maximum, field
// by field). The builder writes a game's index records in the same
// ingestion as the game, so that they are committed, and survive a kill,
// with it. [Meta].GameIndex says whether the index covers every stored
// game: a store written before it (format 7 or 8) has none until
// gamedb.Reindex, which writes the index of every game in one ingestion
// that deletes every 'x' record the store held ([SSTWriter.ReplaceIndex])
// and sets GameIndex ([SSTWriter.SetGameIndex]): readers keep the old
// index until then.
//
// Prefixes not listed are reserved, in particular 's' (sources). The
// merge operator merges 'q' operands as buckets of single references
// (their union), 'h' operands as encoded histories (stats.MergeHistory),
// 'x' operands as tallies ([MergeTally]), and every other MERGE operand as
// an encoded stats.Entry ('e' and 'p' records); the other kinds are SETs
// and never reach it. A new prefix whose values must be merged with other
// semantics gets its own branch in the merge operator (which sees the
// key) and a new [FormatVersion]. (The operator's name, [MergerName],
// stays that of version 4, so that older stores, which never hold 'x'
// records, open; their format version keeps older programs from
// opening a newer store.)
//
// # Format version and build options
//
// The Meta record holds [FormatVersion], which covers this key schema, the
// stats encoding, the merge operator's name ([MergerName]) and the rules by
// which the builder counts games (version 3: in [CountGame] stores a game
// counts once per position, at its first visit, under the move it played
// then; version 4: single references and game numbers; version 9: the
// game index). Opening a store
// written with another format version fails with an [*IncompatibleError]
// (errors.Is(err, [ErrIncompatible])) that asks for a rebuild, unless it is
// an older one this package still reads ([MinFormatVersion]; such a store
// is upgraded by the first commit that adds to it). So does
// opening a store for writing with build options that change what the
// numbers mean (MaxPly, CountMode) other than the ones it was built with:
// adding games counted one way to games counted another would silently mix
// them.
//
// # Merge operator
//
// One Pebble merge operator, named [MergerName], merges encoded entries with
// [stats.MergeEncoded]: sums add up, first dates take the minimum, last dates
// the maximum; histories with [stats.MergeHistory], adding up the rows of
// each (period, move, cell); buckets of single references by their
// union; and the game index's tallies field by field. All four are
// associative and commutative, so Pebble may
// merge operands in any grouping (in batches, flushes, compactions, partial
// merges without the base value, reads), and builders may write in any order
// and in parallel. Every operand is validated on the way in ([SSTWriter.Merge]
// and the other writers): one corrupt operand would otherwise fail every later
// compaction touching its key.
//
// # Writing, and atomicity of the counters
//
// The builder writes through [SSTWriter]s (a sorted run written straight
// into an sstable that is then ingested; the tests also write batches
// through the memtable and WAL, and compare). Ingested sstables hold MERGE
// records, not SETs, so they merge with what the store already holds
// exactly like batches do; Pebble supports MERGE keys in ingested tables.
//
// Counters in Meta (games ingested) change in the same atomic write as the
// data they count: [SSTWriter.IngestWith] ingests, with the tables of
// one or several writers filled in parallel, a one-key sstable holding the
// new Meta in the same (atomic) ingestion. After a crash the store holds either
// both or neither. The Meta has a table of its own because the store's
// first Meta record reached level 0 through the memtable: a table holding
// the key lands above it, in level 0, where a big table is compacted at
// once, while the other tables of a build into a new store overlap nothing
// and go straight to the last level. Commits and ingestions that carry Meta are serialised by a
// mutex in the Store so that the Meta written last is the one that counts
// everything.
//
// An ingestion is in the manifest (Pebble's list of the store's tables)
// when it returns: one that overlaps the memtable (the Meta record of a
// new store, or of a compaction) flushes it first, instead of being
// queued above it as a "flushable" that only the write-ahead log names
// until a later flush (stores written before this rule keep their last
// ingestions that way: the first writable open, any build, writes them
// into the manifest). Close, on a store open for writing, flushes what
// the memtable holds: a closed store's logs hold nothing it needs, and
// it opens the same without them. After a crash or kill -9, the next
// open replays the logs and has every commit that returned.
//
// # Readers and writers
//
// One writer and any number of readers share a store:
//
//   - A writer (Open without ReadOnly: a build) takes Pebble's directory
//     lock; a second writer gets [ErrLocked].
//   - A reader (Open with ReadOnly) takes no lock and writes nothing
//     (noLockFS): servers, commands and scripts read at once, beside a
//     running build, also on a store the user cannot write.
//   - A reader sees the store as it was when it opened it: Pebble reads the
//     manifest and write-ahead logs once, at Open. Sstables the writer
//     adds are not seen; sstables it removes (a compaction) stay readable
//     through the files the reader holds open: Open makes Pebble open
//     every sstable of the state (openTables), so a long read (positions,
//     export) outlives a compaction beside it.
//   - [Live] is how a long-lived reader follows the writer: it keeps one
//     read-only Store, and Refresh, when the manifest or the logs changed
//     (manifestMark: a commit appends to one or the other), opens a new one
//     for the reads that start after, closing the old one when its last
//     read is done. bookquery serve refreshes every 2 seconds, and once more
//     when a read fails, and retries that read on the new state.
//   - A commit is atomic (see above): a reader opened before it sees none of
//     it, one opened after sees all of it, never a part.
//
// # Damaged data
//
// Pebble checks every block it reads against its checksum. Its default
// reaction to a mismatch ends the process; a Store's listener only lets
// the error reach the read that met it ([IsDamage], [ErrorLine]), so a
// server answers that request with a 500 and goes on with the others.
//
// [CheckDir] (bookquery check) verifies a store read-only, beside a
// running build if need be. It reads the store's own tables, those its
// manifest names (and, in a store written before the rule above, those
// a write-ahead log names), and checks every block of each against its
// checksum, reporting each damaged one; then it reads every record
// through the store, skipping the key range of each damaged block (the
// index tells where a block ends) rather than the rest of the table, and
// decodes each; and it compares the number of game records with the
// games the Meta counts. A table the manifest names whose file is gone
// is reported missing (Pebble would not open the store: CheckDir lists
// the missing tables to it as present, and reads the rest). Files in the
// directory that the store does not name are told apart:
//
//   - leftovers, safe to delete (the next writable open removes them): a
//     table cut short (a compaction's or flush's output that a kill
//     interrupted), a table whose records the store holds every one of (a
//     compaction's finished output, or its input not yet removed), a
//     table that an ingestion linked in and did not commit (the file is
//     still linked in "chessbook-ingest", where Pebble removes it once
//     the ingestion committed), and the ingestion directory's files;
//   - tables holding records the store lacks, with nothing to show an
//     interrupted commit: the log or manifest that named them is lost,
//     and the store lost their data: a problem.
//
// When Pebble cannot open the store at all (no manifest, say), CheckDir
// says why, lists the directory's files and what they are, and checks the
// blocks of its sstables.
//
// # Files
//
// The store directory is a Pebble directory: sstables (*.sst), the
// manifest (MANIFEST-*, and the marker naming the current one), the
// write-ahead logs (*.log: a few small records, never preallocated;
// Pebble keeps a few old ones for reuse), OPTIONS-*, LOCK. Sstables
// being written for ingestion live in its subdirectory "chessbook-ingest"
// until Pebble links them in, and so do a writer's scratch files
// ([Store.CreateScratch]: the builder's sorted runs); leftovers from a
// crashed run are removed on the next writable Open. [DirSize] is a
// store's size on disk as du counts it: the blocks of its files.
package store
