package pgn

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"
)

// splitChunks returns all chunks of input as a Splitter of the given size cuts
// them, with their first lines.
func splitChunks(t *testing.T, r io.Reader, size int) (out []string, lines []int) {
	t.Helper()
	sp := NewSplitterSize(r, size)
	for {
		c, line, err := sp.Next(nil)
		if err == io.EOF {
			if len(c) != 0 {
				t.Fatalf("io.EOF with a %d-byte chunk", len(c))
			}
			return out, lines
		}
		if err != nil {
			t.Fatal(err)
		}
		if len(c) == 0 {
			t.Fatal("empty chunk without io.EOF")
		}
		out = append(out, string(c))
		lines = append(lines, line)
	}
}

func TestSplitterBoundaries(t *testing.T) {
	tests := []struct {
		name  string
		in    string
		want  []string
		lines []int
	}{
		{"games",
			"[Event \"a\"]\n\n1. e4 *\n\n[Event \"b\"]\n\n1. d4 *\n",
			[]string{"[Event \"a\"]\n\n1. e4 *\n\n", "[Event \"b\"]\n\n1. d4 *\n"}, []int{1, 5}},
		{"leading junk stays with the first game",
			"\xef\xbb\xbf% escape\n\n[Event \"a\"]\n1. e4 *\n[Event \"b\"]\n",
			[]string{"\xef\xbb\xbf% escape\n\n[Event \"a\"]\n1. e4 *\n", "[Event \"b\"]\n"}, []int{1, 5}},
		{"not inside a comment",
			"[Event \"a\"]\n\n1. e4 {\n[Event \"no\"]\n} *\n[Event \"b\"]\n",
			[]string{"[Event \"a\"]\n\n1. e4 {\n[Event \"no\"]\n} *\n", "[Event \"b\"]\n"}, []int{1, 6}},
		{"after an unterminated comment and a blank line",
			"[Event \"a\"]\n\n1. e4 {\n\n[Event \"b\"]\n",
			[]string{"[Event \"a\"]\n\n1. e4 {\n\n", "[Event \"b\"]\n"}, []int{1, 5}},
		{"braces in tag values and ; comments do not open comments",
			"[Event \"{\"]\n1. e4 ; {\n*\n[Event \"b\"]\n",
			[]string{"[Event \"{\"]\n1. e4 ; {\n*\n", "[Event \"b\"]\n"}, []int{1, 4}},
		{"tags without movetext",
			"[Event \"a\"]\n[Site \"x\"]\n\n[Event \"b\"]\n\n[Site \"y\"]\n",
			[]string{"[Event \"a\"]\n[Site \"x\"]\n\n", "[Event \"b\"]\n\n[Site \"y\"]\n"}, []int{1, 4}},
		{"CR-only and CRLF",
			"[Event \"a\"]\r\r1. e4 *\r[Event \"b\"]\r\n\r\n1. d4 *\r\n[Event \"c\"]",
			[]string{"[Event \"a\"]\r\r1. e4 *\r", "[Event \"b\"]\r\n\r\n1. d4 *\r\n", "[Event \"c\"]"}, []int{1, 4, 7}},
		{"escape lines are not content",
			"[Event \"a\"]\n%x\n[Site \"s\"]\n1. e4 *\n%y\n[Event \"b\"]",
			[]string{"[Event \"a\"]\n%x\n[Site \"s\"]\n1. e4 *\n%y\n", "[Event \"b\"]"}, []int{1, 6}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for _, r := range []io.Reader{strings.NewReader(tc.in), iotest.OneByteReader(strings.NewReader(tc.in))} {
				got, lines := splitChunks(t, r, 1)
				if fmt.Sprint(got) != fmt.Sprint(tc.want) || fmt.Sprint(lines) != fmt.Sprint(tc.lines) {
					t.Errorf("got %q at lines %v\nwant %q at lines %v", got, lines, tc.want, tc.lines)
				}
			}
			checkSplitEquivalence(t, []byte(tc.in))
		})
	}
}

// TestSplitterSizes checks that chunks hold whole games, are at least the
// target size (except the last), and exceed it by less than one game plus a
// read.
func TestSplitterSizes(t *testing.T) {
	var in bytes.Buffer
	for i := range 3000 {
		fmt.Fprintf(&in, "[Event \"game %d\"]\n[Result \"*\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 %s*\n\n", i, strings.Repeat("4. Ba4 Nf6 ", i%50))
	}
	for _, size := range []int{100, 4096, 64 << 10} {
		got, lines := splitChunks(t, bytes.NewReader(in.Bytes()), size)
		if strings.Join(got, "") != in.String() {
			t.Fatalf("size %d: chunks do not add up to the input", size)
		}
		line := 1
		for i, c := range got {
			if !strings.HasPrefix(c, "[Event \"game ") || !strings.HasSuffix(c, "*\n\n") {
				t.Fatalf("size %d: chunk %d does not hold whole games: %.40q...%q", size, i, c, c[max(0, len(c)-20):])
			}
			if i < len(got)-1 && (len(c) < size || len(c) > size+800) {
				t.Errorf("size %d: chunk %d has %d bytes", size, i, len(c))
			}
			if lines[i] != line {
				t.Errorf("size %d: chunk %d starts at line %d, want %d", size, i, lines[i], line)
			}
			line += strings.Count(c, "\n")
		}
	}
}

// TestSplitterHugeGame checks that a game much longer than the chunk size
// comes whole, alone, and that the buffer passed in is reused when it is
// big enough.
func TestSplitterHugeGame(t *testing.T) {
	huge := "[Event \"huge\"]\n\n" + strings.Repeat("1. e4 {a long comment} e5 ", 100000) + "*\n\n"
	in := "[Event \"a\"]\n\n1. e4 *\n\n" + huge + "[Event \"b\"]\n\n1. d4 *\n"
	got, lines := splitChunks(t, strings.NewReader(in), 1)
	if len(got) != 3 || got[1] != huge || lines[2] != 9 {
		t.Fatalf("got %d chunks (lines %v), the second %d bytes; want 3 with the huge game (%d bytes) alone", len(got), lines, len(got[1]), len(huge))
	}
	buf := make([]byte, 0, 1<<20)
	sp := NewSplitterSize(strings.NewReader(in), 1)
	c, _, err := sp.Next(buf)
	if err != nil || &c[0] != &buf[:1][0] {
		t.Errorf("the caller's buffer was not used (err %v)", err)
	}
}

type errReader struct {
	r   io.Reader
	err error
}

func (e *errReader) Read(p []byte) (int, error) {
	n, err := e.r.Read(p)
	if err == io.EOF {
		err = e.err
	}
	return n, err
}

// TestSplitterReadError checks that the input read before an error is
// returned first, then the error, wrapped, then nothing more.
func TestSplitterReadError(t *testing.T) {
	boom := errors.New("boom")
	in := "[Event \"a\"]\n\n1. e4 *\n\n[Event \"b\"]\n\n1. d4"
	sp := NewSplitterSize(&errReader{strings.NewReader(in), boom}, 1)
	var got []string
	var err error
	for {
		var c []byte
		c, _, err = sp.Next(nil)
		if err != nil {
			break
		}
		got = append(got, string(c))
	}
	if strings.Join(got, "") != in || len(got) != 2 {
		t.Errorf("chunks %q", got)
	}
	if !errors.Is(err, boom) || !strings.Contains(err.Error(), "after line 7") {
		t.Errorf("err = %v, want boom after line 7", err)
	}
	if _, _, err := sp.Next(nil); err != io.EOF {
		t.Errorf("after the error: %v, want io.EOF", err)
	}
}

func TestSplitterEmpty(t *testing.T) {
	sp := NewSplitter(strings.NewReader(""))
	for range 2 {
		if c, line, err := sp.Next(nil); len(c) != 0 || line != 1 || err != io.EOF {
			t.Errorf("Next = %q, %d, %v", c, line, err)
		}
	}
}

// TestSplitterCRAtReadBoundary feeds CRLF line ends split between reads.
func TestSplitterCRAtReadBoundary(t *testing.T) {
	in := "[Event \"a\"]\r\n\r\n1. e4 *\r\n\r\n[Event \"b\"]\r\n\r\n1. d4 *\r\n"
	got, lines := splitChunks(t, iotest.OneByteReader(strings.NewReader(in)), 1)
	if len(got) != 2 || lines[1] != 5 {
		t.Errorf("got %q at %v", got, lines)
	}
}

// gamesOf cuts data into its games, as an unlimited Splitter of chunk size
// 1 does (each chunk one game), with their first lines counted from
// firstLine.
func gamesOf(t testing.TB, data []byte, firstLine int) (games []string, lines []int) {
	t.Helper()
	sp := NewSplitterSize(bytes.NewReader(data), 1)
	sp.MaxGameSize = 0
	for {
		c, line, err := sp.Next(nil)
		if err == io.EOF {
			return games, lines
		}
		if err != nil {
			t.Fatal(err)
		}
		games = append(games, string(c))
		lines = append(lines, line+firstLine-1)
	}
}

// randomReader returns reads of random sizes, up to 2*max bytes.
type randomReader struct {
	r   io.Reader
	rng *rand.Rand
	max int
}

func (r *randomReader) Read(p []byte) (int, error) {
	return r.r.Read(p[:min(len(p), 1+r.rng.IntN(2*r.max))])
}

// checkDropEquivalence asserts that a Splitter with a MaxGameSize of max
// returns exactly the games of data (see gamesOf) but those longer than
// max, each reported in its place with its line and size, for several
// chunk sizes and readers; and that it holds no more of a game than the
// limit allows.
func checkDropEquivalence(t *testing.T, data []byte, max int) {
	t.Helper()
	games, lines := gamesOf(t, data, 1)
	var want []string
	for i, g := range games {
		if len(g) > max {
			want = append(want, fmt.Sprintf("too long: line %d, %d bytes", lines[i], len(g)))
		} else {
			want = append(want, fmt.Sprintf("line %d: %q", lines[i], g))
		}
	}
	rng := rand.New(rand.NewPCG(uint64(len(data)), uint64(max)))
	readers := map[string]func() io.Reader{
		"plain":  func() io.Reader { return bytes.NewReader(data) },
		"half":   func() io.Reader { return iotest.HalfReader(bytes.NewReader(data)) },
		"random": func() io.Reader { return &randomReader{bytes.NewReader(data), rng, max} },
	}
	if len(data) < 100000 {
		readers["onebyte"] = func() io.Reader { return iotest.OneByteReader(bytes.NewReader(data)) }
	}
	for name, rd := range readers {
		for _, size := range []int{1, 7, 100, 4096} {
			sp := NewSplitterSize(rd(), size)
			sp.MaxGameSize = max
			var got []string
			line := 1
			for {
				c, first, err := sp.Next(nil)
				if err == io.EOF {
					break
				}
				if cap(sp.carry) > 2*max+4*splitReadSize || cap(c) > sp.MaxBuffer() {
					t.Fatalf("%s/%d: the Splitter holds %d bytes of its own, returns a %d-byte buffer", name, size, cap(sp.carry), cap(c))
				}
				var long *GameTooLongError
				if errors.As(err, &long) {
					if first != long.Line || long.Line != line || long.Max != max {
						t.Fatalf("%s/%d: %v at line %d, want line %d", name, size, err, first, line)
					}
					got = append(got, fmt.Sprintf("too long: line %d, %d bytes", long.Line, long.Size))
				} else if err != nil {
					t.Fatal(err)
				} else {
					if first != line || len(c) == 0 {
						t.Fatalf("%s/%d: a %d-byte chunk at line %d, want line %d", name, size, len(c), first, line)
					}
					gs, ls := gamesOf(t, c, first)
					for i, g := range gs {
						got = append(got, fmt.Sprintf("line %d: %q", ls[i], g))
					}
					if sp.Done() != (len(want) > 0 && len(got) == len(want) && !strings.HasPrefix(want[len(want)-1], "too long")) {
						t.Fatalf("%s/%d: Done() is %v after %d of %d games", name, size, sp.Done(), len(got), len(want))
					}
				}
				if n := len(got); n > 0 && n <= len(games) {
					line = lines[n-1] + lineCount([]byte(games[n-1]))
				}
			}
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("%s/%d, max %d:\n got %.2000q\nwant %.2000q", name, size, max, got, want)
			}
		}
	}
}

// dropParts are what the random inputs of TestSplitterDropsLongGames are
// made of: lines that begin games or not, comments over lines, tag lines
// inside comments, and the pieces of random lines.
var dropParts = []string{
	"[Event \"e\"]\n", "[Site \"s\"]\r\n", "[White \"w\"]\r", "\n", "\n\n", "1. e4 e5 *\n", "1-0\n", "{\n", "}\n",
	"{ a comment }\n", "; x\n", "%esc\n", "[Event \"a\"]\n\n1. e4 {\n\n[Event \"b\"]\n",
}

// randomPGN makes an input of n parts, some of them long lines.
func randomPGN(rng *rand.Rand, n, long int) []byte {
	var b []byte
	for range n {
		switch rng.IntN(4) {
		case 0:
			b = append(b, randomLine(rng, 8)...)
			b = append(b, "\n\r\n"[rng.IntN(3):][:1]...)
		case 1: // a long line: a tag value, a comment, moves or text
			pre := []string{"[Event \"", "[Annotator \"", "1. e4 {", "{", "1. e4 e5 ", "x", "  [", "[Site \"a\"] 1. d4 ;"}[rng.IntN(8)]
			b = append(b, pre...)
			b = append(b, bytes.Repeat([]byte(lineParts[rng.IntN(len(lineParts))]), rng.IntN(long))...)
			b = append(b, []string{"\"]\n", "}\n", " 1-0\n", "\n", ""}[rng.IntN(5)]...)
		default:
			b = append(b, dropParts[rng.IntN(len(dropParts))]...)
		}
	}
	return b
}

// TestSplitterDropsLongGames checks with small limits that a Splitter
// drops exactly the games longer than its MaxGameSize, each reported in
// its place, and returns every other game whole (see
// checkDropEquivalence): on random inputs with long lines of every kind,
// and on the test files and the boundary cases.
func TestSplitterDropsLongGames(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	n := 300
	if testing.Short() {
		n = 60
	}
	for i := range n {
		data := randomPGN(rng, 5+rng.IntN(30), 1+rng.IntN(300))
		for _, max := range []int{1, 30, 200, 1000} {
			checkDropEquivalence(t, data, max)
		}
		if t.Failed() {
			t.Fatalf("input %d: %q", i, data)
		}
	}
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "pgn", "*.pgn"))
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, max := range []int{50, 200, 400} {
			checkDropEquivalence(t, data, max)
		}
	}
}

// fillReader reads head, then n bytes repeating fill, then tail, without
// holding the n bytes.
type fillReader struct {
	head, fill, tail string
	n, off           int
}

func (r *fillReader) Read(p []byte) (int, error) {
	total := len(r.head) + r.n + len(r.tail)
	if r.off >= total {
		return 0, io.EOF
	}
	k := 0
	for k < len(p) && r.off < total {
		switch o := r.off; {
		case o < len(r.head):
			p[k] = r.head[o]
		case o < len(r.head)+r.n:
			p[k] = r.fill[(o-len(r.head))%len(r.fill)]
		default:
			p[k] = r.tail[o-len(r.head)-r.n]
		}
		k++
		r.off++
	}
	return k, nil
}

// hugeCases are games with a line (or lines) longer than a game may be,
// between two ordinary games: the game of line 8 holds fill, repeated.
func hugeCases() []struct{ name, head, fill, tail string } {
	game := func(event string) string {
		return "[Event \"" + event + "\"]\n[White \"W\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 Nc6 1-0\n\n"
	}
	before, after := game("before"), game("after")
	rest := "[White \"H\"]\n[Black \"B\"]\n[Result \"0-1\"]\n\n1. d4 d5 0-1\n\n"
	return []struct{ name, head, fill, tail string }{
		{"first tag", before + "[Event \"", "x", "\"]\n" + rest + after},
		{"second tag", before + "[Event \"huge\"]\n[Annotator \"", "x", "\"]\n" + rest + after},
		{"comment", before + "[Event \"huge\"]\n\n1. d4 {", "comment ", "} d5 0-1\n\n" + after},
		{"comment of lines with tags", before + "[Event \"huge\"]\n\n1. d4 {\n", "[Event \"in a comment\"]\nyyy\n", "} d5 0-1\n\n" + after},
		{"moves", before + "[Event \"huge\"]\n\n", "Nf3 Nf6 Ng1 Ng8 ", "1/2-1/2\n\n" + after},
		{"input ends inside the tag", before + "[Event \"", "x", ""},
	}
}

// TestSplitterHugeLines checks that a game with a line longer than
// MaxGameSize (a tag value, a comment, moves; the real limit, with 40 MiB
// of it) is dropped and reported with its own line, the games before and
// after it come whole, and the Splitter never holds more than the limit
// allows: no buffer it returns or keeps grows with the huge game.
func TestSplitterHugeLines(t *testing.T) {
	max, n := DefaultMaxGameSize, 40<<20
	if testing.Short() {
		max, n = 1<<20, 3<<20
	}
	for _, tc := range hugeCases() {
		t.Run(tc.name, func(t *testing.T) {
			n := n / len(tc.fill) * len(tc.fill)
			r := &fillReader{head: tc.head, fill: tc.fill, tail: tc.tail, n: n}
			sp := NewSplitter(r)
			sp.MaxGameSize = max
			var got []string
			biggest := 0
			buf := make([]byte, 0, DefaultChunkSize+splitReadSize)
			for {
				c, line, err := sp.Next(buf)
				biggest = maxInt(biggest, cap(c), cap(sp.carry))
				if err == io.EOF {
					break
				}
				var long *GameTooLongError
				switch {
				case errors.As(err, &long):
					got = append(got, fmt.Sprintf("too long: line %d, %d bytes", long.Line, long.Size))
				case err != nil:
					t.Fatal(err)
				default:
					gs, ls := gamesOf(t, c, line)
					for i, g := range gs {
						got = append(got, fmt.Sprintf("line %d: %.16q", ls[i], g))
					}
				}
				buf = c[:0]
			}
			// The huge game runs from the head's last "[Event" to the
			// tail's "[Event \"after\"]" (or the end).
			huge := strings.LastIndex(tc.head, "[Event")
			end := strings.Index(tc.tail, "[Event \"after\"]")
			if end < 0 {
				end = len(tc.tail)
			}
			want := []string{`line 1: "[Event \"before\"]"`,
				fmt.Sprintf("too long: line %d, %d bytes", 1+strings.Count(tc.head[:huge], "\n"), len(tc.head)-huge+n+end)}
			if end < len(tc.tail) {
				lines := 1 + strings.Count(tc.head, "\n") + n/len(tc.fill)*strings.Count(tc.fill, "\n") + strings.Count(tc.tail[:end], "\n")
				want = append(want, fmt.Sprintf(`line %d: "[Event \"after\"]\n"`, lines))
			}
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("got  %q\nwant %q", got, want)
			}
			if bound := sp.MaxBuffer(); biggest > bound {
				t.Errorf("a buffer of %d MiB for a limit of %d MiB (bound %d MiB)", biggest>>20, max>>20, bound>>20)
			}
			t.Logf("largest buffer %.1f MiB", float64(biggest)/(1<<20))
		})
	}
}

func maxInt(a ...int) int {
	m := a[0]
	for _, x := range a[1:] {
		m = max(m, x)
	}
	return m
}
