package main

import (
	"context"
	"flag"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/chessbook/chessbook/book/export"
	"github.com/chessbook/chessbook/internal/cli"
)

// The positions command streams every stored position (see
// export.Positions).

var positionsCmd = &command{
	name:    "positions",
	args:    "[-min-games N] [-min-ply N] [-max-ply N] [-format ndjson|csv] [-moves] [-progress MODE] [-q]",
	summary: "stream every stored position (FEN, games, results, ply), as NDJSON or CSV",
	run:     runPositions,
}

func runPositions(e *env, args []string) error {
	o, progress, err := positionsFlags(e, args)
	if err != nil {
		return err
	}
	st, err := e.openBook()
	if err != nil {
		return err
	}
	defer st.Close()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	prog := cli.NewProgress(progress, e.stderr)
	o.Progress = prog.Count
	err = export.Positions(ctx, st, e.stdout, o)
	prog.End(err)
	return err
}

// positionsFlags parses and checks the flags of positions; it returns the
// dump's options and the progress display's mode.
func positionsFlags(e *env, args []string) (export.PositionsOptions, string, error) {
	fs := e.flags()
	var o export.PositionsOptions
	fs.Uint64Var(&o.MinGames, "min-games", 0, "only positions with at least N games")
	fs.IntVar(&o.MinPly, "min-ply", 0, "only positions first reached at ply N or later")
	fs.IntVar(&o.MaxPly, "max-ply", -1, "only positions reached at ply N or earlier (-1: no limit); the games are replayed only that far")
	var format string
	cli.EnumVar(fs, &format, "format", "ndjson", "the output `FORMAT`: ndjson or csv", "ndjson", "csv")
	fs.BoolVar(&o.Moves, "moves", false, "include every move with all its statistics (ndjson only): a full dump of the book")
	po := e.progressFlags(fs, "")
	if err := e.parse(fs, args); err != nil {
		return o, "", err
	}
	formatSet := false
	fs.Visit(func(f *flag.Flag) { formatSet = formatSet || f.Name == "format" })
	switch {
	case e.json && formatSet && format != "ndjson":
		return o, "", badInput("-json and -format %s: -json prints NDJSON; give one of them", format)
	case e.json:
		format = "ndjson"
	}
	o.Format = export.Format(format)
	if fs.NArg() > 0 {
		return o, "", badInput("unexpected arguments %q", strings.Join(fs.Args(), " "))
	}
	if err := o.Check(); err != nil {
		return o, "", badInput("%v", err)
	}
	if e.db == "" {
		return o, "", badInput("no book given: use 'bookquery -db DIR positions'")
	}
	return o, po.Mode(), nil
}
