// Package gamecode stores chess games compactly, each game a record that
// decodes on its own: AppendGame codes a pgn.Game, DecodeGame gets it
// back, pgn.Append prints it as standard PGN. (Packing records into
// zstd-compressed blocks was measured and not kept.)
//
// Two codings of the moves exist (Coding): Indexed, the default, codes
// each move as its number among the legal moves of its position; Ranked
// codes it with a trained move model, in 10-20% less space with the tags
// (3.44 bits per move against about 4.8 on the shared large corpus) and at
// about 2.5 times the cost. Everything else in a record is the same. The
// version byte tells them apart, so DecodeGame reads both and a store may
// hold both.
//
// # Record format (Version 2: Ranked; Version 3: Indexed)
//
// A record is one version byte followed by the output of a range coder
// (LZMA-style, 32-bit, carries through a cached byte; the always-zero first
// byte and up to 4 trailing zero bytes are not stored, the decoder reads
// zeros past the end). Symbols are coded with static frequencies: the tag
// models and the move model's weights are frozen in
// internal/gamemodel/tables_gen.go (trained on shared/data/medium and small
// by internal/measure -gen, see there; the model itself is in
// internal/gamemodel, the legal moves come from board.MoveSets):
// nothing in the format depends on data seen at run time, and any change
// to the tables, to the tag list or to the move model needs a new Version.
// In coding order:
//
//   - header: result (0-4, as pgn.Result) + 5 if the game starts from a
//     FEN, one of 10 equiprobable symbols;
//   - tags, in input order: a name symbol (one of the knownTags, or
//     "literal" followed by the name as text, or "end"); then the value as
//     text, with a byte model chosen by the tag (player, date, number,
//     code, other text) and by the class of the previous byte (order-1 over
//     10 byte classes), ended by an end symbol. A Result tag whose value is
//     a result token is coded as that token's number (1-4) instead of text;
//   - only for games starting from a FEN: one bit, 1 when the start
//     position's FEN equals the first FEN tag's value, else 0 followed by
//     the FEN as text;
//   - the ply count: its bit length (static table), then the bits below
//     the leading one;
//   - Version 3 (Indexed): each move as its number i among the n legal
//     moves of its position, one of n equiprobable symbols (nothing when
//     n is 1). The moves are numbered in groups (indexed.go): the king's
//     moves; each knight's, then bishop's, rook's and queen's moves (the
//     pieces of a kind by square); the moves of the pawns that are not
//     pinned by kind (pushes, double pushes, captures toward file a, then
//     toward file h); the pinned pawns' moves by square; en passant by the
//     capturing pawn's square. Within a group by destination square (a1,
//     b1, ..., h8); castling is the king's move two squares sideways; a
//     promotion counts as four moves (queen, rook, bishop, knight);
//   - Version 2 (Ranked): each move, in two choices (gamemodel/scorer.go): first which piece moves,
//     among our pieces other than pawns that have a legal move (king,
//     knights, bishops, rooks, queens, each kind by square) and, last,
//     "a pawn" when a pawn has one; then which of that piece's legal moves
//     is played (by destination square, castling last; for "a pawn" every
//     legal pawn move: pushes, double pushes, captures to either side,
//     promotions, pinned pawns' moves and en passant, in that order; a
//     promotion counts as four moves). Each option gets a score, the sum
//     of the integer weights of a few cheap features (piece-square tables
//     by game phase, the least valuable attacker and the defence of the
//     origin and of the destination, the most valuable piece it can take,
//     checks, mobility, recaptures, threats of pawns and knights, castling
//     and promotions), and the option is coded with frequency
//     expTab[best score - its score] (proportional to exp(-difference/64),
//     the best option 4096, at least 1; halved while the total would reach
//     2^16). A choice with a single option costs nothing.
package gamecode
