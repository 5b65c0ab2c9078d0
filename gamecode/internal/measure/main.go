// Command measure reports what the gamecode format costs on PGN inputs:
// bits per ply of the moves (with a histogram of the ranks), bytes per
// game with and without tags, and the comparison with zstd at its best
// setting over the same games printed as PGN (-zstd: also the zstd binary
// at -19). With -gen it also writes the frozen tables trained on the
// inputs: the move weights fitted by train.Trainer (-epochs passes of
// AdaGrad at -rate, over the games in file and line order) and the tag
// models. The tables of Version 2 (gamecode/internal/gamemodel/tables_gen.go)
// were made with the same inputs as its go:generate line, from the project
// root:
//
//	go run ./gamecode/internal/measure -quick -gen gamecode/internal/gamemodel/tables_gen.go ../shared/data/medium/*.pgn.zst ../shared/data/small/*.pgn ../shared/data/small/*.PGN ../shared/data/small/*.bz2
//
// An input holding a wildcard (*, ?, [) is expanded as a file name
// pattern (go:generate runs no shell).
//
// Usage:
//
//	go run ./gamecode/internal/measure [-gen FILE [-epochs N] [-rate R]] [-zstd] [-quick] INPUT...
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/chessbook/chessbook/gamecode"
	"github.com/chessbook/chessbook/gamecode/internal/train"
	"github.com/chessbook/chessbook/ingest"
	"github.com/chessbook/chessbook/pgn"
	"github.com/klauspost/compress/zstd"
)

type totals struct {
	games, plies           int64
	record, noTags, noMove int64 // record bytes: full, without tags, without tags and moves
	pgn, pgnZstdEach       int64 // PGN bytes, and sum of per-game zstd frames
	stats                  train.Stats
	train                  *train.Trainer
}

type sink struct {
	t    totals
	enc  *zstd.Encoder
	buf  []byte
	bare pgn.Game
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

func (s *sink) Game(g *pgn.Game) error {
	if s.t.train != nil {
		s.t.train.Add(g)
	}
	if s.agg.quick {
		s.t.games++
		s.t.plies += int64(len(g.Moves))
		return s.t.stats.Add(g)
	}
	rec, err := gamecode.AppendGameCoded(s.buf[:0], g, gamecode.Ranked)
	if err != nil {
		return fmt.Errorf("%s:%d: %w", g.File, g.Line, err)
	}
	s.buf = rec
	s.t.record += int64(len(rec))
	s.bare = *g
	s.bare.Tags = nil
	rec, err = gamecode.AppendGameCoded(s.buf[:0], &s.bare, gamecode.Ranked)
	if err != nil {
		return err
	}
	s.t.noTags += int64(len(rec))
	s.bare.Moves = nil
	rec, _ = gamecode.AppendGameCoded(rec[:0], &s.bare, gamecode.Ranked)
	s.t.noMove += int64(len(rec))
	s.buf = rec
	if err := s.t.stats.Add(g); err != nil {
		return err
	}
	s.t.games++
	s.t.plies += int64(len(g.Moves))

	full, _ := gamecode.AppendGameCoded(nil, g, gamecode.Ranked)
	dg, err := gamecode.DecodeGame(full)
	if err != nil {
		return fmt.Errorf("%s:%d: decode: %w", g.File, g.Line, err)
	}
	text := pgn.Append(nil, &dg)
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
	epochs := flag.Int("epochs", 4, "with -gen: training passes over the inputs")
	rate := flag.Float64("rate", 0.05, "with -gen: AdaGrad learning rate")
	flag.Parse()
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: measure [-gen FILE] [-zstd] INPUT...")
		os.Exit(2)
	}
	inputs, err := expand(flag.Args())
	if err != nil {
		fmt.Fprintln(os.Stderr, "measure:", err)
		os.Exit(2)
	}
	if err := run(inputs, *gen, *zbin, *quick, *epochs, *rate); err != nil {
		fmt.Fprintln(os.Stderr, "measure:", err)
		os.Exit(1)
	}
}

// expand replaces each argument holding a wildcard by the files it
// matches, in order.
func expand(args []string) ([]string, error) {
	var out []string
	for _, a := range args {
		if !strings.ContainsAny(a, "*?[") {
			out = append(out, a)
			continue
		}
		m, err := filepath.Glob(a)
		if err != nil {
			return nil, fmt.Errorf("input pattern %q: %w", a, err)
		}
		if len(m) == 0 {
			return nil, fmt.Errorf("input pattern %q matches no file", a)
		}
		out = append(out, m...)
	}
	return out, nil
}

func run(inputs []string, gen string, zbin, quick bool, epochs int, rate float64) error {
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
		if gen != "" {
			s.t.train = train.NewTrainer()
		}
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
	train := train.NewTrainer()
	for _, s := range sinks {
		if s.t.train != nil {
			train.Merge(s.t.train)
		}
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
	fmt.Printf("moves: %.3f bits/ply stored (%.3f by the frozen weights' code lengths: %.3f for the piece, %.3f for the destination)\n",
		8*float64(t.noTags-t.noMove)/p, (t.stats.PieceBits+t.stats.DestBits)/p, t.stats.PieceBits/p, t.stats.DestBits/p)
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
		fields := strings.Fields(string(out))
		fmt.Printf("zstd binary (-19 --long=27, -19) bytes: %s\n", strings.Join(fields, " "))
		if len(fields) == 2 {
			if n, err := strconv.ParseInt(fields[1], 10, 64); err == nil && n > 0 {
				fmt.Printf("zstd -19: %.1f bytes/game; ratio record / zstd -19: %.3f\n", float64(n)/g, float64(t.record)/float64(n))
			}
		}
	}
	for _, h := range []struct {
		name string
		hist []int64
	}{{"piece", t.stats.PieceRank[:]}, {"destination", t.stats.DestRank[:]}} {
		var n int64
		for _, v := range h.hist {
			n += v
		}
		fmt.Printf("%s rank histogram (unforced choices):", h.name)
		for r := 0; r < 8; r++ {
			fmt.Printf(" %d:%.1f%%", r, 100*float64(h.hist[r])/float64(max(n, 1)))
		}
		fmt.Println()
	}
	if gen != "" {
		for e := 0; e < epochs; e++ {
			piece, dest := train.Epoch(rate)
			fmt.Printf("training epoch %d: %.4f bits/ply (%.4f piece, %.4f destination)\n", e+1, piece+dest, piece, dest)
		}
		f, err := os.Create(gen)
		if err != nil {
			return err
		}
		if err := t.stats.WriteTables(f, train.PieceWeights(), train.DestWeights()); err != nil {
			f.Close()
			return err
		}
		return f.Close()
	}
	return nil
}
