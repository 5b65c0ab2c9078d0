package savings

import (
	"encoding/base64"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/keys"
)

// keeps says what a decoded position has of the original.
type keeps string

// What the encodings keep. Every lossless encoding keeps at least the
// position identity: placement, side to move, castling rights, and the
// en-passant square when a capture is legal.
const (
	keepsPosition keeps = "position"                    // the identity only
	keepsHalfMove keeps = "position + fifty-move clock" // and min(half-move clock, 100)
	keepsClocks   keeps = "position + both clocks"      // and both clocks (FEN)
	keepsHash     keeps = "hash (lossy)"                // nothing: a hash
)

// positionEncoding is one way of writing a position down, as the report
// lists it.
type positionEncoding struct {
	ID    string // short name, used in the report and its JSON
	Name  string // what it is
	Seed  string // where it is described: "000", "002", "004" (the seed files), or "ours"
	Keeps keeps  // what a decoded position keeps
	// Encode writes p; Decode (nil for the hashes) reads the code back.
	Encode func(p *board.Position) (code, error)
	Decode func(c code) (board.Position, error)
	// bits returns the length of Encode's code of p without building it
	// (-1: not representable); a test checks it against Encode.
	bits func(p *board.Position, s *scratch) int
}

// Lossless reports whether the encoding can be decoded.
func (e *positionEncoding) Lossless() bool { return e.Decode != nil }

// scratch holds a measuring worker's buffers.
type scratch struct {
	key [keys.MaxLen]byte
}

// The indexes of the encodings in positionEncodings' list.
const (
	encFEN = iota
	encNibbles
	encBase13
	encVarBase
	encStream
	encHuffman000
	encHuffman002
	encFineTuned
	encPieces
	encStatic
	encDynamic
	encDynamic85
	encKey
	encKeyText
	encZobrist
	encHash128
	numPositionEncodings
)

// positionEncodings returns the position encodings the report compares,
// in its order. Each call returns a new list.
func positionEncodings() []positionEncoding {
	return []positionEncoding{
		encFEN: {ID: "fen", Name: "FEN text", Seed: "000", Keeps: keepsClocks,
			Encode: encodeFEN, Decode: decodeFEN,
			bits: func(p *board.Position, _ *scratch) int {
				q := normalize(p)
				return 8 * fenLen(&q)
			}},
		encNibbles: {ID: "nibbles", Name: "64 x 4-bit squares (+ side to move)", Seed: "002", Keeps: keepsPosition,
			Encode: encodeNibbles, Decode: decodeNibbles,
			bits: func(*board.Position, *scratch) int { return 257 }},
		encBase13: {ID: "base13", Name: "base 13 number + state", Seed: "002", Keeps: keepsPosition,
			Encode: encodeBase13, Decode: decodeBase13,
			bits: func(p *board.Position, _ *scratch) int { return base13BoardBits + state000Bits(p) }},
		encVarBase: {ID: "varbase", Name: "variable base 11/13 + state", Seed: "002", Keeps: keepsPosition,
			Encode: encodeVarBase, Decode: decodeVarBase,
			bits: func(p *board.Position, _ *scratch) int { return varBaseBoardBits + state000Bits(p) }},
		encStream: {ID: "stream", Name: "stream code (nibbles, gaps)", Seed: "000", Keeps: keepsHalfMove,
			Encode: encodeStream, Decode: decodeStream,
			bits: func(p *board.Position, _ *scratch) int { return streamBits(p) }},
		encHuffman000: {ID: "huffman000", Name: "Huffman, basic", Seed: "000", Keeps: keepsHalfMove,
			Encode: encodeHuffman000, Decode: decodeHuffman000,
			bits: func(p *board.Position, _ *scratch) int { return huffman000Bits(p) }},
		encHuffman002: {ID: "huffman002", Name: "Huffman, frequency table + state", Seed: "002", Keeps: keepsPosition,
			Encode: encodeHuffman002, Decode: decodeHuffman002,
			bits: func(p *board.Position, _ *scratch) int { return huffBoardBits(p) + state000Bits(p) }},
		encFineTuned: {ID: "finetuned", Name: "Huffman, fine-tuned", Seed: "000", Keeps: keepsHalfMove,
			Encode: encodeFineTuned, Decode: decodeFineTuned,
			bits: func(p *board.Position, _ *scratch) int { return fineTunedBits(p) }},
		encPieces: {ID: "pieces", Name: "piece positions + state", Seed: "002", Keeps: keepsPosition,
			Encode: encodePieces, Decode: decodePieces,
			bits: func(p *board.Position, _ *scratch) int { return piecesBoardBits(p) + state000Bits(p) }},
		encStatic: {ID: "static", Name: "static 192 bits + state", Seed: "004", Keeps: keepsPosition,
			Encode: encodeStatic, Decode: decodeStatic,
			bits: func(p *board.Position, _ *scratch) int { return staticBits(p) }},
		encDynamic: {ID: "dynamic", Name: "dynamic 42-228 bits", Seed: "004", Keeps: keepsPosition,
			Encode: encodeDynamic, Decode: decodeDynamic,
			bits: func(p *board.Position, _ *scratch) int { return dynamicBits(p) }},
		encDynamic85: {ID: "dynamic85", Name: "dynamic as base85 text", Seed: "004", Keeps: keepsPosition,
			Encode: encodeDynamic85, Decode: decodeDynamic85,
			bits: func(p *board.Position, _ *scratch) int {
				n := dynamicBits(p)
				if n < 0 {
					return -1
				}
				return 8 * base85Len((n+7)/8)
			}},
		encKey: {ID: "key", Name: "our multi-table key (keys)", Seed: "ours", Keeps: keepsPosition,
			Encode: encodeKey, Decode: decodeKey,
			bits: func(p *board.Position, s *scratch) int { return 8 * len(keys.Append(s.key[:0], p)) }},
		encKeyText: {ID: "keytext", Name: "our key as URL-safe base64", Seed: "ours", Keeps: keepsPosition,
			Encode: encodeKeyText, Decode: decodeKeyText,
			bits: func(p *board.Position, s *scratch) int {
				return 8 * base64.RawURLEncoding.EncodedLen(len(keys.Append(s.key[:0], p)))
			}},
		encZobrist: {ID: "zobrist64", Name: "Polyglot Zobrist key", Seed: "ours", Keeps: keepsHash,
			Encode: encodeZobrist,
			bits:   func(*board.Position, *scratch) int { return 64 }},
		encHash128: {ID: "hash128", Name: "128-bit Zobrist hash", Seed: "ours", Keeps: keepsHash,
			Encode: encodeHash128,
			bits:   func(*board.Position, *scratch) int { return 128 }},
	}
}
