// Command bookbeam builds a book store as bookbuild does, as an Apache
// Beam pipeline: the inputs are read, deduplicated, partitioned by
// content id and built shard by shard on the workers of a Beam runner
// (Prism, in this process, by default; Flink, Spark or Dataflow on a
// cluster), and the shard stores merged into -db. The store equals
// bookbuild's of the same inputs with the same options. See package
// github.com/chessbook/chessbook/beam.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	iofs "io/fs"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	blog "github.com/apache/beam/sdks/v2/go/pkg/beam/log"

	bookbeam "github.com/chessbook/chessbook/beam"
	"github.com/chessbook/chessbook/book"
	"github.com/chessbook/chessbook/book/build"
	"github.com/chessbook/chessbook/ingest"
	"github.com/chessbook/chessbook/internal/cli"
	"github.com/chessbook/chessbook/stats"
	"github.com/chessbook/chessbook/store"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

const usageHead = `usage: bookbeam -db DIR [flags] INPUT...

Builds the store bookbuild builds from the same INPUTs (PGN files, plain, .zst, .gz or .bz2,
or directories of them, in name order) as an Apache Beam pipeline: each input read and replayed,
games deduplicated by content across all inputs, partitioned into -shards ranges of content id,
each range built into a store in -workdir, and the shard stores merged into -db (a new store).

flags:
`

const usageTail = `
Beam runner flags (double dash, as Beam spells them; see docs/beam.md "Runners"):
  --runner=prism      run in this process (the default)
  --runner=flink --endpoint=HOST:8099 --environment_type=DOCKER|LOOPBACK ...
  --runner=dataflow --project=P --region=R --staging_location=gs://B/staging --temp_location=gs://B/tmp ...
  On a cluster -workdir and -db must be on a file system every worker mounts.
`

// ownFlags are the flags bookbeam defines (the flag set is Beam's global
// one, which holds Beam's flags too).
var ownFlags []string

type config struct {
	cfg      bookbeam.Config
	count    string
	speeds   string
	ratings  string
	since    string
	until    string
	memMiB   int
	keepWork bool
	quiet    bool
	cpuProf  string
	version  bool
}

func parseArgs(fs *flag.FlagSet, args []string, stderr io.Writer) (*config, error) {
	c := &config{}
	o := &c.cfg.Options
	before := map[string]bool{}
	fs.VisitAll(func(f *flag.Flag) { before[f.Name] = true })
	fs.StringVar(&c.cfg.DB, "db", "", "the store to write, `DIR`: a new store (it must not exist, or be an empty directory)")
	fs.StringVar(&c.cfg.Workdir, "workdir", "", "where the shard stores and the run's report.json are written, `DIR` (default: DB.work); a run again with the same one reuses the shards built from the same games")
	fs.IntVar(&c.cfg.Shards, "shards", 8, "the number of content-id ranges, `N`, each built into a store of its own by one worker")
	fs.IntVar(&o.MaxPly, "max-ply", 0, "record only the first N plies of each game (0: all)")
	cli.EnumVar(fs, &c.count, "count", "game", "what a game adds to a position it reaches twice, `MODE`: game or occurrence (as bookbuild -count)", "game", "occurrence")
	fs.IntVar(&o.MinRating, "min-rating", 0, "keep only games where both players are rated at least this")
	fs.StringVar(&c.ratings, "ratings", "", "keep only games whose players' mean rating is in these `BANDS`: some of "+stats.RatingBandList)
	fs.StringVar(&c.since, "since", "", "keep only games dated on or after this `DATE`: "+book.DateForms)
	fs.StringVar(&c.until, "until", "", "keep only games dated on or before this `DATE`")
	fs.StringVar(&c.speeds, "speeds", "", "keep only games of these `SPEEDS`: some of "+stats.SpeedList)
	fs.BoolVar(&o.StandardStartOnly, "standard-start-only", false, "skip games that start from a FEN")
	fs.BoolVar(&o.KeepDuplicates, "keep-duplicates", false, "store and count every copy of a game found more than once in the input (as bookbuild -keep-duplicates)")
	fs.IntVar(&c.memMiB, "mem", 512, "memory budget in MiB of each shard's build (a worker runs as many at once as the runner gives it bundles)")
	fs.IntVar(&c.cfg.ReadWorkers, "read-workers", 0, "replay goroutines per input being read (0: one per CPU)")
	fs.BoolVar(&c.keepWork, "keep-workdir", false, "keep the shard stores in -workdir after the merge (a run again then reuses them)")
	fs.BoolVar(&c.quiet, "q", false, "print nothing but errors and warnings")
	fs.BoolVar(&c.version, "version", false, "print the version (module, VCS revision, Go) and exit")
	fs.StringVar(&c.cpuProf, "cpuprofile", "", "write a CPU profile of this process to this `FILE` (with --runner=prism: the whole pipeline)")
	fs.VisitAll(func(f *flag.Flag) {
		if !before[f.Name] {
			ownFlags = append(ownFlags, f.Name)
		}
	})
	fs.Usage = func() {
		fmt.Fprint(stderr, usageHead)
		for _, name := range ownFlags {
			f := fs.Lookup(name)
			kind, usage := flag.UnquoteUsage(f)
			line := "  -" + name
			if kind != "" {
				line += " " + kind
			}
			fmt.Fprintf(stderr, "%s\n    \t%s", line, strings.ReplaceAll(usage, "\n", "\n    \t"))
			if f.DefValue != "" && f.DefValue != "0" && f.DefValue != "false" {
				fmt.Fprintf(stderr, " (default %s)", f.DefValue)
			}
			fmt.Fprintln(stderr)
		}
		fmt.Fprint(stderr, usageTail)
	}
	if err := cli.Parse(fs, args); err != nil {
		return nil, err
	}
	return c, nil
}

// check checks the command line once Beam has had its say (beam.Init),
// and expands the inputs.
func (c *config) check(fs *flag.FlagSet, runner string, stderr io.Writer) error {
	o := &c.cfg.Options
	var err error
	o.CountMode = store.CountMode(c.count)
	if o.MaxPly < 0 {
		return fmt.Errorf("-max-ply %d: want 0 (all) or more", o.MaxPly)
	}
	if c.cfg.Shards < 1 {
		return fmt.Errorf("-shards %d: want 1 or more", c.cfg.Shards)
	}
	if o.Speeds, err = stats.ParseSpeeds(c.speeds); err != nil {
		return fmt.Errorf("-speeds: %w", err)
	}
	if o.Bands, err = stats.ParseRatingBands(c.ratings); err != nil {
		return fmt.Errorf("-ratings: %w", err)
	}
	if o.Since, o.Until, err = book.ParseDateRange("-", c.since, c.until); err != nil {
		return err
	}
	if int64(c.memMiB)<<20 < build.MinMemory {
		return fmt.Errorf("-mem %d: want at least %d (MiB)", c.memMiB, build.MinMemory>>20)
	}
	o.Memory = int64(c.memMiB) << 20
	if c.cfg.DB == "" {
		return errors.New("no store given: bookbeam -db DIR FILE.pgn ...")
	}
	if entries, err := os.ReadDir(c.cfg.DB); len(entries) > 0 {
		return fmt.Errorf("-db %s: not empty: bookbeam writes a new store (to add games to a store, use bookbuild)", c.cfg.DB)
	} else if err == nil {
		if err := os.Remove(c.cfg.DB); err != nil { // the merge renames the store into place
			return err
		}
	} else if !errors.Is(err, iofs.ErrNotExist) {
		return fmt.Errorf("-db %s: %w", c.cfg.DB, err)
	}
	if c.cfg.Workdir == "" {
		c.cfg.Workdir = strings.TrimRight(c.cfg.DB, string(filepath.Separator)) + ".work"
	}
	inputs := fs.Args()
	if len(inputs) == 0 {
		return errors.New("no input given: bookbeam -db DIR FILE.pgn ...")
	}
	for _, in := range inputs {
		if in == "-" {
			return errors.New("-: bookbeam reads files, not standard input (bookbuild reads it)")
		}
	}
	files, notes, err := ingest.ExpandInputs(inputs)
	if err != nil {
		return fmt.Errorf("no work done: %w", err)
	}
	for _, n := range notes {
		fmt.Fprintf(stderr, "bookbeam: %s\n", n)
	}
	c.cfg.Inputs = files
	if runner == "prism" {
		return nil // the workers run in this process: the names as given, in reports as in bookbuild's
	}
	// The workers run elsewhere: absolute paths.
	for _, p := range append([]*string{&c.cfg.DB, &c.cfg.Workdir}, ptrs(c.cfg.Inputs)...) {
		if *p, err = filepath.Abs(*p); err != nil {
			return err
		}
	}
	return nil
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.CommandLine // Beam's flags (--runner, ...) are on it
	fs.Init("bookbeam", flag.ContinueOnError)
	fs.SetOutput(stderr)
	c, err := parseArgs(fs, args, stderr)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		fmt.Fprintf(stderr, "bookbeam: %v\nrun 'bookbeam -h' for help\n", err)
		return 2
	}
	if c.version {
		fmt.Fprintln(stdout, cli.Version("bookbeam"))
		return 0
	}
	// Beam (Prism, the runners' clients) logs every job's steps at level
	// INFO: only its warnings and errors are shown.
	blog.LogLevel = "warn"
	// On a cluster's worker, Init runs the worker and does not return.
	beam.Init()
	runner := "prism"
	if f := fs.Lookup("runner"); f != nil && f.Value.String() != "" {
		runner = f.Value.String()
	}
	if err := c.check(fs, runner, stderr); err != nil {
		fmt.Fprintln(stderr, "bookbeam:", err)
		return 2
	}
	if c.cpuProf != "" {
		stopProfile, err := cli.StartCPUProfile(c.cpuProf)
		if err != nil {
			fmt.Fprintln(stderr, "bookbeam:", err)
			return 1
		}
		defer stopProfile()
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if !c.quiet {
		fmt.Fprintf(stderr, "bookbeam: %d inputs, %d shards, runner %s, work directory %s\n", len(c.cfg.Inputs), c.cfg.Shards, runner, c.cfg.Workdir)
	}
	res, err := bookbeam.Run(ctx, runner, c.cfg)
	if err != nil {
		fmt.Fprintln(stderr, "bookbeam:", err)
		if ctx.Err() != nil {
			fmt.Fprintf(stderr, "bookbeam: interrupted: the shards built are in %s; the same command again reuses them\n", c.cfg.Workdir)
			return 130
		}
		return 1
	}
	rep := res.Report
	var games int64
	var empty, readErrs []string
	for _, f := range rep.Files {
		games += f.GamesIn
		if f.ReadError != "" {
			readErrs = append(readErrs, f.ReadError)
		} else if f.GamesIn == 0 {
			empty = append(empty, c.cfg.Inputs[f.Input])
		}
	}
	if !c.keepWork {
		for _, s := range rep.Shards {
			_ = os.RemoveAll(filepath.Dir(s.Dir))
		}
	}
	if len(readErrs) > 0 {
		// An input cut short or damaged: its games read before are in
		// the store, as bookbuild keeps them, and the run fails as
		// bookbuild's does (exit 1).
		if !c.quiet {
			printSummary(stdout, c.cfg, res)
		}
		for _, e := range readErrs {
			fmt.Fprintln(stderr, "bookbeam:", e)
		}
		return 1
	}
	if games == 0 {
		// No game in any input: not PGN, most likely. The store this run
		// made is removed, as bookbuild does.
		if rep.Merge != nil {
			_ = os.RemoveAll(rep.Merge.DB)
		}
		fmt.Fprintf(stderr, "bookbeam: no games found in %s; nothing stored\n", strings.Join(empty, ", "))
		return 2
	}
	for _, in := range empty {
		fmt.Fprintf(stderr, "bookbeam: warning: no games found in %s; the other inputs were read\n", in)
	}
	if !c.quiet {
		printSummary(stdout, c.cfg, res)
	}
	return 0
}

func ptrs(s []string) []*string {
	out := make([]*string, len(s))
	for i := range s {
		out[i] = &s[i]
	}
	return out
}

// printSummary prints what the run did in bookbuild's words.
func printSummary(w io.Writer, cfg bookbeam.Config, res *bookbeam.Result) {
	rep := res.Report
	var sum ingest.Summary
	var filtered [4]int64
	var unstorable int64
	var errs, warns, notStored []string
	for _, f := range rep.Files {
		sum.Games += f.Games
		sum.Ingested += f.Ingested
		sum.Plies += f.Plies
		sum.Bytes += f.Bytes
		sum.Warned += f.Warned
		for r, n := range f.Skipped {
			if r < len(sum.Skipped) {
				sum.Skipped[r] += n
			}
		}
		for k, n := range f.Filtered {
			filtered[k] += n
		}
		unstorable += f.Unstorable
		errs = append(errs, f.Errors...)
		notStored = append(notStored, f.NotStored...)
		warns = append(warns, f.Warnings...)
	}
	var stored, positions, built, reused int64
	for _, s := range rep.Shards {
		stored += s.Stored
		positions += s.Positions
		unstorable += s.Unstorable
		notStored = append(notStored, s.Errors...)
		if s.Reused {
			reused++
		} else {
			built++
		}
	}
	m := res.Metrics
	fmt.Fprintf(w, "games read:      %d\n", sum.Games)
	fmt.Fprintf(w, "games stored:    %d\n", stored)
	fmt.Fprintf(w, "duplicates:      %d (same players, date, round, result and moves as a game stored before)\n", m.GamesEmitted-m.GamesIntoShard)
	if unstorable > 0 {
		fmt.Fprintf(w, "not stored:      %d\n", unstorable)
		for _, e := range notStored {
			fmt.Fprintf(w, "  %s\n", e)
		}
	}
	var nf int64
	for _, n := range filtered {
		nf += n
	}
	if nf > 0 {
		fmt.Fprintf(w, "games filtered:  %d\n", nf)
		for f, n := range filtered {
			if n > 0 {
				fmt.Fprintf(w, "  %-20s %d\n", build.Filter(f).String()+":", n)
			}
		}
	}
	fmt.Fprintf(w, "games skipped:   %d\n", sum.SkippedTotal())
	for r, n := range sum.Skipped {
		if n > 0 {
			fmt.Fprintf(w, "  %-20s %d\n", ingest.SkipReason(r).String()+":", n)
		}
	}
	const shown = 5
	for i, e := range errs {
		if i == shown {
			fmt.Fprintf(w, "  ... %d more (all of the first 100 of each input in %s)\n", sum.SkippedTotal()-shown, filepath.Join(cfg.Workdir, "report.json"))
			break
		}
		fmt.Fprintf(w, "  %s\n", e)
	}
	if sum.Warned > 0 {
		fmt.Fprintf(w, "warnings:        %d (about games stored all the same)\n", sum.Warned)
		for i, x := range warns {
			if i == 3 {
				break
			}
			fmt.Fprintf(w, "  %s\n", x)
		}
	}
	fmt.Fprintf(w, "plies replayed:  %d\n", sum.Plies)
	fmt.Fprintf(w, "positions added: %d (position-move occurrences)\n", positions)
	fmt.Fprintf(w, "shards:          %d built, %d reused from an earlier run\n", built, reused)
	if n := m.GamesEmitted; n > 0 && !cfg.Options.KeepDuplicates {
		fmt.Fprintf(w, "shuffled:        %.1f MiB into the dedupe, %.1f MiB into the shards (%.0f and %.0f bytes a game)\n",
			float64(m.BytesDedupe)/(1<<20), float64(m.BytesShard)/(1<<20), float64(m.BytesDedupe)/float64(n), float64(m.BytesShard)/float64(max(m.GamesIntoShard, 1)))
	} else if n > 0 {
		fmt.Fprintf(w, "shuffled:        %.1f MiB into the shards (%.0f bytes a game; no dedupe with -keep-duplicates)\n",
			float64(m.BytesShard)/(1<<20), float64(m.BytesShard)/float64(max(m.GamesIntoShard, 1)))
	}
	if mr := rep.Merge; mr != nil {
		fmt.Fprintf(w, "store:           %s, %.1f MiB on disk, %d games (merged from %d shard stores)\n",
			mr.DB, float64(store.DirSize(mr.DB))/(1<<20), stored, mr.Stores)
	}
	fmt.Fprintf(w, "input:           %.1f MiB\n", float64(sum.Bytes)/(1<<20))
	fmt.Fprintf(w, "elapsed:         %s\n", res.Elapsed.Round(10*time.Millisecond))
}
