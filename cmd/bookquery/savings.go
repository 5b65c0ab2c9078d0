package main

import (
	"context"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/chessbook/chessbook/internal/savings"
)

// The savings command: every encoding of the seeds measured on the
// store's positions (each weighted by its games) and position-move
// entries, next to the store's own size on disk.
var savingsCmd = &command{
	name:    "savings",
	args:    "[-format text|markdown|json] [-chart FILE.svg] [-bands auto|ply|men] [-workers N]",
	summary: "measure every position and move encoding of the seeds on the store, side by side with its size on disk",
	run:     runSavings,
}

func runSavings(e *env, args []string) error {
	fs := e.flags()
	format := fs.String("format", "text", "output format: text, markdown or json (-json is -format json)")
	chart := fs.String("chart", "", "also draw the distributions as box plots into this SVG file")
	bands := fs.String("bands", "auto", "split the figures by ply (the lowest ply each move was recorded at) or by men on the board: auto, ply or men")
	workers := fs.Int("workers", 0, "measuring goroutines (0: one per CPU)")
	if err := e.parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return badInput("unexpected arguments %q", strings.Join(fs.Args(), " "))
	}
	f, err := savings.ParseFormat(*format)
	if err != nil {
		return badInput("-%v", err)
	}
	if e.json {
		f = savings.FormatJSON
	}
	var bk savings.BandKind
	switch *bands {
	case "auto":
	case "ply", "men":
		bk = savings.BandKind(*bands)
	default:
		return badInput("-bands %q: want auto, ply or men", *bands)
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
	r, err := savings.FromStore(ctx, st, savings.Options{Workers: *workers, Bands: bk})
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
