package export_test

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chessbook/chessbook/book"
	"github.com/chessbook/chessbook/book/export"
	"github.com/chessbook/chessbook/polyglot"
	"github.com/chessbook/chessbook/stats"
	"github.com/chessbook/chessbook/store"
)

// The environment of an export run as a child process by
// TestExportKilledLeftovers: the store, and the book to write.
const (
	childStore = "CHESSBOOK_TEST_EXPORT_STORE"
	childOut   = "CHESSBOOK_TEST_EXPORT_OUT"
	childPhase = "CHESSBOOK_TEST_EXPORT_PHASE" // "positions": killed while reading the positions
)

// TestExportChild is an export that the parent test kills: it writes the
// store's book as WritePolyglot does, its entries spilled in runs, and
// once the runs are merging it says "ready" and waits to be killed; or,
// in phase "positions", it reads the store's positions (book.Positions,
// its sorted runs in TMPDIR, as an export does first) and waits at the
// first.
func TestExportChild(t *testing.T) {
	dir, out := os.Getenv(childStore), os.Getenv(childOut)
	if dir == "" {
		return // run by TestExportKilledLeftovers only (a pass, not a skip, otherwise)
	}
	st, err := store.Open(dir, store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	if os.Getenv(childPhase) == "positions" {
		err := book.Positions(context.Background(), st, 0, func([]byte, *stats.Entry) error {
			os.Stdout.WriteString("ready\n")
			select {}
		})
		t.Fatal(err)
	}
	o, _ := export.WithChunkEntries(export.Options{}, 500)
	err = export.WriteBookFunc(out, func(add func(polyglot.Entry) error) error {
		first := true
		_, err := export.PolyglotTo(context.Background(), st, o, func(e polyglot.Entry) error {
			if first {
				first = false
				os.Stdout.WriteString("ready\n")
				select {}
			}
			return add(e)
		})
		return err
	})
	t.Fatal(err)
}

// TestExportKilledLeftovers: an export killed (-9) while it writes leaves
// its spilled runs in TMPDIR and its temporary book beside the output, or
// killed while it reads the positions, their sorted runs in TMPDIR; the
// next export removes them, but not those of an export still running.
func TestExportKilledLeftovers(t *testing.T) {
	dir := championsGame.Dir(t) // read only, by the exports
	scratch, outDir := t.TempDir(), t.TempDir()
	t.Setenv("TMPDIR", scratch)
	list := func() []string {
		t.Helper()
		var names []string
		for _, d := range []string{scratch, outDir} {
			es, err := os.ReadDir(d)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range es {
				names = append(names, filepath.Join(d, e.Name()))
			}
		}
		slices.Sort(names)
		return names
	}
	// start runs an export that waits to be killed, and returns it with
	// the files it made.
	start := func(phase string) (*exec.Cmd, []string) {
		t.Helper()
		before := list()
		cmd := exec.Command(os.Args[0], "-test.run=^TestExportChild$")
		cmd.Env = append(os.Environ(), childStore+"="+dir, childOut+"="+filepath.Join(outDir, "book.bin"), childPhase+"="+phase)
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
		line, err := bufio.NewReader(stdout).ReadString('\n')
		if line != "ready\n" {
			t.Fatalf("the child export: %q, %v", line, err)
		}
		var made []string
		for _, n := range list() {
			if !slices.Contains(before, n) {
				made = append(made, n)
			}
		}
		all := strings.Join(made, " ")
		if phase == "positions" {
			if len(made) != 1 || !strings.Contains(all, "chessbook-positions-") {
				t.Fatalf("the child reading positions made %q, want its runs' directory", made)
			}
		} else if len(made) != 2 || !strings.Contains(all, "chessbook-export-") || !strings.Contains(all, ".export-") {
			t.Fatalf("the child export made %q, want its runs' directory and its temporary book", made)
		}
		return cmd, made
	}
	var killedFiles, liveFiles []string
	var live, killed []*exec.Cmd
	for _, phase := range []string{"positions", "export"} {
		cmd, made := start(phase)
		killed = append(killed, cmd)
		killedFiles = append(killedFiles, made...)
		cmd, made = start(phase)
		live = append(live, cmd)
		liveFiles = append(liveFiles, made...)
	}
	for _, cmd := range killed {
		if err := cmd.Process.Kill(); err != nil {
			t.Fatal(err)
		}
		_ = cmd.Wait()
	}
	slices.Sort(liveFiles)
	if got := list(); len(got) != 6 {
		t.Fatalf("after the kills: %q", got)
	}
	export1 := func() {
		t.Helper()
		st, err := store.Open(dir, store.Options{ReadOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		if _, err := export.WritePolyglot(context.Background(), st, export.Options{}, filepath.Join(outDir, "next.bin")); err != nil {
			t.Fatal(err)
		}
		if err := os.Remove(filepath.Join(outDir, "next.bin")); err != nil {
			t.Fatal(err)
		}
	}
	export1()
	if got := list(); !slices.Equal(got, liveFiles) {
		t.Errorf("after the next export: %q; want the running export's only, %q (the killed one's were %q)", got, liveFiles, killedFiles)
	}
	for _, cmd := range live {
		if err := cmd.Process.Kill(); err != nil {
			t.Fatal(err)
		}
		_ = cmd.Wait()
	}
	export1()
	if got := list(); len(got) != 0 {
		t.Errorf("after both were killed and an export ran: %q", got)
	}
}
