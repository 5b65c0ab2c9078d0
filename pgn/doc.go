// Package pgn reads and writes PGN (Portable Game Notation) and holds the
// project's game model.
//
// # Reading
//
// [Parser] is a streaming parser in the style of a SAX parser: it calls a
// [Visitor] for each part of each game (tags, main-line SAN tokens, the
// result) and builds nothing itself. It knows PGN's syntax and no chess
// rules: moves arrive as text, and replaying them (see package ingest) is
// the visitor's business. It is lenient in the ways real files need
// (Latin-1 text, glued move numbers, unbalanced quotes, odd line ends, ...)
// and, once warm, allocates nothing per game or move. [Splitter] cuts a
// stream into chunks of whole games at exactly the places where the Parser
// would begin a new game afresh, so that chunks can be parsed on several
// goroutines with the same callbacks as parsing the whole input at once.
// A game longer than its MaxGameSize (a tag or a comment of a gigabyte) it
// reads in pieces, with the same rules, drops and reports in its place
// ([GameTooLongError]), holding no more of it than that size; the games
// around it come whole. Binary data inside the stream (a damaged block) it
// cuts out and reports once in its place ([BinaryDataError]), with the
// game it cuts, keeping the games before and after it. [Read] is a Splitter feeding one Parser. [AppendUTF8] is the text
// conversion the Parser applies to tag values.
//
// # The game model
//
// [Game] is one game: tags, start position, main line ([board.Move]s) and
// [Result]. It is filled by the replay pipeline (ingest) and by the game
// store's decoder (gamecode), and is built for reuse: [Game.Reset] and
// [Game.AddTag] keep its storage, so that filling one Game per worker
// allocates nothing per game. [Game.Clone] makes a copy to keep.
//
// # Writing
//
// [Append] and [Writer] print a Game as standard PGN: its tags, then its
// moves in SAN with move numbers, in lines of at most 80 characters.
package pgn
