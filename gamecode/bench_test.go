package gamecode

import (
	"context"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/chessbook/chessbook/ingest"
	"github.com/chessbook/chessbook/pgn"
)

// cpuTimer measures the CPU time of the process during a benchmark: on a
// loaded machine it varies much less than elapsed time.
type cpuTimer struct{ start time.Duration }

func startCPU(b *testing.B) *cpuTimer {
	runtime.GC()
	b.ResetTimer()
	return &cpuTimer{processCPU()}
}

// report reports the elapsed and (where known) CPU nanoseconds per ply.
func (c *cpuTimer) report(b *testing.B, plies int) {
	cpu := processCPU() - c.start
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(plies), "ns/ply")
	if cpu > 0 {
		b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N)/float64(plies), "cpu-ns/ply")
	}
}

// championGames reads ../testdata/champions500.pgn once for all
// benchmarks (so that a benchmark's cost does not depend on b.N's steps).
var championGames = sync.OnceValues(func() ([]*pgn.Game, error) {
	var games []*pgn.Game
	var mu sync.Mutex
	_, err := ingest.Run(context.Background(), []string{"../testdata/champions500.pgn"}, ingest.Options{}, func(int) ingest.Sink {
		return ingest.SinkFunc(func(g *pgn.Game) error {
			c := cloneGame(g)
			mu.Lock()
			games = append(games, c)
			mu.Unlock()
			return nil
		})
	})
	slices.SortFunc(games, func(a, b *pgn.Game) int { return a.Line - b.Line })
	return games, err
})

func benchChampions(b *testing.B) []*pgn.Game {
	games, err := championGames()
	if err != nil {
		b.Fatal(err)
	}
	return games
}

// benchGames returns the champions' games decoded, their records in
// coding c and their number of plies.
func benchGames(b *testing.B, c Coding) ([]*pgn.Game, [][]byte, int) {
	r := championRecords()[c]
	if r.err != nil {
		b.Fatal(r.err)
	}
	return r.dec, r.recs, r.plies
}

// recordSet is the champions' games coded one way.
type recordSet struct {
	dec   []*pgn.Game
	recs  [][]byte
	plies int
	err   error
}

// championRecords codes the champions' games once per coding.
var championRecords = sync.OnceValue(func() map[Coding]*recordSet {
	rs := map[Coding]*recordSet{}
	for _, c := range codings {
		rs[c] = codeRecords(c)
	}
	return rs
})

func codeRecords(c Coding) (r *recordSet) {
	r = &recordSet{}
	games, err := championGames()
	if err != nil {
		r.err = err
		return r
	}
	for _, g := range games {
		rec, err := AppendGameCoded(nil, g, c)
		if err != nil {
			r.err = err
			return r
		}
		r.recs = append(r.recs, rec)
		r.plies += len(g.Moves)
		dg, _ := DecodeGame(rec)
		r.dec = append(r.dec, &dg)
	}
	return r
}

func BenchmarkEncode(b *testing.B) {
	games := benchChampions(b)
	plies := 0
	for _, g := range games {
		plies += len(g.Moves)
	}
	for _, cd := range codings {
		b.Run(cd.String(), func(b *testing.B) {
			var buf []byte
			c := startCPU(b)
			for i := 0; i < b.N; i++ {
				for _, g := range games {
					buf, _ = AppendGameCoded(buf[:0], g, cd)
				}
			}
			c.report(b, plies)
		})
	}
}

func BenchmarkDecode(b *testing.B) {
	for _, cd := range codings {
		b.Run(cd.String(), func(b *testing.B) {
			_, recs, plies := benchGames(b, cd)
			c := startCPU(b)
			for i := 0; i < b.N; i++ {
				for _, r := range recs {
					if _, err := DecodeGame(r); err != nil {
						b.Fatal(err)
					}
				}
			}
			c.report(b, plies)
		})
	}
}

func BenchmarkPGN(b *testing.B) {
	games, _, plies := benchGames(b, Indexed)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, g := range games {
			_ = pgn.Append(nil, g)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(plies), "ns/ply")
}
