package gamecode

import (
	"context"
	"sync"
	"testing"

	"github.com/chessbook/chessbook/gamecode/internal/train"
	"github.com/chessbook/chessbook/ingest"
	"github.com/chessbook/chessbook/pgn"
	"github.com/klauspost/compress/zstd"
)

type countWriter struct{ n int64 }

func (c *countWriter) Write(p []byte) (int, error) { c.n += int64(len(p)); return len(p), nil }

// measurement is what measureFiles reports.
type measurement struct {
	games, plies   int64
	record, noTags int64 // Indexed records, with and without tags
	ranked         int64 // Ranked records
	pgn, zstdPGN   int64
	stats          train.Stats
}

func (m *measurement) add(o *measurement) {
	m.games += o.games
	m.plies += o.plies
	m.record += o.record
	m.noTags += o.noTags
	m.ranked += o.ranked
	m.pgn += o.pgn
	m.stats.Merge(&o.stats)
}

// measureFiles encodes every game of files and compares the records with
// zstd at its best level over the same games printed as PGN (one stream).
func measureFiles(t *testing.T, files []string) *measurement {
	cw := &countWriter{}
	zw, err := zstd.NewWriter(cw, zstd.WithEncoderLevel(zstd.SpeedBestCompression), zstd.WithEncoderConcurrency(1))
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var parts []*measurement
	_, err = ingest.Run(context.Background(), files, ingest.Options{}, func(int) ingest.Sink {
		m := &measurement{}
		mu.Lock()
		parts = append(parts, m)
		mu.Unlock()
		var bare pgn.Game
		return ingest.SinkFunc(func(g *pgn.Game) error {
			rec, err := AppendGame(nil, g)
			if err != nil {
				return err
			}
			ranked, err := AppendGameCoded(nil, g, Ranked)
			if err != nil {
				return err
			}
			bare = *g
			bare.Tags = nil
			noTags, err := AppendGame(nil, &bare)
			if err != nil {
				return err
			}
			dg, err := DecodeGame(rec)
			if err != nil {
				return err
			}
			if err := m.stats.Add(g); err != nil {
				return err
			}
			text := pgn.Append(nil, &dg)
			m.games++
			m.plies += int64(len(g.Moves))
			m.record += int64(len(rec))
			m.noTags += int64(len(noTags))
			m.ranked += int64(len(ranked))
			m.pgn += int64(len(text))
			mu.Lock()
			defer mu.Unlock()
			_, err = zw.Write(text)
			return err
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	var all measurement
	for _, m := range parts {
		all.add(m)
	}
	all.zstdPGN = cw.n
	return &all
}

func report(t *testing.T, m *measurement) {
	g, p := float64(m.games), float64(m.plies)
	bits := (m.stats.PieceBits + m.stats.DestBits) / p
	t.Logf("%d games, %d plies", m.games, m.plies)
	t.Logf("ranked moves: %.3f bits/ply (%.3f for the piece, %.3f for the destination)", bits, m.stats.PieceBits/p, m.stats.DestBits/p)
	t.Logf("indexed record: %.1f bytes/game, %.1f without tags; ranked record %.1f bytes/game", float64(m.record)/g, float64(m.noTags)/g, float64(m.ranked)/g)
	t.Logf("PGN %.1f bytes/game, zstd best %.1f bytes/game; record/zstd = %.3f", float64(m.pgn)/g, float64(m.zstdPGN)/g, float64(m.record)/float64(m.zstdPGN))
	if bits > 8 {
		t.Errorf("%.3f bits/ply, want <= 8", bits)
	}
	if r := float64(m.record) / float64(m.zstdPGN); r > 1 {
		t.Errorf("indexed records are %.3f of zstd -19's PGN, want <= 1", r)
	}
	if m.ranked >= m.record {
		t.Errorf("ranked records (%d bytes) not smaller than indexed ones (%d)", m.ranked, m.record)
	}
}
