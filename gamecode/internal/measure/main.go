// Command measure reports what the gamecode format costs on PGN inputs:
// bits per ply of the moves (with a histogram of the ranks), bytes per
// game with and without tags, and the comparison with zstd at its best
// setting over the same games printed as PGN. With -gen it also writes the
// frozen tables trained on the inputs.
//
//	go run ./gamecode/internal/measure [-gen gamecode/tables_gen.go] [-zstd] INPUT...
package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"sync"

	"github.com/chessbook/chessbook/gamecode"
	"github.com/chessbook/chessbook/ingest"
	"github.com/klauspost/compress/zstd"
)

type totals struct {
	games, plies           int64
	record, noTags, noMove int64 // record bytes: full, without tags, without tags and moves
	pgn, pgnZstdEach       int64 // PGN bytes, and sum of per-game zstd frames
	stats                  gamecode.Stats
}

type sink struct {
	t    totals
	enc  *zstd.Encoder
	buf  []byte
	bare ingest.Game
	agg  *aggregator
}

type aggregator struct {
	mu    sync.Mutex
	total totals
	zw    *zstd.Encoder
	pgnW  *countWriter
	raw   *os.File
	quick bool
}

type countWriter struct{ n int64 }

func (c *countWriter) Write(p []byte) (int, error) { c.n += int64(len(p)); return len(p), nil }

func (s *sink) Game(g *ingest.Game) error {
	if s.agg.quick {
		s.t.games++
		s.t.plies += int64(len(g.Moves))
		return s.t.stats.Add(g)
	}
	rec, err := gamecode.AppendGame(s.buf[:0], g)
	if err != nil {
		return fmt.Errorf("%s:%d: %w", g.File, g.Line, err)
	}
	s.buf = rec
	s.t.record += int64(len(rec))
	s.bare = *g
	s.bare.Tags = nil
	rec, err = gamecode.AppendGame(s.buf[:0], &s.bare)
	if err != nil {
		return err
	}
	s.t.noTags += int64(len(rec))
	s.bare.Moves = nil
	rec, _ = gamecode.AppendGame(rec[:0], &s.bare)
	s.t.noMove += int64(len(rec))
	s.buf = rec
	if err := s.t.stats.Add(g); err != nil {
		return err
	}
	s.t.games++
	s.t.plies += int64(len(g.Moves))

	full, _ := gamecode.AppendGame(nil, g)
	dg, err := gamecode.DecodeGame(full)
	if err != nil {
		return fmt.Errorf("%s:%d: decode: %w", g.File, g.Line, err)
	}
	text := dg.PGN()
	s.t.pgn += int64(len(text))
	s.t.pgnZstdEach += int64(len(s.enc.EncodeAll(text, nil)))
	s.agg.mu.Lock()
	defer s.agg.mu.Unlock()
	if _, err := s.agg.zw.Write(text); err != nil {
		return err
	}
	if s.agg.raw != nil {
		if _, err := s.agg.raw.Write(text); err != nil {
			return err
		}
	}
	return nil
}

func (s *sink) Skip(*ingest.GameError) {}

func main() {
	gen := flag.String("gen", "", "write the frozen tables trained on the inputs to this file")
	zbin := flag.Bool("zstd", false, "also run the zstd binary (-19) over the printed PGN")
	quick := flag.Bool("quick", false, "only the move statistics (no encoding, no zstd)")
	flag.Parse()
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: measure [-gen FILE] [-zstd] INPUT...")
		os.Exit(2)
	}
	if err := run(flag.Args(), *gen, *zbin, *quick); err != nil {
		fmt.Fprintln(os.Stderr, "measure:", err)
		os.Exit(1)
	}
}

func run(inputs []string, gen string, zbin, quick bool) error {
	cw := &countWriter{}
	zw, err := zstd.NewWriter(cw, zstd.WithEncoderLevel(zstd.SpeedBestCompression), zstd.WithEncoderConcurrency(1))
	if err != nil {
		return err
	}
	agg := &aggregator{zw: zw, pgnW: cw, quick: quick}
	if zbin {
		f, err := os.CreateTemp("", "measure-*.pgn")
		if err != nil {
			return err
		}
		defer os.Remove(f.Name())
		agg.raw = f
	}
	var sinks []*sink
	var mu sync.Mutex
	sum, err := ingest.Run(context.Background(), inputs, ingest.Options{}, func(int) ingest.Sink {
		enc, _ := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedBestCompression), zstd.WithEncoderConcurrency(1))
		s := &sink{enc: enc, agg: agg}
		mu.Lock()
		sinks = append(sinks, s)
		mu.Unlock()
		return s
	})
	if err != nil {
		return err
	}
	if err := zw.Close(); err != nil {
		return err
	}
	var t totals
	for _, s := range sinks {
		t.games += s.t.games
		t.plies += s.t.plies
		t.record += s.t.record
		t.noTags += s.t.noTags
		t.noMove += s.t.noMove
		t.pgn += s.t.pgn
		t.pgnZstdEach += s.t.pgnZstdEach
		t.stats.Merge(&s.t.stats)
	}
	g, p := float64(t.games), float64(t.plies)
	fmt.Printf("inputs: %v\n", inputs)
	fmt.Printf("games %d (skipped %d), plies %d (%.1f per game, %.1f%% forced)\n",
		t.games, sum.SkippedTotal(), t.plies, p/g, 100*float64(t.stats.ForcedPlies)/p)
	hr, hi := t.stats.Entropy()
	fmt.Printf("moves: %.3f bits/ply stored (%.3f by the frozen tables' code lengths)\n",
		8*float64(t.noTags-t.noMove)/p, t.stats.ModelBits/p)
	fmt.Printf("  empirical entropy per context: ordered ranks %.3f bits/ply, plain LegalMoves indices %.3f bits/ply\n", hr, hi)
	fmt.Printf("record: %.1f bytes/game with tags, %.1f without tags (%.1f without moves nor tags)\n",
		float64(t.record)/g, float64(t.noTags)/g, float64(t.noMove)/g)
	fmt.Printf("pgn printed: %.1f bytes/game; zstd best (klauspost, one stream): %.1f bytes/game; zstd best per game: %.1f bytes/game\n",
		float64(t.pgn)/g, float64(cw.n)/g, float64(t.pgnZstdEach)/g)
	fmt.Printf("ratio record / zstd best stream: %.3f; record / zstd best per game: %.3f\n",
		float64(t.record)/float64(cw.n), float64(t.record)/float64(t.pgnZstdEach))
	if agg.raw != nil {
		agg.raw.Close()
		out, err := exec.Command("sh", "-c", "zstd -19 -q -c -T2 --long=27 "+agg.raw.Name()+" | wc -c; zstd -19 -q -c -T2 "+agg.raw.Name()+" | wc -c").Output()
		if err != nil {
			return fmt.Errorf("zstd binary: %w", err)
		}
		fmt.Printf("zstd binary (-19 --long=27, -19) bytes: %s", bytes.ReplaceAll(out, []byte("\n"), []byte(" ")))
		fmt.Printf("\n")
	}
	// Rank histogram over all contexts.
	var hist [256]int64
	var n int64
	for c := range t.stats.Rank {
		for r, v := range t.stats.Rank[c] {
			hist[r] += v
			n += v
		}
	}
	fmt.Printf("rank histogram (unforced plies):")
	var cum int64
	for r := 0; r < 16; r++ {
		cum += hist[r]
		fmt.Printf(" %d:%.1f%%", r, 100*float64(hist[r])/float64(n))
	}
	fmt.Printf(" (ranks <16: %.1f%%)\n", 100*float64(cum)/float64(n))
	if gen != "" {
		f, err := os.Create(gen)
		if err != nil {
			return err
		}
		if err := t.stats.WriteTables(f); err != nil {
			f.Close()
			return err
		}
		return f.Close()
	}
	return nil
}
