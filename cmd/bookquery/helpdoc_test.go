package main

import (
	"flag"
	"testing"

	"github.com/chessbook/chessbook/internal/testutil"
)

var updateHelp = flag.Bool("update-help", false, "rewrite bookquery's sections of docs/commands.md from the commands' help")

// TestHelpDoc checks the help of bookquery and of each command against
// docs/commands.md, and every flag README's bookquery examples use against
// the help of their command.
func TestHelpDoc(t *testing.T) {
	const doc, readme = "../../docs/commands.md", "../../README.md"
	_, top, _ := runCmd(t, "-h")
	testutil.CheckHelpDoc(t, doc, "bookquery", top, *updateHelp)
	flags := map[string]map[string]bool{"": testutil.FlagNames(top)}
	for _, c := range commands {
		_, help, code := runCmd(t, c.name, "-h")
		if code != 0 || help == "" {
			t.Fatalf("bookquery %s -h: exit %d, %q", c.name, code, help)
		}
		testutil.CheckHelpDoc(t, doc, "bookquery "+c.name, help, *updateHelp)
		flags[c.name] = testutil.FlagNames(help)
	}
	lines := testutil.READMEFlags(t, readme, "bookquery", map[string]bool{"db": true})
	if len(lines) < 10 {
		t.Fatalf("README has %d bookquery examples: the reader is broken", len(lines))
	}
	for _, l := range lines {
		known, ok := flags[l.Sub]
		if !ok {
			t.Errorf("README: %v runs %q, which is no command", l, l.Sub)
			continue
		}
		for _, f := range l.Flags {
			if f != "h" && !known[f] {
				t.Errorf("README: %v uses -%s, which 'bookquery %s -h' does not list", l, f, l.Sub)
			}
		}
	}
}
