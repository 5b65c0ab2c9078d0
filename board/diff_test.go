package board

import (
	"math/rand"
	"sort"
	"testing"

	nchess "github.com/notnil/chess"
)

// TestDifferentialNotnil compares move generation, SAN and Play with
// github.com/notnil/chess on the perft-suite positions and seeded random
// playouts from them: at every position the sets of legal moves (as UCI
// strings) and of SAN strings must agree, and after every move the FENs
// must be identical.
//
// En-passant field: notnil's Position.String sets the en-passant square
// after every double pawn step (Position.updateEnPassantSquare), whether
// or not a capture is possible -- the same convention as ours (and PGN's),
// so the FENs are compared verbatim with no normalisation. (Only notnil's
// XFENString writes the square conditionally, on a pawn being beside.)
func TestDifferentialNotnil(t *testing.T) {
	games, maxPlies := 400, 120
	if testing.Short() {
		games = 60
	}
	rng := rand.New(rand.NewSource(20240611))
	var bases []string
	for _, tc := range perftSuite {
		bases = append(bases, tc.fen)
	}
	for _, fen := range goodFENs {
		// Our clocks saturate at 65535, notnil's do not: skip that edge case.
		if p, _ := ParseFEN(fen); p.FullMoveNumber() < 60000 {
			bases = append(bases, fen)
		}
	}

	positions, plies, promos, eps, castles := 0, 0, 0, 0, 0
	buf := make([]Move, 0, MaxMoves)
	for g := 0; g < games; g++ {
		fen := bases[g%len(bases)]
		p, err := ParseFEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		opt, err := nchess.FEN(fen)
		if err != nil {
			t.Fatalf("notnil FEN(%q): %v", fen, err)
		}
		npos := nchess.NewGame(opt).Position()
		for ply := 0; ply < maxPlies; ply++ {
			positions++
			// Legal moves, as UCI strings and as SAN.
			buf = p.LegalMoves(buf[:0])
			ours := make([]string, len(buf))
			oursSAN := make([]string, len(buf))
			for i, m := range buf {
				ours[i] = m.String()
				oursSAN[i] = p.SAN(m)
			}
			nmoves := npos.ValidMoves()
			theirs := make([]string, len(nmoves))
			theirsSAN := make([]string, len(nmoves))
			byUCI := map[string]*nchess.Move{}
			for i, m := range nmoves {
				theirs[i] = nchess.UCINotation{}.Encode(npos, m)
				theirsSAN[i] = nchess.AlgebraicNotation{}.Encode(npos, m)
				byUCI[theirs[i]] = m
			}
			sort.Strings(ours)
			sort.Strings(theirs)
			if !equalStrings(ours, theirs) {
				t.Fatalf("%s: legal moves differ\nours:   %v\nnotnil: %v", p.FEN(), ours, theirs)
			}
			sort.Strings(oursSAN)
			sort.Strings(theirsSAN)
			if !equalStrings(oursSAN, theirsSAN) {
				t.Fatalf("%s: SAN differs\nours:   %v\nnotnil: %v", p.FEN(), oursSAN, theirsSAN)
			}
			if len(buf) == 0 {
				break
			}
			// Play a random move on both sides, preferring special moves
			// (castling, en passant, promotions, double steps) half of the
			// time so that they are well covered.
			m := pickMove(rng, &p, buf)
			uci := m.String()
			switch m.Kind() {
			case MovePromotion:
				promos++
			case MoveEnPassant:
				eps++
			case MoveCastling:
				castles++
			}
			p.Play(m)
			npos = npos.Update(byUCI[uci])
			plies++
			if got, want := p.FEN(), npos.String(); got != want {
				t.Fatalf("after %s: FEN %q, notnil %q", uci, got, want)
			}
		}
	}
	t.Logf("%d positions, %d plies played (%d promotions, %d en passant, %d castlings)", positions, plies, promos, eps, castles)
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// pickMove returns a random move of moves (sorted by UCI text first, so the
// choice depends only on the seed), half of the time among the special
// ones if there are any.
func pickMove(rng *rand.Rand, p *Position, moves []Move) Move {
	sorted := append([]Move(nil), moves...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].String() < sorted[j].String() })
	var special []Move
	for _, m := range sorted {
		from, to := m.From(), m.To()
		if m.Kind() != MoveNormal || (p.PieceAt(from).Type() == Pawn && (from^to) == 16) {
			special = append(special, m)
		}
	}
	if len(special) > 0 && rng.Intn(2) == 0 {
		return special[rng.Intn(len(special))]
	}
	return sorted[rng.Intn(len(sorted))]
}
