package keys

import (
	"math/bits"

	"github.com/chessbook/chessbook/board"
)

// The position hash is a Zobrist hash over what a key codes: the XOR of one
// 64-bit word per piece on its square, one for Black to move, one per
// castling-rights value and one per file of a legal en-passant square. The
// words come from splitmix64 seeded with hashSeed, in the order of
// hashTables' fields (pieces by board.Piece, then squares; side; castling
// rights 0..15; en-passant files a..h): a fixed part of the store format
// (its single references are kept under it), see FORMAT.md.
const hashSeed = 0x63686573736b6579 // "chesskey"

// hashTables are the Zobrist words; built once at init, never written after.
type hashTables struct {
	piece    [16][64]uint64
	black    uint64
	castling [16]uint64
	ep       [8]uint64
}

var zobrist = newHashTables()

func newHashTables() *hashTables {
	t := &hashTables{}
	s := uint64(hashSeed)
	next := func() uint64 { // splitmix64
		s += 0x9e3779b97f4a7c15
		z := s
		z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
		z = (z ^ z>>27) * 0x94d049bb133111eb
		return z ^ z>>31
	}
	for pc := range t.piece {
		for sq := range t.piece[pc] {
			t.piece[pc][sq] = next()
		}
	}
	t.black = next()
	for i := range t.castling {
		t.castling[i] = next()
	}
	for i := range t.ep {
		t.ep[i] = next()
	}
	return t
}

// Hash returns the 64-bit position hash of p: positions with equal keys
// have equal hashes (it depends only on what the key codes: placement, side
// to move, castling rights and the en-passant square when a capture onto
// it is legal). Different positions may share a hash, rarely: a hash
// finds candidates, a key tells them apart. It is several times cheaper
// than Append, which is why the builder hashes every position it reaches
// and keys only those it must.
func Hash(p *board.Position) uint64 {
	hs := Hasher{pieces: piecesHash(p)}
	return hs.Hash(p)
}

// piecesHash is the pieces' part of Hash: a word per piece on its square.
func piecesHash(p *board.Position) uint64 {
	t := zobrist
	var h uint64
	for c := board.White; c <= board.Black; c++ {
		us := p.ByColor(c)
		for pt := board.Pawn; pt <= board.King; pt++ {
			tab := &t.piece[int(c)<<3|int(pt)]
			for b := uint64(p.ByType(pt) & us); b != 0; b &= b - 1 {
				h ^= tab[bits.TrailingZeros64(b)]
			}
		}
	}
	return h
}

// Equal reports whether p and q have the same key (the same placement,
// side to move, castling rights and legal en-passant square), without
// encoding either.
func Equal(p, q *board.Position) bool {
	if p.SideToMove() != q.SideToMove() || p.Castling() != q.Castling() ||
		p.ByColor(board.White) != q.ByColor(board.White) || p.ByColor(board.Black) != q.ByColor(board.Black) {
		return false
	}
	for t := board.Pawn; t <= board.King; t++ {
		if p.ByType(t) != q.ByType(t) {
			return false
		}
	}
	return p.LegalEPSquare() == q.LegalEPSquare()
}

// A Hasher computes Hash along a game incrementally: it keeps the pieces'
// part of the hash, which a move changes in two to four words, and adds
// the rest (side to move, castling rights, en-passant square) when asked.
// The zero Hasher must be Reset before use.
type Hasher struct {
	pieces uint64
}

// Reset starts the Hasher at position p.
func (hs *Hasher) Reset(p *board.Position) { hs.pieces = piecesHash(p) }

// Hash returns Hash(p), p being the position the Hasher was Reset at and
// then Played along to.
func (hs *Hasher) Hash(p *board.Position) uint64 {
	t := zobrist
	h := hs.pieces ^ t.castling[p.Castling()&15]
	if p.SideToMove() == board.Black {
		h ^= t.black
	}
	if p.EPSquare() != board.NoSquare {
		if ep := p.LegalEPSquare(); ep != board.NoSquare {
			h ^= t.ep[ep.File()]
		}
	}
	return h
}

// Play updates the Hasher for legal move m played from p: call it before
// p.Play(m).
func (hs *Hasher) Play(p *board.Position, m board.Move) {
	t := zobrist
	from, to := m.From(), m.To()
	pc := p.PieceAt(from) & 15
	h := hs.pieces ^ t.piece[pc][from]
	if c := p.PieceAt(to); c != board.NoPiece {
		h ^= t.piece[c&15][to]
	}
	switch m.Kind() {
	case board.MovePromotion:
		h ^= t.piece[int(pc)&8|int(m.Promotion())][to]
	case board.MoveEnPassant:
		h ^= t.piece[pc][to] ^ t.piece[pc^8][to^8]
	case board.MoveCastling:
		rook := pc&8 | board.Piece(board.Rook)
		h ^= t.piece[pc][to]
		if to > from { // king side: the rook goes from h to f
			h ^= t.piece[rook][from+3] ^ t.piece[rook][from+1]
		} else {
			h ^= t.piece[rook][from-4] ^ t.piece[rook][from-1]
		}
	default:
		h ^= t.piece[pc][to]
	}
	hs.pieces = h
}
