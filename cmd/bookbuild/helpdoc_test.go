package main

import (
	"bytes"
	"flag"
	"testing"

	"github.com/chessbook/chessbook/internal/testutil"
)

var updateHelp = flag.Bool("update-help", false, "rewrite bookbuild's sections of docs/commands.md from its help")

// TestHelpDoc checks the help of bookbuild, bookbuild savings and merge against
// docs/commands.md, and every flag README's bookbuild examples use against
// that help.
func TestHelpDoc(t *testing.T) {
	const doc, readme = "../../docs/commands.md", "../../README.md"
	flags := map[string]map[string]bool{}
	for sub, args := range map[string][]string{"": {"-h"}, "savings": {"savings", "-h"}, "merge": {"merge", "-h"}} {
		var out, errOut bytes.Buffer
		if code := run(args, &out, &errOut); code != 0 || errOut.Len() == 0 {
			t.Fatalf("bookbuild %v: exit %d, %q", args, code, errOut.String())
		}
		name := "bookbuild"
		if sub != "" {
			name += " " + sub
		}
		testutil.CheckHelpDoc(t, doc, name, errOut.String(), *updateHelp)
		flags[sub] = testutil.FlagNames(errOut.String())
	}
	withValue := map[string]bool{}
	for f := range flags[""] {
		withValue[f] = true
	}
	for _, b := range []string{"q", "standard-start-only", "keep-duplicates", "compact"} {
		delete(withValue, b)
	}
	lines := testutil.READMEFlags(t, readme, "bookbuild", withValue)
	if len(lines) < 2 {
		t.Fatalf("README has %d bookbuild examples: the reader is broken", len(lines))
	}
	for _, l := range lines {
		known, ok := flags[l.Sub]
		if !ok {
			known = flags[""] // an input named like a word
		}
		for _, f := range l.Flags {
			if f != "h" && !known[f] {
				t.Errorf("README: %v uses -%s, which 'bookbuild %s -h' does not list", l, f, l.Sub)
			}
		}
	}
}
