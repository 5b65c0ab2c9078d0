package board

import "fmt"

// SANError is the error returned by ParseSAN. It names the SAN text, the
// reason and the position it was parsed in.
type SANError struct {
	SAN    string // the text as given
	Reason string // what is wrong: unparsable, illegal, ambiguous, ...
	FEN    string // the position
	// Syntax is true when the text is not a SAN move at all; false when it
	// is well formed but names no single legal move here (illegal,
	// ambiguous, no such piece).
	Syntax bool
}

// Error implements the error interface.
func (e *SANError) Error() string {
	return fmt.Sprintf("board: SAN %q: %s (position %s)", e.SAN, e.Reason, e.FEN)
}

// sanError builds a *SANError. It is kept out of line so the success path
// of ParseSAN stays small and allocation-free.
//
//go:noinline
func (p *Position) sanError(s []byte, format string, args ...any) error {
	return p.newSANError(s, false, format, args...)
}

// sanSyntaxError builds a *SANError for text that is not SAN at all.
//
//go:noinline
func (p *Position) sanSyntaxError(s []byte, format string, args ...any) error {
	return p.newSANError(s, true, format, args...)
}

func (p *Position) newSANError(s []byte, syntax bool, format string, args ...any) error {
	if len(s) > 64 {
		s = s[:64]
	}
	reason := format
	if len(args) > 0 {
		reason = fmt.Sprintf(format, args...)
	}
	return &SANError{SAN: string(s), Reason: reason, FEN: p.FEN(), Syntax: syntax}
}

var pieceNames = [7]string{"", "pawn", "knight", "bishop", "rook", "queen", "king"}

// sanPieceType maps an upper-case SAN piece letter to its type.
func sanPieceType(c byte) PieceType {
	switch c {
	case 'N':
		return Knight
	case 'B':
		return Bishop
	case 'R':
		return Rook
	case 'Q':
		return Queen
	case 'K':
		return King
	}
	return NoPieceType
}

// promoPieceType maps a promotion letter, either case, to its type.
func promoPieceType(c byte) PieceType {
	switch c | 0x20 {
	case 'n':
		return Knight
	case 'b':
		return Bishop
	case 'r':
		return Rook
	case 'q':
		return Queen
	}
	return NoPieceType
}

func isFile(c byte) bool { return c >= 'a' && c <= 'h' }
func isRank(c byte) bool { return c >= '1' && c <= '8' }

// ParseSAN parses a move in Standard Algebraic Notation and checks that it
// is legal. It allocates nothing on success and does not generate all the
// legal moves: only pieces that can reach the target square are examined.
//
// Accepted beyond strict SAN, as real PGN files contain them: a missing or
// superfluous capture mark 'x', superfluous disambiguation (file, rank or
// full square, also for pawns, e.g. "e5xd6"), pawn captures without 'x'
// ("ed5"), promotions without '=' ("e8Q") or with a lower-case piece
// ("e8=q"), castling with zeros ("0-0", "0-0-0"), a trailing "e.p.", and
// trailing check, mate and annotation marks (+ # ! ?). Lower-case piece
// letters other than in a promotion are not accepted ("bc4" is a pawn
// move). The error, a *SANError, says whether the move is unparsable,
// illegal or ambiguous.
func (p *Position) ParseSAN(s []byte) (Move, error) {
	t := trimSANSuffix(s)
	if len(t) >= 6 && string(t[len(t)-4:]) == "e.p." {
		t = trimSANSuffix(t[:len(t)-4])
	}
	if len(t) < 2 {
		return NullMove, p.sanSyntaxError(s, "too short")
	}
	c := t[0]
	switch {
	case isFile(c):
		return p.parsePawnSAN(s, t)
	case c == 'O' || c == '0':
		return p.parseCastlingSAN(s, t)
	case c == 'P' && len(t) >= 3 && isFile(t[1]):
		return p.parsePawnSAN(s, t[1:]) // "Pe4": explicit pawn letter
	}
	pt := sanPieceType(c)
	if pt == NoPieceType {
		return NullMove, p.sanSyntaxError(s, "unexpected %q at the start, want a piece letter (NBRQK), a file or castling", c)
	}
	rest := t[1:]
	n := len(rest)
	if n < 2 || !isFile(rest[n-2]) || !isRank(rest[n-1]) {
		return NullMove, p.sanSyntaxError(s, "no target square at the end")
	}
	to := MakeSquare(int(rest[n-2]-'a'), int(rest[n-1]-'1'))
	mid := rest[:n-2]
	if len(mid) > 0 && mid[len(mid)-1] == 'x' {
		mid = mid[:len(mid)-1]
	}
	mask := ^Bitboard(0)
	switch len(mid) {
	case 0:
	case 1:
		switch d := mid[0]; {
		case isFile(d):
			mask = FileA << (d - 'a')
		case isRank(d):
			mask = Rank1 << (8 * (d - '1'))
		default:
			return NullMove, p.sanSyntaxError(s, "bad disambiguation %q", d)
		}
	case 2:
		if !isFile(mid[0]) || !isRank(mid[1]) {
			return NullMove, p.sanSyntaxError(s, "bad disambiguation %q", mid)
		}
		mask = Bitboard(1) << MakeSquare(int(mid[0]-'a'), int(mid[1]-'1'))
	default:
		return NullMove, p.sanSyntaxError(s, "unparsable")
	}

	us := p.side & 1
	toBB := Bitboard(1) << to
	if p.byColor[us]&toBB != 0 {
		return NullMove, p.sanError(s, "target square %v holds a piece of the side to move", to)
	}
	ksq := p.KingSquare(us)
	if ksq >= NoSquare {
		return NullMove, p.sanError(s, "no king")
	}
	occ := p.Occupied()
	var cands Bitboard
	switch pt {
	case Knight:
		cands = knightAttacks[to]
	case Bishop:
		cands = bishopAtt(to, occ)
	case Rook:
		cands = rookAtt(to, occ)
	case Queen:
		cands = bishopAtt(to, occ) | rookAtt(to, occ)
	case King:
		cands = kingAttacks[to]
	}
	cands &= p.byType[pt] & p.byColor[us]
	if cands == 0 {
		return NullMove, p.sanError(s, "no %s can move to %v", pieceNames[pt], to)
	}
	cands &= mask
	if cands == 0 {
		return NullMove, p.sanError(s, "no %s matching the disambiguation can move to %v", pieceNames[pt], to)
	}
	m := NullMove
	for cands != 0 {
		from := cands.PopLSB()
		if p.legalAfter(from, to, ksq) {
			if m != NullMove {
				return NullMove, p.sanError(s, "ambiguous: more than one %s can move to %v", pieceNames[pt], to)
			}
			m = NewMove(from, to)
		}
	}
	if m == NullMove {
		return NullMove, p.sanError(s, "illegal: the %s cannot move to %v without leaving the king in check", pieceNames[pt], to)
	}
	return m, nil
}

// trimSANSuffix removes trailing check, mate and annotation marks.
func trimSANSuffix(t []byte) []byte {
	for len(t) > 0 {
		switch t[len(t)-1] {
		case '+', '#', '!', '?':
			t = t[:len(t)-1]
			continue
		}
		break
	}
	return t
}

func (p *Position) parseCastlingSAN(s, t []byte) (Move, error) {
	var side int
	switch string(t) {
	case "O-O", "0-0":
		side = 0
	case "O-O-O", "0-0-0":
		side = 1
	default:
		return NullMove, p.sanSyntaxError(s, "unparsable castling")
	}
	m := p.castleMove(p.castle(int(p.side&1)*2 + side))
	if !p.IsLegal(m) {
		return NullMove, p.sanError(s, "illegal castling")
	}
	return m, nil
}

func (p *Position) parsePawnSAN(s, t []byte) (Move, error) {
	// Promotion suffix: a piece letter at the end, optionally after '='.
	promo := NoPieceType
	if n := len(t); !isRank(t[n-1]) {
		promo = promoPieceType(t[n-1])
		if promo == NoPieceType {
			return NullMove, p.sanSyntaxError(s, "unparsable pawn move")
		}
		t = t[:n-1]
		if n := len(t); n > 0 && t[n-1] == '=' {
			t = t[:n-1]
		}
	}
	n := len(t)
	if n < 2 || !isFile(t[n-2]) || !isRank(t[n-1]) {
		return NullMove, p.sanSyntaxError(s, "no target square")
	}
	to := MakeSquare(int(t[n-2]-'a'), int(t[n-1]-'1'))
	mid := t[:n-2]
	capture := false
	if len(mid) > 0 && mid[len(mid)-1] == 'x' {
		mid = mid[:len(mid)-1]
		capture = true
	}
	fromFile, fromRank := to.File(), -1
	if capture && len(mid) == 0 {
		return NullMove, p.sanSyntaxError(s, "pawn capture without the file it comes from")
	}
	switch len(mid) {
	case 0:
	case 2:
		if !isRank(mid[1]) {
			return NullMove, p.sanSyntaxError(s, "unparsable pawn move")
		}
		fromRank = int(mid[1] - '1')
		fallthrough
	case 1:
		if !isFile(mid[0]) {
			return NullMove, p.sanSyntaxError(s, "unparsable pawn move")
		}
		fromFile = int(mid[0] - 'a')
	default:
		return NullMove, p.sanSyntaxError(s, "unparsable pawn move")
	}
	if capture && fromFile == to.File() {
		return NullMove, p.sanSyntaxError(s, "unparsable pawn move: capture along the file")
	}

	us := p.side & 1
	ksq := p.KingSquare(us)
	if ksq >= NoSquare {
		return NullMove, p.sanError(s, "no king")
	}
	last := 7
	dir := -8 // from = to + dir for a single step
	if us == Black {
		last, dir = 0, 8
	}
	if (to.Rank() == last) != (promo != NoPieceType) {
		if promo == NoPieceType {
			return NullMove, p.sanError(s, "pawn move to the last rank without a promotion piece")
		}
		return NullMove, p.sanError(s, "promotion piece on a pawn move not to the last rank")
	}
	if int(to)+dir < 0 || int(to)+dir > 63 {
		return NullMove, p.sanError(s, "illegal: no pawn can move to %v", to)
	}
	ourPawns := p.byType[Pawn] & p.byColor[us]
	occ := p.Occupied()
	var from Square
	kind := MoveNormal
	switch fromFile - to.File() {
	case 0: // push
		if occ&(1<<to) != 0 {
			return NullMove, p.sanError(s, "illegal: %v is occupied", to)
		}
		from = Square(int(to) + dir)
		if ourPawns&(1<<from) == 0 {
			// double step: from the second rank over an empty square
			back := int(from) + dir
			if occ&(1<<from) != 0 || back < 0 || back > 63 || ourPawns&(1<<back) == 0 ||
				(us == White && to.Rank() != 3) || (us == Black && to.Rank() != 4) {
				return NullMove, p.sanError(s, "illegal: no pawn can move to %v", to)
			}
			from = Square(back)
		}
	case 1, -1: // capture
		from = Square(int(to) + dir + fromFile - to.File())
		if ourPawns&(1<<from) == 0 {
			return NullMove, p.sanError(s, "illegal: no pawn on %v to capture on %v", from, to)
		}
		if p.byColor[us^1]&(1<<to) == 0 {
			if to != p.ep {
				return NullMove, p.sanError(s, "illegal: nothing to capture on %v", to)
			}
			kind = MoveEnPassant
		}
	default:
		return NullMove, p.sanError(s, "illegal: a pawn cannot move from the %c-file to %v", 'a'+fromFile, to)
	}
	if fromRank >= 0 && from.Rank() != fromRank {
		return NullMove, p.sanError(s, "illegal: no pawn on %v can move to %v", MakeSquare(fromFile, fromRank), to)
	}
	switch kind {
	case MoveEnPassant:
		if !p.epLegal(from, ksq) {
			return NullMove, p.sanError(s, "illegal: en-passant capture leaves the king in check")
		}
		return NewMove(from, to) | MoveEnPassant, nil
	default:
		if !p.legalAfter(from, to, ksq) {
			return NullMove, p.sanError(s, "illegal: leaves the king in check")
		}
	}
	if promo != NoPieceType {
		return NewPromotion(from, to, promo), nil
	}
	return NewMove(from, to), nil
}

// SAN returns m in Standard Algebraic Notation (see AppendSAN).
func (p *Position) SAN(m Move) string {
	var buf [16]byte
	return string(p.AppendSAN(buf[:0], m))
}

// AppendSAN appends m, which must be legal in p, in Standard Algebraic
// Notation: piece letter, minimal disambiguation (file, else rank, else
// both), 'x' for captures, "=Q" style promotions, "O-O" / "O-O-O", and a
// '+' or '#' suffix. It allocates nothing when dst has room.
func (p *Position) AppendSAN(dst []byte, m Move) []byte {
	from, to := m.From(), m.To()
	us := p.side & 1
	pc := p.squares[from]
	pt := pc.Type()
	switch {
	case m.Kind() == MoveCastling:
		if to > from {
			dst = append(dst, "O-O"...)
		} else {
			dst = append(dst, "O-O-O"...)
		}
	case pt == Pawn:
		if from.File() != to.File() {
			dst = append(dst, 'a'+byte(from.File()), 'x')
		}
		dst = append(dst, 'a'+byte(to.File()), '1'+byte(to.Rank()))
		if promo := m.Promotion(); promo != NoPieceType {
			dst = append(dst, '=', pieceLetters[promo])
		}
	default:
		if pt < Pawn || pt > King {
			dst = append(dst, '?')
		} else {
			dst = append(dst, pieceLetters[pt])
		}
		if pt != King && pt >= Knight && pt <= Queen {
			others := attacksOf(pt, to, p.Occupied()) & p.byType[pt] & p.byColor[us] &^ (1 << from)
			ksq := p.KingSquare(us)
			var legal Bitboard
			for others != 0 {
				o := others.PopLSB()
				if ksq < NoSquare && p.legalAfter(o, to, ksq) {
					legal |= 1 << o
				}
			}
			if legal != 0 {
				if legal&FileBB(from.File()) == 0 {
					dst = append(dst, 'a'+byte(from.File()))
				} else if legal&RankBB(from.Rank()) == 0 {
					dst = append(dst, '1'+byte(from.Rank()))
				} else {
					dst = append(dst, 'a'+byte(from.File()), '1'+byte(from.Rank()))
				}
			}
		}
		if p.byColor[us^1]&(1<<to) != 0 {
			dst = append(dst, 'x')
		}
		dst = append(dst, 'a'+byte(to.File()), '1'+byte(to.Rank()))
	}
	q := *p
	q.Play(m)
	if q.InCheck() {
		if q.HasLegalMove() {
			dst = append(dst, '+')
		} else {
			dst = append(dst, '#')
		}
	}
	return dst
}
