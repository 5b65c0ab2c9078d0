package board

import (
	"testing"
)

func FuzzParseFEN(f *testing.F) {
	for _, fen := range goodFENs {
		f.Add(fen)
	}
	for _, tc := range badFENs {
		f.Add(tc.fen)
	}
	for _, fen := range trickyFENs(f) { // FEN tags and FEN-like text of the tricky files
		f.Add(fen)
	}
	f.Fuzz(func(t *testing.T, fen string) {
		p, err := ParseFEN(fen)
		if err != nil {
			return
		}
		if err := p.Validate(); err != nil {
			t.Fatalf("ParseFEN(%q) accepted a position Validate rejects: %v", fen, err)
		}
		out := p.FEN()
		q, err := ParseFEN(out)
		if err != nil || q != p {
			t.Fatalf("FEN %q does not round-trip: %v", out, err)
		}
		// Everything downstream must work on an accepted position.
		var buf [MaxMoves]Move
		for _, m := range p.LegalMoves(buf[:0]) {
			r := p
			r.Play(m)
			if err := r.Validate(); err != nil {
				t.Fatalf("%s after %v: %v", out, m, err)
			}
			if got, err := p.ParseSAN([]byte(p.SAN(m))); err != nil || got != m {
				t.Fatalf("%s: SAN of %v does not round-trip: %v", out, m, err)
			}
		}
		p.LegalEPSquare()
		p.PolyglotEPFile()
	})
}

func FuzzParseSAN(f *testing.F) {
	seeds := []struct{ fen, san string }{
		{StartFEN, "e4"}, {StartFEN, "Nf3+"}, {StartFEN, "O-O"}, {StartFEN, "exd5"},
		{"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "0-0-0"},
		{"4k3/8/8/8/8/Q1Q5/8/Q3K3 w - - 0 1", "Qa3b2"},
		{"3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1", "exd8=Q+"},
		{"3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1", "e8q"},
		{"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", "exf6e.p."},
		{"4k3/8/8/8/1b6/2N5/8/4K1N1 w - - 0 1", "Nce2"},
		{"4k3/8/R7/8/8/8/8/R3K3 w - - 0 1", "R6a3!?"},
	}
	for _, s := range seeds {
		f.Add(s.fen, []byte(s.san))
	}
	// Move tokens of the games of the tricky files, in the positions
	// where they were written.
	for _, s := range trickySANs(f, 20) {
		f.Add(s.fen, []byte(s.san))
	}
	f.Fuzz(func(t *testing.T, fen string, san []byte) {
		p, err := ParseFEN(fen)
		if err != nil {
			p = StartPosition()
		}
		m, err := p.ParseSAN(san)
		if err != nil {
			if m != NullMove {
				t.Fatalf("ParseSAN(%q) returned %v with error %v", san, m, err)
			}
			return
		}
		if !p.IsLegal(m) {
			t.Fatalf("%s: ParseSAN(%q) = %v, not legal", p.FEN(), san, m)
		}
		found := false
		var buf [MaxMoves]Move
		for _, l := range p.LegalMoves(buf[:0]) {
			found = found || l == m
		}
		if !found {
			t.Fatalf("%s: ParseSAN(%q) = %v, not generated", p.FEN(), san, m)
		}
		if got, err := p.ParseSAN([]byte(p.SAN(m))); err != nil || got != m {
			t.Fatalf("%s: SAN of %v does not round-trip: %v", p.FEN(), m, err)
		}
		// ParseUCI must not panic on the same bytes either.
		if u, err := p.ParseUCI(string(san)); err == nil && !p.IsLegal(u) {
			t.Fatalf("ParseUCI(%q) = %v, not legal", san, u)
		}
	})
}

func FuzzParseUCI(f *testing.F) {
	for _, s := range []string{"e2e4", "e7e8q", "e1g1", "0000", "a7a8N", "h2h1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, fen := range []string{StartFEN, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1"} {
			p, _ := ParseFEN(fen)
			m, err := p.ParseUCI(s)
			if err == nil && (!p.IsLegal(m) || m.String() != toLowerASCII(s)) {
				t.Fatalf("%s: ParseUCI(%q) = %v", fen, s, m)
			}
		}
	})
}

func toLowerASCII(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 32
		}
	}
	return string(b)
}
