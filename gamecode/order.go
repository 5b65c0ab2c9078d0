package gamecode

import "github.com/chessbook/chessbook/board"

// pieceValue is the material value of each piece type in centipawns
// (indexed by board.PieceType; the king counts as nothing to capture).
var pieceValue = [8]int32{0, 100, 300, 310, 500, 900, 0, 0}

// leastAttacker returns the value of the least valuable piece of colour c
// attacking s (a king counts 2000), or 0 when none does.
func leastAttacker(p *board.Position, s board.Square, c board.Color) int32 {
	att := p.AttackersTo(s, c)
	if att == 0 {
		return 0
	}
	for t := board.Pawn; t <= board.Queen; t++ {
		if att&p.Pieces(c, t) != 0 {
			return pieceValue[t]
		}
	}
	return 2000
}

// attacksAfter returns the squares a piece of type pt (not a king) attacks
// after moving from from to to, with the board occupied as occ before the
// move.
func attacksAfter(pt board.PieceType, us board.Color, from, to board.Square, occ board.Bitboard) board.Bitboard {
	occ = occ&^(board.Bitboard(1)<<from) | board.Bitboard(1)<<to
	switch pt {
	case board.Pawn:
		return board.PawnAttacks(us, to)
	case board.Knight:
		return board.KnightAttacks(to)
	case board.Bishop:
		return board.BishopAttacks(to, occ)
	case board.Rook:
		return board.RookAttacks(to, occ)
	case board.Queen:
		return board.QueenAttacks(to, occ)
	}
	return 0
}

// threatBonus scores the attacks a piece makes from its new square on
// enemy pieces worth more than itself.
func threatBonus(pt board.PieceType, us board.Color, from, to board.Square, occ board.Bitboard, p *board.Position, them board.Color) int32 {
	att := attacksAfter(pt, us, from, to, occ) & p.ByColor(them) &^ p.Pieces(them, board.King)
	best := int32(0)
	for att != 0 {
		s := att.PopLSB()
		v := pieceValue[p.PieceAt(s).Type()] - pieceValue[pt]
		if p.AttackersTo(s, them) == 0 {
			v = pieceValue[p.PieceAt(s).Type()]
		}
		if v > best {
			best = v
		}
	}
	return best / wThreat
}

// Weights of the heuristic (part of the format).
const (
	wBack   = 8
	wCheck  = 90
	wThreat = 8
)

// givesDirectCheck reports whether a piece of type pt moving from from to
// to attacks the enemy king at ksq (discovered checks are not seen).
func givesDirectCheck(p *board.Position, pt board.PieceType, us board.Color, from, to, ksq board.Square, occ board.Bitboard) bool {
	if ksq >= board.NoSquare {
		return false
	}
	att := attacksAfter(pt, us, from, to, occ)
	return att.Has(ksq)
}

// centre returns how far s is from the centre: 0 for d4-e5, 3 for a
// corner file or rank, summed over file and rank (0..6).
func centre(s board.Square) int32 {
	f, r := int32(s&7), int32(s>>3)
	df := f - 4
	if f < 4 {
		df = 3 - f
	}
	dr := r - 4
	if r < 4 {
		dr = 3 - r
	}
	return df + dr
}

// pst is a small piece-square score, from the mover's point of view
// (rel is the rank seen from the mover: 0 = its back rank).
func pst(pt board.PieceType, s board.Square, rel int32, endgame bool) int32 {
	switch pt {
	case board.Pawn:
		f := int32(s & 7)
		v := rel * 2
		if f >= 2 && f <= 5 {
			v += rel * 8
		}
		return v
	case board.Knight:
		return -centre(s) * 12
	case board.Bishop:
		return -centre(s) * 6
	case board.Rook:
		return 0
	case board.Queen:
		return -centre(s) * 2
	case board.King:
		if endgame {
			return -centre(s) * 10
		}
		return -rel*20 - centre(s)*4
	}
	return 0
}

// scorer ranks the legal moves of positions with a cheap, deterministic
// heuristic: the better the score, the likelier the move. The format
// depends on it: changing a single weight changes every stored game.
type scorer struct {
	moves  [board.MaxMoves]board.Move
	scores [board.MaxMoves]int32
	order  [board.MaxMoves]uint8
}

// score fills s.moves and s.scores for p; last is the move that led to p
// (board.NullMove for the first ply).
func (s *scorer) score(p *board.Position, last board.Move) []board.Move {
	moves := p.LegalMoves(s.moves[:0])
	us := p.SideToMove()
	them := us.Other()
	endgame := (p.ByColor(board.White)|p.ByColor(board.Black)).Count()-
		(p.ByType(board.Pawn)).Count() <= 8
	theirKing := p.KingSquare(them)
	occ := p.Occupied()
	lastTo := board.NoSquare
	if last != board.NullMove {
		lastTo = last.To()
	}
	for i, m := range moves {
		from, to := m.From(), m.To()
		pt := p.PieceAt(from).Type()
		victim := p.PieceAt(to).Type()
		var sc int32
		switch m.Kind() {
		case board.MoveCastling:
			sc += 120
		case board.MovePromotion:
			if m.Promotion() == board.Queen {
				sc += 800
			} else {
				sc -= 600
			}
		case board.MoveEnPassant:
			victim = board.Pawn
		}
		relFrom, relTo := int32(from>>3), int32(to>>3)
		if us == board.Black {
			relFrom, relTo = 7-relFrom, 7-relTo
		}
		sc += pst(pt, to, relTo, endgame) - pst(pt, from, relFrom, endgame)
		gain := pieceValue[victim]
		if victim != board.NoPieceType && to == lastTo {
			sc += 150
		}
		fromBB := board.Bitboard(1) << from
		if pt == board.King {
			if m.Kind() != board.MoveCastling && !endgame {
				sc -= 40
			}
		} else {
			// Expected loss on the destination square.
			if a := leastAttacker(p, to, them); a != 0 {
				if p.AttackersTo(to, us)&^fromBB == 0 {
					gain -= pieceValue[pt]
				} else if a < pieceValue[pt] {
					gain -= pieceValue[pt] - a
				}
			}
			// A piece in danger on its square is saved by moving it.
			if gain >= 0 {
				if a := leastAttacker(p, from, them); a != 0 {
					if p.AttackersTo(from, us) == 0 {
						sc += pieceValue[pt] / 2
					} else if a < pieceValue[pt] {
						sc += (pieceValue[pt] - a) / 2
					}
				}
			}
		}
		sc += gain
		if gain >= 0 && pt != board.King {
			sc += threatBonus(pt, us, from, to, occ, p, them)
		}
		if relTo < relFrom && pt != board.Pawn && pt != board.King {
			sc -= (relFrom - relTo) * wBack
		}
		if givesDirectCheck(p, pt, us, from, to, theirKing, occ) && gain >= 0 {
			sc += wCheck
		}
		if victim != board.NoPieceType {
			sc += 30
		}
		s.scores[i] = sc
	}
	return moves
}

// better reports whether move i sorts before move j.
func (s *scorer) better(i, j int) bool {
	return s.scores[i] > s.scores[j] || (s.scores[i] == s.scores[j] && i < j)
}

// rank returns the rank of moves[idx] in the order (0 = best).
func (s *scorer) rank(n, idx int) int {
	r := 0
	for j := 0; j < n; j++ {
		if j != idx && s.better(j, idx) {
			r++
		}
	}
	return r
}

// atRank returns the index of the move of rank r among n scored moves.
func (s *scorer) atRank(n, r int) int {
	for i := 0; i < n; i++ {
		s.order[i] = uint8(i)
	}
	// Partial selection sort up to r: ranks are small on average.
	for k := 0; k <= r; k++ {
		best := k
		for j := k + 1; j < n; j++ {
			if s.better(int(s.order[j]), int(s.order[best])) {
				best = j
			}
		}
		s.order[k], s.order[best] = s.order[best], s.order[k]
	}
	return int(s.order[r])
}

// rankContext returns the context (which static rank table) for a ply
// with n scored legal moves: the number of moves, and how far the best
// move's score is ahead of the second best's.
func (s *scorer) rankContext(n int) int {
	b := n / 8
	if b > 5 {
		b = 5
	}
	best, second := int32(-1<<30), int32(-1<<30)
	for _, v := range s.scores[:n] {
		if v > best {
			best, second = v, best
		} else if v > second {
			second = v
		}
	}
	switch gap := best - second; {
	case gap >= gapHigh:
		b += 12
	case gap >= gapLow:
		b += 6
	}
	return b
}

// Bounds of the score-gap classes of rankContext.
const (
	gapLow  = 30
	gapHigh = 150
)

// numRankContexts is the number of rank tables.
const numRankContexts = 18
