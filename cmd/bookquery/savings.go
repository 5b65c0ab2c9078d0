package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"

	"github.com/chessbook/chessbook/internal/cli"
	"github.com/chessbook/chessbook/internal/savings"
)

// The savings command: the store's size against PGN, zstd and a Polyglot
// book, from a sample of its games (seconds on any store); with -full,
// every encoding of the seeds measured on the store's positions (each
// weighted by its games) and position-move entries, within -mem.
var savingsCmd = &command{
	name:    "savings",
	args:    "[-sample N] [-full [-format text|markdown|json] [-chart FILE.svg] [-bands auto|ply|men] [-mem MiB] [-workers N]] [-progress MODE] [-q] [-json]",
	summary: "what the store takes against PGN, zstd and a Polyglot book, and what its keys save, in seconds from a sample of its games (-full: every encoding of the seeds measured on every position and game)",
	run:     runSavings,
}

func runSavings(e *env, args []string) error {
	fs := e.flags()
	var format, bands string
	cli.EnumVar(fs, &format, "format", "text", "the output `FORMAT`: text, markdown or json (-json is -format json)", "text", "markdown", "json")
	chart := fs.String("chart", "", "also draw the distributions as box plots into this SVG file")
	cli.EnumVar(fs, &bands, "bands", "auto", "split the figures by ply (the lowest ply each move was recorded at) or by men on the board, `BANDS`: auto, ply or men", "auto", "ply", "men")
	workers := fs.Int("workers", 0, "measuring goroutines of -full (0: one per CPU)")
	full := fs.Bool("full", false, "the full report: every position, move and game encoding of the seeds measured side by side on every stored position and game, by band (-format, -chart and -bands imply it); minutes on a big store, with progress on stderr")
	sample := fs.Int("sample", savings.DefaultSample, "the summary's games: how many stored games to replay for its estimates (0: every game, exact figures, as slow as the store is big)")
	memMiB := fs.Int("mem", 1024, "memory budget in MiB of -full for the whole process (past an eighth of it, the positions' hashes go to temporary files)")
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
	if *sample < 0 {
		return badInput("-sample %d: want 0 (every game) or more", *sample)
	}
	if *memMiB < minSavingsMiB {
		return badInput("-mem %d: want at least %d (MiB)", *memMiB, minSavingsMiB)
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
	if !*full {
		n := *sample
		if n == 0 {
			n = -1 // every game
		}
		sum, err := savings.Summarize(ctx, st, savings.SummaryOptions{Sample: n, Progress: prog.Count})
		prog.End(err)
		if err != nil {
			return err
		}
		return e.emit(sum, func(w io.Writer) error { return writeSavingsSummary(w, sum, e.db) })
	}
	// The Go heap gets three quarters of the budget: the rest is the
	// store's block cache and the runtime's own.
	mem := int64(*memMiB) << 20
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(mem * 3 / 4))
	r, err := savings.FromStore(ctx, st, savings.Options{Workers: *workers, Bands: bk, Count: prog.Count, Memory: mem})
	prog.End(err)
	if err != nil {
		return err
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

// minSavingsMiB is the smallest -mem of savings -full: the store's reader
// alone takes about 300 MiB on a big store (see book.Positions).
const minSavingsMiB = 512

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
	// about marks an estimate, with its margin when known; noun follows
	// the number.
	about := func(v, noun string, margin float64) string {
		switch {
		case s.Exact:
			return v + noun
		case margin > 0:
			return fmt.Sprintf("about %s%s (±%.1f%%)", v, noun, 100*margin)
		}
		return "about " + v + noun
	}
	var b strings.Builder
	fmt.Fprintf(&b, "the store takes %s on disk for %d games and %s, %s:\n",
		size(s.Store), s.Games, about(strconv.FormatUint(s.Positions, 10), " positions", s.PositionsMargin), about(strconv.FormatUint(s.Entries, 10), " position-moves", s.EntriesMargin))
	fmt.Fprintf(&b, "  %s bytes a game, %s bytes a position, games and every move's statistics included\n\n", per(s.Store, s.Games), per(s.Store, s.Positions))
	rows := [][]string{{"against", "size", "bytes a game", "the store is"}}
	rows = append(rows,
		[]string{"the games as PGN", about(size(s.PGN), "", s.PGNMargin), per(s.PGN, s.Games), ratio(s.Store, s.PGN)},
		[]string{"the PGN under zstd -3", about(size(s.PGNZstd), "", 0), per(s.PGNZstd, s.Games), ratio(s.Store, s.PGNZstd)},
		[]string{"a Polyglot book of every move (no games, lossy keys)", about(size(s.Polyglot), "", s.EntriesMargin), per(s.Polyglot, s.Games), ratio(s.Store, s.Polyglot)})
	writeTable(&b, rows, 1)
	if s.FENBits > 0 {
		fmt.Fprintf(&b, "\nposition keys: %.1f bytes on average, lossless (decode gives the position back): %.0f%% less than FEN (%.1f bytes);\n",
			s.KeyBits/8, 100*(1-s.KeyBits/s.FENBits), s.FENBits/8)
		fmt.Fprintf(&b, "  a Polyglot Zobrist key takes %.0f bytes and cannot be turned back into its position\n", s.ZobristBits/8)
	}
	if s.Exact {
		fmt.Fprintf(&b, "\n(measured on every stored game in %.1fs; every encoding side by side: 'bookquery -db %s savings -full')\n", s.ElapsedSecs, db)
	} else {
		fmt.Fprintf(&b, "\n(estimated from %d of the %d stored games in %.1fs, ± a 95%% margin; a bigger sample: -sample N, 0 for every game;\n"+
			" measured on every position and game, every encoding side by side: 'bookquery -db %s savings -full')\n", s.SampledGames, s.Games, s.ElapsedSecs, db)
	}
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
