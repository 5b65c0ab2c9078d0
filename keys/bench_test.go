package keys

import (
	"testing"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/keys/internal/corpus"
)

// benchFENs are typical positions: opening, middlegame, endgame.
var benchFENs = []string{
	board.StartFEN,
	"r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
	"r2q1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 9",
	"2r2rk1/1b2qppp/p3pn2/1p6/3N4/P1N1P3/1PQ2PPP/2RR2K1 b - - 3 18",
	"8/5pk1/6p1/3R4/5P2/6PK/r7/8 b - - 0 45",
}

func benchPositions(b *testing.B) []board.Position {
	ps := make([]board.Position, len(benchFENs))
	for i, f := range benchFENs {
		p, err := board.ParseFEN(f)
		if err != nil {
			b.Fatal(err)
		}
		ps[i] = p
	}
	return ps
}

// BenchmarkAppend measures encoding into a caller buffer: the hot path of
// the book builder (0 allocations).
func BenchmarkAppend(b *testing.B) {
	ps := benchPositions(b)
	var buf [MaxLen]byte
	b.ReportAllocs()
	n := 0
	for i := 0; b.Loop(); i++ {
		n += len(Append(buf[:0], &ps[i%len(ps)]))
	}
	_ = n
}

// BenchmarkDecode measures decoding (with its validation and re-encoding).
func BenchmarkDecode(b *testing.B) {
	ps := benchPositions(b)
	keys := make([][]byte, len(ps))
	for i := range ps {
		keys[i] = Encode(&ps[i])
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if _, err := Decode(keys[i%len(keys)]); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAppendCorpus encodes real positions (the first games of the
// world champions' corpus), the realistic mix of the book builder.
func BenchmarkAppendCorpus(b *testing.B) {
	ps := corpusSample(b, 4000)
	var buf [MaxLen]byte
	b.ReportAllocs()
	n := 0
	for i := 0; b.Loop(); i++ {
		n += len(Append(buf[:0], &ps[i%len(ps)]))
	}
	_ = n
}

// corpusSample returns about n positions of the evaluation corpus.
func corpusSample(b *testing.B, n int) []board.Position {
	var ps []board.Position
	err := corpus.Replay(evalCorpus(b), 1, func(g corpus.Game) {
		if len(ps) < n {
			ps = append(ps, g.Positions...)
		}
	})
	if err != nil {
		b.Fatal(err)
	}
	return ps
}
