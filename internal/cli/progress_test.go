package cli

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/chessbook/chessbook/ingest"
)

// TestProgressEnd: done, the bar goes to its end and "done in" follows;
// interrupted or failed, the bar stays where it was and no "done in" is
// printed.
func TestProgressEnd(t *testing.T) {
	for _, tc := range []struct {
		err    error
		done   bool
		reason string
	}{
		{nil, true, "done"},
		{fmt.Errorf("build interrupted: %w", context.Canceled), false, "interrupted"},
		{fmt.Errorf("disk full"), false, "failed"},
	} {
		for _, mode := range []string{"bar", "lines", "bar input", "lines input"} {
			var b strings.Builder
			p := NewProgress(strings.Fields(mode)[0], &b)
			if strings.HasSuffix(mode, "input") {
				p.Input(ingest.Progress{File: "x.pgn", Read: 300, Size: 1000, Games: 7})
			} else {
				p.Count("games replayed", 250, 1000)
			}
			p.End(tc.err)
			out := b.String()
			if got := strings.Contains(out, "done in "); got != tc.done {
				t.Errorf("%s, %s: done in printed %v:\n%q", tc.reason, mode, got, out)
			}
			if strings.HasPrefix(mode, "bar") && strings.Contains(out, "100%") != tc.done {
				t.Errorf("%s, bar: at 100%% %v, want %v:\n%q", tc.reason, !tc.done, tc.done, out)
			}
			if !strings.HasSuffix(out, "\n") {
				t.Errorf("%s, %s: the output does not end its line: %q", tc.reason, mode, out)
			}
		}
	}
}

// TestProgressModes: none and auto on a writer that is no file print
// nothing; lines prints a line for a count; -q makes any mode none.
func TestProgressModes(t *testing.T) {
	for _, mode := range []string{"none", "auto"} {
		var b strings.Builder
		p := NewProgress(mode, &b)
		p.Count("games", 1, 2)
		p.Line("writing the store...")
		p.End(nil)
		if b.Len() != 0 {
			t.Errorf("%s: printed %q", mode, b.String())
		}
	}
	var b strings.Builder
	p := NewProgress("lines", &b)
	p.Count("games scanned", 10, 40)
	if !strings.Contains(b.String(), "games scanned: 10 of 40 (25.0%)") {
		t.Errorf("lines: %q", b.String())
	}
	o := ProgressOptions{mode: "bar", Quiet: true}
	if o.Mode() != "none" {
		t.Errorf("-q -progress bar: mode %q", o.Mode())
	}
}

// TestProgressNote: the input's progress line ends with the note set
// (bookbuild's games committed), in lines and bar mode.
func TestProgressNote(t *testing.T) {
	for _, mode := range []string{"lines", "bar"} {
		var b strings.Builder
		p := NewProgress(mode, &b)
		p.SetNote("1200 committed")
		p.Input(ingest.Progress{File: "x.pgn", Read: 300, Size: 1000, Games: 2000, Plies: 9000})
		p.End(nil)
		if !strings.Contains(b.String(), "/s, 1200 committed") {
			t.Errorf("%s: %q", mode, b.String())
		}
	}
}
