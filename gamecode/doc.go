// Package gamecode stores chess games compactly, each game a record that
// decodes on its own: AppendGame codes an ingested game, DecodeGame gets it
// back, Game.PGN prints it as standard PGN. BlockCodec optionally packs
// records into zstd-compressed blocks.
//
// # Record format (Version 1)
//
// A record is one version byte followed by the output of a range coder
// (LZMA-style, 32-bit, carries through a cached byte; the always-zero first
// byte and up to 4 trailing zero bytes are not stored, the decoder reads
// zeros past the end). Every symbol is coded with a static frequency table
// frozen in tables_gen.go (trained on shared/data/medium by
// internal/measure -gen): nothing in the format depends on data seen at run
// time, and any change to the tables, to the tag list or to the move
// ordering heuristic needs a new Version. In coding order:
//
//   - header: result (0-4, as ingest.Result) + 5 if the game starts from a
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
//   - each move: the legal moves are generated (board.LegalMoves) and
//     scored with a cheap deterministic heuristic (captures by expected
//     material gain with a static exchange guess from the least valuable
//     attacker, recaptures, queen promotions, castling, direct checks,
//     threats on enemy pieces worth more or undefended, saving an
//     attacked piece, piece-square deltas, retreats and king
//     walks penalised); ties keep the generation order. The rank of the
//     played move in that order is coded with one of 18 static tables,
//     chosen by the number of legal moves (6 buckets) and by how far the
//     best score leads the second (3 classes), excluding ranks at or
//     above the number of legal moves. Forced moves cost nothing.
package gamecode
