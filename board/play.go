package board

// Play makes the move m, which must be legal in p (as produced by
// LegalMoves, ParseSAN or ParseUCI, or checked with IsLegal), updating the
// board, castling rights (lost when the king moves, or when the castling
// rook moves or is captured on its square), the en-passant square (set
// after every double pawn step), the clocks (saturating at 65535) and the
// side to move. Copy the Position beforehand to be able to undo. Playing an illegal move leaves p in an unspecified state
// but never panics.
func (p *Position) Play(m Move) {
	if m.Kind() == MoveCastling {
		p.playCastling(m)
		return
	}
	from, to := m.From(), m.To()
	us := p.side & 1
	them := us ^ 1
	pc := p.squares[from]
	pt := pc.Type()
	fromBB := Bitboard(1) << from
	toBB := Bitboard(1) << to

	if p.halfmove < 65535 {
		p.halfmove++
	}
	ep := NoSquare

	if captured := p.squares[to]; captured != NoPiece {
		p.byType[captured.Type()&7] &^= toBB
		p.byColor[captured.Color()&1] &^= toBB
		p.halfmove = 0
	}
	moveBB := fromBB | toBB
	p.byColor[us] ^= moveBB
	p.squares[from] = NoPiece

	switch m.Kind() {
	case MoveNormal:
		p.byType[pt&7] ^= moveBB
		p.squares[to] = pc
		if pt == Pawn {
			p.halfmove = 0
			if from^to == 16 {
				ep = (from + to) / 2
			}
		}
	case MovePromotion:
		promo := m.Promotion()
		p.byType[Pawn] &^= fromBB
		p.byType[promo] |= toBB
		p.squares[to] = MakePiece(us, promo)
		p.halfmove = 0
	case MoveEnPassant:
		capsq := to ^ 8
		capBB := Bitboard(1) << capsq
		p.byType[Pawn] ^= moveBB | capBB
		p.byColor[them] &^= capBB
		p.squares[capsq] = NoPiece
		p.squares[to] = pc
		p.halfmove = 0
	}

	if p.castling != 0 {
		if p.mode == CastlingStandard {
			p.castling &= castleKeep[from] & castleKeep[to]
		} else {
			p.castling &= p.castleKeep960(from, to)
		}
	}
	p.ep = ep
	if us == Black && p.fullmove < 65535 {
		p.fullmove++
	}
	p.side = them
}
