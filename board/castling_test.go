package board

import (
	"errors"
	"strings"
	"testing"
)

// TestCastlingFEN checks X-FEN and Shredder-FEN castling fields: the mode
// they give, the castling squares and the FEN written back.
func TestCastlingFEN(t *testing.T) {
	for _, tc := range []struct {
		fen, out string // out: the FEN written back ("" for fen itself)
		mode     CastlingMode
		rooks    string // the rooks of the rights held, in KQkq order
	}{
		// Standard positions stay standard, whichever notation.
		{StartFEN, "", CastlingStandard, "h1 a1 h8 a8"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1", StartFEN, CastlingStandard, "h1 a1 h8 a8"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w AHah - 0 1", StartFEN, CastlingStandard, "h1 a1 h8 a8"},
		{"r3k2r/8/8/8/8/8/8/R3K2R w Hq - 0 1", "r3k2r/8/8/8/8/8/8/R3K2R w Kq - 0 1", CastlingStandard, "h1 a8"},
		// Q is the outermost rook: a1 here, not b1.
		{"4k3/8/8/8/8/8/8/RR2K3 w Q - 0 1", "", CastlingStandard, "a1"},
		// Chess960: rooks or king off a / h / e.
		{"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
			"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9", CastlingChess960, "h1 f1 h8 f8"},
		{"1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1", "1r2k1r1/8/8/8/8/8/8/1R2K1R1 w KQkq - 0 1", CastlingChess960, "g1 b1 g8 b8"},
		// An inner rook needs its file letter; the outer one keeps K / Q.
		{"4k3/8/8/8/8/8/8/RR2K2R w B - 0 1", "", CastlingChess960, "b1"},
		{"4k3/8/8/8/8/8/8/RR2K2R w KB - 0 1", "", CastlingChess960, "h1 b1"},
		{"rr2k2r/8/8/8/8/8/8/4K3 w b - 0 1", "", CastlingChess960, "b8"},
		{"4k3/8/8/8/8/8/8/R3KRR1 w FQ - 0 1", "4k3/8/8/8/8/8/8/R3KRR1 w FQ - 0 1", CastlingChess960, "f1 a1"},
		// X-FEN K with the king off e.
		{"4k3/8/8/8/8/8/8/1R3K1R w KQ - 0 1", "", CastlingChess960, "h1 b1"},
	} {
		p, err := ParseFEN(tc.fen)
		if err != nil {
			t.Errorf("ParseFEN(%q): %v", tc.fen, err)
			continue
		}
		want := tc.out
		if want == "" {
			want = tc.fen
		}
		if got := p.FEN(); got != want {
			t.Errorf("ParseFEN(%q).FEN() = %q, want %q", tc.fen, got, want)
		}
		if p.CastlingMode() != tc.mode {
			t.Errorf("%s: mode %v, want %v", tc.fen, p.CastlingMode(), tc.mode)
		}
		var rooks []string
		for i := 0; i < 4; i++ {
			if r := CastlingRights(1 << i); p.Castling()&r != 0 {
				_, rook := p.CastlingSquares(r)
				rooks = append(rooks, rook.String())
			}
		}
		if got := strings.Join(rooks, " "); got != tc.rooks {
			t.Errorf("%s: castling rooks %q, want %q", tc.fen, got, tc.rooks)
		}
		q, err := ParseFEN(p.FEN())
		if err != nil || q != p {
			t.Errorf("%s: FEN %q does not round-trip: %v", tc.fen, p.FEN(), err)
		}
	}
}

// TestCastlingFENErrors checks that an inconsistent castling field is
// refused with an error naming the problem.
func TestCastlingFENErrors(t *testing.T) {
	for _, tc := range []struct{ fen, want string }{
		{"4k3/8/8/8/8/8/8/R3K2R w E - 0 1", `'E' names the file of the white king`},
		{"4k3/8/8/8/8/8/8/R3K2R w G - 0 1", `'G' but no white rook on g1`},
		{"4k3/8/8/8/8/8/8/R3K2R w HK - 0 1", `'K' repeated`},
		{"4k3/8/8/8/8/8/8/R3K2R w KH - 0 1", `'H' gives the white king-side right twice`},
		{"4k3/8/8/8/8/8/4K3/R6R w H - 0 1", `'H' but no single white king on rank 1`},
		{"4k3/8/8/8/8/8/8/R4K2 w K - 0 1", `'K' but no white rook on the king side of the white king on f1`},
		{"4k3/8/8/8/8/8/8/R3K3 w K - 0 1", "castling right K but no white rook on h1"},
		{"4k3/8/8/8/8/8/8/R3K2R w KQx - 0 1", "unexpected 'x'"},
		{"4k3/8/8/8/8/8/8/R3K2R w KQ9 - 0 1", "unexpected '9'"},
	} {
		_, err := ParseFEN(tc.fen)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseFEN(%q) = %v, want an error containing %q", tc.fen, err, tc.want)
		}
	}
}

// TestChess960Castling plays castling moves of Chess960 positions through
// every notation: LegalMoves, UCI (king takes own rook, and the king's
// destination), SAN, Play and the rights that remain.
func TestChess960Castling(t *testing.T) {
	for _, tc := range []struct {
		fen, uci, alt, san, after string // alt: another UCI form of the move ("" if none)
	}{
		// King and rook swap squares (king f1, rook g1).
		{"b1q1rrkb/pppppppp/3nn3/8/P7/1PPP4/4PPPP/BQNNRKRB w GE - 1 9", "f1g1", "", "O-O",
			"b1q1rrkb/pppppppp/3nn3/8/P7/1PPP4/4PPPP/BQNNRRKB b - - 2 9"},
		// The king already on g1: only the rook moves.
		{"n1bb1rkr/qpnppppp/2p5/p7/P1P5/5P2/1P1PPRPP/NQBBN1KR w Hhf - 1 9", "g1h1", "", "O-O",
			"n1bb1rkr/qpnppppp/2p5/p7/P1P5/5P2/1P1PPRPP/NQBBNRK1 b kq - 2 9"},
		// A long king move: b1 to g1, written both ways.
		{"4k3/8/8/8/8/8/8/RK5R w KQ - 0 1", "b1h1", "b1g1", "O-O", "4k3/8/8/8/8/8/8/R4RK1 b - - 1 1"},
		{"4k3/8/8/8/8/8/8/RK5R w KQ - 0 1", "b1a1", "", "O-O-O", "4k3/8/8/8/8/8/8/2KR3R b - - 1 1"},
		// Black, queen side, with the rook on b8 and the king on d8.
		{"1r1k4/8/8/8/8/8/8/4K3 b q - 0 1", "d8b8", "", "O-O-O", "2kr4/8/8/8/8/8/8/4K3 w - - 1 2"},
	} {
		p, err := ParseFEN(tc.fen)
		if err != nil {
			t.Fatal(err)
		}
		if p.CastlingMode() != CastlingChess960 {
			t.Fatalf("%s: mode %v", tc.fen, p.CastlingMode())
		}
		m, err := p.ParseUCI(tc.uci)
		if err != nil {
			t.Fatalf("%s: ParseUCI(%s): %v", tc.fen, tc.uci, err)
		}
		if m.Kind() != MoveCastling || m.String() != tc.uci {
			t.Errorf("%s: ParseUCI(%s) = %v kind %d", tc.fen, tc.uci, m, m.Kind()>>14)
		}
		if tc.alt != "" {
			if m2, err := p.ParseUCI(tc.alt); err != nil || m2 != m {
				t.Errorf("%s: ParseUCI(%s) = %v, %v; want %v", tc.fen, tc.alt, m2, err, m)
			}
		}
		found := false
		for _, lm := range p.LegalMoves(nil) {
			found = found || lm == m
		}
		if !found {
			t.Errorf("%s: %v not among the legal moves", tc.fen, m)
		}
		if got := p.SAN(m); got != tc.san {
			t.Errorf("%s: SAN %q, want %q", tc.fen, got, tc.san)
		}
		if m2, err := p.ParseSAN([]byte(tc.san)); err != nil || m2 != m {
			t.Errorf("%s: ParseSAN(%s) = %v, %v", tc.fen, tc.san, m2, err)
		}
		q := p
		q.Play(m)
		if got := q.FEN(); got != tc.after {
			t.Errorf("%s after %s: %s, want %s", tc.fen, tc.san, got, tc.after)
		}
		if err := q.Validate(); err != nil {
			t.Errorf("%s after %s: %v", tc.fen, tc.san, err)
		}
	}

	// b1c1 is an ordinary king move here, not O-O-O.
	p, _ := ParseFEN("4k3/8/8/8/8/8/8/RK5R w KQ - 0 1")
	if m, err := p.ParseUCI("b1c1"); err != nil || m.Kind() != MoveNormal {
		t.Errorf("b1c1 = %v (kind %d), %v; want an ordinary king move", m, m.Kind()>>14, err)
	}
	// In a standard position e1g1 stays the castling move, e1h1 is no move.
	p = StartPosition()
	p, _ = ParseFEN("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
	if m, err := p.ParseUCI("e1g1"); err != nil || m != NewMove(E1, G1)|MoveCastling {
		t.Errorf("standard e1g1 = %v, %v", m, err)
	}
	if _, err := p.ParseUCI("e1h1"); err == nil {
		t.Errorf("standard e1h1 accepted")
	}
}

// TestChess960CastlingLegality checks the conditions of a Chess960 castling
// that standard chess never meets.
func TestChess960CastlingLegality(t *testing.T) {
	for _, tc := range []struct {
		fen   string
		move  string // the castling move
		legal bool
	}{
		// The castling rook on b1 shields c1 from the rook on a1: after
		// O-O-O the king on c1 would be in check.
		{"4k3/8/8/8/8/8/8/rR1K4 w B - 0 1", "d1b1", false},
		{"4k3/8/8/8/8/8/8/1R1K4 w B - 0 1", "d1b1", true},
		// The same with the king already on c1: it stays, but in check.
		{"4k3/8/8/8/8/8/8/rRK4R w Q - 0 1", "c1b1", false},
		{"4k3/8/8/8/8/8/8/1RK4R w Q - 0 1", "c1b1", true},
		// A piece between the rook and its destination (f1 for O-O).
		{"4k3/8/8/8/8/8/8/1K3NR1 w G - 0 1", "b1g1", false},
		{"4k3/8/8/8/8/8/8/1K4R1 w G - 0 1", "b1g1", true},
		// A square the king crosses attacked (d1 by the rook on d8).
		{"3rk3/8/8/8/8/8/8/1K4R1 w G - 0 1", "b1g1", false},
		// O-O-O from b1: the king goes to c1 only; the rook's destination
		// d1 may be attacked.
		{"3rk3/8/8/8/8/8/8/RK6 w A - 0 1", "b1a1", true},
		// In check: no castling.
		{"1r2k3/8/8/8/8/8/8/1K4R1 w G - 0 1", "b1g1", false},
	} {
		p, err := ParseFEN(tc.fen)
		if err != nil {
			t.Fatalf("%s: %v", tc.fen, err)
		}
		from := MakeSquare(int(tc.move[0]-'a'), int(tc.move[1]-'1'))
		to := MakeSquare(int(tc.move[2]-'a'), int(tc.move[3]-'1'))
		m := NewMove(from, to) | MoveCastling
		generated := false
		for _, lm := range p.LegalMoves(nil) {
			generated = generated || lm == m
		}
		if generated != tc.legal || p.IsLegal(m) != tc.legal {
			t.Errorf("%s: %s generated %v, IsLegal %v; want %v", tc.fen, tc.move, generated, p.IsLegal(m), tc.legal)
		}
		var ms MoveSets
		p.MoveSets(&ms)
		if ms.Castles.Has(to) != tc.legal {
			t.Errorf("%s: MoveSets.Castles has %v: %v, want %v", tc.fen, to, !tc.legal, tc.legal)
		}
	}
}

// TestChess960Rights checks that a right is lost when its rook moves or is
// taken, and both of a colour's when its king moves.
func TestChess960Rights(t *testing.T) {
	const fen = "1r2k1r1/8/8/8/8/8/8/1R2K1R1 w KQkq - 0 1"
	for _, tc := range []struct {
		uci, rights string
	}{
		{"b1b8", "Kk"},  // takes the b8 rook: Q (b1 moved) and q (b8 taken) gone
		{"g1g8", "Qq"},  // likewise on the g-file
		{"b1a1", "Kkq"}, // the rook moves
		{"e1d2", "kq"},  // the king moves
		{"g1h1", "Qkq"}, // a rook move sideways
	} {
		p, err := ParseFEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		m, err := p.ParseUCI(tc.uci)
		if err != nil {
			t.Fatalf("%s: %v", tc.uci, err)
		}
		p.Play(m)
		var got []byte
		for i := 0; i < 4; i++ {
			if p.Castling()&(1<<i) != 0 {
				got = append(got, rightLetters[i])
			}
		}
		if string(got) != tc.rights {
			t.Errorf("%s: rights %q, want %q", tc.uci, got, tc.rights)
		}
	}
}

// TestChess960Moves walks the Chess960 perft positions two plies deep and
// checks every move: IsLegal, SAN and UCI round trips, MoveSets, FEN round
// trip and Validate after it.
func TestChess960Moves(t *testing.T) {
	castles := 0
	var walk func(p *Position, depth int)
	walk = func(p *Position, depth int) {
		checkSets(t, p)
		for _, m := range p.LegalMoves(nil) {
			if m.Kind() == MoveCastling {
				castles++
			}
			if !p.IsLegal(m) {
				t.Fatalf("%s: IsLegal(%v) false", p.FEN(), m)
			}
			if got, err := p.ParseSAN([]byte(p.SAN(m))); err != nil || got != m {
				t.Fatalf("%s: SAN %s of %v: %v, %v", p.FEN(), p.SAN(m), m, got, err)
			}
			if got, err := p.ParseUCI(m.String()); err != nil || got != m {
				t.Fatalf("%s: UCI %v: %v, %v", p.FEN(), m, got, err)
			}
			q := *p
			q.Play(m)
			if err := q.Validate(); err != nil {
				t.Fatalf("%s after %v: %v", p.FEN(), m, err)
			}
			if depth > 1 {
				walk(&q, depth-1)
			}
		}
	}
	for _, tc := range chess960Perft {
		p, err := ParseFEN(tc.fen)
		if err != nil {
			t.Fatal(err)
		}
		walk(&p, 2)
	}
	if castles == 0 {
		t.Error("no castling move met")
	}
	t.Logf("%d castling moves", castles)
}

// TestIsLegalExhaustive960 checks IsLegal against LegalMoves for every Move
// value in the Chess960 perft positions.
func TestIsLegalExhaustive960(t *testing.T) {
	for _, tc := range chess960Perft {
		p, err := ParseFEN(tc.fen)
		if err != nil {
			t.Fatal(err)
		}
		legal := map[Move]bool{}
		for _, m := range p.LegalMoves(nil) {
			legal[m] = true
		}
		for v := 0; v < 1<<16; v++ {
			if m := Move(v); p.IsLegal(m) != legal[m] {
				t.Fatalf("%s: IsLegal(%v kind %d) = %v", tc.fen, m, m.Kind()>>14, !legal[m])
			}
		}
	}
}

// TestParseStandardFEN: the FEN reader of standard chess takes X-FEN and
// Shredder-FEN fields of the standard setup, and refuses Chess960 castling.
func TestParseStandardFEN(t *testing.T) {
	for _, fen := range []string{
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1",
	} {
		if p, err := ParseStandardFEN(fen); err != nil || p.CastlingMode() != CastlingStandard {
			t.Errorf("%s: %v, mode %v", fen, err, p.CastlingMode())
		}
	}
	const fen960 = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"
	if _, err := ParseFEN(fen960); err != nil {
		t.Fatalf("ParseFEN(%s): %v", fen960, err)
	}
	if _, err := ParseStandardFEN(fen960); !errors.Is(err, ErrChess960Castling) {
		t.Errorf("ParseStandardFEN(%s): %v, want ErrChess960Castling", fen960, err)
	}
}
