package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"
	"syscall"

	"github.com/chessbook/chessbook/book/build"
	"github.com/chessbook/chessbook/book/export"
	"github.com/chessbook/chessbook/internal/cli"
	"github.com/chessbook/chessbook/polyglot"
	"github.com/chessbook/chessbook/store"
)

var exportCmd = &command{
	name:    "export",
	args:    "-o BOOK.bin [-max-ply N] [-min-game N] [-min-score P] [-only-white|-only-black] [-uniform] [-weights score|games] [-progress MODE] [-q]",
	summary: "write the book as a Polyglot .bin (make-book's options and weights)",
	run:     runExport,
}

// exportJSON is export's -json summary.
type exportJSON struct {
	Book      string `json:"book"`
	Entries   int    `json:"entries"`
	Positions int    `json:"positions"`
	Halved    int    `json:"halved"`
	EPSplit   int    `json:"ep_split"`
	Replayed  int    `json:"replayed"`
	Estimated int    `json:"estimated"`
	Warning   string `json:"warning,omitempty"`
	// Differs says how the book differs from make-book's on the same
	// games when the store was not built as make-book counts (-count
	// occurrence -keep-duplicates); absent when it was.
	Differs string `json:"differs,omitempty"`
	Bytes   int64  `json:"bytes"`
}

func runExport(e *env, args []string) error {
	fs := e.flags()
	out := fs.String("o", "", "the Polyglot book to write")
	var o export.Options
	fs.IntVar(&o.MaxPly, "max-ply", 0, "keep only moves first played before this ply (0: all). It cannot drop a move's later occurrences, so on a -count occurrence store it must be at least the build's -max-ply: for make-book -max-ply N's counts, build with 'bookbuild -max-ply N'")
	fs.Uint64Var(&o.MinGame, "min-game", 3, "keep moves played at least N times")
	fs.Float64Var(&o.MinScore, "min-score", 0, "keep moves scoring at least P percent for the mover")
	fs.BoolVar(&o.OnlyWhite, "only-white", false, "only positions with White to move")
	fs.BoolVar(&o.OnlyBlack, "only-black", false, "only positions with Black to move")
	uniform := fs.Bool("uniform", false, "every kept move gets weight 1")
	var weights string
	cli.EnumVar(fs, &weights, "weights", "score", "the move `WEIGHT`: score (2*wins + draws for the mover, make-book's) or games (popularity)", "score", "games")
	po := e.progressFlags(fs, "no note on how the book differs from make-book's")
	if err := e.parse(fs, args); err != nil {
		return err
	}
	switch {
	case fs.NArg() > 0:
		return badInput("unexpected arguments %q", strings.Join(fs.Args(), " "))
	case *out == "":
		return badInput("no output given: -o BOOK.bin")
	}
	o.Weighting = export.Weighting(weights)
	if *uniform {
		o.Weighting = export.WeightUniform
	}
	if err := o.Check(store.Meta{}); err != nil {
		return badInput("%v", err)
	}
	if e.db == "" {
		return badInput("no book given: use 'bookquery -db DIR export -o BOOK.bin'")
	}
	if err := checkBookPath(*out); err != nil { // before the work
		return err
	}
	st, err := e.openBook()
	if err != nil {
		return err
	}
	defer st.Close()
	if err := o.Check(st.Meta()); err != nil {
		return badInput("%v", err)
	}
	differs := export.DiffersFromMakeBook(st.Meta())
	if differs != "" && !po.Quiet && !e.json {
		fmt.Fprintf(e.stderr, "note: %s\n", differs)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	prog := cli.NewProgress(po.Mode(), e.stderr)
	o.Progress = prog.Count
	// Export keeps to the default build budget, as bookbuild does: a
	// soft Go memory limit (unless GOMEMLIMIT set one) makes the
	// collector work harder rather than let garbage past it.
	if debug.SetMemoryLimit(-1) == math.MaxInt64 {
		if plan, err := build.PlanMemory(build.DefaultMemory, 1, 0); err == nil {
			debug.SetMemoryLimit(plan.GoLimit)
			defer debug.SetMemoryLimit(math.MaxInt64)
		}
	}
	es, err := export.WritePolyglot(ctx, st, o, *out)
	prog.End(err)
	if err != nil {
		return err
	}
	sum := exportJSON{Book: *out, Entries: es.Entries, Positions: es.Positions, Halved: es.Halved,
		EPSplit: es.EPSplit, Replayed: es.Replayed, Estimated: es.Estimated, Warning: es.Warning, Differs: differs, Bytes: int64(es.Entries) * polyglot.EntrySize}
	return e.emit(sum, func(w io.Writer) error {
		var err error
		if !po.Quiet { // -q: only errors and warnings, as bookbuild's
			_, err = fmt.Fprintf(w, "%s: %d entries (%d bytes) from %d positions read; %d positions halved to fit 16-bit counts, %d replayed in game order, %d split by the en-passant rule\n",
				sum.Book, sum.Entries, sum.Bytes, sum.Positions, sum.Halved, sum.Replayed, sum.EPSplit)
		}
		if err == nil && sum.Warning != "" {
			_, err = fmt.Fprintf(w, "warning: %s\n", sum.Warning)
		}
		return err
	})
}

// checkBookPath checks the book's path before the work: a path that holds
// something else than a regular file is bad input.
func checkBookPath(path string) error {
	err := export.CheckBookPath(path)
	if nr := (*export.NotRegularError)(nil); errors.As(err, &nr) {
		return badInput("-o %v", err)
	}
	return err
}
