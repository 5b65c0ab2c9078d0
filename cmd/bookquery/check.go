package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"

	"github.com/chessbook/chessbook/book/counting"
	"github.com/chessbook/chessbook/gamecode"
	"github.com/chessbook/chessbook/gamedb"
	"github.com/chessbook/chessbook/internal/cli"
	"github.com/chessbook/chessbook/store"
)

// The check command: store.CheckDir over the whole store, game records
// decoded by gamecode.

var checkCmd = &command{
	name: "check",
	args: "[-limit N] [-progress MODE] [-q] [-json]",
	summary: "verify the store: every block of its tables, every record, the games counted; list the leftovers of interrupted runs " +
		"(safe to delete); exit 1 if data is damaged or lost (-db DIR)",
	run: runStoreCheck,
}

// storeCheckJSON is check's -json output: the report, and the first
// -limit problems.
type storeCheckJSON struct {
	*store.CheckReport
	// Index is what the check of the game index found (nil: not
	// checked, a note says why).
	Index  *gamedb.CheckReport `json:"index,omitempty"`
	Damage []string            `json:"damage"`
}

// errDamaged is check's error when it found damage or loss: exit status 1.
var errDamaged = errors.New("the store is damaged or lost data")

func runStoreCheck(e *env, args []string) error {
	fs := e.flags()
	po := e.progressFlags(fs, "")
	limit := fs.Int("limit", 20, "list at most N problems (0: all); every problem is counted, and each damaged table says how many of its blocks are")
	if err := e.parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return badInput("unexpected arguments %q", strings.Join(fs.Args(), " "))
	}
	if e.db == "" {
		return badInput("no book given: use 'bookquery -db DIR check'")
	}
	if *limit < 0 {
		return badInput("-limit %d: want 0 or more", *limit)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	out := storeCheckJSON{Damage: []string{}}
	prog := cli.NewProgress(po.Mode(), e.stderr)
	var checked int64
	rep, err := store.CheckDir(ctx, e.db, store.CheckOptions{
		Game: func(rec []byte) error {
			if checked++; checked%1024 == 0 {
				prog.Count("game records checked", checked, 0)
			}
			_, err := gamecode.DecodeGame(rec)
			return err
		},
		Index: gamedb.CheckRecord,
		Report: func(d store.Damage) {
			if *limit == 0 || len(out.Damage) < *limit {
				out.Damage = append(out.Damage, d.String())
			}
		},
	})
	if err == nil {
		prog.Count("game records checked", checked, 0)
	}
	if err == nil && rep.OpenError == "" {
		err = checkIndex(ctx, e.db, rep, &out, *limit, func(summaries, games int) {
			prog.Count("game summaries compared with their games", int64(summaries), int64(games))
		})
	}
	prog.End(err)
	if errors.Is(err, store.ErrNotExist) {
		return fmt.Errorf("%w (build one with 'bookbuild -db %s FILE.pgn')", err, e.db)
	}
	if err != nil {
		return err
	}
	out.CheckReport = rep
	if err := e.emit(out, func(w io.Writer) error {
		_, err := io.WriteString(w, checkText(rep, out.Index, out.Damage))
		return err
	}); err != nil {
		return err
	}
	if rep.Damaged > 0 {
		return fmt.Errorf("%w: %s found", errDamaged, plural(rep.Damaged, "problem", "problems"))
	}
	return nil
}

// checkIndex checks the game index of the store in dir (gamedb.CheckWith,
// each summary compared with its game record, progress called as it
// goes), adding what it finds to rep and out: a store without an index
// gets a note, an index that does not agree with the games damage.
func checkIndex(ctx context.Context, dir string, rep *store.CheckReport, out *storeCheckJSON, limit int, progress func(summaries, games int)) error {
	st, err := openBook(dir)
	if err != nil {
		rep.Notes = append(rep.Notes, fmt.Sprintf("the game index was not checked: %v", err))
		return nil
	}
	defer st.Close()
	if _, err := gamedb.Open(st); err != nil {
		rep.Notes = append(rep.Notes, err.Error())
		return nil
	}
	ir, err := gamedb.CheckWith(ctx, st, gamedb.CheckOptions{Facts: counting.GameFacts, Progress: progress, Report: func(problem string) {
		if limit == 0 || len(out.Damage) < limit {
			out.Damage = append(out.Damage, "game index: "+problem)
		}
	}})
	if cerr := ctx.Err(); cerr != nil {
		return cerr
	}
	if err != nil {
		rep.Damaged++
		out.Damage = append(out.Damage, fmt.Sprintf("game index: not checked to the end: %s", store.ErrorLine(err)))
		return nil
	}
	rep.Damaged += ir.Problems
	out.Index = ir
	if ir.Problems > 0 {
		rep.Notes = append(rep.Notes, fmt.Sprintf("the game index does not agree with the store's games (%s): searches may miss games or find wrong ones; "+
			"'bookbuild -db %s -reindex' writes it again from the game records", plural(ir.Problems, "problem", "problems"), dir))
	}
	return nil
}

// checkText is check's text output.
func checkText(rep *store.CheckReport, index *gamedb.CheckReport, damage []string) string {
	var b strings.Builder
	var bytes int64
	for _, t := range rep.Tables {
		bytes += t.Bytes
	}
	if rep.OpenError != "" {
		fmt.Fprintf(&b, "store %s does not open: %s\n", rep.Dir, rep.OpenError)
		b.WriteString("files:\n")
		for _, f := range rep.Files {
			fmt.Fprintf(&b, "  %-40s %10s  %s\n", f.File, size(f.Bytes), f.Why)
		}
		fmt.Fprintf(&b, "sstables checked block by block: %d, %s\n", len(rep.Tables), size(bytes))
	} else {
		missing := 0
		for _, t := range rep.Tables {
			if t.Missing {
				missing++
			}
		}
		fmt.Fprintf(&b, "store %s: %d sstables", rep.Dir, len(rep.Tables))
		if missing > 0 {
			fmt.Fprintf(&b, " (%d missing)", missing)
		}
		fmt.Fprintf(&b, ", %s on disk; records:", size(bytes))
		if len(rep.Records) == 0 {
			b.WriteString(" none")
		}
		for i, k := range slices.Sorted(maps.Keys(rep.Records)) {
			if i > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, " %d %s", rep.Records[k], k)
		}
		b.WriteString("\n")
		if rep.Meta != nil {
			fmt.Fprintf(&b, "metadata: %d games counted, %d game records\n", rep.Meta.Games, rep.Records["game"])
		}
		if index != nil {
			fmt.Fprintf(&b, "game index: %d games numbered, %d summaries (%d compared with their games), %d postings, %d names checked\n",
				index.Games, index.Summaries, index.Compared, index.Postings, index.Names)
		}
	}
	for _, t := range rep.Tables {
		if t.Damaged > 0 {
			level := "not in the store"
			if t.Level >= 0 {
				level = fmt.Sprintf("L%d", t.Level)
			} else if rep.OpenError == "" {
				level = "named by a log"
			}
			fmt.Fprintf(&b, "damaged table: %s (%s, %s): %d of %d blocks damaged\n", t.File, level, size(t.Bytes), t.Damaged, t.Blocks)
		}
	}
	for _, d := range damage {
		fmt.Fprintf(&b, "damaged: %s\n", d)
	}
	if rep.Damaged > len(damage) {
		fmt.Fprintf(&b, "... and %d more (-limit 0 lists them all)\n", rep.Damaged-len(damage))
	}
	writeLeftovers(&b, rep.Leftovers)
	writeInProgress(&b, rep)
	for _, n := range rep.Notes {
		fmt.Fprintf(&b, "note: %s\n", n)
	}
	if rep.Damaged == 0 {
		b.WriteString("no damage found\n")
	} else {
		fmt.Fprintf(&b, "%s found\n", plural(rep.Damaged, "problem", "problems"))
	}
	return b.String()
}

// writeLeftovers lists the leftovers, grouped by why they are there.
func writeLeftovers(b *strings.Builder, left []store.FileReport) {
	if len(left) == 0 {
		return
	}
	var total int64
	var whys []string
	byWhy := map[string][]store.FileReport{}
	for _, l := range left {
		total += l.Bytes
		if byWhy[l.Why] == nil {
			whys = append(whys, l.Why)
		}
		byWhy[l.Why] = append(byWhy[l.Why], l)
	}
	fmt.Fprintf(b, "leftovers: %s, %s, not part of the store: safe to delete once no build runs on it (the next build removes them)\n",
		plural(len(left), "file", "files"), size(total))
	const names = 8
	for _, why := range whys {
		files := byWhy[why]
		var bytes int64
		var list []string
		for i, f := range files {
			bytes += f.Bytes
			if i < names {
				list = append(list, f.File)
			}
		}
		if len(files) > names {
			list = append(list, fmt.Sprintf("and %d more", len(files)-names))
		}
		fmt.Fprintf(b, "  %s, %s: %s: %s\n", plural(len(files), "file", "files"), size(bytes), why, strings.Join(list, ", "))
	}
}

// writeInProgress says that a build holds the store's lock, and lists its
// files that are not part of the store yet.
func writeInProgress(b *strings.Builder, rep *store.CheckReport) {
	if rep.Writer == nil {
		return
	}
	committed := ""
	if rep.Meta != nil {
		committed = fmt.Sprintf(" (%s committed so far)", plural(int(rep.Meta.Games), "game", "games"))
	}
	fmt.Fprintf(b, "a build is in progress on this store%s: %s holds the store's lock; check read what it had committed\n",
		committed, writerName(rep.Writer))
	if len(rep.InProgress) == 0 {
		return
	}
	var total int64
	for _, f := range rep.InProgress {
		total += f.Bytes
	}
	fmt.Fprintf(b, "in progress: %s, %s, the build's work not committed yet: not leftovers, do not delete them\n",
		plural(len(rep.InProgress), "file", "files"), size(total))
	for _, f := range rep.InProgress {
		fmt.Fprintf(b, "  %s, %s: %s\n", f.File, size(f.Bytes), f.Why)
	}
}

// writerName names the writer that holds a store's lock.
func writerName(w *store.Writer) string {
	switch {
	case w.Self:
		return "this process"
	case w.PID > 0:
		return fmt.Sprintf("process %d", w.PID)
	}
	return "another process"
}
