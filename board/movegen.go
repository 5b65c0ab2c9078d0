package board

// MaxMoves is a safe capacity for a legal-move buffer: no legal chess
// position has more than 218 moves. LegalMoves does not allocate when
// cap(dst)-len(dst) >= MaxMoves.
const MaxMoves = 256

// LegalMoves appends every legal move of the side to move to dst and
// returns the extended slice. It allocates nothing when dst has room for
// MaxMoves more moves. The order of the moves is unspecified but
// deterministic.
func (p *Position) LegalMoves(dst []Move) []Move {
	us := p.side & 1
	them := us ^ 1
	ours := p.byColor[us]
	theirs := p.byColor[them]
	occ := ours | theirs
	ksq := p.KingSquare(us)
	if ksq >= NoSquare {
		return dst
	}
	checkers := p.attackers(ksq, occ) & theirs

	// King moves: the destination must not be attacked once the king has
	// left its square (so it cannot hide behind itself from a slider).
	occNoKing := occ &^ ksq.Bitboard()
	for t := kingAttacks[ksq] &^ ours; t != 0; {
		to := t.PopLSB()
		if !p.attackedBy(to, them, occNoKing, ^Bitboard(0)) {
			dst = append(dst, NewMove(ksq, to))
		}
	}
	if checkers.Several() {
		return dst // double check: only king moves
	}

	// target: squares a non-king move may go to.
	target := ^ours
	if checkers != 0 {
		target = betweenBB[ksq][checkers.LSB()] | checkers
	}
	pinned := p.pinned(us, ksq)

	for b := p.byType[Knight] & ours &^ pinned; b != 0; {
		from := b.PopLSB()
		for t := knightAttacks[from] & target; t != 0; {
			dst = append(dst, NewMove(from, t.PopLSB()))
		}
	}
	for b := (p.byType[Bishop] | p.byType[Queen]) & ours; b != 0; {
		from := b.PopLSB()
		t := bishopAtt(from, occ) & target
		if pinned&(1<<from) != 0 {
			t &= lineBB[ksq][from]
		}
		for t != 0 {
			dst = append(dst, NewMove(from, t.PopLSB()))
		}
	}
	for b := (p.byType[Rook] | p.byType[Queen]) & ours; b != 0; {
		from := b.PopLSB()
		t := rookAtt(from, occ) & target
		if pinned&(1<<from) != 0 {
			t &= lineBB[ksq][from]
		}
		for t != 0 {
			dst = append(dst, NewMove(from, t.PopLSB()))
		}
	}

	dst = p.pawnMoves(dst, us, ksq, occ, theirs, target, pinned)

	if checkers == 0 && p.castling != 0 {
		for i := 2 * int(us); i < 2*int(us)+2; i++ {
			ci := p.castle(i)
			if p.castlePossible(1<<i, ci, ksq, occ) && p.castleSafe(ci, them, occ) {
				dst = append(dst, p.castleMove(ci))
			}
		}
	}
	return dst
}

// appendPawnMoves appends moves for every destination in t, the origin
// being to-delta; destinations on the last rank become four promotions.
func appendPawnMoves(dst []Move, t Bitboard, delta int) []Move {
	for b := t &^ (Rank1 | Rank8); b != 0; {
		to := b.PopLSB()
		dst = append(dst, NewMove(Square(int(to)-delta), to))
	}
	for b := t & (Rank1 | Rank8); b != 0; {
		to := b.PopLSB()
		dst = appendPromotions(dst, Square(int(to)-delta), to)
	}
	return dst
}

func appendPromotions(dst []Move, from, to Square) []Move {
	m := NewMove(from, to) | MovePromotion
	return append(dst, m|Move(Queen-Knight)<<12, m|Move(Rook-Knight)<<12, m|Move(Bishop-Knight)<<12, m)
}

// pawnMoves appends the legal pawn moves.
func (p *Position) pawnMoves(dst []Move, us Color, ksq Square, occ, theirs, target, pinned Bitboard) []Move {
	pawns := p.byType[Pawn] & p.byColor[us]
	sets := pawnSets(us, pawns&^pinned, occ, theirs)
	for k, t := range sets {
		dst = appendPawnMoves(dst, t&target, int(pawnSteps[us][k]))
	}

	// Pinned pawns may only move along the pin line.
	for b := pawns & pinned; b != 0; {
		from := b.PopLSB()
		line := lineBB[ksq][from] & target
		dst = p.appendPawnFrom(dst, us, from, occ, theirs, line)
	}

	if p.ep < NoSquare {
		for b := pawnAttacks[us^1][p.ep] & pawns; b != 0; {
			from := b.PopLSB()
			if p.epLegal(from, ksq) {
				dst = append(dst, NewMove(from, p.ep)|MoveEnPassant)
			}
		}
	}
	return dst
}

// pawnDests returns the non-en-passant destinations of the pawn of colour
// us on from (pushes and captures), restricted to mask.
func pawnDests(us Color, from Square, occ, theirs Bitboard) Bitboard {
	var t Bitboard
	fb := from.Bitboard()
	if us == White {
		single := (fb << 8) &^ occ
		t = single | ((single&Rank3)<<8)&^occ
	} else {
		single := (fb >> 8) &^ occ
		t = single | ((single&Rank6)>>8)&^occ
	}
	return t | pawnAttacks[us][from]&theirs
}

func (p *Position) appendPawnFrom(dst []Move, us Color, from Square, occ, theirs, mask Bitboard) []Move {
	for t := pawnDests(us, from, occ, theirs) & mask; t != 0; {
		to := t.PopLSB()
		if (Rank1|Rank8)&(1<<to) != 0 {
			dst = appendPromotions(dst, from, to)
		} else {
			dst = append(dst, NewMove(from, to))
		}
	}
	return dst
}

// HasLegalMove reports whether the side to move has at least one legal move.
func (p *Position) HasLegalMove() bool {
	var buf [MaxMoves]Move
	return len(p.LegalMoves(buf[:0])) > 0
}

// IsCheckmate reports whether the side to move is checkmated.
func (p *Position) IsCheckmate() bool { return p.InCheck() && !p.HasLegalMove() }

// IsStalemate reports whether the side to move is stalemated.
func (p *Position) IsStalemate() bool { return !p.InCheck() && !p.HasLegalMove() }

// IsLegal reports whether m is a legal move in p, encoded exactly as
// LegalMoves would produce it (castling with kind MoveCastling, as the
// king's two-square move in standard positions and king takes own rook in
// Chess960 ones, en passant with kind MoveEnPassant).
func (p *Position) IsLegal(m Move) bool {
	from, to := m.From(), m.To()
	us := p.side & 1
	pc := p.squares[from]
	if pc == NoPiece || pc.Color() != us {
		return false
	}
	ksq := p.KingSquare(us)
	if ksq >= NoSquare {
		return false
	}
	kind := m.Kind()
	if kind != MovePromotion && m&(3<<12) != 0 {
		return false
	}
	pt := pc.Type()
	occ := p.Occupied()
	if kind == MoveCastling {
		if pt != King {
			return false
		}
		// m must be castleMove: To is the king's destination, or in
		// Chess960 its own rook (the one move onto an own piece).
		i := p.castleOf(m)
		ci := p.castle(i)
		if m != p.castleMove(ci) || !p.castlePossible(1<<i, ci, from, occ) {
			return false
		}
		return !p.attackedBy(from, us^1, occ, ^Bitboard(0)) && p.castleSafe(ci, us^1, occ)
	}
	if p.byColor[us]&(1<<to) != 0 {
		return false
	}
	theirs := p.byColor[us^1]
	switch kind {
	case MoveEnPassant:
		return pt == Pawn && to == p.ep && pawnAttacks[us][from]&(1<<to) != 0 && p.epLegal(from, ksq)
	case MovePromotion:
		if pt != Pawn || (Rank1|Rank8)&(1<<to) == 0 || pawnDests(us, from, occ, theirs)&(1<<to) == 0 {
			return false
		}
	default:
		if pt == Pawn {
			if (Rank1|Rank8)&(1<<to) != 0 || pawnDests(us, from, occ, theirs)&(1<<to) == 0 {
				return false
			}
		} else if attacksOf(pt, from, occ)&(1<<to) == 0 {
			return false
		}
	}
	return p.legalAfter(from, to, ksq)
}

// legalAfter reports whether moving our piece from -> to (a normal move,
// capture or promotion; not en passant or castling) leaves our king safe.
// ksq is our king's square before the move.
func (p *Position) legalAfter(from, to, ksq Square) bool {
	toBB := Bitboard(1) << to
	occ := (p.Occupied() &^ (1 << from)) | toBB
	if from == ksq {
		return !p.attackedBy(to, p.side^1, occ, ^toBB)
	}
	return !p.attackedBy(ksq, p.side^1, occ, ^toBB)
}

// Perft counts the leaf nodes of the legal move tree of the given depth
// (1 for depth 0), the standard move-generator test.
func (p *Position) Perft(depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	var buf [MaxMoves]Move
	moves := p.LegalMoves(buf[:0])
	if depth == 1 {
		return uint64(len(moves))
	}
	var n uint64
	var q Position // declared outside the loop so that it stays on the stack
	for _, m := range moves {
		q = *p
		q.Play(m)
		n += q.Perft(depth - 1)
	}
	return n
}
