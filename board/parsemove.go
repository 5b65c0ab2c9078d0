package board

import "strings"

// ParseMove parses a move written in any of the notations that PGN files
// and people use, and checks that it is legal in p:
//   - SAN, with everything ParseSAN accepts ("Nf3", "exd6", "O-O", "e8=Q+");
//   - long algebraic notation: an optional piece letter (KQRBNP), the from
//     square, an optional '-', 'x' or ':', the to square and a promotion
//     piece with or without '=' ("Ng1-f3", "d6xe5", "e7-e8=Q"), with
//     trailing check and annotation marks (+ # ! ?);
//   - UCI ("g1f3", "e7e8q"; castling as the king's move "e1g1");
//   - lower-case castling, exactly "o-o" or "o-o-o".
//
// SAN is tried first, so ParseMove takes every move ParseSAN takes and
// returns the same move for it. When s is written in coordinates (long
// algebraic or UCI) but is not legal here, the error is ParseUCI's
// *UCIError for the move's UCI form; otherwise it is ParseSAN's *SANError
// for s. ParseSAN stays the fast path: call it when the moves are SAN.
func (p *Position) ParseMove(s []byte) (Move, error) {
	m, err := p.ParseSAN(s)
	if err == nil {
		return m, nil
	}
	if string(s) == "o-o" || string(s) == "o-o-o" {
		if m, cerr := p.ParseSAN([]byte(strings.ToUpper(string(s)))); cerr == nil {
			return m, nil
		}
		return NullMove, err
	}
	var buf [5]byte
	uci, ok := longAlgebraicToUCI(buf[:0], s)
	if !ok {
		return NullMove, err
	}
	return p.ParseUCI(string(uci))
}

// longAlgebraicToUCI appends to dst the UCI form of s, a move in long
// algebraic notation or UCI (see ParseMove), with a lower-case promotion
// piece. It reports false when s is neither; it does not check that the
// move is legal.
func longAlgebraicToUCI(dst, s []byte) ([]byte, bool) {
	s = trimSANSuffix(s)
	if len(s) > 0 && strings.IndexByte("KQRBNP", s[0]) >= 0 {
		s = s[1:]
	}
	if len(s) < 4 || !isFile(s[0]) || !isRank(s[1]) {
		return dst, false
	}
	dst = append(dst, s[0], s[1])
	s = s[2:]
	if s[0] == '-' || s[0] == 'x' || s[0] == ':' {
		s = s[1:]
	}
	if len(s) < 2 || !isFile(s[0]) || !isRank(s[1]) {
		return dst, false
	}
	dst = append(dst, s[0], s[1])
	s = s[2:]
	if len(s) > 0 && s[0] == '=' {
		s = s[1:]
	}
	switch {
	case len(s) == 0:
		return dst, true
	case len(s) == 1 && promoPieceType(s[0]) != NoPieceType:
		return append(dst, s[0]|0x20), true
	}
	return dst, false
}
