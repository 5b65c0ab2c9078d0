package explorer

import (
	"os/exec"
	"strings"
	"testing"
)

// TestQuerySideDeps: the query side (this package, the game database and
// the book's read side) does not depend on the write side: no ingest
// pipeline, no build, no merge, nothing of theirs.
func TestQuerySideDeps(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command, to list the packages' dependencies: %v", err)
	}
	const mod = "github.com/chessbook/chessbook/"
	forbidden := []string{"ingest", "book/build", "book/merge"}
	for _, pkg := range []string{".", "../gamedb", "../book"} {
		out, err := exec.Command(goBin, "list", "-deps", pkg).Output()
		if err != nil {
			t.Fatalf("go list -deps %s: %v", pkg, err)
		}
		deps := strings.Fields(string(out))
		if len(deps) < 10 {
			t.Fatalf("go list -deps %s: %d packages, want the package's dependencies", pkg, len(deps))
		}
		for _, d := range deps {
			for _, f := range forbidden {
				if d == mod+f || strings.HasPrefix(d, mod+f+"/") {
					t.Errorf("%s depends on %s", pkg, d)
				}
			}
		}
	}
}
