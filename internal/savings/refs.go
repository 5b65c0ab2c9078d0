package savings

import (
	"encoding/base64"
	"encoding/binary"
	"fmt"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/keys"
	"github.com/chessbook/chessbook/polyglot"
)

// encodeKey writes the project's position key (package keys: category
// byte and multi-table Huffman code, byte-padded).
func encodeKey(p *board.Position) (code, error) {
	k := keys.Encode(p)
	if k == nil {
		return code{}, fmt.Errorf("key: cannot encode %s", p.FEN())
	}
	return padded(k), nil
}

// decodeKey reads a key (keys.Decode).
func decodeKey(c code) (board.Position, error) {
	if err := wholeBytes("key", c); err != nil {
		return board.Position{}, err
	}
	p, err := keys.Decode(c.Bytes)
	if err != nil {
		return board.Position{}, fmt.Errorf("key: %w: %v", errCorrupt, err)
	}
	return p, nil
}

// encodeKeyText writes the key as URL-safe base64 text (keys.Text), one
// byte per character: the key's answer to seed 004's short-URL idea.
func encodeKeyText(p *board.Position) (code, error) {
	c, err := encodeKey(p)
	if err != nil {
		return code{}, err
	}
	return padded([]byte(keys.Text(c.Bytes))), nil
}

// decodeKeyText reads a code written by encodeKeyText.
func decodeKeyText(c code) (board.Position, error) {
	if err := wholeBytes("keytext", c); err != nil {
		return board.Position{}, err
	}
	b, err := base64.RawURLEncoding.DecodeString(string(c.Bytes))
	if err != nil {
		return board.Position{}, fmt.Errorf("keytext: %w: %v", errCorrupt, err)
	}
	return decodeKey(padded(b))
}

// zobristKey returns the 64-bit Polyglot Zobrist key of p with the
// en-passant file counted only when a capture is legal (the position
// identity; PolyGlot itself counts it whenever a pawn stands beside).
func zobristKey(p *board.Position) uint64 {
	q := normalize(p)
	return polyglot.Key(&q)
}

// zobrist2 is the second half of the 128-bit hash: 781 Zobrist numbers
// (768 piece-squares, 4 castling rights, 8 en-passant files, White to
// move) drawn from splitmix64 with a fixed seed. Built once, only read.
var zobrist2 = func() [781]uint64 {
	var t [781]uint64
	x := uint64(0x63686573736b6f6f) // "chessboo"
	for i := range t {
		x += 0x9e3779b97f4a7c15
		z := x
		z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
		z = (z ^ z>>27) * 0x94d049bb133111eb
		t[i] = z ^ z>>31
	}
	return t
}()

// zobrist2Key returns the second 64 bits of the 128-bit hash of p.
func zobrist2Key(p *board.Position) uint64 {
	var k uint64
	for b := p.Occupied(); b != 0; {
		s := b.PopLSB()
		k ^= zobrist2[64*pieceIndex(p.PieceAt(s))+int(s)]
	}
	for i, c := range corners {
		if p.Castling()&c.right != 0 {
			k ^= zobrist2[768+i]
		}
	}
	if ep := p.LegalEPSquare(); ep != board.NoSquare {
		k ^= zobrist2[772+ep.File()]
	}
	if p.SideToMove() == board.White {
		k ^= zobrist2[780]
	}
	return k
}

// hash128 returns the 128-bit hash of p: its Polyglot key (zobristKey)
// followed by a second, independent 64-bit Zobrist key.
func hash128(p *board.Position) [2]uint64 {
	q := normalize(p)
	return [2]uint64{polyglot.Key(&q), zobrist2Key(&q)}
}

// encodeZobrist writes zobristKey(p) as 8 bytes, big-endian. It is lossy:
// there is no decoder.
func encodeZobrist(p *board.Position) (code, error) {
	return padded(binary.BigEndian.AppendUint64(nil, zobristKey(p))), nil
}

// encodeHash128 writes hash128(p) as 16 bytes. It is lossy.
func encodeHash128(p *board.Position) (code, error) {
	h := hash128(p)
	b := binary.BigEndian.AppendUint64(nil, h[0])
	return padded(binary.BigEndian.AppendUint64(b, h[1])), nil
}
