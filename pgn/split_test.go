package pgn

import (
	"bytes"
	"errors"
	"fmt"
	"io"
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
