package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	iofs "io/fs"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/chessbook/chessbook/book"
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
	var o book.ExportOptions
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
	case o.OnlyWhite && o.OnlyBlack:
		return badInput("-only-white and -only-black exclude each other")
	case o.MaxPly < 0:
		return badInput("-max-ply %d: must be 0 (all) or more", o.MaxPly)
	case o.MinScore < 0 || o.MinScore > 100:
		return badInput("-min-score %g: want a percentage, 0 to 100", o.MinScore)
	case e.db == "":
		return badInput("no book given: use 'bookquery -db DIR export -o BOOK.bin'")
	}
	// Only a regular file is replaced: renaming over a symlink, a FIFO or
	// a device would replace it with a book. Checked before the work.
	if fi, err := os.Lstat(*out); err == nil && !fi.Mode().IsRegular() {
		return badInput("-o %s: not a regular file (%s): give the path of a book file to write", *out, fileKind(fi.Mode()))
	} else if err != nil && !errors.Is(err, iofs.ErrNotExist) {
		return fmt.Errorf("writing %s: %w", *out, err)
	}
	o.Weighting = book.Weighting(weights)
	if *uniform {
		o.Weighting = book.WeightUniform
	}
	st, err := openBook(e.db)
	if err != nil {
		return err
	}
	defer st.Close()
	if m := st.Meta(); o.MaxPly > 0 && m.CountMode == store.CountOccurrence && (m.MaxPly == 0 || o.MaxPly < m.MaxPly) {
		built := "all plies"
		if m.MaxPly > 0 {
			built = fmt.Sprintf("the first %d plies", m.MaxPly)
		}
		return badInput("-max-ply %d: this store counts every occurrence of a position in %s of each game, and export cannot drop the occurrences past ply %d of a position first reached before it, as make-book -max-ply %d does; build a store with 'bookbuild -max-ply %d -count occurrence -keep-duplicates' and export it without -max-ply",
			o.MaxPly, built, o.MaxPly, o.MaxPly, o.MaxPly)
	}
	differs := differsFromMakeBook(st.Meta())
	if differs != "" && !po.Quiet && !e.json {
		fmt.Fprintf(e.stderr, "note: %s\n", differs)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	prog := cli.NewProgress(po.Mode(), e.stderr)
	o.Progress = prog.Count
	entries, es, err := book.Export(ctx, st, o)
	prog.End(err)
	if err != nil {
		return err
	}
	// Write to a temporary file and rename it: an interrupted export
	// never leaves a truncated book behind.
	tmp, err := os.CreateTemp(filepath.Dir(*out), ".export-*.bin")
	if err != nil {
		return fmt.Errorf("writing %s: %w", *out, err)
	}
	defer os.Remove(tmp.Name())
	if err := polyglot.WriteBook(tmp, entries); err != nil {
		tmp.Close()
		return fmt.Errorf("writing %s: %w", *out, err)
	}
	// A book is for engines and GUIs to read: 0644, not CreateTemp's 0600.
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		return fmt.Errorf("writing %s: %w", *out, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", *out, err)
	}
	if fi, err := os.Lstat(*out); err == nil && !fi.Mode().IsRegular() { // appeared meanwhile
		return fmt.Errorf("writing %s: not a regular file (%s)", *out, fileKind(fi.Mode()))
	}
	if err := os.Rename(tmp.Name(), *out); err != nil {
		return fmt.Errorf("writing %s: %w", *out, err)
	}
	sum := exportJSON{Book: *out, Entries: es.Entries, Positions: es.Positions, Halved: es.Halved,
		EPSplit: es.EPSplit, Replayed: es.Replayed, Estimated: es.Estimated, Warning: es.Warning, Differs: differs, Bytes: int64(es.Entries) * polyglot.EntrySize}
	return e.emit(sum, func(w io.Writer) error {
		_, err := fmt.Fprintf(w, "%s: %d entries (%d bytes) from %d positions read; %d positions halved to fit 16-bit counts, %d replayed in game order, %d split by the en-passant rule\n",
			sum.Book, sum.Entries, sum.Bytes, sum.Positions, sum.Halved, sum.Replayed, sum.EPSplit)
		if err == nil && sum.Warning != "" {
			_, err = fmt.Fprintf(w, "warning: %s\n", sum.Warning)
		}
		return err
	})
}

// differsFromMakeBook says how a book exported from a store built with
// meta m differs from make-book's book of the same games, "" when the
// store counts as make-book does (-count occurrence -keep-duplicates).
func differsFromMakeBook(m store.Meta) string {
	var how []string
	if m.CountMode != store.CountOccurrence {
		how = append(how, "counts a game once per position (-count game), where make-book counts every visit")
	}
	if !m.KeepDuplicates {
		how = append(how, "counts the copies of a game once (duplicates dropped), where make-book counts every copy")
	}
	if len(how) == 0 {
		return ""
	}
	return fmt.Sprintf("this store %s: its book weighs moves by those counts and may keep or drop other moves than make-book's; "+
		"for make-book's book, build the store with 'bookbuild -count occurrence -keep-duplicates'", strings.Join(how, ", and "))
}

// fileKind names the kind of file of mode m, for messages.
func fileKind(m iofs.FileMode) string {
	switch {
	case m&iofs.ModeSymlink != 0:
		return "a symbolic link"
	case m.IsDir():
		return "a directory"
	case m&iofs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&iofs.ModeSocket != 0:
		return "a socket"
	case m&iofs.ModeDevice != 0:
		return "a device"
	}
	return "not a regular file"
}
