package pgn

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
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
	// Every tricky file's head.
	const head = 4 << 10
	for _, path := range trickyFiles(f) {
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

// FuzzSplitterDrops checks, for any input and limit, that a Splitter with
// that MaxGameSize returns exactly the games of the input no longer than
// the limit and reports the others in their places (see
// checkDropEquivalence), and that a lineReader fed any line in pieces
// decides as splitLine does.
func FuzzSplitterDrops(f *testing.F) {
	for _, s := range []string{
		"[Event \"a\"]\n\n1. e4 *\n\n[Event \"bbbbbbbbbbbbbbbbbbbb\"]\n[Site \"x\"]\n\n1. d4 *\n\n[Event \"c\"]\n1. c4 *\n",
		"[Event \"x\"]\n\n1. e4 {open\n[Event \"in\"]\n\n[Event \"y\"]\n\n1. d4 *",
		"\xef\xbb\xbf%x\r\n[A \"1\"]\r[B \"2\"]\r\r[A \"3\"] 1. e4 {\r}\r\n*",
	} {
		f.Add([]byte(s), uint16(20))
	}
	f.Fuzz(func(t *testing.T, data []byte, max uint16) {
		if len(data) > 20000 {
			return
		}
		checkDropEquivalence(t, data, 1+int(max)%2000)
		var s structure
		s.reset()
		rng := rand.New(rand.NewPCG(uint64(len(data)), uint64(max)))
		for _, line := range bytes.FieldsFunc(data, func(r rune) bool { return r == '\n' || r == '\r' }) {
			want := s
			begins := want.splitLine(line)
			r := readLine(t, rng, &s, line)
			if r.begins != begins || r.s != want {
				t.Fatalf("line %q: reader begins %v, %+v; splitLine %v, %+v", line, r.begins, r.s, begins, want)
			}
			s = want
		}
	})
}
