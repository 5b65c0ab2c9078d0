package board

// Legal moves by piece. LegalMoves lists the legal moves one by one;
// MoveSets gives the same moves as sets of destination squares, piece by
// piece, with the check, pin and attack information they come from, for
// callers that look at each piece's moves as a whole (gamecode's move
// model scores pieces by their destinations before it lists any move).

// The kinds of pawn moves of the pawns that are not pinned: the indexes of
// MoveSets.Pawns.
const (
	PawnPush        = iota // one square forward
	PawnDoublePush         // two squares forward from the pawn's second rank
	PawnCaptureWest        // a capture toward file a
	PawnCaptureEast        // a capture toward file h
	numPawnKinds
)

// pawnSteps[c][kind] is to-from of a pawn move of colour c and that kind.
var pawnSteps = [2][numPawnKinds]int8{{8, 16, 7, 9}, {-8, -16, -9, -7}}

// PawnStep returns the destination minus the origin (in square numbers)
// of a pawn move of colour c and of the given kind (PawnPush ...
// PawnCaptureEast): a pawn of MoveSets.Pawns[kind] that goes to square to
// comes from to-PawnStep(c, kind).
func PawnStep(c Color, kind int) int { return int(pawnSteps[c&1][kind&3]) }

// MoveSets describes the legal moves of the side to move as sets of
// destination squares (see Position.MoveSets). Together they are exactly
// the moves of LegalMoves:
//
//   - the king's moves: KingDests, and in a Chess960 position the
//     castling moves Castles;
//   - a knight's, bishop's, rook's or queen's moves: Dests(from, attacks);
//   - the moves of the pawns that are not pinned: Pawns[kind] holds their
//     destinations, each reached from to-PawnStep(us, kind); a destination
//     on the last rank stands for the four promotions;
//   - the moves of pinned pawns (Pinned & our pawns), other than en
//     passant: PawnDests(from), promotions as above;
//   - en passant: a move to the position's EPSquare from each pawn of
//     EPFrom.
//
// The sets of squares are plain values: a MoveSets stays valid, and
// refers to nothing, after the position changes.
type MoveSets struct {
	// King is the square of the mover's king; NoSquare when there is none
	// (then there are no moves and the other fields are zero).
	King Square
	// Threats holds, by piece type (Pawn ... King), the squares the
	// opponent's pieces of that type attack, seen with the mover's king
	// off the board (so that a slider attacks the squares behind the king
	// too: the king cannot step back along the line of a check).
	Threats [King + 1]Bitboard
	// Danger is the union of Threats: the squares the king may not go to.
	Danger Bitboard
	// Checkers are the opponent's pieces giving check.
	Checkers Bitboard
	// Pinned are the mover's pieces pinned to its king: they may move only
	// along the line through the king and the pinning piece.
	Pinned Bitboard
	// Target is the set of squares the mover's pieces other than the king
	// may go to: every square not holding one of its pieces when not in
	// check, the checking piece and the squares between it and the king in
	// check, none in double check.
	Target Bitboard
	// KingDests are the king's legal destinations; in a standard position
	// castling included (as the king's move two squares sideways, which it
	// cannot reach otherwise: KingDests &^ KingAttacks(King) are the
	// castling moves), in a Chess960 position castling excluded (see
	// Castles).
	KingDests Bitboard
	// Castles are the To squares of the legal castling moves: the king's
	// destinations (also in KingDests) in a standard position, the castling
	// rooks' squares (king takes own rook) in a Chess960 position.
	Castles Bitboard
	// Pawns holds, by kind (PawnPush ... PawnCaptureEast), the legal
	// destinations of the mover's pawns that are not pinned.
	Pawns [numPawnKinds]Bitboard
	// EPFrom are the mover's pawns that may take en passant.
	EPFrom Bitboard

	us          Color
	occ, theirs Bitboard
}

// MoveSets fills ms with the legal moves of the side to move, as sets of
// destination squares (see the type). It allocates nothing.
func (p *Position) MoveSets(ms *MoveSets) {
	us := p.side & 1
	them := us ^ 1
	ours, theirs := p.byColor[us], p.byColor[them]
	occ := ours | theirs
	ksq := p.KingSquare(us)
	if ksq >= NoSquare {
		*ms = MoveSets{King: ksq, us: us, occ: occ, theirs: theirs}
		return
	}
	// Every field is set below (no clearing first: this is a hot path).
	ms.King, ms.us, ms.occ, ms.theirs = ksq, us, occ, theirs

	// Their attacks, sliders seeing through our king.
	occX := occ &^ (1 << ksq)
	var tP, tN, tB, tR, tQ, tK Bitboard
	if tp := p.byType[Pawn] & theirs; them == White {
		tP = (tp&^FileA)<<7 | (tp&^FileH)<<9
	} else {
		tP = (tp&^FileA)>>9 | (tp&^FileH)>>7
	}
	for b := p.byType[Knight] & theirs; b != 0; b &= b - 1 {
		tN |= knightAttacks[b.LSB()]
	}
	for b := p.byType[Bishop] & theirs; b != 0; b &= b - 1 {
		tB |= bishopAtt(b.LSB(), occX)
	}
	for b := p.byType[Rook] & theirs; b != 0; b &= b - 1 {
		tR |= rookAtt(b.LSB(), occX)
	}
	for b := p.byType[Queen] & theirs; b != 0; b &= b - 1 {
		s := b.LSB()
		tQ |= bishopAtt(s, occX) | rookAtt(s, occX)
	}
	if tk := p.byType[King] & theirs; tk != 0 {
		tK = kingAttacks[tk.LSB()]
	}
	// Field by field: an array literal is built aside and copied.
	th := &ms.Threats
	th[0], th[Pawn], th[Knight], th[Bishop], th[Rook], th[Queen], th[King] = 0, tP, tN, tB, tR, tQ, tK
	danger := tP | tN | tB | tR | tQ | tK
	ms.Danger = danger

	// Check, pins and where our pieces other than the king may go.
	var checkers Bitboard
	if danger&(1<<ksq) != 0 {
		checkers = (pawnAttacks[us][ksq]&p.byType[Pawn] |
			knightAttacks[ksq]&p.byType[Knight] |
			bishopAtt(ksq, occ)&(p.byType[Bishop]|p.byType[Queen]) |
			rookAtt(ksq, occ)&(p.byType[Rook]|p.byType[Queen])) & theirs
	}
	ms.Checkers = checkers
	pinned := p.pinned(us, ksq)
	ms.Pinned = pinned
	target := ^ours
	if checkers != 0 {
		target = betweenBB[ksq][checkers.LSB()] | checkers
	}
	double := checkers.Several()
	if double {
		target = 0
	}
	ms.Target = target

	// The king.
	kd := kingAttacks[ksq] &^ ours &^ danger
	var castles Bitboard
	if checkers == 0 && p.castling != 0 {
		if p.mode == CastlingStandard {
			// Standard positions have the standard setup: its geometry,
			// and the danger map, which the rook in its corner never
			// shields.
			for i := range standardSides[us] {
				ci := &standardSides[us][i]
				if p.castlePossible(ci.right, &ci.castleSide, ksq, occ) && danger&ci.safe == 0 {
					castles |= 1 << ci.kingTo
				}
			}
			kd |= castles
		} else {
			castles = p.castles960(us, ksq, occ)
		}
	}
	ms.KingDests = kd
	ms.Castles = castles

	// The pawns.
	up := p.byType[Pawn] & ours
	ps := pawnSets(us, up&^pinned, occ, theirs)
	ms.Pawns[0], ms.Pawns[1], ms.Pawns[2], ms.Pawns[3] = ps[0]&target, ps[1]&target, ps[2]&target, ps[3]&target
	var ep Bitboard
	if p.ep < NoSquare && !double {
		for b := pawnAttacks[them][p.ep] & up; b != 0; b &= b - 1 {
			if from := b.LSB(); p.epLegal(from, ksq) {
				ep |= 1 << from
			}
		}
	}
	ms.EPFrom = ep
}

// Dests returns the legal destinations of the mover's knight, bishop, rook
// or queen on from, given attacks, the squares it attacks in the position
// (KnightAttacks(from), BishopAttacks(from, occupied squares), ...).
func (ms *MoveSets) Dests(from Square, attacks Bitboard) Bitboard {
	d := attacks & ms.Target
	if ms.Pinned&(1<<(from&63)) != 0 {
		d &= lineBB[ms.King&63][from&63]
	}
	return d
}

// PawnDests returns the legal destinations of the mover's pawn on from,
// en passant excepted: pushes and captures (a destination on the last
// rank stands for the four promotions). For a pawn that is not pinned they
// are also in Pawns; PawnDests is the way to the moves of pinned pawns.
func (ms *MoveSets) PawnDests(from Square) Bitboard {
	if ms.King >= NoSquare {
		return 0
	}
	d := pawnDests(ms.us, from&63, ms.occ, ms.theirs) & ms.Target
	if ms.Pinned&(1<<(from&63)) != 0 {
		d &= lineBB[ms.King][from&63]
	}
	return d
}

// pawnSets returns the destinations of the pawns pawns of colour us by
// kind (PawnPush ... PawnCaptureEast), not restricted by checks or pins.
func pawnSets(us Color, pawns, occ, theirs Bitboard) (s [numPawnKinds]Bitboard) {
	if us == White {
		s[PawnPush] = (pawns << 8) &^ occ
		s[PawnDoublePush] = ((s[PawnPush] & Rank3) << 8) &^ occ
		s[PawnCaptureWest] = ((pawns &^ FileA) << 7) & theirs
		s[PawnCaptureEast] = ((pawns &^ FileH) << 9) & theirs
	} else {
		s[PawnPush] = (pawns >> 8) &^ occ
		s[PawnDoublePush] = ((s[PawnPush] & Rank6) >> 8) &^ occ
		s[PawnCaptureWest] = ((pawns &^ FileA) >> 9) & theirs
		s[PawnCaptureEast] = ((pawns &^ FileH) >> 7) & theirs
	}
	return s
}
