package main

import (
	"bytes"
	"flag"
	"os"
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
	text, err := os.ReadFile("../../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	// The examples: lines from "./bookbeam" to the end of the command
	// (continued with a backslash).
	cmds := regexp.MustCompile(`(?m)^\./bookbeam (?:.*\\\n)*.*$`).FindAllString(string(text), -1)
	if len(cmds) < 3 {
		t.Fatalf("README has %d bookbeam examples, want the Prism, Flink and Dataflow ones", len(cmds))
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
