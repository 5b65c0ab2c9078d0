package board

// Valid reports whether pc is NoPiece or one of the twelve pieces.
func (pc Piece) Valid() bool {
	t := pc & 7
	return pc == NoPiece || (pc>>3 <= 1 && t >= Piece(Pawn) && t <= Piece(King))
}

// pieceLetters maps a Piece to its FEN letter.
const pieceLetters = " PNBRQK  pnbrqk"

// String returns the piece's FEN letter ("P", "n", ...) or "." for NoPiece
// (and "?" for an invalid value).
func (pc Piece) String() string {
	if pc == NoPiece {
		return "."
	}
	if !pc.Valid() {
		return "?"
	}
	return pieceLetters[pc : pc+1]
}

// String returns the piece type's upper-case SAN letter ("P" for a pawn,
// "" for NoPieceType and invalid values).
func (t PieceType) String() string {
	if t < Pawn || t > King {
		return ""
	}
	return pieceLetters[t : t+1]
}

// StartPosition returns the standard initial position.
func StartPosition() Position {
	var p Position
	p.Clear()
	back := [8]PieceType{Rook, Knight, Bishop, Queen, King, Bishop, Knight, Rook}
	for f := 0; f < 8; f++ {
		p.Put(MakeSquare(f, 0), MakePiece(White, back[f]))
		p.Put(MakeSquare(f, 1), WhitePawn)
		p.Put(MakeSquare(f, 6), BlackPawn)
		p.Put(MakeSquare(f, 7), MakePiece(Black, back[f]))
	}
	p.castling = WhiteKingSide | WhiteQueenSide | BlackKingSide | BlackQueenSide
	return p
}

// Clear empties the board and resets the state to: white to move, no
// castling rights, standard castling mode and setup, no en-passant square,
// clocks 0 and 1.
func (p *Position) Clear() {
	*p = Position{ep: NoSquare, fullmove: 1}
}

// Put places pc on s, replacing whatever stood there; NoPiece empties the
// square. It does not check the resulting position (see Validate). Put
// panics if s is not a square (s >= 64) or pc is not valid (see
// Piece.Valid); callers decoding untrusted data should check Valid first.
func (p *Position) Put(s Square, pc Piece) {
	if s >= NoSquare || !pc.Valid() {
		panic("board: Put with invalid square or piece")
	}
	bb := Bitboard(1) << s
	if old := p.squares[s]; old != NoPiece {
		p.byType[old.Type()] &^= bb
		p.byColor[old.Color()] &^= bb
	}
	p.squares[s] = pc
	if pc != NoPiece {
		p.byType[pc.Type()] |= bb
		p.byColor[pc.Color()] |= bb
	}
}

// SetSideToMove sets the colour to move (only the lowest bit of c is used).
func (p *Position) SetSideToMove(c Color) { p.side = c & 1 }

// SetCastling sets the castling rights (bits above the four rights are
// dropped), keeping the castling setup (the kings' and castling rooks'
// squares: standard chess's unless set otherwise, see SetCastlingSquares).
// Validate checks them against the king and rook placement.
func (p *Position) SetCastling(cr CastlingRights) { p.castling = cr & 15 }

// SetEPSquare sets the en-passant square as FEN records it (the square a
// pawn skipped over by a double step on the previous move); NoSquare, or
// any value >= 64, clears it. Validate checks it.
func (p *Position) SetEPSquare(s Square) {
	if s >= NoSquare {
		s = NoSquare
	}
	p.ep = s
}

// SetClocks sets the half-move clock and the full-move number. Values out
// of range (halfmove not in 0..65535, fullmove not in 1..65535) are
// clamped to the nearest valid value.
func (p *Position) SetClocks(halfmove, fullmove int) {
	p.halfmove = uint16(min(max(halfmove, 0), 65535))
	p.fullmove = uint16(min(max(fullmove, 1), 65535))
}

// KingSquare returns the square of c's king, or NoSquare if there is none.
func (p *Position) KingSquare(c Color) Square {
	return (p.byType[King] & p.byColor[c&1]).LSB()
}

// AttackersTo returns the pieces of colour c that attack s, given the
// current occupancy.
func (p *Position) AttackersTo(s Square, c Color) Bitboard {
	if s >= NoSquare {
		return 0
	}
	return p.attackers(s, p.Occupied()) & p.byColor[c&1]
}

// attackers returns the pieces of both colours attacking s with occupancy occ.
func (p *Position) attackers(s Square, occ Bitboard) Bitboard {
	return (pawnAttacks[Black][s] & p.byType[Pawn] & p.byColor[White]) |
		(pawnAttacks[White][s] & p.byType[Pawn] & p.byColor[Black]) |
		(knightAttacks[s] & p.byType[Knight]) |
		(kingAttacks[s] & p.byType[King]) |
		(bishopAtt(s, occ) & (p.byType[Bishop] | p.byType[Queen])) |
		(rookAtt(s, occ) & (p.byType[Rook] | p.byType[Queen]))
}

// attackedBy reports whether s is attacked by the pieces of colour them
// restricted to the set mask, with occupancy occ. Kings included.
func (p *Position) attackedBy(s Square, them Color, occ, mask Bitboard) bool {
	t := p.byColor[them] & mask
	if (pawnAttacks[them^1][s]&p.byType[Pawn]|knightAttacks[s]&p.byType[Knight]|kingAttacks[s]&p.byType[King])&t != 0 {
		return true
	}
	if bishopAtt(s, occ)&(p.byType[Bishop]|p.byType[Queen])&t != 0 {
		return true
	}
	return rookAtt(s, occ)&(p.byType[Rook]|p.byType[Queen])&t != 0
}

// Checkers returns the pieces giving check to the side to move.
func (p *Position) Checkers() Bitboard {
	ksq := p.KingSquare(p.side)
	if ksq >= NoSquare {
		return 0
	}
	return p.attackers(ksq, p.Occupied()) & p.byColor[p.side^1]
}

// InCheck reports whether the side to move is in check.
func (p *Position) InCheck() bool { return p.Checkers() != 0 }

// pinned returns the pieces of colour us that are pinned to their king
// at ksq.
func (p *Position) pinned(us Color, ksq Square) Bitboard {
	them := us ^ 1
	occ := p.Occupied()
	snipers := ((rookPseudo[ksq] & (p.byType[Rook] | p.byType[Queen])) |
		(bishopPseudo[ksq] & (p.byType[Bishop] | p.byType[Queen]))) & p.byColor[them]
	var pinned Bitboard
	for snipers != 0 {
		s := snipers.PopLSB()
		b := betweenBB[ksq][s] & occ
		if b != 0 && !b.Several() {
			pinned |= b
		}
	}
	return pinned & p.byColor[us]
}

// LegalEPSquare returns the en-passant square only if an en-passant capture
// is actually legal for the side to move, else NoSquare.
func (p *Position) LegalEPSquare() Square {
	if p.ep >= NoSquare {
		return NoSquare
	}
	us := p.side
	ksq := p.KingSquare(us)
	if ksq >= NoSquare {
		return NoSquare
	}
	for c := pawnAttacks[us^1][p.ep] & p.byType[Pawn] & p.byColor[us]; c != 0; {
		if p.epLegal(c.PopLSB(), ksq) {
			return p.ep
		}
	}
	return NoSquare
}

// PolyglotEPFile returns the file (0..7) of the en-passant square when the
// side to move has a pawn beside the pawn that just double-stepped (the
// Polyglot book format's rule, legality irrelevant), else -1.
func (p *Position) PolyglotEPFile() int {
	if p.ep >= NoSquare {
		return -1
	}
	if pawnAttacks[p.side^1][p.ep]&p.byType[Pawn]&p.byColor[p.side] == 0 {
		return -1
	}
	return p.ep.File()
}

// epLegal reports whether the en-passant capture by the pawn on from is
// legal (our king on ksq).
func (p *Position) epLegal(from, ksq Square) bool {
	to := p.ep
	capsq := to ^ 8
	occ := p.Occupied() ^ (1 << from) ^ (1 << capsq) | (1 << to)
	return !p.attackedBy(ksq, p.side^1, occ, ^Bitboard(1<<capsq))
}

// String returns the position's FEN.
func (p *Position) String() string { return p.FEN() }
