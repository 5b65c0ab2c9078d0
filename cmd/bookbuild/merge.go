package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"strings"
	"syscall"
	"time"

	"github.com/chessbook/chessbook/book/build"
	"github.com/chessbook/chessbook/book/merge"
	"github.com/chessbook/chessbook/internal/cli"
	"github.com/chessbook/chessbook/store"
)

// mergeUsage is the synopsis of 'bookbuild merge'.
const mergeUsage = `usage: bookbuild merge -db OUT [flags] STORE...

Merges stores built separately (one per month, say) into a new store OUT,
exactly as one build of all their inputs, in the order the stores are
given, would have made it: a game in two stores is stored and counted
once (with -keep-duplicates, its copies are numbered as one build numbers
them), first-seen stamps follow the stores' order, and the game index
answers the same. A store that shares no game with an earlier one is
copied record by record (fast); one that does is rebuilt from its game
records first (slower). The stores must have been built with the same
-max-ply, -count and -keep-duplicates. OUT must not exist or be empty; it
is written in one atomic step: an interrupted merge leaves it empty, and
the same command merges again.

flags:
`

// runMerge runs 'bookbuild merge' with the arguments after the word merge
// and returns the exit status: 0 done, 1 I/O error, 2 bad usage or stores
// that cannot be merged (options differ, not a store, OUT not new), 130
// interrupted.
func runMerge(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("bookbuild merge", flag.ContinueOnError)
	fs.SetOutput(stderr)
	db := fs.String("db", "", "the new store `OUT` to write (must not exist, or be empty)")
	memMiB := fs.Int("mem", 1024, "memory budget in MiB for the whole process (it matters when a store is rebuilt from its games)")
	keepStamps := fs.Bool("keep-stamps", false, "keep the first-seen stamps of -count occurrence stores as they are: for stores built as shards of one build, each with every input of it in order; by default a store's stamps follow the inputs of the stores before it")
	po := cli.ProgressFlags(fs, "no summary")
	fs.Usage = func() {
		fmt.Fprint(stderr, mergeUsage)
		fs.PrintDefaults()
	}
	if err := cli.Parse(fs, args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		fmt.Fprintln(stderr, "bookbuild merge:", err)
		fmt.Fprintln(stderr, "run 'bookbuild merge -h' for help")
		return 2
	}
	var err error
	var plan build.MemoryPlan
	switch {
	case *db == "":
		err = errors.New("no store to write: bookbuild merge -db OUT STORE...")
	case fs.NArg() == 0:
		err = errors.New("no store to merge: bookbuild merge -db OUT STORE...")
	case int64(*memMiB)<<20 < build.MinMemory:
		err = fmt.Errorf("-mem %d: want at least %d (MiB)", *memMiB, build.MinMemory>>20)
	default:
		if total := totalMemoryMiB(); total > 0 && int64(*memMiB) > total {
			err = fmt.Errorf("-mem %d: more than this machine's %d MiB of memory", *memMiB, total)
		} else {
			plan, err = build.PlanMemory(int64(*memMiB)<<20, runtime.GOMAXPROCS(0), 0)
		}
	}
	if err != nil {
		fmt.Fprintln(stderr, "bookbuild merge:", err)
		return 2
	}
	// As a build does, the process keeps within -mem: the Go heap's
	// limit from the plan (a store rebuilt from its games is a build).
	if debug.SetMemoryLimit(-1) == math.MaxInt64 {
		debug.SetMemoryLimit(plan.GoLimit)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	prog := cli.NewProgress(po.Mode(), stderr)
	start := time.Now()
	ms, err := merge.Run(ctx, *db, fs.Args(), merge.Options{MemBudget: plan.Tables, Workers: plan.Workers,
		Progress: prog.Count, KeepStamps: *keepStamps})
	prog.End(err)
	msg := ""
	if err != nil {
		// The library's errors say "merge: " already; Pebble's damage
		// errors carry details on lines of their own.
		msg = strings.TrimPrefix(store.ErrorLine(err), "merge: ")
	}
	switch {
	case err == nil:
	case errors.Is(err, build.ErrInterrupted):
		fmt.Fprintf(stderr, "bookbuild merge: interrupted: %s holds nothing merged; run the same command again\n", *db)
		return 130
	case errors.Is(err, merge.ErrMismatch), errors.Is(err, merge.ErrTarget), errors.Is(err, store.ErrNotExist),
		errors.Is(err, store.ErrNotStore), errors.Is(err, store.ErrIncompatible):
		fmt.Fprintln(stderr, "bookbuild merge:", msg)
		return 2
	default:
		fmt.Fprintln(stderr, "bookbuild merge:", msg)
		return 1
	}
	if !po.Quiet {
		fmt.Fprintf(stdout, "stores merged:   %d\n", ms.Stores)
		fmt.Fprintf(stdout, "games:           %d\n", ms.Games)
		fmt.Fprintf(stdout, "duplicates:      %d (games of a store that an earlier store holds: counted once)\n", ms.Duplicates)
		if ms.Replayed > 0 {
			fmt.Fprintf(stdout, "rebuilt:         %d stores sharing games with an earlier one, from their %d games; the others copied record by record\n", ms.Replayed, ms.ReplayedGames)
		} else {
			fmt.Fprintf(stdout, "rebuilt:         none (no store shares a game with an earlier one: every store copied record by record)\n")
		}
		fmt.Fprintf(stdout, "records written: %d\n", ms.Records)
		fmt.Fprintf(stdout, "store:           %s, %s on disk\n", *db, mib(store.DirSize(*db)))
		fmt.Fprintf(stdout, "elapsed:         %.2fs\n", time.Since(start).Seconds())
	}
	return 0
}
