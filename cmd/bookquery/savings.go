package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/chessbook/chessbook/internal/cli"
	"github.com/chessbook/chessbook/internal/savings"
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
	st, err := e.openBook()
	if err != nil {
		return err
	}
	defer st.Close()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	prog := cli.NewProgress(po.Mode(), e.stderr)
	r, err := savings.FromStore(ctx, st, savings.Options{Workers: *workers, Bands: bk, Count: prog.Count})
	var sum *savings.Summary
	if err == nil && !*full {
		sum, err = savings.Summarize(ctx, st, r, prog.Count)
	}
	prog.End(err)
	if err != nil {
		return err
	}
	if sum != nil {
		return e.emit(sum, func(w io.Writer) error { return writeSavingsSummary(w, sum, e.db) })
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

// writeSavingsSummary writes s as text; db is the store's directory.
func writeSavingsSummary(w io.Writer, s *savings.Summary, db string) error {
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
