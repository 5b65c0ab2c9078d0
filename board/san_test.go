package board

import (
	"errors"
	"math/rand"
	"strings"
	"testing"
)

// samplePositions returns the perft-suite positions and positions reached
// from them by seeded random playouts, n in all (deterministic).
func samplePositions(tb testing.TB, n int, seed int64) []Position {
	tb.Helper()
	rng := rand.New(rand.NewSource(seed))
	var out []Position
	var bases []Position
	for _, fen := range goodFENs {
		p, err := ParseFEN(fen)
		if err != nil {
			tb.Fatal(err)
		}
		bases = append(bases, p)
		out = append(out, p)
	}
	buf := make([]Move, 0, MaxMoves)
	for len(out) < n {
		p := bases[rng.Intn(len(bases))]
		plies := 20 + rng.Intn(120)
		for i := 0; i < plies && len(out) < n; i++ {
			buf = p.LegalMoves(buf[:0])
			if len(buf) == 0 {
				break
			}
			p.Play(pickMove(rng, &p, buf))
			out = append(out, p)
		}
	}
	return out
}

var kindName = [4]string{"normal", "promotion", "en-passant", "castling"}

func TestSANAndUCIRoundTrip(t *testing.T) {
	positions := samplePositions(t, 3000, 1)
	var moves []Move
	var sanBuf, uciBuf []byte
	nMoves := 0
	kinds := map[string]int{}
	for _, p := range positions {
		moves = p.LegalMoves(moves[:0])
		seen := map[string]Move{}
		for _, m := range moves {
			nMoves++
			kinds[kindName[m.Kind()>>14]]++
			if !p.IsLegal(m) {
				t.Fatalf("%s: IsLegal(%v) = false for a generated move", p.FEN(), m)
			}
			sanBuf = p.AppendSAN(sanBuf[:0], m)
			san := string(sanBuf)
			if prev, dup := seen[san]; dup {
				t.Fatalf("%s: moves %v and %v both give SAN %q", p.FEN(), prev, m, san)
			}
			seen[san] = m
			got, err := p.ParseSAN(sanBuf)
			if err != nil || got != m {
				t.Fatalf("%s: ParseSAN(%q) = %v, %v; want %v", p.FEN(), san, got, err, m)
			}
			if p.SAN(m) != san {
				t.Fatalf("SAN and AppendSAN differ")
			}
			uciBuf = m.AppendUCI(uciBuf[:0])
			if string(uciBuf) != m.String() {
				t.Fatalf("AppendUCI %q != String %q", uciBuf, m.String())
			}
			got, err = p.ParseUCI(m.String())
			if err != nil || got != m {
				t.Fatalf("%s: ParseUCI(%q) = %v, %v; want %v", p.FEN(), m.String(), got, err, m)
			}
			// Check suffix is right.
			q := p
			q.Play(m)
			if err := q.Validate(); err != nil {
				t.Fatalf("%s after %s: %v", p.FEN(), san, err)
			}
			wantSuffix := ""
			if q.InCheck() {
				wantSuffix = "+"
				if !q.HasLegalMove() {
					wantSuffix = "#"
				}
			}
			hasSuffix := ""
			if c := san[len(san)-1]; c == '+' || c == '#' {
				hasSuffix = string(c)
			}
			if hasSuffix != wantSuffix {
				t.Fatalf("%s: SAN %q has suffix %q, want %q", p.FEN(), san, hasSuffix, wantSuffix)
			}
		}
	}
	t.Logf("%d positions, %d moves, kinds: %v", len(positions), nMoves, kinds)
	for _, k := range kindName {
		if kinds[k] == 0 {
			t.Errorf("sample has no %s move", k)
		}
	}
}

// TestIsLegalExhaustive checks IsLegal against LegalMoves for every one of
// the 65536 Move values in a sample of positions.
func TestIsLegalExhaustive(t *testing.T) {
	n := 300
	if testing.Short() {
		n = 60
	}
	for _, p := range samplePositions(t, n, 2) {
		legal := map[Move]bool{}
		for _, m := range p.LegalMoves(nil) {
			legal[m] = true
		}
		count := 0
		for v := 0; v < 1<<16; v++ {
			m := Move(v)
			got := p.IsLegal(m)
			if got != legal[m] {
				t.Fatalf("%s: IsLegal(%v kind %d) = %v, want %v", p.FEN(), m, m.Kind()>>14, got, legal[m])
			}
			if got {
				count++
			}
		}
		if count != len(legal) {
			t.Fatalf("%s: %d legal by IsLegal, %d generated", p.FEN(), count, len(legal))
		}
	}
}

func TestParseSANTricky(t *testing.T) {
	tests := []struct {
		fen  string
		san  string
		want string // UCI, or "" for an error
		msg  string // fragment of the error
	}{
		// File disambiguation.
		{"4k3/8/8/8/8/8/4K3/R6R w - - 0 1", "Rad1", "a1d1", ""},
		{"4k3/8/8/8/8/8/4K3/R6R w - - 0 1", "Rhd1", "h1d1", ""},
		{"4k3/8/8/8/8/8/4K3/R6R w - - 0 1", "Rd1", "", "ambiguous"},
		{"4k3/8/8/8/8/8/4K3/R6R w - - 0 1", "R1d1", "", "ambiguous"},
		{"4k3/8/8/8/8/8/4K3/R6R w - - 0 1", "Ra1d1", "a1d1", ""},
		{"4k3/8/8/8/8/8/4K3/R6R w - - 0 1", "Ra1xd1", "a1d1", ""},
		{"4k3/8/8/8/8/8/4K3/R6R w - - 0 1", "Rbd1", "", "disambiguation"},
		// Rank disambiguation.
		{"4k3/8/R7/8/8/8/8/R3K3 w - - 0 1", "R6a3", "a6a3", ""},
		{"4k3/8/R7/8/8/8/8/R3K3 w - - 0 1", "R1a3", "a1a3", ""},
		{"4k3/8/R7/8/8/8/8/R3K3 w - - 0 1", "Raa3", "", "ambiguous"},
		{"4k3/8/R7/8/8/8/8/R3K3 w - - 0 1", "Ra3", "", "ambiguous"},
		// Square disambiguation: three queens reach b2.
		{"4k3/8/8/8/8/Q1Q5/8/Q3K3 w - - 0 1", "Qa3b2", "a3b2", ""},
		{"4k3/8/8/8/8/Q1Q5/8/Q3K3 w - - 0 1", "Qab2", "", "ambiguous"},
		{"4k3/8/8/8/8/Q1Q5/8/Q3K3 w - - 0 1", "Q3b2", "", "ambiguous"},
		{"4k3/8/8/8/8/Q1Q5/8/Q3K3 w - - 0 1", "Qcb2", "c3b2", ""},
		{"4k3/8/8/8/8/Q1Q5/8/Q3K3 w - - 0 1", "Q1b2", "a1b2", ""},
		// The pinned knight does not count for disambiguation.
		{"4k3/8/8/8/1b6/2N5/8/4K1N1 w - - 0 1", "Ne2", "g1e2", ""},
		{"4k3/8/8/8/1b6/2N5/8/4K1N1 w - - 0 1", "Nge2", "g1e2", ""},
		{"4k3/8/8/8/1b6/2N5/8/4K1N1 w - - 0 1", "Nce2", "", "illegal"},
		// Capture marks: missing and superfluous.
		{"4k3/8/8/3p4/8/2N5/8/4K3 w - - 0 1", "Nxd5", "c3d5", ""},
		{"4k3/8/8/3p4/8/2N5/8/4K3 w - - 0 1", "Nd5", "c3d5", ""},
		{"4k3/8/8/3p4/8/2N5/8/4K3 w - - 0 1", "Nxe4", "c3e4", ""},
		// Promotions.
		{"3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1", "e8=Q+", "e7e8q", ""},
		{"3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1", "e8Q", "e7e8q", ""},
		{"3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1", "e8=q", "e7e8q", ""},
		{"3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1", "e8n", "e7e8n", ""},
		{"3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1", "e8=B", "e7e8b", ""},
		{"3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1", "exd8=R+", "e7d8r", ""},
		{"3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1", "exd8N", "e7d8n", ""},
		{"3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1", "ed8=Q", "e7d8q", ""},
		{"3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1", "e8", "", "without a promotion piece"},
		{"3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1", "e8=K", "", "unparsable"},
		{"3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1", "e8=", "", "unparsable"},
		{"3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1", "e8=P", "", "unparsable"},
		{"4k3/8/8/8/8/8/p7/4K3 b - - 0 1", "a1=Q+", "a2a1q", ""},
		{"4k3/8/8/8/8/8/p7/4K3 b - - 0 1", "a1Q", "a2a1q", ""},
		{"4k3/8/8/8/8/P7/8/4K3 w - - 0 1", "a4=Q", "", "not to the last rank"},
		// Castling, with letters and zeros.
		{"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "O-O", "e1g1", ""},
		{"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "0-0", "e1g1", ""},
		{"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "O-O-O", "e1c1", ""},
		{"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "0-0-0", "e1c1", ""},
		{"r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "O-O+", "e8g8", ""},
		{"r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "0-0-0!", "e8c8", ""},
		{"r3k2r/8/8/8/8/8/8/R3K2R w Kkq - 0 1", "O-O-O", "", "illegal castling"},
		{"r3k2r/8/8/8/8/8/5r2/R3K2R w KQkq - 0 1", "O-O", "", "illegal castling"}, // in check
		{"r3k2r/8/8/8/8/8/6r1/R3K2R w KQkq - 0 1", "O-O", "", "illegal castling"}, // g1 attacked
		{"r3k2r/8/8/8/8/8/1r6/R3K2R w KQkq - 0 1", "O-O-O", "e1c1", ""},           // only b1 attacked
		{"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "O-0", "", "unparsable castling"},
		{"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "O-O-O-O", "", "unparsable castling"},
		// En passant.
		{"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", "exf6", "e5f6", ""},
		{"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", "exf6e.p.", "e5f6", ""},
		{"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", "ef6", "e5f6", ""},
		{"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", "e5xf6", "e5f6", ""},
		{"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", "exd6", "", "nothing to capture"},
		{"8/8/8/K2pP2r/8/8/8/7k w - d6 0 1", "exd6", "", "en-passant capture leaves the king in check"},
		// Suffixes and the explicit pawn letter.
		{StartFEN, "Nf3+", "g1f3", ""},
		{StartFEN, "Nf3!?", "g1f3", ""},
		{StartFEN, "Nf3??", "g1f3", ""},
		{StartFEN, "e4#!", "e2e4", ""},
		{StartFEN, "e2e4", "e2e4", ""},
		{StartFEN, "Pe4", "e2e4", ""},
		{StartFEN, "e3", "e2e3", ""},
		{StartFEN, "Ng1f3", "g1f3", ""},
		// Errors.
		{StartFEN, "", "", "too short"},
		{StartFEN, "+", "", "too short"},
		{StartFEN, "e", "", "too short"},
		{StartFEN, "e5", "", "no pawn can move to e5"},
		{StartFEN, "e1", "", "illegal"},
		{StartFEN, "h1", "", "illegal"},
		{StartFEN, "a2", "", "illegal"},
		{"4k3/8/8/8/8/8/p7/4K3 b - - 0 1", "a8", "", "illegal"},
		{StartFEN, "exd5", "", "no pawn on e4"},
		{StartFEN, "exe4", "", "unparsable"},
		{StartFEN, "xe4", "", "unexpected"},
		{StartFEN, "axc3", "", "cannot move from the a-file"},
		{StartFEN, "Nf9", "", "no target square"},
		{StartFEN, "Ni3", "", "no target square"},
		{StartFEN, "N", "", "too short"},
		{StartFEN, "Nf", "", "no target square"},
		{StartFEN, "Nxf3xx", "", "no target square"},
		{StartFEN, "Nf3 ", "", "no target square"},
		{StartFEN, "Ngg1f3", "", "unparsable"},
		{StartFEN, "Zf3", "", "unexpected"},
		{StartFEN, "nf3", "", "unexpected"},
		{StartFEN, "N@f3", "", "bad disambiguation"},
		{StartFEN, "--", "", "unexpected"},
		{StartFEN, "Nd2", "", "holds a piece of the side to move"},
		{StartFEN, "Bb5", "", "no bishop can move to b5"},
		{StartFEN, "Ke2", "", "holds a piece"},
		{StartFEN, "Qh5", "", "no queen"},
		{StartFEN, "O-O", "", "illegal castling"},
		{StartFEN, "e4=Q", "", "not to the last rank"},
		{StartFEN, "e8=Q", "", "illegal"},
		{StartFEN, "e2e5", "", "illegal"},
		{"4k3/8/8/8/8/8/8/4K2r w - - 0 1", "Kf2", "e1f2", ""},
		{"4k3/8/8/8/8/8/8/4K2r w - - 0 1", "Kd1", "", "illegal"}, // x-ray through the king's square
		{"4k3/8/8/8/8/8/8/4K2r w - - 0 1", "Kxf1", "", "illegal"},
	}
	for _, tc := range tests {
		p, err := ParseFEN(tc.fen)
		if err != nil {
			t.Fatalf("ParseFEN(%q): %v", tc.fen, err)
		}
		m, err := p.ParseSAN([]byte(tc.san))
		if tc.want == "" {
			if err == nil {
				t.Errorf("%s: ParseSAN(%q) = %v, want error containing %q", tc.fen, tc.san, m, tc.msg)
				continue
			}
			var se *SANError
			if !errors.As(err, &se) || se.SAN != tc.san || se.FEN != tc.fen {
				t.Errorf("ParseSAN(%q) error %#v is not a proper *SANError", tc.san, err)
			}
			if !strings.Contains(err.Error(), tc.msg) || !strings.Contains(err.Error(), tc.san) {
				t.Errorf("%s: ParseSAN(%q) error %q, want it to contain %q", tc.fen, tc.san, err, tc.msg)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: ParseSAN(%q): %v", tc.fen, tc.san, err)
			continue
		}
		if m.String() != tc.want {
			t.Errorf("%s: ParseSAN(%q) = %v, want %v", tc.fen, tc.san, m, tc.want)
		}
		if !p.IsLegal(m) {
			t.Errorf("%s: ParseSAN(%q) returned illegal %v", tc.fen, tc.san, m)
		}
	}
}

func TestAppendSAN(t *testing.T) {
	tests := []struct{ fen, uci, san string }{
		{StartFEN, "g1f3", "Nf3"},
		{StartFEN, "e2e4", "e4"},
		{"4k3/8/8/8/8/8/4K3/R6R w - - 0 1", "a1d1", "Rad1"},
		{"4k3/8/R7/8/8/8/8/R3K3 w - - 0 1", "a6a3", "R6a3"},
		{"4k3/8/8/8/8/Q1Q5/8/Q3K3 w - - 0 1", "a3b2", "Qa3b2"},
		{"4k3/8/8/8/8/Q1Q5/8/Q3K3 w - - 0 1", "c3b2", "Qcb2"},
		{"4k3/8/8/8/8/Q1Q5/8/Q3K3 w - - 0 1", "a1b2", "Q1b2"},
		{"4k3/8/8/8/1b6/2N5/8/4K1N1 w - - 0 1", "g1e2", "Ne2"},
		{"3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7d8q", "exd8=Q+"},
		{"3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7e8n", "e8=N"},
		{"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1g1", "O-O"},
		{"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1c1", "O-O-O"},
		{"r3k2r/8/8/8/8/8/8/R4K1R b kq - 0 1", "e8g8", "O-O+"},
		{"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", "e5f6", "exf6"},
		{"rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2", "d8h4", "Qh4#"},
		{"4k3/8/8/3p4/8/2N5/8/4K3 w - - 0 1", "c3d5", "Nxd5"},
		{"6k1/5ppp/8/8/8/8/8/R3K3 w Q - 0 1", "a1a8", "Ra8#"},
		{"6k1/5ppp/8/8/8/8/8/R3K3 w Q - 0 1", "e1c1", "O-O-O"},
	}
	for _, tc := range tests {
		p, err := ParseFEN(tc.fen)
		if err != nil {
			t.Fatal(err)
		}
		m, err := p.ParseUCI(tc.uci)
		if err != nil {
			t.Fatal(err)
		}
		if got := p.SAN(m); got != tc.san {
			t.Errorf("%s: SAN(%s) = %q, want %q", tc.fen, tc.uci, got, tc.san)
		}
	}
}

func TestParseUCI(t *testing.T) {
	tests := []struct{ fen, uci, msg string }{
		{StartFEN, "e2e4", ""},
		{StartFEN, "g1f3", ""},
		{StartFEN, "0000", "null move"},
		{StartFEN, "e2e5", "illegal"},
		{StartFEN, "e2", "4 or 5"},
		{StartFEN, "e2e4qq", "4 or 5"},
		{StartFEN, "e2e4q", "illegal"},
		{StartFEN, "e2e4k", "bad promotion"},
		{StartFEN, "i2i4", "unparsable"},
		{StartFEN, "e1g1", "illegal"},
		{"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1g1", ""},
		{"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1c1", ""},
		{"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1h1", "illegal"},
		{"r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "e8g8", ""},
		{"3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7e8q", ""},
		{"3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7d8N", ""},
		{"3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7e8", "without a promotion piece"},
		{"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", "e5f6", ""},
		{"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", "e5d6", "illegal"},
	}
	for _, tc := range tests {
		p, err := ParseFEN(tc.fen)
		if err != nil {
			t.Fatal(err)
		}
		m, err := p.ParseUCI(tc.uci)
		if tc.msg == "" {
			if err != nil {
				t.Errorf("%s: ParseUCI(%q): %v", tc.fen, tc.uci, err)
			} else if !p.IsLegal(m) || m.String() != strings.ToLower(tc.uci) {
				t.Errorf("%s: ParseUCI(%q) = %v", tc.fen, tc.uci, m)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%s: ParseUCI(%q) = %v, %v; want error containing %q", tc.fen, tc.uci, m, err, tc.msg)
		}
	}
	if NullMove.String() != "0000" {
		t.Errorf("NullMove.String() = %q", NullMove.String())
	}
	if s := NewPromotion(E7, E8, Knight).String(); s != "e7e8n" {
		t.Errorf("promotion String = %q", s)
	}
}

// TestPlay checks clocks, castling rights and the ep square after moves.
func TestPlay(t *testing.T) {
	tests := []struct {
		fen   string
		moves []string // SAN
		want  string
	}{
		{StartFEN, []string{"e4"}, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"},
		{StartFEN, []string{"e4", "c5", "Nf3"}, "rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"},
		{StartFEN, []string{"Nf3", "Nf6", "Ng1", "Ng8"}, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 4 3"},
		// Rook captured on its home square loses the right.
		{"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", []string{"Rxa8+"}, "R3k2r/8/8/8/8/8/8/4K2R b Kk - 0 1"},
		{"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", []string{"Rxh8+"}, "r3k2R/8/8/8/8/8/8/R3K3 b Qq - 0 1"},
		{"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 5 9", []string{"O-O", "O-O-O"}, "2kr3r/8/8/8/8/8/8/R4RK1 w - - 7 10"},
		{"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 5 9", []string{"Ke2", "Rh7"}, "r3k3/7r/8/8/8/8/4K3/R6R w q - 7 10"},
		{"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", []string{"exf6"}, "rnbqkbnr/ppp1p1pp/5P2/3p4/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 3"},
		{"3r3k/4P3/8/8/8/8/8/4K3 w - - 3 40", []string{"exd8=N"}, "3N3k/8/8/8/8/8/8/4K3 b - - 0 40"},
	}
	for _, tc := range tests {
		p, err := ParseFEN(tc.fen)
		if err != nil {
			t.Fatal(err)
		}
		for _, san := range tc.moves {
			m, err := p.ParseSAN([]byte(san))
			if err != nil {
				t.Fatal(err)
			}
			p.Play(m)
		}
		if got := p.FEN(); got != tc.want {
			t.Errorf("%s + %v = %q, want %q", tc.fen, tc.moves, got, tc.want)
		}
		if err := p.Validate(); err != nil {
			t.Errorf("%s: %v", p.FEN(), err)
		}
	}
}

func TestStatus(t *testing.T) {
	p, _ := ParseFEN("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3")
	if !p.IsCheckmate() || p.IsStalemate() || !p.InCheck() || p.Checkers() != H4.Bitboard() {
		t.Errorf("fool's mate not recognised")
	}
	p, _ = ParseFEN("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")
	if p.IsCheckmate() || !p.IsStalemate() {
		t.Errorf("stalemate not recognised")
	}
}
