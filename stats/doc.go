// Package stats is the model of the opening book: what was played from one
// position, how often, how it scored, by whom and when.
//
// What one game adds is the builder's rule (package book, its CountMode):
// by default a game counts once per position, under the move it played at
// its first visit, so the games of an entry's moves add up to the number of
// games that played on from the position; or once per visit, as PolyGlot
// counts. This package only adds up what it is given.
//
// An [Entry] holds the moves played from one position, sorted by move, each
// with its [MoveStats]: results by colour, the sum and count of the mover's
// rating, and the first and last [Date] it was played. Entries only ever grow
// by addition: [Entry.Add] adds one game's contribution and [Entry.Merge] adds
// two entries. Merge is associative and commutative, which is what lets the
// store keep entries behind a Pebble merge operator: batches flushed in any
// order, in parallel or by separate incremental runs, simply add up.
//
// A [History] holds what the query-time filters of an explorer need beyond
// an Entry's totals: the same position's games by [Period] (month), move
// and [Cell] (speed and rating band), as flat rows that merge by adding up
// the rows of each (period, move, cell), associatively and commutatively
// too ([MergeHistory], [MergeHistories]); its encoding is described at
// [HistoryVersion].
//
// # Encoding
//
// [Entry.AppendEncode] writes the compact binary form kept in the store and
// [Decode] reads it back; [MergeEncoded] merges two encoded entries straight
// into a third without decoding them into a slice (the merge operator's path).
// Version 1 of the encoding is:
//
//	entry   = version:byte(=1) move*            (moves run to the end of the value)
//	move    = move:uint16le flags:byte fields
//	flags   bit 0: WhiteWins != 0     -> uvarint WhiteWins
//	        bit 1: Draws != 0         -> uvarint Draws
//	        bit 2: BlackWins != 0     -> uvarint BlackWins
//	        bit 3: Unknown != 0       -> uvarint Unknown
//	        bit 4: a rating is known  -> uvarint RatingCount, uvarint RatingSum
//	        bit 5: a date is known    -> uvarint FirstDate
//	        bit 6: LastDate!=FirstDate-> varint (LastDate - FirstDate), zig-zag
//	        bit 7: extension          -> ext:byte, then its fields
//	ext     bit 0: FirstSeen != 0     -> uvarint FirstSeen
//	        bit 1: LowPly != 0        -> uvarint LowPly
//	        bits 2-4: number of Top game references (0..4)  -> ref*
//	        bits 5-7: number of Recent game references (0..4)
//	                  -> per recent game: byte j, j = 1+index of the same
//	                     game among the Top ones, or 0 followed by a ref
//	ref     = id:uint64be uvarint(Rating) uvarint(Date)
//
// Fields follow in flag order. Moves are strictly increasing. A field whose
// flag is clear is zero. The encoding is canonical: a value accepted by
// [Decode] re-encodes to the same bytes, and Decode rejects flags set on zero
// fields, unsorted or duplicate moves, truncated fields, overlong varints and
// trailing garbage. A game played once from a position costs about 12 bytes
// (move 2, flags 1, result 1, rating 3, date 4, plus the version byte once per
// entry).
//
// The number of games is not stored: it is the sum of the four result
// counters ([MoveStats.Games]), so it can never disagree with them.
//
// # Counters
//
// Counters are uint64 throughout. Their varint encoding makes the width free
// on disk, and the start position of a store fed with every lichess game
// already passes 4e9 (uint32) games. Additions saturate instead of wrapping,
// so a corrupted or hostile input can not make a count go down.
package stats
