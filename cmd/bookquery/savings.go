package main

import (
	"context"
	"flag"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"fmt"
	"time"

	"github.com/chessbook/chessbook/gamecode"
	"github.com/chessbook/chessbook/internal/cli"
	"github.com/chessbook/chessbook/internal/savings"
	"github.com/chessbook/chessbook/pgn"
	"github.com/chessbook/chessbook/store"
	"github.com/klauspost/compress/zstd"
)

// The savings command: every encoding of the seeds measured on the
// store's positions (each weighted by its games) and position-move
// entries, next to the store's own size on disk.
var savingsCmd = &command{
	name:    "savings",
	args:    "[-full [-format text|markdown|json] [-chart FILE.svg] [-bands auto|ply|men]] [-workers N] [-progress MODE] [-q] [-json]",
	summary: "what the store takes, per game and per position, against PGN, zstd and a Polyglot book, and what its keys save (-full: every encoding of the seeds measured)",
	run:     runSavings,
}

func runSavings(e *env, args []string) error {
	fs := e.flags()
	var format, bands string
	cli.EnumVar(fs, &format, "format", "text", "the output `FORMAT`: text, markdown or json (-json is -format json)", "text", "markdown", "json")
	chart := fs.String("chart", "", "also draw the distributions as box plots into this SVG file")
	cli.EnumVar(fs, &bands, "bands", "auto", "split the figures by ply (the lowest ply each move was recorded at) or by men on the board, `BANDS`: auto, ply or men", "auto", "ply", "men")
	workers := fs.Int("workers", 0, "measuring goroutines (0: one per CPU)")
	full := fs.Bool("full", false, "the full report: every position, move and game encoding of the seeds measured side by side, by band (-format, -chart and -bands imply it)")
	po := e.progressFlags(fs, "")
	if err := e.parse(fs, args); err != nil {
		return err
	}
	fs.Visit(func(f *flag.Flag) { *full = *full || f.Name == "format" || f.Name == "chart" || f.Name == "bands" })
	if fs.NArg() > 0 {
		return badInput("unexpected arguments %q", strings.Join(fs.Args(), " "))
	}
	f, err := savings.ParseFormat(format)
	if err != nil {
		return badInput("-%v", err)
	}
	if e.json {
		f = savings.FormatJSON
	}
	var bk savings.BandKind
	if bands != "auto" {
		bk = savings.BandKind(bands)
	}
	if *workers < 0 {
		return badInput("-workers %d: want 0 (one per CPU) or more", *workers)
	}
	if e.db == "" {
		return badInput("no book given: use 'bookquery -db DIR savings' with DIR a store built by bookbuild")
	}
	st, err := openBook(e.db)
	if err != nil {
		return err
	}
	defer st.Close()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	prog := cli.NewProgress(po.Mode(), e.stderr)
	r, err := savings.FromStore(ctx, st, savings.Options{Workers: *workers, Bands: bk, Count: prog.Count})
	var sum *savingsSummary
	if err == nil && !*full {
		sum, err = summarizeSavings(ctx, st, r, prog.Count)
	}
	prog.End(err)
	if err != nil {
		return err
	}
	if sum != nil {
		return e.emit(sum, func(w io.Writer) error { return sum.write(w, e.db) })
	}
	command := "bookquery -db " + e.db + " savings"
	if len(args) > 0 {
		command += " " + strings.Join(args, " ")
	}
	if err := r.Write(e.stdout, f, command); err != nil {
		return err
	}
	if *chart != "" {
		return r.WriteSVGFile(*chart)
	}
	return nil
}

// savingsSummary is the short answer of savings: what the store takes, per
// game and per position, against the games as PGN, the PGN under zstd and
// a Polyglot book of the same moves, and what the position keys save.
type savingsSummary struct {
	Store        int64   `json:"store_bytes"`
	Games        uint64  `json:"games"`
	Positions    uint64  `json:"positions"`
	Entries      uint64  `json:"position_moves"`
	PGN          int64   `json:"pgn_bytes"`       // the stored games written as PGN
	PGNZstd      int64   `json:"pgn_zstd_bytes"`  // that PGN under zstd's default level (zstd -3)
	Polyglot     int64   `json:"polyglot_bytes"`  // a Polyglot book of every position-move: 16 bytes each
	KeyBits      float64 `json:"key_bits_mean"`   // our lossless key
	FENBits      float64 `json:"fen_bits_mean"`   // FEN text
	ZobristBits  float64 `json:"zobrist_bits"`    // Polyglot's 64-bit hash (lossy)
	ElapsedSecs  float64 `json:"elapsed_seconds"` // measuring time
	elapsedStart time.Time
}

// summarizeSavings measures the short answer: the store's size, the stored
// games written as PGN and compressed, and the key figures of r.
func summarizeSavings(ctx context.Context, st *store.Store, r *savings.Report, progress func(string, int64, int64)) (*savingsSummary, error) {
	var done, total int64 = 0, int64(st.Meta().Games)
	s := &savingsSummary{Store: store.DirSize(st.Dir()), Games: r.Games, Positions: r.Distinct, Entries: r.Entries, elapsedStart: time.Now()}
	s.Polyglot = 16 * int64(r.Entries)
	for _, row := range r.PositionRows {
		switch row.ID {
		case "key":
			s.KeyBits = row.All.Mean
		case "fen":
			s.FENBits = row.All.Mean
		case "zobrist64":
			s.ZobristBits = row.All.Mean
		}
	}
	var zc countWriter
	zw, err := zstd.NewWriter(&zc, zstd.WithEncoderLevel(zstd.SpeedDefault))
	if err != nil {
		return nil, err
	}
	var buf []byte
	err = st.Games(func(id store.GameID, rec []byte) (bool, error) {
		if done++; done%1024 == 0 {
			if err := ctx.Err(); err != nil {
				return false, err
			}
			progress("games written as PGN", done, total)
		}
		g, err := gamecode.DecodeGame(rec)
		if err != nil {
			return false, fmt.Errorf("game %s: %w (corrupt store?)", id, err)
		}
		buf = pgn.Append(buf[:0], &g)
		s.PGN += int64(len(buf))
		_, err = zw.Write(buf)
		return err == nil, err
	})
	if err != nil {
		return nil, fmt.Errorf("writing the stored games as PGN: %w", err)
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	s.PGNZstd = zc.n
	s.ElapsedSecs = r.ElapsedSeconds + time.Since(s.elapsedStart).Seconds()
	return s, nil
}

// countWriter counts the bytes written to it.
type countWriter struct{ n int64 }

func (c *countWriter) Write(p []byte) (int, error) { c.n += int64(len(p)); return len(p), nil }

func (s *savingsSummary) write(w io.Writer, db string) error {
	per := func(n int64, of uint64) string {
		if of == 0 {
			return "-"
		}
		return fmt.Sprintf("%.1f", float64(n)/float64(of))
	}
	ratio := func(a, b int64) string {
		if b == 0 {
			return "-"
		}
		return fmt.Sprintf("%.2fx", float64(a)/float64(b))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "the store takes %s on disk for %d games and %d positions (%d position-moves):\n", size(s.Store), s.Games, s.Positions, s.Entries)
	fmt.Fprintf(&b, "  %s bytes a game, %s bytes a position, games and every move's statistics included\n\n", per(s.Store, s.Games), per(s.Store, s.Positions))
	rows := [][]string{{"against", "size", "bytes a game", "the store is"}}
	rows = append(rows,
		[]string{"the games as PGN", size(s.PGN), per(s.PGN, s.Games), ratio(s.Store, s.PGN)},
		[]string{"the PGN under zstd -3", size(s.PGNZstd), per(s.PGNZstd, s.Games), ratio(s.Store, s.PGNZstd)},
		[]string{"a Polyglot book of every move (no games, lossy keys)", size(s.Polyglot), per(s.Polyglot, s.Games), ratio(s.Store, s.Polyglot)})
	writeTable(&b, rows, 1)
	if s.FENBits > 0 {
		fmt.Fprintf(&b, "\nposition keys: %.1f bytes on average, lossless (decode gives the position back): %.0f%% less than FEN (%.1f bytes);\n",
			s.KeyBits/8, 100*(1-s.KeyBits/s.FENBits), s.FENBits/8)
		fmt.Fprintf(&b, "  a Polyglot Zobrist key takes %.0f bytes and cannot be turned back into its position\n", s.ZobristBits/8)
	}
	fmt.Fprintf(&b, "\n(measured in %.1fs; every encoding side by side: 'bookquery -db %s savings -full')\n", s.ElapsedSecs, db)
	_, err := io.WriteString(w, b.String())
	return err
}

// size formats a byte count in KiB, MiB or GiB.
func size(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
}
