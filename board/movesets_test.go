package board

import (
	"slices"
	"testing"
)

// setMoves lists the moves of ms as MoveSets' documentation tells, in
// the position p it was made from.
func setMoves(p *Position, ms *MoveSets) []Move {
	if ms.King >= NoSquare {
		return nil
	}
	var moves []Move
	us := p.SideToMove()
	add := func(from, to Square) {
		if (Rank1 | Rank8).Has(to) && p.PieceAt(from).Type() == Pawn {
			moves = appendPromotions(moves, from, to)
			return
		}
		moves = append(moves, NewMove(from, to))
	}
	if p.CastlingMode() == CastlingChess960 {
		for t := ms.Castles; t != 0; {
			moves = append(moves, NewMove(ms.King, t.PopLSB())|MoveCastling)
		}
	}
	for t := ms.KingDests; t != 0; {
		to := t.PopLSB()
		if KingAttacks(ms.King).Has(to) {
			add(ms.King, to)
		} else {
			moves = append(moves, NewMove(ms.King, to)|MoveCastling)
		}
	}
	occ := p.Occupied()
	for b := p.ByColor(us) &^ p.ByType(Pawn) &^ p.ByType(King); b != 0; {
		from := b.PopLSB()
		var att Bitboard
		switch p.PieceAt(from).Type() {
		case Knight:
			att = KnightAttacks(from)
		case Bishop:
			att = BishopAttacks(from, occ)
		case Rook:
			att = RookAttacks(from, occ)
		case Queen:
			att = QueenAttacks(from, occ)
		}
		for t := ms.Dests(from, att); t != 0; {
			add(from, t.PopLSB())
		}
	}
	for k, set := range ms.Pawns {
		for t := set; t != 0; {
			to := t.PopLSB()
			add(Square(int(to)-PawnStep(us, k)), to)
		}
	}
	for b := ms.Pinned & p.Pieces(us, Pawn); b != 0; {
		from := b.PopLSB()
		for t := ms.PawnDests(from); t != 0; {
			add(from, t.PopLSB())
		}
	}
	for b := ms.EPFrom; b != 0; {
		moves = append(moves, NewMove(b.PopLSB(), p.EPSquare())|MoveEnPassant)
	}
	return moves
}

// checkSets checks MoveSets in p against LegalMoves and the position's
// own check information, and returns the moves.
func checkSets(t *testing.T, p *Position) []Move {
	t.Helper()
	var ms MoveSets
	p.MoveSets(&ms)
	got := setMoves(p, &ms)
	want := p.LegalMoves(nil)
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Fatalf("%s: MoveSets gives %v, LegalMoves %v", p.FEN(), got, want)
	}
	if ms.Checkers != p.Checkers() {
		t.Fatalf("%s: checkers %v, want %v", p.FEN(), ms.Checkers.LSB(), p.Checkers().LSB())
	}
	if ms.King != p.KingSquare(p.SideToMove()) {
		t.Fatalf("%s: king on %v", p.FEN(), ms.King)
	}
	us := p.SideToMove()
	for b := p.ByColor(us) &^ p.ByType(King); b != 0; {
		// A piece is pinned when taking it off the board exposes the king
		// to a slider that did not attack it.
		s := b.PopLSB()
		q := *p
		q.Put(s, NoPiece)
		pinned := (q.Checkers() &^ p.Checkers()) != 0
		if pinned != ms.Pinned.Has(s) {
			t.Fatalf("%s: piece on %v pinned %v, want %v", p.FEN(), s, ms.Pinned.Has(s), pinned)
		}
	}
	for b := p.Pieces(us, Pawn) &^ ms.Pinned; b != 0; {
		// PawnDests of a pawn that is not pinned are its moves in Pawns.
		from := b.PopLSB()
		var inSets Bitboard
		for k, set := range ms.Pawns {
			for t := set; t != 0; {
				if to := t.PopLSB(); Square(int(to)-PawnStep(us, k)) == from {
					inSets |= to.Bitboard()
				}
			}
		}
		if d := ms.PawnDests(from); d != inSets {
			t.Fatalf("%s: PawnDests(%v) = %v, want %v", p.FEN(), from, d, inSets)
		}
	}
	return want
}

// setsPerft counts the leaves of the move tree of depth d through
// MoveSets, checking every inner position.
func setsPerft(t *testing.T, p *Position, depth int) uint64 {
	moves := checkSets(t, p)
	if depth == 1 {
		return uint64(len(moves))
	}
	var n uint64
	for _, m := range moves {
		q := *p
		q.Play(m)
		n += setsPerft(t, &q, depth-1)
	}
	return n
}

// TestMoveSetsPerft runs the perft suite through MoveSets.
func TestMoveSetsPerft(t *testing.T) {
	for _, tc := range perftSuite {
		p, err := ParseFEN(tc.fen)
		if err != nil {
			t.Fatal(err)
		}
		depth := 3
		if testing.Short() {
			depth = 2
		}
		if got, want := setsPerft(t, &p, depth), tc.nodes[depth-1]; got != want {
			t.Errorf("%s: perft(%d) through MoveSets = %d, want %d", tc.name, depth, got, want)
		}
	}
}

// TestMoveSetsPositions checks MoveSets in the positions of real games
// and of the tricky seeds (castling, en passant, pins, promotions).
func TestMoveSetsPositions(t *testing.T) {
	games, _ := splitGames()
	n := 0
	for _, g := range games {
		p := StartPosition()
		for _, san := range g {
			checkSets(t, &p)
			m, err := p.ParseSAN(san)
			if err != nil {
				t.Fatal(err)
			}
			p.Play(m)
			n++
		}
	}
	for _, fen := range []string{
		"4k3/8/8/2KPp2r/8/8/8/8 w - e6 0 1",      // en passant would expose the king
		"8/8/8/K2pP2q/8/8/8/7k w - d6 0 1",       // the same along the rank
		"4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1",      // en passant allowed
		"4k3/8/8/3pP3/2K5/8/8/8 w - d6 0 1",      // en passant takes the checking pawn
		"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",   // both castlings
		"r3k2r/8/8/8/8/8/8/R3K1qR w KQkq - 0 1",  // in check: no castling
		"r3k2r/8/8/8/8/5b2/8/R3K2R w KQkq - 0 1", // d1 attacked: no queen-side castling
		"4k3/1P6/8/8/8/8/6p1/4K2R w K - 0 1",     // promotions
		"3qk3/8/8/8/3P4/8/8/3K4 w - - 0 1",       // a pawn pinned on a file can push
		"4k3/8/1b6/8/3P4/4K3/8/8 w - - 0 1",      // pinned diagonally
		"4k3/8/8/8/8/2n5/3r4/4K3 w - - 0 1",      // double check
		"8/8/8/8/k7/8/2Pp4/1K6 b - - 0 1",        // black promotes
		"4k3/8/8/8/8/8/3PPP2/r2QK2r w - - 0 1",   // pinned queen along the rank
	} {
		p, err := ParseFEN(fen)
		if err != nil {
			t.Fatalf("%s: %v", fen, err)
		}
		setsPerft(t, &p, 2)
		n++
	}
	for _, s := range trickyFENs(t) {
		p, err := ParseFEN(s)
		if err != nil {
			continue
		}
		checkSets(t, &p)
		n++
	}
	t.Logf("%d positions", n)
}

// TestMoveSetsNoAllocs checks that MoveSets allocates nothing.
func TestMoveSetsNoAllocs(t *testing.T) {
	p, _ := ParseFEN(perftSuite[1].fen)
	var ms MoveSets
	if n := testing.AllocsPerRun(100, func() { p.MoveSets(&ms) }); n != 0 {
		t.Errorf("MoveSets allocates %v times per run", n)
	}
}

// BenchmarkMoveSets computes the move sets of the positions of real games
// (compare BenchmarkLegalMoves).
func BenchmarkMoveSets(b *testing.B) {
	games, _ := splitGames()
	var positions []Position
	for _, g := range games {
		p := StartPosition()
		for _, san := range g {
			m, err := p.ParseSAN(san)
			if err != nil {
				b.Fatal(err)
			}
			p.Play(m)
			positions = append(positions, p)
		}
	}
	var ms MoveSets
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for j := range positions {
			positions[j].MoveSets(&ms)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(positions)), "ns/position")
}
