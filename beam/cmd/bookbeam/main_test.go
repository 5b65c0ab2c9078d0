package main

import (
	"bytes"
	"flag"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/chessbook/chessbook/internal/testutil"
)

var updateHelp = flag.Bool("update-help", false, "rewrite bookbeam's section of docs/commands.md from its help")

// TestHelpDoc checks bookbeam's help against docs/commands.md, and every
// flag README's bookbeam examples use against the help (bookbeam's own
// flags) or the flags Beam's runners define (--runner, --endpoint,
// --project, ...: the Flink and Dataflow lines, which cannot be run here,
// at least name flags that exist).
func TestHelpDoc(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := run([]string{"-h"}, &out, &errOut); code != 0 || errOut.Len() == 0 {
		t.Fatalf("bookbeam -h: exit %d, %q", code, errOut.String())
	}
	help := errOut.String()
	testutil.CheckHelpDoc(t, "../../../docs/commands.md", "bookbeam", help, *updateHelp)
	own := testutil.FlagNames(help)
	for _, f := range []string{"db", "shards", "workdir", "keep-duplicates", "max-ply", "count"} {
		if !own[f] {
			t.Errorf("the help lacks -%s", f)
		}
	}
	if strings.Contains(help, "-test.") || strings.Contains(help, "-worker_binary") {
		t.Errorf("the help lists flags that are not bookbeam's:\n%s", help)
	}
	// README's Prism example, and docs/beam.md's Flink and Dataflow ones.
	var text []byte
	for _, doc := range []string{"../../../README.md", "../../../docs/beam.md"} {
		b, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		text = append(text, b...)
	}
	// The examples: lines from "./bookbeam" to the end of the command
	// (continued with a backslash).
	cmds := regexp.MustCompile(`(?m)^\./bookbeam (?:.*\\\n)*.*$`).FindAllString(string(text), -1)
	if len(cmds) < 3 {
		t.Fatalf("README and docs/beam.md have %d bookbeam examples, want the Prism, Flink and Dataflow ones", len(cmds))
	}
	runners := map[string]bool{}
	for _, c := range cmds {
		for _, m := range regexp.MustCompile(`(?:^|\s)(--?)([a-z][\w-]*)`).FindAllStringSubmatch(c, -1) {
			dashes, name := m[1], m[2]
			switch {
			case dashes == "-" && !own[name]:
				t.Errorf("README: bookbeam has no flag -%s: %s", name, c)
			case dashes == "--" && flag.Lookup(name) == nil:
				t.Errorf("README: Beam has no flag --%s: %s", name, c)
			}
		}
		if m := regexp.MustCompile(`--runner=(\w+)`).FindStringSubmatch(c); m != nil {
			runners[m[1]] = true
		}
	}
	for _, r := range []string{"flink", "dataflow"} {
		if !runners[r] {
			t.Errorf("README has no --runner=%s example", r)
		}
	}
}

// TestVersion checks -version: one line on standard output, exit 0,
// before any pipeline runs. run defines its flags on the process's one
// flag set (Beam's), so it runs in a child: this test binary again, told
// by BOOKBEAM_TEST_RUN to be bookbeam.
func TestVersion(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-version")
	cmd.Env = append(os.Environ(), "BOOKBEAM_TEST_RUN=1")
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		t.Fatalf("bookbeam -version: %v, stderr %q", err, errOut.String())
	}
	if got := out.String(); !strings.HasPrefix(got, "bookbeam github.com/chessbook/chessbook/beam ") || !strings.Contains(got, " go1.") || strings.Count(got, "\n") != 1 {
		t.Errorf("bookbeam -version printed %q", got)
	}
}

// TestMain runs bookbeam itself instead of the tests when BOOKBEAM_TEST_RUN
// is set (TestVersion's child).
func TestMain(m *testing.M) {
	if os.Getenv("BOOKBEAM_TEST_RUN") != "" {
		os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}
