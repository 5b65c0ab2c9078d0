package savings

import (
	"testing"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/gamecode"
	"github.com/chessbook/chessbook/keys"
	"github.com/chessbook/chessbook/pgn"
	"github.com/chessbook/chessbook/polyglot"
)

func benchPositions(b *testing.B) []board.Position {
	ps := positionsOf(loadGames(b, championsPGN), 1)
	for i := range ps {
		ps[i] = normalize(&ps[i])
	}
	return ps
}

// BenchmarkSizes measures the size computation of every position encoding.
func BenchmarkSizes(b *testing.B) {
	ps := benchPositions(b)
	a, _ := newAccumulator(accumulatorOptions{})
	var sz [numPositionEncodings]int
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		a.sizes(&ps[i%len(ps)], &sz)
	}
}

// BenchmarkEach measures each encoding's size function alone.
func BenchmarkEach(b *testing.B) {
	ps := benchPositions(b)
	var s scratch
	for _, e := range positionEncodings() {
		b.Run(e.ID, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				e.bits(&ps[i%len(ps)], &s)
			}
		})
	}
	b.Run("zobrist", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			polyglot.Key(&ps[i%len(ps)])
		}
	})
	b.Run("key", func(b *testing.B) {
		var k [keys.MaxLen]byte
		for i := 0; i < b.N; i++ {
			keys.Append(k[:0], &ps[i%len(ps)])
		}
	})
}

// BenchmarkGame measures AddGame per ply, and the game codes alone.
func BenchmarkGame(b *testing.B) {
	games := loadGames(b, championsPGN)
	plies := 0
	for _, g := range games {
		plies += len(g.moves)
	}
	for _, mode := range []string{"positions", "games", "gamecode"} {
		b.Run(mode, func(b *testing.B) {
			a, _ := newAccumulator(accumulatorOptions{Games: mode == "games"})
			var ig pgn.Game
			var buf []byte
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				g := games[i%len(games)]
				ig.Start, ig.Moves = g.start, g.moves
				if mode == "gamecode" {
					buf, _ = gamecode.AppendGame(buf[:0], &ig)
					continue
				}
				a.AddGame(&ig)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)*float64(len(games))/float64(plies), "ns/ply")
		})
	}
}
