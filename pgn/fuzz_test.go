package pgn

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/chessbook/chessbook/internal/testutil"
)

// FuzzParse checks, for any input, that parsing never panics, that
// BeginGame and EndGame are balanced, and that parsing the Splitter's
// chunks gives exactly the callbacks of parsing the whole input at once.
// (ingest's FuzzReplay checks the replay of the same kind of input.)
func FuzzParse(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join("..", "testdata", "pgn", "*.pgn"))
	for _, s := range seeds {
		if data, err := os.ReadFile(s); err == nil {
			f.Add(data)
		}
	}
	// Every tricky file's head (none when ../shared/data is missing).
	const head = 4 << 10
	for _, path := range testutil.TrickyFiles() {
		if data, err := os.ReadFile(path); err == nil {
			f.Add(data[:min(len(data), head)])
		}
	}
	for _, s := range []string{
		"[Event \"x\"]\n\n1. e4 {open\n\n[Event \"y\"]\n\n1. d4 *",
		"[A \"1\"]\n\n[B \"2\"]\n\n[A \"3\"]\r[B \"4\"]\r\r*",
		"1. e4 (1. d4 {)} (1. c4 ;(\n)) e5 1-0 ff [x] <y> z",
		"\xef\xbb\xbf%x\n[Event \"\\\"\"][Site \"a\"b\"]\r\n1.e4 Qc20-1",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkSplitEquivalence(t, data)
	})
}
