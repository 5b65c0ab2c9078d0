package savings

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

// update rewrites the golden reports: go test -run TestReportGolden -update.
var update = flag.Bool("update", false, "rewrite the golden reports in testdata/")

// TestReportGolden checks the text and Markdown reports of
// testdata/champions500.pgn byte for byte against the recorded ones (one
// worker, so that ties between positions of equal size resolve the same
// way; run time zeroed).
func TestReportGolden(t *testing.T) {
	pgn := filepath.Join("..", "..", "testdata", "champions500.pgn")
	r, err := FromPGN(context.Background(), []string{pgn}, Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	r.ElapsedSeconds = 0
	r.Inputs = []string{"testdata/champions500.pgn"}
	for _, c := range []struct {
		f    Format
		file string
	}{{FormatText, "champions500.txt"}, {FormatMarkdown, "champions500.md"}} {
		var b bytes.Buffer
		if err := r.Write(&b, c.f, "bookbuild savings testdata/champions500.pgn"); err != nil {
			t.Fatal(err)
		}
		golden := filepath.Join("testdata", c.file)
		if *update {
			if err := os.WriteFile(golden, b.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(b.Bytes(), want) {
			got := filepath.Join(t.TempDir(), c.file)
			_ = os.WriteFile(got, b.Bytes(), 0o644)
			t.Errorf("%s report differs from %s (got in %s)", c.f, golden, got)
		}
	}
}
