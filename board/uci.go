package board

import "fmt"

// String returns the move in UCI notation ("e2e4", "e7e8q", "e1g1" for
// castling in a standard position, king takes own rook "e1h1" in a
// Chess960 one: the Move's own squares), or "0000" for NullMove.
func (m Move) String() string {
	var buf [5]byte
	return string(m.AppendUCI(buf[:0]))
}

// AppendUCI appends the move in UCI notation to dst ("0000" for NullMove).
func (m Move) AppendUCI(dst []byte) []byte {
	if m == NullMove {
		return append(dst, "0000"...)
	}
	from, to := m.From(), m.To()
	dst = append(dst, 'a'+byte(from.File()), '1'+byte(from.Rank()), 'a'+byte(to.File()), '1'+byte(to.Rank()))
	if promo := m.Promotion(); promo != NoPieceType {
		dst = append(dst, "  nbrq"[promo])
	}
	return dst
}

// UCIError is the error returned by ParseUCI, and by ParseMove for a move
// written in coordinates. It names the move, the reason and the position
// it was parsed in.
type UCIError struct {
	UCI    string // the move in UCI notation (for ParseMove, its UCI form)
	Reason string // what is wrong: unparsable squares, illegal move, ...
	FEN    string // the position
	// Syntax is true when the text is not a UCI move at all; false when it
	// is well formed but not legal here.
	Syntax bool
}

// Error implements the error interface.
func (e *UCIError) Error() string {
	return fmt.Sprintf("board: UCI move %q: %s (position %s)", e.UCI, e.Reason, e.FEN)
}

// uciError builds a ParseUCI error for a well-formed move.
//
//go:noinline
func (p *Position) uciError(s string, reason string) error {
	return p.newUCIError(s, false, reason)
}

// uciSyntaxError builds a ParseUCI error for text that is no UCI move.
//
//go:noinline
func (p *Position) uciSyntaxError(s string, reason string) error {
	return p.newUCIError(s, true, reason)
}

func (p *Position) newUCIError(s string, syntax bool, reason string) error {
	if len(s) > 64 {
		s = s[:64]
	}
	return &UCIError{UCI: s, Reason: reason, FEN: p.FEN(), Syntax: syntax}
}

// ParseUCI parses a move in UCI notation ("e2e4", "e7e8q"; castling as the
// king's move "e1g1" in a standard position; in a Chess960 position as king
// takes own rook "e1h1", as UCI_Chess960 writes it, or as the king's move to
// its castling destination when that is no ordinary king move) and checks
// that it is legal in p. An upper-case
// promotion letter is accepted. "0000" (the null move) is rejected. The
// error is a *UCIError.
func (p *Position) ParseUCI(s string) (Move, error) {
	if len(s) != 4 && len(s) != 5 {
		return NullMove, p.uciSyntaxError(s, "want 4 or 5 characters")
	}
	if !isFile(s[0]) || !isRank(s[1]) || !isFile(s[2]) || !isRank(s[3]) {
		if s == "0000" {
			return NullMove, p.uciSyntaxError(s, "null move is not a legal move")
		}
		return NullMove, p.uciSyntaxError(s, "unparsable squares")
	}
	from := MakeSquare(int(s[0]-'a'), int(s[1]-'1'))
	to := MakeSquare(int(s[2]-'a'), int(s[3]-'1'))
	pc := p.squares[from]
	var m Move
	switch {
	case len(s) == 5:
		promo := promoPieceType(s[4])
		if promo == NoPieceType {
			return NullMove, p.uciSyntaxError(s, "bad promotion piece")
		}
		m = NewPromotion(from, to, promo)
	case p.mode == CastlingChess960 && pc.Type() == King && pc.Color() == p.side&1:
		m = p.parseCastlingUCI960(from, to)
	case pc.Type() == King && (from == E1 || from == E8) && (to == from+2 || to == from-2):
		m = NewMove(from, to) | MoveCastling
	case pc.Type() == Pawn && to == p.ep && from.File() != to.File():
		m = NewMove(from, to) | MoveEnPassant
	default:
		m = NewMove(from, to)
	}
	if !p.IsLegal(m) {
		if pc.Type() == Pawn && len(s) == 4 && (to.Rank() == 0 || to.Rank() == 7) && p.IsLegal(NewPromotion(from, to, Queen)) {
			return NullMove, p.uciError(s, "promotion without a promotion piece")
		}
		return NullMove, p.uciError(s, "illegal move")
	}
	return m, nil
}

// parseCastlingUCI960 returns the king's move from one square to another
// in a Chess960 position: castling when it takes its own rook, or when it
// goes to the destination of one of its castlings and is no legal ordinary
// king move; else the ordinary move.
func (p *Position) parseCastlingUCI960(from, to Square) Move {
	us := p.side & 1
	if p.squares[to] == MakePiece(us, Rook) {
		return NewMove(from, to) | MoveCastling
	}
	m := NewMove(from, to)
	if p.IsLegal(m) {
		return m
	}
	for i := 2 * int(us); i < 2*int(us)+2; i++ {
		if ci := p.castle(i); p.castling&(1<<i) != 0 && ci.king == from && ci.kingTo == to {
			return p.castleMove(ci)
		}
	}
	return m
}
