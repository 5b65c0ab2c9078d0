// Package gamedb is the game-database half of a store: an index of the
// stored games by player, event and site, a summary of each game, and the
// searches and player trees that read them without decoding game records.
//
// The builder (package book) writes a game's index records in the same
// atomic ingestion as the game record itself, so that the index is
// exactly-once and kill -9 safe with the games; Reindex writes the index
// of a store written before it existed. The store keeps the records under
// its 'x' prefix (package store) and merges the dictionaries' tallies; the
// [store.Meta] GameIndex field says that the index covers every game
// (Version).
//
// # Reading
//
// Open a store, then gamedb.Open it:
//
//   - [DB.Names]: every spelling of a player (or event, site) whose
//     normalized form contains a text, with its games as White and Black,
//     rating range and dates; [DB.Suggest]: the closest spellings, for a
//     name with no games.
//   - [DB.Search]: games by names (player with either color, White, Black,
//     event, site), result, ECO range, opening name, dates, ratings,
//     length, speeds, rating bands, modes and a position (transpositions
//     included), sorted by date, rating or length, a page at a time.
//   - [DB.PlayerTree]: a player's opening tree with one color at a
//     position: per move the results, the average opponent rating, the
//     performance, the game when the move was played once; and the recent
//     games.
//   - [DB.PlayerPostings]: a player's games with one color, by number,
//     with their dates.
//   - [Check]: the index against the games and itself.
//
// # Names
//
// Names are matched by their normalized form ([Normalize]): the letters
// and digits of the name, lower-cased, with accents removed (é -> e; a few
// letters that do not decompose are folded too: ø -> o, ł -> l, ß -> ss,
// æ -> ae; marks go in every script, so Cyrillic й is и), everything else
// dropped; compatibility forms are folded (NFKD: full-width
// "Ｃａｒｌｓｅｎ" is "carlsen", the ligature "ﬁ" is "fi"; a store indexed
// by an earlier bookbuild, which folded canonical forms only, finds such
// names by their plain form once bookbuild -reindex refolds them).
// "Carlsen, M", "carlsen,m" and
// "CARLSEN M." are all "carlsenm"; "Ljubojević" is "ljubojevic". A name
// with no letter or digit ("?", "-", "") is not indexed. A Site tag that
// is a URL (it holds "://") is indexed by its host, without "www."
// (lichess names every game's site by the game's URL: the index would
// hold one site per game). Names and their spellings are cut to 200
// bytes.
//
// # Key schema
//
// Under the store's 'x', each key starts with a byte naming its kind.
// Numbers are game numbers (the store's 'n' records: store.SSTWriter.SetGameNumber),
// 8 bytes big-endian in keys; norm is a normalized name (never holding a
// 0 byte), raw a spelling as the games have it.
//
//	'E' + norm + 0 + first number    -> event posting list (SET)
//	'S' + norm + 0 + first number    -> site posting list (SET)
//	'e' + norm + 0 + raw             -> event tally (MERGE)
//	'g' + number                     -> game summary (SET)
//	'n' + norm + 0 + raw             -> player tally (MERGE)
//	'p' + norm + 0 + color + first number
//	                                 -> player posting list (SET); color 0 White, 1 Black
//	's' + norm + 0 + raw             -> site tally (MERGE)
//
// A posting list holds the games of one batch (a commit of the builder,
// or a reindex) with that name, in number order, under the number of its
// first game: a name has one list per batch that had its games, their
// first numbers keep them apart, and a reader reads them all with a
// prefix scan. An event or site list is, per game, the difference of its
// number from the previous one's (the first's from the key's, so 0) as a
// uvarint. A player list adds after each number difference the difference
// of the game's date code from the previous game's (the first's from 0),
// as a zig-zag varint; the date code of a date (stats.Date) is
// year*512 + month*32 + day, unknown parts 0. So a player's games in a
// date range, or by date, need no summary.
//
// The tallies (store.AppendTally) add up across batches: a player's is
// (games as White: sum, games as Black: sum, least rating: min, greatest
// rating: max, first date: min, last date: max) for that spelling,
// ratings and dates 0 when unknown (a min ignores 0); an event's or a
// site's is (games: sum, first date: min, last date: max).
//
// A game summary ([Summary]) is:
//
//	byte    result (pgn.Result, bits 0-2) | casual (bit 3) | from a FEN (bit 4)
//	byte    postings: White (bit 0), Black (bit 1), event (bit 2), site (bit 3)
//	byte    cell (stats.Cell: speed << 4 | rating band, 15 unknown)
//	uvarint date (stats.Date, 0 unknown)
//	uvarint White's rating, uvarint Black's rating (0 unknown)
//	uvarint plies
//	uvarint ECO code (ParseECO: A00 is 1, E99 500; 0 none)
//	then, unless the game starts from a FEN or has no move:
//	byte    coded plies c (1 to SummaryPlies)
//	bits    the first c moves, each its number i among the n legal moves
//	        of its position (gamecode.MoveIndexer: the Indexed coding's
//	        order) in bits.Len(n-1) bits, least significant bit first,
//	        packed from the first byte's lowest bit on.
//
// The moves are what a player tree or a position search needs of most
// games: a position reached within the first SummaryPlies plies is found,
// with the move played from it, without the game record. The summary
// cannot tell for a position past them (a game that can still reach it
// after its coded plies) or for a game from a FEN: those are decided from
// the game record (gamecode.DecodeGameUntil), replayed only as long as the
// game can still reach the position.
//
// # Sizes and speed
//
// On the 336,863 games of the shared large corpus (pgnmentor players) the
// index adds 15.8 MiB to a 187.5 MiB store (8.4%, du's blocks): summaries
// 10.5 MiB (31 bytes a game before compression), player posting lists
// 3.2 MiB (120 k lists, 674 k postings), player names 1.2 MiB (31 k
// spellings), events and sites 1.3 MiB; and 3-5% to the build's CPU time
// (the entry is made while the worker has the game parsed, its first
// moves' numbers taken from the game record's coding). Names scans cost
// about 0.1 µs a spelling (players -name: 4 ms), a summary about 0.1 µs
// to read and 1-2 µs to replay; the README has the benchmarks.
package gamedb
