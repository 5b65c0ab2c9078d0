// Package keys codes chess positions as compact, lossless, canonical byte
// strings: the keys of the position store.
//
// A key is one category byte (package multitable: the state of the four rook
// home squares, which implies the castling rights, the rooks at home and,
// where a side keeps a castling right, its king) followed by a Huffman-coded
// bit string: side to move, the king squares the category leaves open, a
// scan of the remaining squares in runs of empty squares and pieces with one
// code table per square, and the en-passant square only when an en-passant
// capture is legal; zero-padded to whole bytes. The exact bit format, the
// validity rules and golden keys are in FORMAT.md beside this file.
//
// Properties:
//   - Lossless: Decode(Encode(p)) is p with clocks 0 1 and the en-passant
//     square kept only if a capture onto it is legal.
//   - Canonical: a position has exactly one key, and Decode rejects every
//     other byte string, so equal keys mean equal positions and keys can be
//     compared as bytes. There are no hash collisions.
//   - Small: on the world champions' games a key takes 11.9 bytes on
//     average (11.1 in the first 40 plies), at most 22; MaxLen bounds every
//     valid position.
//   - Fast: Append encodes a position of a real game in about 130 ns (7M
//     keys/s per core) without allocating; Decode takes about 0.5 us.
//
// The Huffman tables are frozen constants (tables_gen.go, coded with the
// generic package huffman), built once from real games by
// keys/internal/gentables (go generate); keys/internal/measure prints the
// size figures.
package keys
