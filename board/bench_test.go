package board

import (
	"bytes"
	"testing"
)

// splitGames returns realGames as SAN tokens and the total ply count.
func splitGames() ([][][]byte, int) {
	var games [][][]byte
	plies := 0
	for _, g := range realGames {
		toks := bytes.Fields([]byte(g))
		games = append(games, toks)
		plies += len(toks)
	}
	return games, plies
}

// TestRealGames replays real games: every SAN parses, and formatting the
// parsed move gives the SAN text back exactly (the games are in standard
// SAN with minimal disambiguation and check marks).
func TestRealGames(t *testing.T) {
	games, plies := splitGames()
	var buf []byte
	for gi, g := range games {
		p := StartPosition()
		for i, san := range g {
			m, err := p.ParseSAN(san)
			if err != nil {
				t.Fatalf("game %d ply %d: %v", gi, i+1, err)
			}
			buf = p.AppendSAN(buf[:0], m)
			if !bytes.Equal(buf, san) {
				t.Errorf("game %d ply %d: AppendSAN = %q, want %q", gi, i+1, buf, san)
			}
			p.Play(m)
		}
	}
	if plies < 500 {
		t.Errorf("only %d plies", plies)
	}
}

// TestZeroAllocs checks that the hot paths allocate nothing.
func TestZeroAllocs(t *testing.T) {
	games, _ := splitGames()
	if n := testing.AllocsPerRun(20, func() {
		for _, g := range games {
			p := StartPosition()
			for _, san := range g {
				m, err := p.ParseSAN(san)
				if err != nil {
					panic(err)
				}
				p.Play(m)
			}
		}
	}); n != 0 {
		t.Errorf("ParseSAN+Play: %v allocations per run", n)
	}
	p := StartPosition()
	m, _ := p.ParseSAN([]byte("Nf3"))
	dst := make([]byte, 0, 64)
	if n := testing.AllocsPerRun(100, func() { dst = p.AppendSAN(dst[:0], m) }); n != 0 {
		t.Errorf("AppendSAN: %v allocations", n)
	}
	if n := testing.AllocsPerRun(100, func() { dst = m.AppendUCI(dst[:0]) }); n != 0 {
		t.Errorf("AppendUCI: %v allocations", n)
	}
	if n := testing.AllocsPerRun(100, func() { dst = p.AppendFEN(dst[:0]) }); n != 0 {
		t.Errorf("AppendFEN: %v allocations", n)
	}
	if n := testing.AllocsPerRun(100, func() { _, _ = p.ParseUCI("g1f3") }); n != 0 {
		t.Errorf("ParseUCI: %v allocations", n)
	}
}

// BenchmarkParseSANPlay parses and plays the SAN of real games; the
// ns/ply metric is the cost of one ParseSAN plus one Play.
func BenchmarkParseSANPlay(b *testing.B) {
	games, plies := splitGames()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, g := range games {
			p := StartPosition()
			for _, san := range g {
				m, err := p.ParseSAN(san)
				if err != nil {
					b.Fatal(err)
				}
				p.Play(m)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(plies), "ns/ply")
}

// BenchmarkAppendSAN formats every move of real games in SAN.
func BenchmarkAppendSAN(b *testing.B) {
	games, plies := splitGames()
	var positions []Position
	var moves []Move
	for _, g := range games {
		p := StartPosition()
		for _, san := range g {
			m, err := p.ParseSAN(san)
			if err != nil {
				b.Fatal(err)
			}
			positions = append(positions, p)
			moves = append(moves, m)
			p.Play(m)
		}
	}
	dst := make([]byte, 0, 16)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for j := range positions {
			dst = positions[j].AppendSAN(dst[:0], moves[j])
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(plies), "ns/move")
}

// BenchmarkLegalMoves generates the legal moves of the positions of real
// games.
func BenchmarkLegalMoves(b *testing.B) {
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
	buf := make([]Move, 0, MaxMoves)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for j := range positions {
			buf = positions[j].LegalMoves(buf[:0])
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(positions)), "ns/position")
}

// BenchmarkPerft runs perft(4) on Kiwipete (4085603 leaves, bulk-counted
// at the last ply).
func BenchmarkPerft(b *testing.B) {
	p, err := ParseFEN(perftSuite[1].fen)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	var n uint64
	for i := 0; i < b.N; i++ {
		n = p.Perft(4)
	}
	if n != 4085603 {
		b.Fatalf("perft = %d", n)
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds()/1e6, "Mleaves/s")
}

// BenchmarkParseFEN parses a FEN with full validation.
func BenchmarkParseFEN(b *testing.B) {
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := ParseFEN(perftSuite[1].fen); err != nil {
			b.Fatal(err)
		}
	}
}
