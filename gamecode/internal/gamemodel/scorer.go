package gamemodel

import (
	"math/bits"

	"github.com/chessbook/chessbook/board"
)

// The move model. A move is coded in two steps: which of our pieces moves
// (among the pieces other than pawns that have a legal move, and "a pawn"
// when a pawn has one), then which of its moves it makes (a promotion
// square counting once for each piece promoted to; for "a pawn", any
// legal pawn move). Each choice has a score, the sum of the weights of its
// features (one per slot below, frozen in tables_gen.go), and the
// probability of a choice is proportional to exp(score/ScoreScale) (see
// choice.go). The format depends on every detail here: the order in
// which pieces and destinations are listed, the features and the weights.

type bitboard = board.Bitboard

// Piece feature slots, each an index into pieceWeights.
const (
	pslotPst     = iota // piece type and origin (seen from the mover's side), by phase
	pslotDanger         // piece type, least attacker of the origin, defended
	pslotVictim         // piece type, most valuable piece it can take, whether one it can take is undefended
	pslotCheck          // piece type, whether it can give check, from a square the opponent does not attack
	pslotMob            // piece type and number of destination squares
	pslotSafe           // piece type and number of destination squares the opponent does not attack
	pslotRecap          // piece type, whether the last move captured, whether it can take the piece that just moved
	pslotAgain          // piece type, whether it made our last move
	pslotSpecial        // piece type, whether it can castle or promote
	numPSlots
)

// Offsets of each piece slot's features in pieceWeights.
const (
	offPPst         = 0
	offPDanger      = offPPst + numPhases*6*64
	offPVictim      = offPDanger + 6*6*2
	offPCheck       = offPVictim + 6*6*2
	offPMob         = offPCheck + 6*3
	offPSafe        = offPMob + 6*16
	offPRecap       = offPSafe + 6*16
	offPAgain       = offPRecap + 6*2*2
	offPSpecial     = offPAgain + 6*2
	NumPieceWeights = offPSpecial + 6*2
)

// Destination feature slots, each an index into destWeights.
const (
	dslotPst        = iota // piece type and destination (seen from the mover's side), by phase
	dslotCapture           // piece type, victim, least attacker of the destination, defended by another piece
	dslotCheck             // piece type (after promotion) and kind of direct check given
	dslotRecap             // takes the piece that just moved (by piece type), whether the last move captured
	dslotSpecial           // promotion piece, castling side
	dslotThreat            // a pawn's or knight's (after promotion) number of pieces it then attacks that are worth more or undefended
	dslotFrom              // a pawn's origin, by phase (none for other pieces)
	dslotFromDanger        // a pawn's origin: least attacker, defended (none for other pieces)
	numDSlots
)

// Offsets of each destination slot's features in destWeights.
const (
	offDPst         = 0
	offDCapture     = offDPst + numPhases*6*64
	offDCheck       = offDCapture + 6*6*6*2
	offDRecap       = offDCheck + 6*3
	offDSpecial     = offDRecap + 2*7
	offDThreat      = offDSpecial + numSpecKinds
	offDFrom        = offDThreat + 2*3
	offDFromDanger  = offDFrom + numPhases*64
	dFromDangerNone = 6 * 2 // the dslotFromDanger feature of pieces other than pawns
	NumDestWeights  = offDFromDanger + dFromDangerNone + 1
)

// numPhases is the number of game phases of the piece-square features.
const numPhases = 3

// Special move kinds of dslotSpecial.
const (
	specNone     = 0
	specPromoN   = 1 // 1-4: promotion to knight, bishop, rook, queen
	specCastleK  = 5
	specCastleQ  = 6
	numSpecKinds = 7
)

// Check kinds of dslotCheck.
const (
	chkNone     = 0
	chkSafe     = 1 // direct check from a square the opponent does not attack
	chkAttacked = 2 // direct check from an attacked square
)

func sqBB(s board.Square) bitboard { return bitboard(1) << (s & 63) }

// has reports whether b holds s (s < 64).
func has(b bitboard, s board.Square) bool { return b>>(s&63)&1 != 0 }

// bit returns 1 when b holds s (s < 64), else 0.
func bit(b bitboard, s board.Square) int { return int(b >> (s & 63) & 1) }

// b2i returns 1 for true, 0 for false.
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// History is what the model remembers of the moves before a position.
type History struct {
	last, prev board.Move // the last move and the one before (ours), or board.NullMove
	lastCap    bool       // the last move captured
}

// Play plays m in p and remembers it.
func (h *History) Play(p *board.Position, m board.Move) {
	h.lastCap = p.PieceAt(m.To()) != board.NoPiece || m.Kind() == board.MoveEnPassant
	p.Play(m)
	h.prev, h.last = h.last, m
}

// scoreState is what the scorer computes once per position.
type scoreState struct {
	us               board.Color
	flip             board.Square // 0 for white, 56 for black: squares seen from the mover
	ph               int
	occ, theirs      bitboard
	victims          [6]bitboard  // their pieces worth at least a pawn (1), a knight (2), a bishop (3), a rook (4), a queen (5)
	tAtt             bitboard     // squares the opponent attacks (sliders see through our king)
	cls0, cls1, cls2 bitboard     // bit planes of the least attacker class (1 pawn, 2 minor, 3 rook, 4 queen, 5 king)
	uAtt, uAtt2      bitboard     // squares we attack at least once, twice
	checkSq          [8]bitboard  // by piece type: the squares from which it checks their king
	kAtt             bitboard     // the squares next to our king
	targets          [8]bitboard  // for pawns and knights: their pieces worth more, or undefended (not the king)
	lastTo, againSq  board.Square // where the last move went; where our last move went
	lastCap          int
	// The legal moves by piece; of the pawns, those that are not pinned
	// are in ms.Pawns, the other moves (of pinned pawns, en passant) in
	// pawnExtra.
	ms        board.MoveSets
	pawnExtra [32]board.Move
	ourPawns  bitboard
	pawnDests bitboard // where pawn moves go
	nExtra    int
}

// Piece is one of our pieces that can move, and where to; or, with from
// board.NoSquare, our pawns (see scoreState's pawn fields).
type Piece struct {
	from  board.Square
	pt    board.PieceType
	Dests bitboard // its legal destinations (for castling, the king's)
}

// pawnGroup is the square from of the pieces entry standing for the pawns.
const pawnGroup = board.NoSquare

// MaxDests bounds the moves of a piece (a queen has at most 27) or of
// the pawns (8 pawns with 4 moves, or 3 promotion squares of 4 pieces).
const MaxDests = 128

// Scorer scores the choices of the move model in positions: it lists the
// legal moves of a position piece by piece, in the format's order (from
// board.MoveSets: package board is the move generator), with the scores of
// the pieces and of the destinations of one of them. The zero value is
// ready to use; it allocates nothing.
type Scorer struct {
	pos *board.Position
	st  scoreState
	// Pieces are the pieces that can move, in the format's order, and
	// PScore their scores (both valid up to Score's result), PBest the
	// best of those scores.
	Pieces [17]Piece
	PScore [32]int32
	PBest  int32
	// Moves are the moves of one piece in the format's order and DScore
	// their scores (both valid up to Dests' result), DBest the best.
	Moves  [MaxDests]board.Move
	DScore [MaxDests]int32
	DBest  int32
	// Freq is scratch space for the frequencies of a choice (Freqs).
	Freq [MaxDests]uint32
}

// class returns the least attacker class of s.
func (st *scoreState) class(s board.Square) int {
	return bit(st.cls0, s) | bit(st.cls1, s)<<1 | bit(st.cls2, s)<<2
}

// Score finds our pieces that can move in p (board's MoveSets, by piece)
// and scores them; h tells the moves before. It returns the number of
// pieces: the king first (if it can move), then knights, bishops, rooks,
// queens and pawns, each kind by square.
func (s *Scorer) Score(p *board.Position, h *History) int {
	st := &s.st
	s.pos = p
	us := p.SideToMove()
	st.us = us
	st.flip = 0
	if us == board.Black {
		st.flip = 56
	}
	ours, theirs := p.ByColor(us), p.ByColor(us.Other())
	st.occ, st.theirs = ours|theirs, theirs
	// No king, or more men than a legal position has (whose moves might
	// not fit in the buffers): no moves.
	if (p.ByType(board.King)&ours) == 0 || ours.Count() > 16 || theirs.Count() > 16 {
		return 0
	}
	p.MoveSets(&st.ms)
	st.setThreats(p)
	st.setHistory(h)
	np := s.listPieces(p)
	s.scorePieces(np)
	if s.listPawns(p) {
		pc := &s.Pieces[np]
		*pc = Piece{pawnGroup, board.Pawn, st.pawnDests}
		s.PScore[np] = s.pawnScore(pc)
		s.PBest = max(s.PBest, s.PScore[np])
		np++
	}
	return np
}

// setThreats sets the game phase, what the opponent attacks and with
// what, and what our pieces may aim at.
func (st *scoreState) setThreats(p *board.Position) {
	us, them := st.us, st.us.Other()
	ours, theirs, occ := p.ByColor(us), st.theirs, st.occ
	pawns := p.ByType(board.Pawn)
	knights := p.ByType(board.Knight)
	bishops := p.ByType(board.Bishop)
	rooks := p.ByType(board.Rook)
	queens := p.ByType(board.Queen)
	kings := p.ByType(board.King)
	switch npm := (occ &^ pawns &^ kings).Count(); {
	case npm > 10:
		st.ph = 0
	case npm > 6:
		st.ph = 1
	default:
		st.ph = 2
	}
	st.victims[5] = queens & theirs
	st.victims[4] = (rooks | queens) & theirs
	st.victims[3] = (bishops | rooks | queens) & theirs
	st.victims[2] = (knights | bishops | rooks | queens) & theirs
	st.victims[1] = theirs &^ kings

	// Their attacks (sliders seeing through our king), by least attacker
	// class.
	ms := &st.ms
	tP, tR, tQ, tK := ms.Threats[board.Pawn], ms.Threats[board.Rook], ms.Threats[board.Queen], ms.Threats[board.King]
	tM := ms.Threats[board.Knight] | ms.Threats[board.Bishop]
	tAtt := ms.Danger
	st.tAtt = tAtt
	lo := tP | tM
	c3 := tR &^ lo
	lo |= tR
	c4 := tQ &^ lo
	lo |= tQ
	c5 := tK &^ lo
	st.cls0 = tP | c3 | c5
	st.cls1 = tM&^tP | c3
	st.cls2 = c4 | c5

	// What our pieces may aim at.
	undef := theirs &^ kings &^ tAtt
	st.targets[board.Knight] = undef | (rooks|queens)&theirs
	st.targets[board.Pawn] = undef | (knights|bishops|rooks|queens)&theirs
	st.checkSq = [8]bitboard{}
	if tksq := (kings & theirs).LSB(); tksq < board.NoSquare {
		st.checkSq[board.Pawn] = board.PawnAttacks(them, tksq)
		st.checkSq[board.Knight] = board.KnightAttacks(tksq)
		if (bishops|queens)&ours != 0 || pawns&ours&(board.Rank2|board.Rank7) != 0 {
			st.checkSq[board.Bishop] = board.BishopAttacks(tksq, occ)
		}
		if (rooks|queens)&ours != 0 || pawns&ours&(board.Rank2|board.Rank7) != 0 {
			st.checkSq[board.Rook] = board.RookAttacks(tksq, occ)
		}
		st.checkSq[board.Queen] = st.checkSq[board.Bishop] | st.checkSq[board.Rook]
	}
}

// setHistory sets what the features need of the moves before.
func (st *scoreState) setHistory(h *History) {
	st.lastTo, st.againSq, st.lastCap = board.NoSquare, board.NoSquare, 0
	if h.last != board.NullMove {
		st.lastTo = h.last.To()
	}
	if h.prev != board.NullMove {
		st.againSq = h.prev.To()
	}
	if h.lastCap {
		st.lastCap = 1
	}
}

// listPieces lists our pieces other than pawns that can move in
// s.Pieces, in the format's order, and returns their number; it sets the
// squares we attack at least once and twice.
func (s *Scorer) listPieces(p *board.Position) int {
	st := &s.st
	ms := &st.ms
	ours, occ := p.ByColor(st.us), st.occ
	var uAtt, uAtt2 bitboard
	np := 0
	add := func(pt board.PieceType, from board.Square, att, dests bitboard) {
		uAtt2 |= uAtt & att
		uAtt |= att
		if dests != 0 {
			s.Pieces[np] = Piece{from, pt, dests}
			np++
		}
	}
	kAtt := board.KingAttacks(ms.King)
	add(board.King, ms.King, kAtt, ms.KingDests)
	for b := p.ByType(board.Knight) & ours; b != 0; b &= b - 1 {
		from := b.LSB()
		a := board.KnightAttacks(from)
		add(board.Knight, from, a, ms.Dests(from, a))
	}
	for b := p.ByType(board.Bishop) & ours; b != 0; b &= b - 1 {
		from := b.LSB()
		a := board.BishopAttacks(from, occ)
		add(board.Bishop, from, a, ms.Dests(from, a))
	}
	for b := p.ByType(board.Rook) & ours; b != 0; b &= b - 1 {
		from := b.LSB()
		a := board.RookAttacks(from, occ)
		add(board.Rook, from, a, ms.Dests(from, a))
	}
	for b := p.ByType(board.Queen) & ours; b != 0; b &= b - 1 {
		from := b.LSB()
		a := board.QueenAttacks(from, occ)
		add(board.Queen, from, a, ms.Dests(from, a))
	}
	up := p.ByType(board.Pawn) & ours
	var pl, pr bitboard
	if st.us == board.White {
		pl, pr = (up&^board.FileA)<<7, (up&^board.FileH)<<9
	} else {
		pl, pr = (up&^board.FileA)>>9, (up&^board.FileH)>>7
	}
	uAtt2 |= uAtt&(pl|pr) | pl&pr
	uAtt |= pl | pr
	st.uAtt, st.uAtt2 = uAtt, uAtt2
	st.kAtt = kAtt
	st.ourPawns = up
	return np
}

// listPawns sets the pawns' moves that are not in ms.Pawns (of pinned
// pawns, then en passant) and the squares all pawn moves go to, and
// reports whether there is a pawn move.
func (s *Scorer) listPawns(p *board.Position) bool {
	st := &s.st
	ms := &st.ms
	nx := 0
	for b := st.ourPawns & ms.Pinned; b != 0; b &= b - 1 {
		from := b.LSB()
		for t := ms.PawnDests(from); t != 0; t &= t - 1 {
			st.pawnExtra[nx&31] = board.NewMove(from, t.LSB())
			nx++
		}
	}
	for b := ms.EPFrom; b != 0; b &= b - 1 {
		st.pawnExtra[nx&31] = board.NewMove(b.LSB(), p.EPSquare()) | board.MoveEnPassant
		nx++
	}
	st.nExtra = nx
	pd := ms.Pawns[0] | ms.Pawns[1] | ms.Pawns[2] | ms.Pawns[3]
	for _, m := range st.pawnExtra[:nx&31] {
		pd |= sqBB(m.To())
	}
	st.pawnDests = pd
	return pd != 0
}

// scorePieces scores the first np pieces: the sums of PieceFeatures'
// weights, by composite tables.
func (s *Scorer) scorePieces(np int) {
	st := &s.st
	pieces := s.Pieces[:np]
	scores := s.PScore[:np]
	// The origin and the mobility (popcounts: kept apart from the rest,
	// they may be calls that spill every register).
	pst := &piecePstTab[st.ph%numPhases]
	flip, tAtt, uAtt := st.flip, st.tAtt, st.uAtt
	cls0, cls1, cls2 := st.cls0, st.cls1, st.cls2
	for i := range pieces {
		pc := &pieces[i]
		from, d := pc.from, pc.Dests
		pi := int(pc.pt-1) & 7
		dk := pi<<4 | bit(cls0, from)<<1 | bit(cls1, from)<<2 | bit(cls2, from)<<3 | bit(uAtt, from)
		mk := pi<<8 | min(d.Count(), 15)<<4 | min((d&^tAtt).Count(), 15)
		scores[i] = pst[(pi<<6|int(from^flip))&511] + pieceDangerFlat[dk&127] + pieceMobFlat[mk&2047]
	}
	// Captures, checks, castling, promotion, recapture, moving again.
	hist := &pieceHistTab[st.lastCap&1]
	lastTo, againSq, theirs := st.lastTo, st.againSq, st.theirs
	var specMask [8]bitboard
	specMask[board.King] = ^st.kAtt
	specMask[board.Pawn] = board.Rank1 | board.Rank8
	best := int32(-1 << 30)
	for i := range pieces {
		pc := &pieces[i]
		pt, d := pc.pt&7, pc.Dests
		pi := int(pt-1) & 7
		tac := b2i(d&specMask[pt] != 0)
		rc := 0
		if capt, chk := d&theirs, d&st.checkSq[pt]; capt|chk != 0 {
			if capt != 0 {
				// The most valuable victim: the number of nested sets
				// (pawns up, knights up, ...) it meets.
				v := b2i(capt&st.victims[1] != 0) + b2i(capt&st.victims[2] != 0) + b2i(capt&st.victims[3] != 0) +
					b2i(capt&st.victims[4] != 0) + b2i(capt&st.victims[5] != 0)
				tac += (v*2 + b2i(capt&^tAtt != 0)) * 3 * 2
				rc = b2i(lastTo < board.NoSquare && has(capt, lastTo))
			}
			tac += (b2i(chk != 0) + b2i(chk&^tAtt != 0)) * 2
		}
		sc := scores[i] + pieceTacTab[pi][tac&127] + hist[pi][(rc*2+b2i(pc.from == againSq))&3]
		scores[i] = sc
		best = max(best, sc)
	}
	s.PBest = best
}

// Composite tables of the piece weights: piecePstTab[ph][pi*64+from],
// pieceDangerTab[pi][cls][def], pieceMobTab[pi][mob][safe],
// pieceTacTab[pi][((victim*2+free)*3+check)*2+special],
// pieceHistTab[lastCap][pi][recap*2+again].
var (
	pieceDangerFlat [8 * 16]int32  // [pi<<4|cls<<1|def]
	pieceMobFlat    [8 * 256]int32 // [pi<<8|mob<<4|safe]
	piecePstTab     [numPhases][8 * 64]int32
	pieceDangerTab  [8][8][2]int32
	pieceMobTab     [8][16][16]int32
	pieceTacTab     [8][128]int32
	pieceHistTab    [2][8][4]int32
)

func init() {
	w := &pieceWeights
	for pi := 0; pi < 6; pi++ {
		for ph := 0; ph < numPhases; ph++ {
			for sq := 0; sq < 64; sq++ {
				piecePstTab[ph][pi*64+sq] = w[offPPst+(ph*6+pi)*64+sq]
			}
		}
		for cls := 0; cls < 6; cls++ {
			for def := 0; def < 2; def++ {
				pieceDangerTab[pi][cls][def] = w[offPDanger+(pi*6+cls)*2+def]
				pieceDangerFlat[pi<<4|cls<<1|def] = pieceDangerTab[pi][cls][def]
			}
		}
		for m := 0; m < 16; m++ {
			for sf := 0; sf < 16; sf++ {
				pieceMobTab[pi][m][sf] = w[offPMob+pi*16+m] + w[offPSafe+pi*16+sf]
				pieceMobFlat[pi<<8|m<<4|sf] = pieceMobTab[pi][m][sf]
			}
		}
		for v := 0; v < 6; v++ {
			for free := 0; free < 2; free++ {
				for chk := 0; chk < 3; chk++ {
					for spec := 0; spec < 2; spec++ {
						pieceTacTab[pi][((v*2+free)*3+chk)*2+spec] = w[offPVictim+(pi*6+v)*2+free] +
							w[offPCheck+pi*3+chk] + w[offPSpecial+pi*2+spec]
					}
				}
			}
		}
		for lc := 0; lc < 2; lc++ {
			for rc := 0; rc < 2; rc++ {
				for ag := 0; ag < 2; ag++ {
					pieceHistTab[lc][pi][rc*2+ag] = w[offPRecap+(pi*2+lc)*2+rc] + w[offPAgain+pi*2+ag]
				}
			}
		}
	}
}

// PieceFeatures returns the features of a piece that can move, or of
// the pawns.
func (s *Scorer) PieceFeatures(pc *Piece) (f [numPSlots]uint16) {
	st := &s.st
	pi := int(pc.pt-1) % 6
	from, d := pc.from, pc.Dests
	if from == pawnGroup {
		up := st.ourPawns
		f[pslotPst] = uint16(offPPst + st.ph*6*64) // a pawn on a1: none
		f[pslotDanger] = uint16(offPDanger + b2i(up&st.tAtt != 0)*2 + b2i(up&st.tAtt&^st.uAtt == 0))
		// Mobility: the squares pawns can go to.
		f[pslotMob] = uint16(offPMob + min(d.Count(), 15))
		f[pslotSafe] = uint16(offPSafe + min((d&^st.tAtt).Count(), 15))
	} else {
		f[pslotPst] = uint16(offPPst + (st.ph*6+pi)*64 + int(from^st.flip))
		f[pslotDanger] = uint16(offPDanger + (pi*6+st.class(from)%6)*2 + bit(st.uAtt, from))
		f[pslotMob] = uint16(offPMob + pi*16 + min(d.Count(), 15))
		f[pslotSafe] = uint16(offPSafe + pi*16 + min((d&^st.tAtt).Count(), 15))
	}
	capt := d & st.theirs
	p := s.pos
	v := b2i(capt&p.ByType(board.Pawn) != 0) | b2i(capt&p.ByType(board.Knight) != 0)<<1 |
		b2i(capt&p.ByType(board.Bishop) != 0)<<2 | b2i(capt&p.ByType(board.Rook) != 0)<<3 |
		b2i(capt&p.ByType(board.Queen) != 0)<<4
	f[pslotVictim] = uint16(offPVictim + (pi*6+bits.Len(uint(v)))*2 + b2i(capt&^st.tAtt != 0))
	chk := d & st.checkSq[pc.pt]
	f[pslotCheck] = uint16(offPCheck + pi*3 + b2i(chk != 0) + b2i(chk&^st.tAtt != 0))
	f[pslotRecap] = uint16(offPRecap + (pi*2+st.lastCap)*2 + b2i(st.lastTo < board.NoSquare && has(capt, st.lastTo)))
	again := from == st.againSq
	if from == pawnGroup {
		again = st.againSq < board.NoSquare && has(st.ourPawns, st.againSq)
	}
	f[pslotAgain] = uint16(offPAgain + pi*2 + b2i(again))
	spec := false
	switch pc.pt {
	case board.King:
		spec = d&^board.KingAttacks(from) != 0
	case board.Pawn:
		spec = d&(board.Rank1|board.Rank8) != 0
	}
	f[pslotSpecial] = uint16(offPSpecial + pi*2 + b2i(spec))
	return f
}

// PieceOf returns the index of the entry of the first np pieces that
// moves m (the pawns' entry for a pawn move), or -1.
func (s *Scorer) PieceOf(np int, m board.Move) int {
	from := m.From()
	if s.pos.PieceAt(from).Type() == board.Pawn {
		if np > 0 && s.Pieces[np-1].from == pawnGroup {
			return np - 1
		}
		return -1
	}
	for i := range s.Pieces[:np] {
		if s.Pieces[i].from == from {
			return i
		}
	}
	return -1
}

// pawnScore returns the score of the pawns' entry pc: the sum of
// PieceFeatures' weights, by composite tables.
func (s *Scorer) pawnScore(pc *Piece) int32 {
	st := &s.st
	up, tAtt, d := st.ourPawns, st.tAtt, pc.Dests
	tac := b2i(d&(board.Rank1|board.Rank8) != 0)
	rc := 0
	if capt, chk := d&st.theirs, d&st.checkSq[board.Pawn]; capt|chk != 0 {
		if capt != 0 {
			v := b2i(capt&st.victims[1] != 0) + b2i(capt&st.victims[2] != 0) + b2i(capt&st.victims[3] != 0) +
				b2i(capt&st.victims[4] != 0) + b2i(capt&st.victims[5] != 0)
			tac += (v*2 + b2i(capt&^tAtt != 0)) * 3 * 2
			rc = b2i(st.lastTo < board.NoSquare && has(capt, st.lastTo))
		}
		tac += (b2i(chk != 0) + b2i(chk&^tAtt != 0)) * 2
	}
	again := b2i(st.againSq < board.NoSquare && has(up, st.againSq))
	return pieceWeights[offPPst+(st.ph%numPhases)*6*64] +
		pieceDangerTab[0][b2i(up&tAtt != 0)][b2i(up&tAtt&^st.uAtt == 0)] +
		pieceMobTab[0][min(d.Count(), 15)&15][min((d&^tAtt).Count(), 15)&15] +
		pieceTacTab[0][tac&127] + pieceHistTab[st.lastCap&1][0][(rc*2+again)&3]
}

// Dests lists the moves of piece pc (one of the last generation's) in
// s.Moves with their scores, and returns their number: by destination
// square, castling last.
// Ordinary moves are scored by composite tables, the others as the sums
// of DestFeatures' weights.
func (s *Scorer) Dests(pc *Piece) int {
	if pc.from == pawnGroup {
		return s.pawnMoves()
	}
	st := &s.st
	n := 0
	best := int32(-1 << 30)
	pt, from := pc.pt&7, pc.from
	pi := int(pt-1) & 7
	flip := st.flip
	pst := (*[64]int32)(destPstTab[st.ph%numPhases][pi*64&511:])
	capChk := &destCapChkTab[pi]
	threat := &destThreatTab[1]
	targets := st.targets[board.Knight]
	if pt != board.Knight {
		threat, targets = &destNoThreatTab, 0
	}
	lc := st.lastCap & 1
	base := destWeights[offDRecap+lc*7] + destWeights[offDSpecial+specNone] +
		destWeights[offDFrom] + destWeights[offDFromDanger+dFromDangerNone]
	recap := destWeights[(offDRecap+lc*7+1+pi)%NumDestWeights] - destWeights[offDRecap+lc*7]
	chkSq := st.checkSq[pt]
	cls0, cls1, cls2 := st.cls0, st.cls1, st.cls2
	def := st.uAtt2
	ordinary := pc.Dests
	if pt == board.King {
		ordinary &= board.KingAttacks(from) // not castling
	}
	for t := ordinary; t != 0; t &= t - 1 {
		to := t.LSB()
		victim := int(s.pos.PieceAt(to)) & 7
		key := (victim<<4|bit(cls0, to)<<1|bit(cls1, to)<<2|bit(cls2, to)<<3|bit(def, to))<<1 | bit(chkSq, to)
		th := board.KnightAttacks(to) & targets
		sc := base + pst[int(to^flip)&63] + threat[b2i(th != 0)+b2i(th&(th-1) != 0)] + capChk[key&255]
		if to == st.lastTo && victim != 0 {
			sc += recap
		}
		s.Moves[n&(MaxDests-1)] = board.NewMove(from, to)
		s.DScore[n&(MaxDests-1)] = sc
		best = max(best, sc)
		n++
	}
	for t := pc.Dests &^ ordinary; t != 0; t &= t - 1 {
		n = s.specialDests(pc, board.NewMove(from, t.LSB())|board.MoveCastling, n, &best)
	}
	s.DBest = best
	return n
}

// pawnMoves lists the pawn moves of the last generation in s.Moves with
// their scores, and returns their number: single pushes, double pushes,
// captures to the left, to the right (each by destination square) that
// do not promote, then those that do (each as four moves: queen, rook,
// bishop, knight), then the moves of pinned pawns and en passant.
func (s *Scorer) pawnMoves() int {
	st := &s.st
	n := 0
	best := int32(-1 << 30)
	pc := &Piece{pawnGroup, board.Pawn, 0}
	flip := st.flip
	pst := (*[64]int32)(destPstTab[st.ph%numPhases][:64])
	fromTab := (*[64]int32)(destWeights[offDFrom+(st.ph%numPhases)*64:])
	capChk := &destCapChkTab[0]
	threat := &destThreatTab[0]
	lc := st.lastCap & 1
	base := destWeights[offDRecap+lc*7] + destWeights[offDSpecial+specNone]
	recap := destWeights[offDRecap+lc*7+1] - destWeights[offDRecap+lc*7]
	targets := st.targets[board.Pawn]
	chkSq := st.checkSq[board.Pawn]
	cls0, cls1, cls2, uAtt := st.cls0, st.cls1, st.cls2, st.uAtt
	for k, t := range st.ms.Pawns {
		step := board.PawnStep(st.us, k)
		def := st.uAtt
		if k >= 2 {
			def = st.uAtt2
		}
		for t &^= board.Rank1 | board.Rank8; t != 0; t &= t - 1 {
			to := t.LSB()
			from := board.Square(int(to)-step) & 63
			toR, fromR := int(to^flip), int(from^flip)
			victim := int(s.pos.PieceAt(to)) & 7
			key := (victim<<4|bit(cls0, to)<<1|bit(cls1, to)<<2|bit(cls2, to)<<3|bit(def, to))<<1 | bit(chkSq, to)
			fd := bit(cls0, from)<<1 | bit(cls1, from)<<2 | bit(cls2, from)<<3 | bit(uAtt, from)
			th := board.PawnAttacks(st.us, to) & targets
			sc := base + pst[toR&63] + fromTab[fromR&63] + destFromDangerTab[fd&15] +
				threat[b2i(th != 0)+b2i(th&(th-1) != 0)] + capChk[key&255]
			if to == st.lastTo && victim != 0 {
				sc += recap
			}
			s.Moves[n&(MaxDests-1)] = board.NewMove(from, to)
			s.DScore[n&(MaxDests-1)] = sc
			best = max(best, sc)
			n++
		}
	}
	for k, t := range st.ms.Pawns {
		for t &= board.Rank1 | board.Rank8; t != 0; t &= t - 1 {
			to := t.LSB()
			n = s.specialDests(pc, board.NewMove(board.Square(int(to)-board.PawnStep(st.us, k))&63, to), n, &best)
		}
	}
	for _, m := range st.pawnExtra[:st.nExtra&31] {
		n = s.specialDests(pc, m, n, &best)
	}
	s.DBest = best
	return n
}

// destFromDangerTab[cls<<1|def] is the weight of a pawn's origin's danger.
var destFromDangerTab = func() (t [16]int32) {
	for cls := 0; cls < 6; cls++ {
		for def := 0; def < 2; def++ {
			t[cls<<1|def] = destWeights[offDFromDanger+cls*2+def]
		}
	}
	return t
}()

// Composite tables of the destination weights, for ordinary moves (no
// promotion): destPstTab[ph][pi*64+to], destThreatTab[pawn 0, knight
// 1][pieces threatened] (destNoThreatTab for the other pieces), and
// destCapChkTab[pi][(victim<<4|cls<<1|def)<<1|check].
var (
	destPstTab      [numPhases][8 * 64]int32
	destThreatTab   [2][4]int32
	destNoThreatTab [4]int32
	destCapChkTab   [8][256]int32
)

func init() {
	w := &destWeights
	for pi := 0; pi < 6; pi++ {
		for ph := 0; ph < numPhases; ph++ {
			for sq := 0; sq < 64; sq++ {
				destPstTab[ph][pi*64+sq] = w[offDPst+(ph*6+pi)*64+sq]
			}
		}
		if pi < 2 {
			for c := 0; c < 3; c++ {
				destThreatTab[pi][c] = w[offDThreat+pi*3+c]
			}
		}
		destNoThreatTab[pi%4] = w[offDThreat]
		for v := 0; v < 6; v++ {
			for cls := 0; cls < 6; cls++ {
				for def := 0; def < 2; def++ {
					for c := 0; c < 2; c++ {
						chk := chkNone
						if c == 1 {
							chk = chkSafe
							if cls != 0 {
								chk = chkAttacked
							}
						}
						destCapChkTab[pi][(v<<4|cls<<1|def)<<1|c] = w[offDCapture+((pi*6+v)*6+cls)*2+def] + w[offDCheck+pi*3+chk]
					}
				}
			}
		}
	}
}

// specialDests adds move m of piece pc (or the four promotions if it
// goes to the last rank) after the first n moves, scored from their
// features, and returns the new number of moves.
func (s *Scorer) specialDests(pc *Piece, m board.Move, n int, best *int32) int {
	from, to := m.From(), m.To()
	if pc.pt == board.Pawn && (to >= board.A8 || to <= board.H1) {
		for pt := board.Queen; pt >= board.Knight; pt-- {
			m := board.NewPromotion(from, to, pt)
			s.Moves[n&(MaxDests-1)] = m
			sc := s.destScore(pc, m)
			s.DScore[n&(MaxDests-1)] = sc
			*best = max(*best, sc)
			n++
		}
		return n
	}
	s.Moves[n&(MaxDests-1)] = m
	sc := s.destScore(pc, m)
	s.DScore[n&(MaxDests-1)] = sc
	*best = max(*best, sc)
	return n + 1
}

// destScore returns the score of move m of piece pc.
func (s *Scorer) destScore(pc *Piece, m board.Move) int32 {
	var sc int32
	for _, f := range s.DestFeatures(pc, m) {
		sc += destWeights[f]
	}
	return sc
}

// DestFeatures returns the features of move m of piece pc.
func (s *Scorer) DestFeatures(pc *Piece, m board.Move) (f [numDSlots]uint16) {
	st := &s.st
	pt := pc.pt
	pi := int(pt-1) % 6
	from, to := m.From(), m.To()
	fromR, toR := int(from^st.flip), int(to^st.flip)
	victim := int(s.pos.PieceAt(to).Type()) % 6
	spec := specNone
	after := pt
	attacksTo := true
	switch m.Kind() {
	case board.MovePromotion:
		after = m.Promotion()
		spec = specPromoN + int(after-board.Knight)
		attacksTo = (from^to)&7 != 0
	case board.MoveEnPassant:
		victim = int(board.Pawn)
	case board.MoveCastling:
		spec = specCastleK
		if to < from {
			spec = specCastleQ
		}
		attacksTo = false
	default:
		if pt == board.Pawn {
			attacksTo = (from^to)&7 != 0
		}
	}
	f[dslotPst] = uint16(offDPst + (st.ph*6+pi)*64 + toR)
	cls := st.class(to) % 6
	def := bit(st.uAtt, to)
	if attacksTo {
		def = bit(st.uAtt2, to)
	}
	f[dslotCapture] = uint16(offDCapture + ((pi*6+victim)*6+cls)*2 + def)
	chk := chkNone
	if has(st.checkSq[after&7], to) {
		chk = chkSafe
		if cls != 0 {
			chk = chkAttacked
		}
	}
	f[dslotCheck] = uint16(offDCheck + pi*3 + chk)
	rc := 0
	if victim != 0 && to == st.lastTo {
		rc = 1 + pi
	}
	f[dslotRecap] = uint16(offDRecap + st.lastCap*7 + rc)
	f[dslotSpecial] = uint16(offDSpecial + spec)
	switch after {
	case board.Pawn:
		f[dslotThreat] = uint16(offDThreat + min((board.PawnAttacks(st.us, to)&st.targets[board.Pawn]).Count(), 2))
	case board.Knight:
		f[dslotThreat] = uint16(offDThreat + 3 + min((board.KnightAttacks(to)&st.targets[board.Knight]).Count(), 2))
	default:
		f[dslotThreat] = uint16(offDThreat) // as a pawn attacking nothing
	}
	f[dslotFrom] = uint16(offDFrom)
	f[dslotFromDanger] = uint16(offDFromDanger + dFromDangerNone)
	if pt == board.Pawn {
		f[dslotFrom] = uint16(offDFrom + st.ph*64 + fromR)
		f[dslotFromDanger] = uint16(offDFromDanger + st.class(from)%6*2 + bit(st.uAtt, from))
	}
	return f
}
