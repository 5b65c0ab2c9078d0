package pgn

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
)

// lineParts are the pieces random lines are made of: every byte the rules
// look at, in the combinations they look for.
var lineParts = []string{
	"[", "]", "\"", "\\", "{", "}", "<", ">", ";", "%", " ", "\t", "\v", "\x00",
	"[Event \"", "[ Site  \"", "[White\"", "[A \"1\"]", "[B \"x\"y\"] ", "[C \"\\\"]", "[Event \"a\"] [Site \"b\"]",
	"\xef\xbb\xbf", "\xc2\xa0", "\xe2\x80\x8b", "\xe2\x81\xa0", "\xe2\x80", "\xc2", "\xef\xbb", "\xe9", "½",
	"e4", "1.", "Nf3", "1-0", "*", "(", ")", "$1", "x", "-", "_", "Longer_Tag-Name9",
}

// randomLine makes a line of up to n parts.
func randomLine(rng *rand.Rand, n int) []byte {
	var b []byte
	for range rng.IntN(n + 1) {
		b = append(b, lineParts[rng.IntN(len(lineParts))]...)
	}
	return b
}

// readLine feeds line to a lineReader in random pieces, as a Splitter
// does (giving again what it did not take), and checks that a decision,
// once made, is the final one.
func readLine(t *testing.T, rng *rand.Rand, s *structure, line []byte) *lineReader {
	t.Helper()
	var r lineReader
	r.reset(s)
	held := []byte{}
	decided, begins := false, false
	for rest := line; ; {
		n := 0
		if len(rest) > 0 {
			n = 1 + rng.IntN(len(rest))
		}
		piece := append(held, rest[:n]...)
		rest = rest[n:]
		eol := len(rest) == 0
		took := r.feed(piece, eol)
		if took < len(piece)-2 || eol && took != len(piece) {
			t.Fatalf("line %q: took %d of %d bytes (eol %v)", line, took, len(piece), eol)
		}
		held = append([]byte{}, piece[took:]...)
		if decided && (!r.decided || r.begins != begins) {
			t.Fatalf("line %q: the decision changed", line)
		}
		decided, begins = r.decided, r.begins
		if eol {
			return &r
		}
	}
}

// TestLineReader checks that a lineReader, fed a line in pieces, makes
// splitLine's decisions: the same answer to whether the line begins a
// game, and the same state after it, for random lines in states that
// random lines before them leave, and for the lines of the test files.
func TestLineReader(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	check := func(s structure, line []byte) structure {
		t.Helper()
		want := s
		begins := want.splitLine(line)
		r := readLine(t, rng, &s, line)
		if !r.decided || r.begins != begins || r.s != want {
			t.Fatalf("line %q from %+v:\nreader: begins %v (decided %v), %+v\nsplitLine: begins %v, %+v", line, s, r.begins, r.decided, r.s, begins, want)
		}
		return want
	}
	for range 200000 {
		var s structure
		s.reset()
		for range rng.IntN(4) {
			s.splitLine(randomLine(rng, 6))
		}
		check(s, randomLine(rng, 10))
	}
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "pgn", "*.pgn"))
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var s structure
		s.reset()
		for _, line := range bytes.FieldsFunc(data, func(r rune) bool { return r == '\n' || r == '\r' }) {
			s = check(s, line)
		}
	}
}

// TestLineReaderNameHash checks the reader's streaming hashName.
func TestLineReaderNameHash(t *testing.T) {
	for _, name := range []string{"A", "Event", "Site1234", "WhiteElo", "A_very_long-tag_name_0123456789"} {
		var r lineReader
		for i := range len(name) {
			r.nameByte(name[i])
		}
		if got, want := r.nameHash(), hashName([]byte(name)); got != want {
			t.Errorf("%s: %x, want %x", name, got, want)
		}
	}
}
