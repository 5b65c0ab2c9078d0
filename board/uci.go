package board

import "fmt"

// String returns the move in UCI notation ("e2e4", "e7e8q", "e1g1" for
// castling), or "0000" for NullMove.
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
// king's move "e1g1") and checks that it is legal in p. An upper-case
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
