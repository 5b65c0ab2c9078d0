package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestWorkersReduced: -workers beyond what -mem affords runs fewer, says
// so on stderr, and builds everything.
func TestWorkersReduced(t *testing.T) {
	db := filepath.Join(t.TempDir(), "book")
	code, out, errOut := runCLI(t, "-db", db, "-mem", "256", "-workers", "100000", "../../testdata/champions500.pgn")
	if code != 0 || !strings.Contains(out, "games stored:    500") {
		t.Fatalf("exit %d: %s %s", code, out, errOut)
	}
	if !strings.Contains(errOut, "bookbuild: -workers 100000 reduced to 7: -mem 256 affords no more") {
		t.Errorf("stderr %q: want the reduction noted", errOut)
	}
	// Workers the budget affords: no note.
	if code, _, errOut = runCLI(t, "-db", db, "-mem", "256", "-workers", "2", "../../testdata/champions500.pgn"); code != 0 || strings.Contains(errOut, "reduced") {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
}
