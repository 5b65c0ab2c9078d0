package board

import (
	"errors"
	"strings"
	"testing"
)

func TestParseMove(t *testing.T) {
	const (
		castle = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
		promo  = "3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1"
		ep     = "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3"
		black  = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"
	)
	tests := []struct {
		fen, in string
		want    string // the move in UCI, or "" for an error
		errType string // "SAN" or "UCI" for an error
		msg     string // a part of the error's text
	}{
		{StartFEN, "Nf3", "g1f3", "", ""},
		{StartFEN, "e4", "e2e4", "", ""},
		{StartFEN, "Ng1-f3", "g1f3", "", ""},
		{StartFEN, "Ng1f3", "g1f3", "", ""},
		{StartFEN, "g1f3", "g1f3", "", ""},
		{StartFEN, "e2-e4", "e2e4", "", ""},
		{StartFEN, "Pe2-e4+!", "e2e4", "", ""},
		{StartFEN, "e2:e4", "e2e4", "", ""},
		{black, "d7-d5", "d7d5", "", ""},
		{ep, "e5xf6", "e5f6", "", ""},
		{ep, "e5f6", "e5f6", "", ""},
		{castle, "o-o", "e1g1", "", ""},
		{castle, "o-o-o", "e1c1", "", ""},
		{castle, "O-O", "e1g1", "", ""},
		{castle, "e1g1", "e1g1", "", ""},
		{castle, "Ke1-c1", "e1c1", "", ""},
		{promo, "e7-e8=Q", "e7e8q", "", ""},
		{promo, "e7xd8=N+", "e7d8n", "", ""},
		{promo, "e7e8q", "e7e8q", "", ""},
		{promo, "e7e8R", "e7e8r", "", ""},
		// Errors: coordinates that are not legal give ParseUCI's error,
		// anything else ParseSAN's.
		{StartFEN, "e2-e5", "", "UCI", "illegal move"},
		{StartFEN, "Ng1-f4", "", "UCI", "illegal move"},
		{promo, "e7-e8", "", "UCI", "promotion without a promotion piece"},
		{StartFEN, "o-o", "", "SAN", `"o-o"`},
		{castle, "o-o+", "", "SAN", `"o-o+"`},
		{StartFEN, "e7e8k", "", "SAN", ""},
		{StartFEN, "e2-e4-", "", "SAN", ""},
		{StartFEN, "Nf5", "", "SAN", "no knight"},
		{StartFEN, "xyz", "", "SAN", "unexpected"},
		{StartFEN, "", "", "SAN", "too short"},
	}
	for _, tc := range tests {
		p, err := ParseFEN(tc.fen)
		if err != nil {
			t.Fatal(err)
		}
		m, err := p.ParseMove([]byte(tc.in))
		if tc.want != "" {
			if err != nil || m.String() != tc.want || !p.IsLegal(m) {
				t.Errorf("%s: ParseMove(%q) = %v, %v; want %s", tc.fen, tc.in, m, err, tc.want)
			}
			continue
		}
		_, isSAN := errors.AsType[*SANError](err)
		_, isUCI := errors.AsType[*UCIError](err)
		if m != NullMove || isSAN != (tc.errType == "SAN") || isUCI != (tc.errType == "UCI") || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%s: ParseMove(%q) = %v, %v; want a %s error containing %q", tc.fen, tc.in, m, err, tc.errType, tc.msg)
		}
	}
}

// TestParseMoveAllForms checks that every legal move of many positions
// reads back from its SAN, UCI and long algebraic forms.
func TestParseMoveAllForms(t *testing.T) {
	var buf [MaxMoves]Move
	for _, p := range samplePositions(t, 500, 7) {
		for _, m := range p.LegalMoves(buf[:0]) {
			for _, s := range moveForms(&p, m) {
				if got, err := p.ParseMove([]byte(s)); err != nil || got != m {
					t.Fatalf("%s: ParseMove(%q) = %v, %v; want %v", p.FEN(), s, got, err, m)
				}
			}
		}
	}
}

// moveForms returns m in SAN, UCI and long algebraic notation (with and
// without the piece letter, '-' or 'x', "=Q" promotions), and as
// lower-case castling.
func moveForms(p *Position, m Move) []string {
	uci := m.String()
	from, to := uci[:2], uci[2:4]
	sep := "-"
	if p.PieceAt(m.To()) != NoPiece || m.Kind() == MoveEnPassant {
		sep = "x"
	}
	piece := ""
	if pt := p.PieceAt(m.From()).Type(); pt != Pawn {
		piece = string(pieceLetters[pt])
	}
	promo := ""
	if pt := m.Promotion(); pt != NoPieceType {
		promo = "=" + string(pieceLetters[pt])
	}
	forms := []string{p.SAN(m), uci, uci[:4] + strings.ToUpper(uci[4:]), piece + from + sep + to + promo, from + to + promo + "+"}
	if m.Kind() == MoveCastling {
		forms = append(forms, strings.ToLower(p.SAN(m)))
	}
	return forms
}

func FuzzParseMove(f *testing.F) {
	for _, s := range []struct{ fen, in string }{
		{StartFEN, "Ng1-f3"}, {StartFEN, "g1f3"}, {StartFEN, "e2:e4"}, {StartFEN, "Pe2-e4+"},
		{"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "o-o-o"},
		{"3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7xd8=N"},
		{"3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7-e8"},
		{"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", "e5xf6"},
	} {
		f.Add(s.fen, []byte(s.in))
	}
	for _, s := range trickySANs(f, 20) {
		f.Add(s.fen, []byte(s.san))
	}
	f.Fuzz(func(t *testing.T, fen string, s []byte) {
		p, err := ParseFEN(fen)
		if err != nil {
			p = StartPosition()
		}
		m, err := p.ParseMove(s)
		if err != nil {
			_, isSAN := errors.AsType[*SANError](err)
			_, isUCI := errors.AsType[*UCIError](err)
			if m != NullMove || !isSAN && !isUCI {
				t.Fatalf("%s: ParseMove(%q) = %v, %v", p.FEN(), s, m, err)
			}
		}
		// ParseMove takes every move ParseSAN and ParseUCI take, as they read it.
		if sm, err := p.ParseSAN(s); err == nil && sm != m {
			t.Fatalf("%s: ParseMove(%q) = %v, ParseSAN gives %v", p.FEN(), s, m, sm)
		}
		if um, err := p.ParseUCI(string(s)); err == nil && um != m {
			t.Fatalf("%s: ParseMove(%q) = %v, ParseUCI gives %v", p.FEN(), s, m, um)
		}
		if m == NullMove {
			return
		}
		found := false
		var buf [MaxMoves]Move
		for _, l := range p.LegalMoves(buf[:0]) {
			found = found || l == m
		}
		if !found {
			t.Fatalf("%s: ParseMove(%q) = %v, not a legal move", p.FEN(), s, m)
		}
	})
}
