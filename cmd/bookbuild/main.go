// Command bookbuild reads PGN dumps (plain, .zst, .gz, .bz2 or stdin),
// replays every game and adds the moves' statistics to a book store
// (-db DIR). Running it again on an existing store adds the new games.
// Without -db it only replays the input and prints the summary.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	iofs "io/fs"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/chessbook/chessbook/book"
	"github.com/chessbook/chessbook/book/build"
	"github.com/chessbook/chessbook/book/merge"
	"github.com/chessbook/chessbook/gamecode"
	"github.com/chessbook/chessbook/ingest"
	"github.com/chessbook/chessbook/internal/cli"
	"github.com/chessbook/chessbook/stats"
	"github.com/chessbook/chessbook/store"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// config is the parsed command line.
type config struct {
	inputs   []string
	db       string
	workers  int
	report   string
	progress *cli.ProgressOptions
	build    build.Options
	count    string
	coding   string
	speeds   string
	ratings  string
	since    string
	until    string
	memMiB   int
	cpuProf  string
	compact  bool
	reindex  bool
	version  bool
}

// usageHead is the start of bookbuild's help, before its flags.
const usageHead = `usage: bookbuild -db DIR [flags] INPUT...
       bookbuild -db DIR -reindex [flags] [INPUT...]   (index the stored games for players and search first)
       bookbuild merge -db OUT [flags] STORE...   (stores built separately merged into one: 'bookbuild merge -h')
       bookbuild savings [flags] INPUT...   (every encoding measured on the input: 'bookbuild savings -h')
       bookbuild [flags] INPUT...   (no -db: a dry run; the games are replayed and counted, nothing is stored)

INPUT is a PGN file (plain, .zst, .gz or .bz2, detected by content), a directory (its PGN files,
in name order) or - for stdin. Flags may come before or after the inputs.

Exit status: 0 done (a dry run too: it says so on stderr, even with -q); 1 failed (I/O, an input
cut short, a store in use or incompatible); 2 bad usage, or no game kept: no input holds a game,
or every game read was skipped or filtered out (one line says why, even with -q; a store the run
created is removed); 130 interrupted (the store keeps what was committed: run it again to finish).

flags:
`

// hints answer flags bookbuild does not have that bookquery or an older
// bookbuild has.
var hints = map[string]string{
	"json": "bookbuild prints a summary; -report FILE.json writes it as JSON",
}

func parseArgs(args []string, stderr io.Writer) (*config, error) {
	fs := flag.NewFlagSet("bookbuild", flag.ContinueOnError)
	fs.SetOutput(stderr)
	c := &config{}
	fs.StringVar(&c.db, "db", "", "the book store directory (created if missing); without it a dry run: the input is only replayed, nothing is stored")
	fs.IntVar(&c.build.MaxPly, "max-ply", 0, "record only the first N plies of each game (0: all)")
	cli.EnumVar(fs, &c.count, "count", "game", "what a game adds to a position it reaches twice, `MODE`: game (once, under the move played at its first visit, like the lichess explorer) or occurrence (every visit, like polyglot make-book)", "game", "occurrence")
	fs.IntVar(&c.build.MinRating, "min-rating", 0, "keep only games where both players are rated at least this")
	fs.StringVar(&c.ratings, "ratings", "", "keep only games whose players' mean rating is in these `BANDS`: some of "+stats.RatingBandList+" (as bookquery -ratings counts them)")
	fs.StringVar(&c.since, "since", "", "keep only games dated on or after this `DATE`: "+book.DateForms)
	fs.StringVar(&c.until, "until", "", "keep only games dated on or before this `DATE` (a year or month: to its end)")
	fs.StringVar(&c.speeds, "speeds", "", "keep only games of these `SPEEDS`, from TimeControl with lichess's bounds: some of "+stats.SpeedList)
	fs.BoolVar(&c.build.StandardStartOnly, "standard-start-only", false, "skip games that start from a FEN")
	fs.BoolVar(&c.compact, "compact", true, "compact the store when done if it holds 6 or more sorted runs (each commit of a build adds one: a build commits at least every 30 s, and every -commit-runs flushes): lookups look into one run, and the store is smallest (-compact=false never compacts)")
	fs.BoolVar(&c.build.KeepDuplicates, "keep-duplicates", false, "store and count every copy of a game found more than once in the input (as polyglot make-book does); by default a game is counted once")
	cli.EnumVar(fs, &c.coding, "game-coding", "indexed", "how stored games code their moves, `CODING`: indexed (each move as its number among the legal moves: the fastest build) or ranked (a move model: game records 10-15% smaller, game coding about 2.5 times slower); a store may hold both", "indexed", "ranked")
	fs.IntVar(&c.memMiB, "mem", 1024, "memory budget in MiB for the whole process: aggregation tables, store cache, buffers (fewer -workers run when it cannot afford them)")
	fs.IntVar(&c.build.CommitRuns, "commit-runs", 0, "commit to the store every N flushes of the memory budget (0: 64, or fewer with a small -mem), and at least every 30 s; fewer lose less to a crash and leave more sorted runs in the store (Ctrl-C commits what is flushed, then stops)")
	fs.IntVar(&c.workers, "workers", 0, "replay goroutines (0: one per CPU)")
	fs.BoolVar(&c.reindex, "reindex", false, "write the game index (bookquery players, search) of every game the store holds, replacing the one it has, then add the inputs if any: for a store an older bookbuild wrote (a build into it indexes it too)")
	fs.StringVar(&c.cpuProf, "cpuprofile", "", "write a CPU profile to this file")
	fs.StringVar(&c.report, "report", "", "write the summary and every skipped game's file:line: reason to this JSON file")
	fs.BoolVar(&c.version, "version", false, "print the version (module, VCS revision, Go) and exit")
	c.progress = cli.ProgressFlags(fs, "no summary (-report still writes it)")
	fs.Usage = func() {
		fmt.Fprint(stderr, usageHead)
		fs.PrintDefaults()
	}
	if err := cli.ParseHinted(fs, args, hints); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, err
		}
		return nil, usageError{err}
	}
	if c.version {
		return c, nil
	}
	c.inputs = fs.Args()
	c.build.Inputs = c.inputs
	c.build.CountMode = store.CountMode(c.count)
	coding, err := gamecode.ParseCoding(c.coding)
	if err != nil {
		return nil, fmt.Errorf("-game-coding %q: want indexed or ranked", c.coding)
	}
	c.build.GameCoding = coding
	if c.build.CommitRuns < 0 {
		return nil, fmt.Errorf("-commit-runs %d: want 0 (by -mem) or more", c.build.CommitRuns)
	}
	if c.build.MaxPly < 0 {
		return nil, fmt.Errorf("-max-ply %d: want 0 (all) or more", c.build.MaxPly)
	}
	if c.build.Speeds, err = stats.ParseSpeeds(c.speeds); err != nil {
		return nil, fmt.Errorf("-speeds: %w", err)
	}
	if c.build.Bands, err = stats.ParseRatingBands(c.ratings); err != nil {
		return nil, fmt.Errorf("-ratings: %w", err)
	}
	if c.build.Since, c.build.Until, err = book.ParseDateRange("-", c.since, c.until); err != nil {
		return nil, err
	}
	if c.workers < 0 {
		return nil, fmt.Errorf("-workers %d: want 0 (one per CPU) or more", c.workers)
	}
	if int64(c.memMiB)<<20 < build.MinMemory {
		return nil, fmt.Errorf("-mem %d: want at least %d (MiB)", c.memMiB, build.MinMemory>>20)
	}
	if total := totalMemoryMiB(); total > 0 && int64(c.memMiB) > total {
		return nil, fmt.Errorf("-mem %d: more than this machine's %d MiB of memory", c.memMiB, total)
	}
	// The budget is the whole process's: build.PlanMemory splits it.
	c.build.Memory = int64(c.memMiB) << 20
	if c.reindex && c.db == "" {
		return nil, errors.New("-reindex: no store given: bookbuild -db DIR -reindex")
	}
	if len(c.inputs) == 0 {
		if c.reindex {
			return c, nil
		}
		return nil, errors.New("no input given: bookbuild -db DIR FILE.pgn ...")
	}
	if c.report != "" {
		// Found now, not once the store is committed: the report's file
		// must be writable (it is written at the end).
		if err := checkWritable(c.report); err != nil {
			return nil, fmt.Errorf("-report %s: %w", c.report, err)
		}
	}
	files, notes, err := ingest.ExpandInputs(c.inputs)
	if err != nil {
		if _, serr := os.Stat(c.inputs[0]); serr != nil && cli.Nearest(c.inputs[0], []string{"savings", "merge"}) != "" {
			return nil, fmt.Errorf("no work done: %w (did you mean 'bookbuild %s'?)", err, cli.Nearest(c.inputs[0], []string{"savings", "merge"}))
		}
		return nil, fmt.Errorf("no work done: %w", err)
	}
	for _, n := range notes {
		fmt.Fprintf(stderr, "bookbuild: %s\n", n)
	}
	c.inputs, c.build.Inputs = files, files
	return c, nil
}

// usageError is a command line that bookbuild cannot parse: an unknown
// flag, a bad value for one. Its message is followed by where the help is.
type usageError struct{ error }

func (e usageError) Unwrap() error { return e.error }

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "savings" {
		return runSavings(args[1:], stdout, stderr)
	}
	if len(args) > 0 && args[0] == "merge" {
		return runMerge(args[1:], stdout, stderr)
	}
	c, err := parseArgs(args, stderr)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		fmt.Fprintln(stderr, "bookbuild:", err)
		if errors.As(err, new(usageError)) {
			fmt.Fprintln(stderr, "run 'bookbuild -h' for help")
		}
		return 2
	}
	if c.version {
		fmt.Fprintln(stdout, cli.Version("bookbuild"))
		return 0
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	// The plan of the budget, which build.Run follows (the Go heap's limit,
	// the workers it affords): said before the work.
	bo := build.RunOptions{Options: c.build, Dir: c.db, Workers: c.workers, Compact: c.compact}
	plan, err := bo.Plan()
	if err != nil {
		fmt.Fprintf(stderr, "bookbuild: -mem %d: %v\n", c.memMiB, err)
		return 2
	}
	if plan.Reduced() {
		fmt.Fprintf(stderr, "bookbuild: -workers %d reduced to %d: -mem %d affords no more (each worker has a table of its own, %d MiB here, and buffers)\n",
			plan.Requested, plan.Workers, c.memMiB, plan.TableBytes>>20)
	}
	if c.cpuProf != "" {
		stopProfile, err := cli.StartCPUProfile(c.cpuProf)
		if err != nil {
			fmt.Fprintln(stderr, "bookbuild:", err)
			return 1
		}
		defer stopProfile()
	}

	newStore := c.db != "" && !hasFiles(c.db)
	_, statErr := os.Stat(c.db)
	newDir := errors.Is(statErr, iofs.ErrNotExist)
	prog := cli.NewProgress(c.progress.Mode(), stderr)
	phase := func(ph build.Phase, sum *ingest.Summary) {
		if ctx.Err() != nil {
			return // interrupted: what is written now is what was committed
		}
		if ph == build.PhaseWrite && sum != nil {
			prog.Line(fmt.Sprintf("read %d games, %d plies in %.1fs", sum.Games, sum.Plies, sum.Elapsed.Seconds()))
		}
		prog.Line(ph.String() + "...")
	}
	reindexProgress := func(done, total uint64) {
		prog.Count("games indexed (the store had no game index)", int64(done), int64(total))
	}
	if c.reindex {
		if err := reindex(ctx, c.db, plan, prog, stdout, c.progress.Quiet); err != nil {
			prog.End(err)
			fmt.Fprintf(stderr, "bookbuild: -reindex: %v\n", err)
			if errors.Is(err, context.Canceled) {
				return 130
			}
			return 1
		}
		if len(c.inputs) == 0 {
			prog.End(nil)
			return 0
		}
	}
	bo.Progress, bo.Phase, bo.ReindexProgress = prog.Input, phase, reindexProgress
	bo.Committed = func(games int64) { prog.SetNote(fmt.Sprintf("%d committed", games)) }
	built := make(chan struct{})
	go func() {
		select {
		case <-ctx.Done():
			// The runs written already are being committed; a second
			// Ctrl-C ends the process at once (commits are atomic: the
			// store keeps those made).
			stop()
			prog.Line("interrupted: committing the games written already (Ctrl-C again stops at once)...")
		case <-built:
		}
	}()
	res, err := build.Run(ctx, bo)
	close(built)
	prog.End(err)
	empty := emptyInputs(c.inputs, res.Summary)
	if err == nil && len(empty) == len(slices.Compact(slices.Sorted(slices.Values(c.inputs)))) {
		// No game in any input: not PGN, most likely. A store this run
		// made is removed.
		if newStore {
			removeStore(c.db, newDir, stderr)
		}
		fmt.Fprintf(stderr, "bookbuild: no games found in %s%s; nothing stored\n", strings.Join(empty, ", "), notPGNDetail(res.Summary))
		return 2
	}
	if err == nil {
		for _, in := range empty {
			fmt.Fprintf(stderr, "bookbuild: warning: no games found in %s%s; the other inputs were read\n", in, notPGNDetail(nil))
		}
	}
	// Games were read, and every one was skipped or filtered out: nothing
	// stored (or, without a store, nothing replayed). A store this run
	// made is removed, one that was there is left as it was.
	noneKept := err == nil && res.Summary != nil && allLeftOut(res.Summary, res.Stats)
	info := res.Store
	if noneKept && newStore {
		info = nil // removed below: the summary does not show it
	}
	if res.Summary != nil {
		if !c.progress.Quiet {
			printSummary(stdout, res.Summary, res.Stats, info)
		}
		if c.report != "" {
			if werr := writeReport(c.report, res.Summary, res.Stats, empty); werr != nil {
				fmt.Fprintln(stderr, "bookbuild:", werr)
				return 1
			}
		}
	}
	if noneKept {
		where := ""
		switch {
		case c.db == "":
			where = "; dry run (no -db): nothing is stored anyway"
		case newStore:
			removeStore(c.db, newDir, stderr)
			where = "; the store this run created in " + c.db + " was removed"
		default:
			where = "; nothing was added to the store " + c.db
		}
		what := "stored"
		if c.db == "" {
			what = "replayed"
		}
		fmt.Fprintf(stderr, "bookbuild: no game %s: %s%s\n", what, leftOutDetail(res.Summary, res.Stats), where)
		return 2
	}
	if err == nil && ctx.Err() != nil && c.db != "" {
		fmt.Fprintln(stderr, "bookbuild: interrupted as the build ended: every game read was committed, the build is complete")
	}
	if err == nil && c.db == "" {
		// Said even with -q: an exit status of 0 must not pass for a build.
		fmt.Fprintf(stderr, "bookbuild: dry run: no -db given, so the %d games were only replayed and nothing was stored; to store them: bookbuild -db DIR %s\n",
			res.Summary.Ingested, inputsHint(c.inputs))
	}
	return exitStatus(err, res, stderr)
}

// allLeftOut reports whether the run read games and kept none: every one
// was skipped (not replayable) or, with a store (bs not nil), filtered
// out or refused by the game codec. A run that found its games already
// stored (duplicates) or failed to commit them kept them.
func allLeftOut(s *ingest.Summary, bs *build.Stats) bool {
	if s.Games == 0 {
		return false
	}
	if bs == nil {
		return s.Ingested == 0
	}
	return bs.Games == 0 && bs.Duplicates == 0 && bs.Uncommitted == 0
}

// byReason lists the non-zero counts, "reason: count", joined by commas;
// name names index i.
func byReason(counts []int64, name func(i int) string) string {
	var why []string
	for i, k := range counts {
		if k > 0 {
			why = append(why, fmt.Sprintf("%s: %d", name(i), k))
		}
	}
	return strings.Join(why, ", ")
}

// leftOutDetail says why no game of the run was kept (see allLeftOut):
// "all 112 games read were skipped (unsupported variant: 112)", the
// reasons and filters by count.
func leftOutDetail(s *ingest.Summary, bs *build.Stats) string {
	type part struct {
		n    int64
		what string // "skipped (unsupported variant: 112)"
	}
	var parts []part
	if n := s.SkippedTotal(); n > 0 {
		parts = append(parts, part{n, "skipped (" + byReason(s.Skipped[:], func(r int) string { return ingest.SkipReason(r).String() }) + ")"})
	}
	if bs != nil {
		if n := bs.FilteredTotal(); n > 0 {
			parts = append(parts, part{n, "left out by the filters (" + byReason(bs.Filtered[:], func(f int) string { return build.Filter(f).String() }) + ")"})
		}
		if bs.Unstorable > 0 {
			parts = append(parts, part{bs.Unstorable, "refused by the game codec"})
		}
	}
	if len(parts) == 1 && parts[0].n == s.Games {
		return fmt.Sprintf("all %d games read were %s", s.Games, parts[0].what)
	}
	list := make([]string, len(parts))
	for i, p := range parts {
		list[i] = fmt.Sprintf("%d %s", p.n, p.what)
	}
	return fmt.Sprintf("none of the %d games read was kept: %s", s.Games, strings.Join(list, ", "))
}

// inputsHint is the inputs as a command line shows them: the first two,
// then "...".
func inputsHint(inputs []string) string {
	if len(inputs) > 2 {
		return strings.Join(inputs[:2], " ") + " ..."
	}
	return strings.Join(inputs, " ")
}

// reindex writes the game index of the store in dir (merge.Reindex) and
// says what it did on stdout unless quiet.
func reindex(ctx context.Context, dir string, plan build.MemoryPlan, prog *cli.Progress, stdout io.Writer, quiet bool) error {
	st, err := store.Open(dir, store.Options{CacheSize: plan.Cache, MemTableSize: uint64(plan.MemTable)})
	if errors.Is(err, store.ErrNotExist) {
		return fmt.Errorf("%w (build one with 'bookbuild -db %s FILE.pgn')", err, dir)
	}
	if err != nil {
		return err
	}
	start := time.Now()
	err = merge.Reindex(ctx, st, func(done, total uint64) { prog.Count("games indexed", int64(done), int64(total)) })
	m := st.Meta()
	if cerr := st.Close(); err == nil && cerr != nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	prog.End(nil)
	if !quiet {
		fmt.Fprintf(stdout, "game index: %d games indexed in %.1fs; store %s, %s on disk\n", m.Games, time.Since(start).Seconds(), dir, mib(store.DirSize(dir)))
	}
	return nil
}

// emptyInputs returns the inputs no game was read from, in order.
func emptyInputs(inputs []string, sum *ingest.Summary) []string {
	if sum == nil {
		return nil
	}
	var out []string
	for _, in := range inputs {
		if sum.GamesIn[in] == 0 && !slices.Contains(out, in) {
			out = append(out, in)
		}
	}
	return out
}

// notPGNDetail says what an input without games holds: no PGN game (a
// tag pair or numbered moves), or, from sum, the first text that is no
// PGN.
func notPGNDetail(sum *ingest.Summary) string {
	if sum != nil {
		n := 0
		var first *ingest.GameError
		for _, e := range sum.Errors {
			if e.NotGame {
				if n++; first == nil {
					first = e
				}
			}
		}
		if first != nil {
			return fmt.Sprintf(": no PGN game, only text that is not PGN (first at %s)", first)
		}
	}
	return ": no PGN game (a tag pair like [Event \"...\"] or moves like 1. e4 e5)"
}

// hasFiles reports whether dir exists and holds anything: a store that
// was there before the run, or other files, that are never removed.
func hasFiles(dir string) bool {
	entries, err := os.ReadDir(dir)
	return len(entries) > 0 || (err != nil && !errors.Is(err, iofs.ErrNotExist))
}

// removeStore removes the store this run made in dir: the directory
// itself when the run made it (newDir), else what the run wrote into the
// empty directory it found.
func removeStore(dir string, newDir bool, stderr io.Writer) {
	var err error
	if newDir {
		err = os.RemoveAll(dir)
	} else {
		var entries []iofs.DirEntry
		entries, err = os.ReadDir(dir)
		for _, e := range entries {
			if rerr := os.RemoveAll(filepath.Join(dir, e.Name())); rerr != nil && err == nil {
				err = rerr
			}
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "bookbuild: removing the empty store %s: %v\n", dir, err)
	}
}

// exitStatus reports a build's error on stderr and returns the exit
// status: 0 done, 1 failed (input, store in use or incompatible, I/O),
// 130 interrupted.
func exitStatus(err error, res *build.Result, stderr io.Writer) int {
	switch {
	case err == nil:
		return 0
	case errors.Is(err, build.ErrInterrupted):
		if res.Stats == nil || res.Store == nil {
			fmt.Fprintln(stderr, "bookbuild: interrupted")
			return 130
		}
		if res.Stats.Uncommitted == 0 {
			fmt.Fprintf(stderr, "bookbuild: interrupted: every game read was committed (%d games in all); "+
				"run the same command again to read the rest, if any (the games stored are skipped)\n", res.Store.Meta.Games)
			return 130
		}
		fmt.Fprintf(stderr, "bookbuild: interrupted: the store keeps what was committed before (%d games in all); "+
			"the last %d games read were not written: run the same command again to add them (the games stored are skipped)\n",
			res.Store.Meta.Games, res.Stats.Uncommitted)
		return 130
	}
	fmt.Fprintln(stderr, "bookbuild:", err)
	return 1
}

// printSummary prints what the build did: s always, bs and st with a
// store.
func printSummary(w io.Writer, s *ingest.Summary, bs *build.Stats, st *build.StoreInfo) {
	secs := s.Elapsed.Seconds()
	if secs <= 0 {
		secs = 1e-9
	}
	fmt.Fprintf(w, "games read:      %d\n", s.Games)
	if bs != nil {
		fmt.Fprintf(w, "games stored:    %d\n", bs.Games)
		fmt.Fprintf(w, "duplicates:      %d (same players, date, round, result and moves as a game stored before)\n", bs.Duplicates)
		if bs.Uncommitted > 0 {
			fmt.Fprintf(w, "not written:     %d (not committed to the store: the run was interrupted or failed; a re-run adds them)\n", bs.Uncommitted)
		}
		if bs.Unstorable > 0 {
			fmt.Fprintf(w, "not stored:      %d\n", bs.Unstorable)
			for _, e := range bs.Errors {
				fmt.Fprintf(w, "  %s\n", e)
			}
		}
		if n := bs.FilteredTotal(); n > 0 {
			fmt.Fprintf(w, "games filtered:  %d\n", n)
			for f, n := range bs.Filtered {
				if n > 0 {
					fmt.Fprintf(w, "  %-20s %d\n", build.Filter(f).String()+":", n)
				}
			}
		}
	} else {
		fmt.Fprintf(w, "games replayed:  %d\n", s.Ingested)
	}
	fmt.Fprintf(w, "games skipped:   %d\n", s.SkippedTotal())
	for r, n := range s.Skipped {
		if n > 0 {
			fmt.Fprintf(w, "  %-20s %d\n", ingest.SkipReason(r).String()+":", n)
		}
	}
	// A few examples of each reason, in input order.
	const perReason = 3
	var shown [16]int
	var listed int64
	for _, e := range s.Errors {
		if int(e.Reason) < len(shown) && shown[e.Reason] < perReason {
			shown[e.Reason]++
			listed++
			fmt.Fprintf(w, "  %s\n", e)
		}
	}
	if rest := s.SkippedTotal() - listed; rest > 0 {
		fmt.Fprintf(w, "  ... %d more (all of them with -report FILE.json)\n", rest)
	}
	if s.Warned > 0 {
		fmt.Fprintf(w, "warnings:        %d (about games stored all the same)\n", s.Warned)
		for i, x := range s.Warnings {
			if i == perReason {
				fmt.Fprintf(w, "  ... %d more (all of them with -report FILE.json)\n", s.Warned-perReason)
				break
			}
			fmt.Fprintf(w, "  %s\n", x)
		}
	}
	fmt.Fprintf(w, "plies replayed:  %d\n", s.Plies)
	if bs != nil {
		fmt.Fprintf(w, "positions added: %d (position-move occurrences)\n", bs.Positions)
		fmt.Fprintf(w, "distinct positions: about %d in this run (estimate, ~1%%)\n", bs.Distinct)
	}
	if st != nil {
		m := st.Meta
		fmt.Fprintf(w, "store:           %s, %s on disk, %d games in all (max-ply %d, count %s)\n",
			st.Dir, mib(st.Size), m.Games, m.MaxPly, m.CountMode)
	}
	fmt.Fprintf(w, "input:           %s\n", mib(s.Bytes))
	fmt.Fprintf(w, "elapsed:         %.2fs\n", secs)
	fmt.Fprintf(w, "speed:           %.0f games/s, %.0f plies/s\n", float64(s.Games)/secs, float64(s.Plies)/secs)
}

func mib(n int64) string { return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20)) }

// reportJSON is the shape of the -report file, in the summary's words:
// read, replayed, stored. Games = Replayed + the
// skipped games; with -db, Replayed = Stored + Uncommitted + Duplicates +
// NotStored + Filtered (without -db those are 0).
type reportJSON struct {
	Games       int64            `json:"games"`       // games read
	Replayed    int64            `json:"replayed"`    // games replayed and handed to the builder (the summary's "games replayed" without -db)
	Stored      int64            `json:"stored"`      // games added to the store
	Uncommitted int64            `json:"uncommitted"` // games whose write to the store failed (the run failed)
	Duplicates  int64            `json:"duplicates"`  // games already stored, or earlier in the input
	NotStored   int64            `json:"not_stored"`  // games the game codec refused
	Filtered    int64            `json:"filtered"`    // games left out by -min-rating, -since, -until, -speed, -standard-start-only
	FilteredBy  map[string]int64 `json:"filtered_by"` // the same, by filter
	Plies       int64            `json:"plies"`
	Skipped     map[string]int64 `json:"skipped"`
	Errors      []errorJSON      `json:"errors"`
	Warned      int64            `json:"warned"`       // warnings about games ingested all the same
	Warnings    []warningJSON    `json:"warnings"`     // the first of them
	EmptyInputs []string         `json:"empty_inputs"` // inputs no game was read from
}

type warningJSON struct {
	File   string `json:"file"`
	Line   int    `json:"line"`
	Detail string `json:"detail"`
}

type errorJSON struct {
	File   string `json:"file"`
	Line   int    `json:"line"`
	Reason string `json:"reason"`
	Detail string `json:"detail"`
}

func writeReport(path string, s *ingest.Summary, bs *build.Stats, empty []string) error {
	r := reportJSON{Games: s.Games, Replayed: s.Ingested, Plies: s.Plies, FilteredBy: map[string]int64{}, Skipped: map[string]int64{}, Errors: []errorJSON{},
		Warned: s.Warned, Warnings: []warningJSON{}, EmptyInputs: append([]string{}, empty...)}
	for _, x := range s.Warnings {
		r.Warnings = append(r.Warnings, warningJSON{File: x.File, Line: x.Line, Detail: x.Detail})
	}
	if bs != nil {
		r.Stored, r.Uncommitted, r.Duplicates, r.NotStored, r.Filtered = bs.Games, bs.Uncommitted, bs.Duplicates, bs.Unstorable, bs.FilteredTotal()
		for f, n := range bs.Filtered {
			if n > 0 {
				r.FilteredBy[build.Filter(f).String()] = n
			}
		}
	}
	for reason, n := range s.Skipped {
		if n > 0 {
			r.Skipped[ingest.SkipReason(reason).String()] = n
		}
	}
	for _, e := range s.Errors {
		r.Errors = append(r.Errors, errorJSON{File: e.File, Line: e.Line, Reason: e.Reason.String(), Detail: e.Detail})
	}
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return fmt.Errorf("encoding report: %w", err)
	}
	if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
		return fmt.Errorf("writing report: %w", err)
	}
	return nil
}

// checkWritable reports whether a file can be written at path, without
// changing an existing one: it must not be a directory, and its directory
// must take a new file.
func checkWritable(path string) error {
	if fi, err := os.Stat(path); err == nil {
		if fi.IsDir() {
			return errors.New("is a directory")
		}
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			return err
		}
		return f.Close()
	}
	f, err := os.CreateTemp(filepath.Dir(path), ".bookbuild-report-*")
	if err != nil {
		return fmt.Errorf("cannot write in its directory: %w", err)
	}
	name := f.Name()
	f.Close()
	return os.Remove(name)
}
