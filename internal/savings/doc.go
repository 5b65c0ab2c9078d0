// Package savings measures storage savings: every position, move and game
// encoding described in the project's seed documents (../shared/seeds),
// implemented here, next to the project's own codes (package keys for
// positions, package gamecode for games), on real games, with the seeds'
// own figures checked. `bookbuild savings INPUT...` measures PGN files and
// `bookquery -db DIR savings` a store; both print a Report (text, Markdown
// or JSON) and can draw an SVG chart of the distributions.
//
// # What is measured
//
// From PGN (FromPGN), every position a game reaches before a move (the
// positions a book records: the final position of a game is not one), each
// occurrence once, and every move. From a store (FromStore), every stored
// position weighted by its games (the sum of its moves' games, counted as
// the store counts them), and every position-move entry weighted by its
// games. Sizes are in bits. Medians and percentiles come from fixed
// histograms (1 or 1/8 bit wide), not from stored samples, so memory does
// not grow with the corpus; means and maxima are exact. Bands split the
// figures by ply (0-10, 11-20, 21-40, 41-80, 81+; from a store, the lowest
// ply its moves were recorded at) or by the men on the board.
//
// Distinct positions and position-move entries are counted exactly with
// distinct, a set of the positions' keys indexed by their Polyglot key, so
// that the collisions of the Polyglot key and of the 128-bit hash among
// the distinct positions are found on the way (a store's positions are
// distinct already: their Polyglot keys are sorted and compared).
//
// # The position identity
//
// Every lossless position code here keeps at least the position identity
// the store uses: the placement, the side to move, the castling rights,
// and the en-passant square only when an en-passant capture is legal (FEN
// and PGN write it after every double step; normalize drops it otherwise).
// Codes whose seed includes the fifty-move counter keep min(clock, 100),
// FEN keeps both clocks. Every code has an Encode and a Decode function
// and a round-trip test over real positions.
//
// # The encodings, and the choices made where a seed is open
//
//   - fen (seed 000): FEN text, both clocks, one byte per character.
//   - nibbles (002, "simple contents"): 64 squares x 4 bits, a1 first. The
//     three values 13 pieces leave free carry what the seed suggests they
//     could: a pawn that has just double-stepped (only when the en-passant
//     capture is legal), a king and a rook that keep a castling right; plus
//     one bit for the side to move: 257 bits always.
//   - base13, varbase (002): the board as one number, square a1 the most
//     significant digit; base 13 (237 bits), or 11 values on ranks 1 and 8
//     and 13 elsewhere (233 bits). These, huffman002 and pieces encode the
//     board only in the seed; they get the common state suffix, seed 000's
//     rules: side to move (1 bit), one bit per castling right whose king
//     and rook stand on their home squares ("need be stored if the board
//     appears to allow such castling"), and, when the board shows
//     en-passant candidates (a pawn of the side not to move on its fourth
//     rank beside a pawn of the side to move, the two squares behind it
//     empty), 3 bits: 0 for none or the candidate's index.
//   - stream (000): a 16-bit header ("two bytes for the 50-move rule and
//     such things": side 1, castling 4, en-passant file + 1 in 4, clock 7),
//     then a nibble per man (0-11), 12-14 for 1-3 empty squares, 15 and a
//     nibble for 4-19; longer gaps split greedily; the trailing gap is
//     written.
//   - huffman000 (000, basic Huffman): a 15-bit header (side 1, clock 7,
//     castling 4, en-passant candidate index 3), then the squares a1..h8
//     with empty 0, pawn 10c, bishop 1100c, knight 1101c, rook 1110c,
//     queen 11110c, king 11111c (c = 1 for White), trailing empty squares
//     omitted and a last man omitted when it is a king. The seed also
//     makes the castling and en-passant bits depend on the board; both
//     cannot hold with the end of the board left implicit, so the header
//     is fixed and the code's exact length is kept (code.Bits), as the
//     omissions need. The seed's 204-bit bound counts the same 15 bits.
//   - huffman002 (002): seed 002's frequency-weighted table (its lengths
//     equal seed 000's, so the board sizes are the same), all 64 squares,
//     then the common state suffix.
//   - finetuned (000, Huffman fine-tuning): the basic header, both kings as
//     6-bit squares taken out of the scan (runs of empty squares join
//     across them; the queen becomes 1111c), a selector bit between one
//     bit per empty square and the compact run codes (one square 0, 2-9
//     squares 00nnn, 10-41 squares 00nnn0nn: the seed's "if another zero
//     follows, the number is extended by two bits"; longer runs split at
//     41), a 4-bit count of the men of the first colour met, after whose
//     last man the colour bits are left out, trailing empty squares
//     omitted. Not taken: the "maximum count reached" colour rule and the
//     pawnless piece table (keys/FORMAT.md measured the latter: worse).
//   - pieces (002, piece positions): per side the king (6 bits), a
//     has-pawns bit, the pawn count - 1 (3 bits) and the pawn squares as
//     one base-48 number (ceil(log2 48^n) bits, 45 for eight), the count of
//     other men (4 bits) and each as a 2-bit type and a 6-bit square; then
//     the common state suffix. The seed's refinements (ordered placements
//     skipping occupied squares) are checked as claims only.
//   - static (004): 32 chunks of 6 bits in the seed's kind order (pawns,
//     rooks, bishops, knights, queen, king; White's men of a kind first),
//     a captured man on its own king's square; positions with more men of
//     a kind than the initial set (promotions) cannot be written and are
//     counted as such. The seed gives the state only to the dynamic
//     method; the static one gets the same fields (en passant 1 or 7 bits,
//     castling 4, side 1) to be a whole position.
//   - dynamic (004): per kind and colour the Alive Bits (4 for pawns, 2 for
//     rooks, bishops and knights, 1 for queens and kings) and the squares;
//     then en passant (flag, and the square when a capture is legal),
//     castling (4) and side (1). dynamic85: that code zero-padded to bytes
//     as base85 text with the RFC 1924 alphabet and Python's b85encode
//     rule for a short last group (the seed's implementation is Python;
//     its printed strings cannot come from any one alphabet, so only their
//     lengths are compared).
//   - key, keytext (ours): the project's multi-table key (keys.Append) and
//     its URL-safe base64 text (keys.Text).
//   - zobrist64, hash128 (lossy references): the Polyglot key, and that key
//     followed by a second 64-bit Zobrist key from fixed random numbers.
//     Both count the en-passant file only when a capture is legal, so that
//     they are functions of the position identity; their collisions among
//     the distinct positions are counted.
//
// Move codes (per move, without the game's framing): san (the SAN with a
// separator byte, seed 002's "terminating byte"), fromto (12 bits, 2 more
// for a promotion's piece), legalindex (the move's index among the legal
// moves in the board package's generation order, in ceil(log2 n) bits),
// legalradix (the same indexes as one variable-base number per game:
// log2 n per move). Game codes, per game: gamecode (gamecode.AppendGame on
// the game with its tags removed: the store's move bytes, with its
// version, result, start and ply count, in the default Indexed coding),
// gamecode-ranked (the same in the Ranked coding), zstd-game (each game's SAN text,
// one zstd frame, default level, no checksum), zstd-stream (all the SAN
// text of a worker as one stream: a total only) and the input file as
// given (a total only).
//
// # The summary
//
// Summarize answers 'bookquery savings' without reading the whole store:
// from a sample of its games (the first in id order), each replayed under
// the store's counting rule, it estimates the positions and position-moves
// (each counted position adds 1/its games, each move 1/its games), the
// games as PGN and under zstd, and the weighted means of the key and FEN
// sizes, with 95% margins; exact, and equal to FromStore's figures, when
// the sample is every game. FromStore keeps its memory bounded: the
// hashes for the collision counts are spilled to temporary files past an
// eighth of Options.Memory (hashspill.go).
//
// # Speed
//
// FromPGN runs on ingest.Run's parallel pipeline with one accumulator per
// worker, merged at the end. Sizes are computed by functions that do not
// build the codes (a test checks them against the encoders on real
// positions). A game met twice (the players corpus holds most games twice)
// is coded once by the game codes (gameCache). The game code is the
// costliest measurement; Options.GamecodeEvery samples it.
package savings
