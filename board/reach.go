package board

import "math/bits"

// Reach is what a position needs of the positions it can be reached from:
// moves never add pieces, never bring a pawn back to its starting rank,
// never give back a castling right. A replay that looks for a position
// (book.GamesThrough, the export's replay in input order, and the game
// database's search, package gamedb) stops a game once its position can no
// longer lead to it: this is the one rule they share.
type Reach struct {
	pieces   [2]int      // pieces of each colour
	pawns    [2]int      // pawns of each colour
	home     [2]Bitboard // pawns on their starting rank, by colour
	castling CastlingRights
}

// NewReach returns what position p needs of the positions it can be
// reached from.
func NewReach(p *Position) Reach {
	r := Reach{castling: p.Castling()}
	for c := White; c <= Black; c++ {
		r.pieces[c] = bits.OnesCount64(uint64(p.ByColor(c)))
		pawns := p.Pieces(c, Pawn)
		r.pawns[c] = bits.OnesCount64(uint64(pawns))
	}
	r.home[White] = p.Pieces(White, Pawn) & Rank2
	r.home[Black] = p.Pieces(Black, Pawn) & Rank7
	return r
}

// ReachableFrom reports whether the target might be reached from q: false
// means no sequence of moves leads from q to it.
func (r Reach) ReachableFrom(q *Position) bool {
	if q.Castling()&r.castling != r.castling {
		return false
	}
	wp, bp := q.Pieces(White, Pawn), q.Pieces(Black, Pawn)
	if wp&r.home[White] != r.home[White] || bp&r.home[Black] != r.home[Black] {
		return false
	}
	return bits.OnesCount64(uint64(wp)) >= r.pawns[White] && bits.OnesCount64(uint64(bp)) >= r.pawns[Black] &&
		bits.OnesCount64(uint64(q.ByColor(White))) >= r.pieces[White] &&
		bits.OnesCount64(uint64(q.ByColor(Black))) >= r.pieces[Black]
}
