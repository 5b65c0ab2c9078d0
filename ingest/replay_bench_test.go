package ingest

import (
	"io"
	"path/filepath"
	"sync"
	"testing"

	"github.com/chessbook/chessbook/internal/testutil"
	"github.com/chessbook/chessbook/pgn"
)

var benchCorpora = []struct{ name, file string }{
	{"pgnmentor", "pgnmentor_world_champions_16players.pgn.zst"},
	{"lichess", "lichess_10k.pgn.zst"},
}

var benchData struct {
	sync.Mutex
	m map[string][]byte
}

// benchCorpus returns a medium corpus decompressed in memory.
func benchCorpus(b *testing.B, name string) []byte {
	benchData.Lock()
	defer benchData.Unlock()
	if data, ok := benchData.m[name]; ok {
		return data
	}
	rc, err := Open(filepath.Join(testutil.SharedData(b), "medium", name))
	if err != nil {
		b.Fatal(err)
	}
	defer rc.Close()
	data, err := io.ReadAll(rc)
	if err != nil {
		b.Fatal(err)
	}
	if benchData.m == nil {
		benchData.m = map[string][]byte{}
	}
	benchData.m[name] = data
	return data
}

// countSink counts plies and drops the games.
type countSink struct{ games, plies, skips int }

func (s *countSink) Game(g *pgn.Game) error { s.games++; s.plies += len(g.Moves); return nil }
func (s *countSink) Skip(*GameError)        { s.skips++ }

// BenchmarkReplay is the whole replay hot path on one core: PGN parsing,
// SAN resolution and make-move through the Replayer, over a decompressed
// corpus held in memory. One op is one pass over the corpus; ns/ply and
// plies/s are reported, and allocs/op must stay 0 in steady state (a
// skipped game's error report is the only allocation, and these corpora
// have none on the pgnmentor pass).
func BenchmarkReplay(b *testing.B) {
	for _, c := range benchCorpora {
		b.Run(c.name, func(b *testing.B) {
			data := benchCorpus(b, c.file)
			var p pgn.Parser
			sink := &countSink{}
			rep := NewReplayer(c.file, sink)
			p.Parse(data, 1, rep) // warm up: grow the reused buffers
			plies := sink.plies
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				p.Parse(data, 1, rep)
			}
			b.StopTimer()
			secs := b.Elapsed().Seconds()
			b.ReportMetric(secs*1e9/float64(plies*b.N), "ns/ply")
			b.ReportMetric(float64(plies*b.N)/secs, "plies/s")
		})
	}
}
