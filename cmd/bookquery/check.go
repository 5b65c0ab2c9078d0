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

	"github.com/chessbook/chessbook/gamecode"
	"github.com/chessbook/chessbook/internal/cli"
	"github.com/chessbook/chessbook/store"
)

// The check command: store.Check over the whole store, game records
// decoded by gamecode.

var checkCmd = &command{
	name:    "check",
	args:    "[-progress MODE] [-q] [-json]",
	summary: "verify every block, statistics record and game record of the store and report what is damaged (exit 1 if anything is) (-db DIR)",
	run:     runStoreCheck,
}

// storeCheckJSON is check's -json output.
type storeCheckJSON struct {
	Store   string         `json:"store"`
	Tables  int            `json:"tables"`  // sstables whose blocks were all read
	Records map[string]int `json:"records"` // records decoded, by kind
	Damaged int            `json:"damaged"` // problems found
	Damage  []string       `json:"damage"`  // the first maxDamageListed of them
}

// maxDamageListed bounds the problems check lists (it counts them all).
const maxDamageListed = 100

// errDamaged is check's error when it found damage: exit status 1.
var errDamaged = errors.New("the store is damaged")

func runStoreCheck(e *env, args []string) error {
	fs := e.flags()
	po := e.progressFlags(fs, "")
	if err := e.parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return badInput("unexpected arguments %q", strings.Join(fs.Args(), " "))
	}
	if e.db == "" {
		return badInput("no book given: use 'bookquery -db DIR check'")
	}
	st, err := openBook(e.db)
	if err != nil {
		return err
	}
	defer st.Close()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	out := storeCheckJSON{Store: e.db, Damage: []string{}}
	prog := cli.NewProgress(po.Mode(), e.stderr)
	var checked, total int64 = 0, int64(st.Meta().Games)
	cs, err := st.Check(ctx, func(rec []byte) error {
		if checked++; checked%1024 == 0 {
			prog.Count("game records checked", checked, total)
		}
		_, err := gamecode.DecodeGame(rec)
		return err
	}, func(d store.Damage) {
		if len(out.Damage) < maxDamageListed {
			out.Damage = append(out.Damage, d.String())
		}
	})
	if err == nil {
		prog.Count("game records checked", checked, total)
	}
	prog.End(err)
	if err != nil {
		return err
	}
	out.Tables, out.Records, out.Damaged = cs.Tables, cs.Records, cs.Damaged
	if err := e.emit(out, func(w io.Writer) error {
		var b strings.Builder
		fmt.Fprintf(&b, "store %s: %d sstables read", out.Store, out.Tables)
		for _, k := range slices.Sorted(maps.Keys(out.Records)) {
			fmt.Fprintf(&b, ", %d %s", out.Records[k], k)
		}
		b.WriteString("\n")
		for _, d := range out.Damage {
			fmt.Fprintf(&b, "damaged: %s\n", d)
		}
		if out.Damaged > len(out.Damage) {
			fmt.Fprintf(&b, "... and %d more\n", out.Damaged-len(out.Damage))
		}
		if out.Damaged == 0 {
			b.WriteString("no damage found\n")
		}
		_, err := io.WriteString(w, b.String())
		return err
	}); err != nil {
		return err
	}
	if out.Damaged > 0 {
		return fmt.Errorf("%w: %d problems found", errDamaged, out.Damaged)
	}
	return nil
}
