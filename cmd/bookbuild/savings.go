package main

import (
	"context"
	"errors"
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

// savingsUsage is the synopsis of 'bookbuild savings'.
const savingsUsage = `usage: bookbuild savings [flags] INPUT...

Measures every position, move and game encoding of the project's seeds on
the games of the PGN inputs (plain, .zst, .gz or .bz2, or - for stdin),
side by side: mean, median and max bits by ply band and overall, the sizes
on disk, the collisions of the lossy hashes, and the seeds' claims checked.
No store is needed ('bookquery -db DIR savings' measures a store).

flags:
`

// runSavings runs 'bookbuild savings' with the arguments after the word
// savings and returns the exit status: 0 done, 1 I/O or measuring error,
// 2 bad usage, 130 interrupted.
func runSavings(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("bookbuild savings", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var format, bands string
	cli.EnumVar(fs, &format, "format", "text", "the output `FORMAT`: text, markdown or json", "text", "markdown", "json")
	chart := fs.String("chart", "", "also draw the distributions as box plots into this SVG file")
	workers := fs.Int("workers", 0, "measuring goroutines (0: one per CPU)")
	cli.EnumVar(fs, &bands, "bands", "auto", "split the figures by ply or by men on the board, `BANDS`: auto, ply or men (auto: ply, which the input always gives)", "auto", "ply", "men")
	every := fs.Int("gamecode-every", 1, "measure the game code on one game in N only (it is the costliest measurement; 1: every game)")
	keepDups := fs.Bool("keep-duplicates", false, "measure every copy of a game (by default a game met again is skipped, as bookbuild skips it)")
	po := cli.ProgressFlags(fs, "")
	fs.Usage = func() {
		fmt.Fprint(stderr, savingsUsage)
		fs.PrintDefaults()
	}
	if err := cli.Parse(fs, args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		fmt.Fprintln(stderr, "bookbuild savings:", err)
		fmt.Fprintln(stderr, "run 'bookbuild savings -h' for help")
		return 2
	}
	f, err := savings.ParseFormat(format)
	if bands == "auto" {
		bands = string(savings.BandPly)
	}
	if err == nil && *every < 1 {
		err = fmt.Errorf("-gamecode-every %d: want 1 or more", *every)
	}
	if err == nil && *workers < 0 {
		err = fmt.Errorf("-workers %d: want 0 (one per CPU) or more", *workers)
	}
	if err == nil && fs.NArg() == 0 {
		err = errors.New("no input given: bookbuild savings FILE.pgn ...")
	}
	if err != nil {
		fmt.Fprintln(stderr, "bookbuild savings:", err)
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	prog := cli.NewProgress(po.Mode(), stderr)
	r, err := savings.FromPGN(ctx, fs.Args(), savings.Options{
		Workers: *workers, Bands: savings.BandKind(bands), GamecodeEvery: *every, KeepDuplicates: *keepDups, Progress: prog.Input,
	})
	prog.End(err)
	if err != nil {
		if cli.Interrupted(err) {
			fmt.Fprintln(stderr, "bookbuild savings: interrupted")
			return 130
		}
		fmt.Fprintln(stderr, "bookbuild savings:", err)
		return 1
	}
	command := "bookbuild savings " + strings.Join(args, " ")
	if err := r.Write(stdout, f, command); err != nil {
		fmt.Fprintln(stderr, "bookbuild savings:", err)
		return 1
	}
	if *chart != "" {
		if err := r.WriteSVGFile(*chart); err != nil {
			fmt.Fprintln(stderr, "bookbuild savings:", err)
			return 1
		}
	}
	return 0
}
