package pgn

import (
	"bytes"
	"errors"
	"fmt"
	"github.com/chessbook/chessbook/internal/testutil"
	"io"
	"maps"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"
)

// recorder is a Visitor writing every callback into a compact log:
//
//	B<line>  T:<name>=<quoted value>  M  <san>@<line>  O:<result>  X<line>:<reason>  E
type recorder struct {
	b           strings.Builder
	noMovetext  bool // BeginMovetext returns false
	stopAfter   int  // SAN returns false after this many moves of a game (0: never)
	moves       int
	depth       int
	unbalanced  bool
	withReasons bool
}

func (r *recorder) add(s string) {
	if r.b.Len() > 0 {
		r.b.WriteByte(' ')
	}
	r.b.WriteString(s)
}

func (r *recorder) BeginGame(line int) {
	r.depth++
	if r.depth != 1 {
		r.unbalanced = true
	}
	r.moves = 0
	r.add("B" + strconv.Itoa(line))
}
func (r *recorder) Tag(name, value []byte) {
	r.add(fmt.Sprintf("T:%s=%q", name, value))
}
func (r *recorder) BeginMovetext() bool { r.add("M"); return !r.noMovetext }
func (r *recorder) SAN(san []byte, line int) bool {
	r.add(fmt.Sprintf("%s@%d", san, line))
	r.moves++
	return r.stopAfter == 0 || r.moves < r.stopAfter
}
func (r *recorder) Outcome(res Result) { r.add("O:" + res.String()) }
func (r *recorder) ParseError(line int, reason string) {
	if r.withReasons {
		r.add(fmt.Sprintf("X%d:%s", line, reason))
	} else {
		r.add("X" + strconv.Itoa(line))
	}
}
func (r *recorder) EndGame() {
	r.depth--
	if r.depth != 0 {
		r.unbalanced = true
	}
	r.add("E")
}

// parseLog parses input in one piece and returns the callback log.
func parseLog(input string) string {
	var r recorder
	Parse([]byte(input), 1, &r)
	return r.b.String()
}

// splitLog parses input chunk by chunk as a Splitter cuts it (chunks of at
// least size bytes, read through rd) and returns the callback log and the
// chunks' total length.
func splitLog(t testing.TB, rd io.Reader, size int, v Visitor) (n int) {
	t.Helper()
	sp := NewSplitterSize(rd, size)
	var p Parser
	var buf []byte
	prevEnd := -1
	for {
		chunk, line, err := sp.Next(buf)
		if len(chunk) > 0 {
			if prevEnd >= 0 && line != prevEnd {
				t.Fatalf("chunk starts at line %d, previous ended before line %d", line, prevEnd)
			}
			if sp.Done() {
				p.ParseEnd(chunk, line, v, sp.ReadFailed())
			} else {
				p.Parse(chunk, line, v)
			}
			n += len(chunk)
			prevEnd = line + lineCount(chunk)
		}
		if err == io.EOF {
			return n
		}
		var bin *BinaryDataError
		if errors.As(err, &bin) { // reported as pgn.Read does
			if prevEnd >= 0 && line != prevEnd {
				t.Fatalf("binary data starts at line %d, previous chunk ended before line %d", line, prevEnd)
			}
			v.BeginGame(bin.Line)
			v.BeginMovetext()
			v.ParseError(bin.Line, bin.Error())
			v.EndGame()
			n += int(bin.Size)
			prevEnd = -1 // (where the region ends is the test's to check)
			buf = chunk[:0]
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		buf = chunk[:0]
	}
}

// hasBinaryLine reports whether a line of data holds binary bytes enough
// to begin a binary region, where a Splitter cuts data as a Parser of the
// whole does not.
func hasBinaryLine(data []byte) bool {
	var eol eolFinder
	eol.reset()
	for pos := 0; ; {
		end, next, ok := eol.next(data, pos, true)
		if !ok {
			return false
		}
		if countBinary(data[pos:end]) >= minBinaryBytes {
			return true
		}
		pos = next
	}
}

// lineCount counts line breaks as the Parser does: LF, CRLF and lone CR
// (the Splitter's countLines).
func lineCount(b []byte) int { return countLines(b) }

// checkSplitEquivalence asserts that parsing data chunk by chunk, with
// several chunk sizes and reader behaviours, calls a Visitor exactly as
// parsing it in one piece does; when data holds binary data, which a
// Splitter cuts out (and a Parser does not), that it does so the same
// whatever the chunk size and reads.
func checkSplitEquivalence(t testing.TB, data []byte) {
	t.Helper()
	var whole recorder
	if hasBinaryLine(data) {
		splitLog(t, bytes.NewReader(data), 4096, &whole)
	} else {
		var wp Parser
		wp.ParseEnd(data, 1, &whole, false) // the whole input is its last chunk
	}
	if whole.unbalanced || whole.depth != 0 {
		t.Fatalf("unbalanced BeginGame/EndGame: %s", whole.b.String())
	}
	type reader struct {
		name string
		r    func() io.Reader
	}
	readers := []reader{
		{"plain", func() io.Reader { return bytes.NewReader(data) }},
		{"onebyte", func() io.Reader { return iotest.OneByteReader(bytes.NewReader(data)) }},
		{"half", func() io.Reader { return iotest.HalfReader(bytes.NewReader(data)) }},
	}
	for _, rd := range readers {
		for _, size := range []int{1, 7, 100, 4096} {
			if rd.name == "onebyte" && len(data) > 200000 {
				continue
			}
			var r recorder
			n := splitLog(t, rd.r(), size, &r)
			if n != len(data) {
				t.Fatalf("%s/%d: chunks hold %d bytes, input has %d", rd.name, size, n, len(data))
			}
			if got, want := r.b.String(), whole.b.String(); got != want {
				t.Fatalf("%s/%d: chunked parse differs from whole parse:\nwhole:   %.3000s\nchunked: %.3000s\nat %d", rd.name, size, want, got, firstDiff(got, want))
			}
		}
	}
}

func firstDiff(a, b string) int {
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

func TestParseSnippets(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"basic",
			"[Event \"x\"]\n[White \"a\"]\n\n1. e4 e5 2. Nf3 1-0\n",
			`B1 T:Event="x" T:White="a" M e4@4 e5@4 Nf3@4 O:1-0 E`},
		{"escaped quotes and backslashes",
			`[White "New-cfe8\"dsa\\x\"c"]` + "\n\n1. d4 *",
			`B1 T:White="New-cfe8\"dsa\\x\"c" M d4@3 O:* E`},
		{"unescaped quotes in value",
			`[Event "Tournament "Championship" Finals"]` + "\n" + `[Site "Club "Victory""]` + "\n\n*",
			`B1 T:Event="Tournament \"Championship\" Finals" T:Site="Club \"Victory\"" M O:* E`},
		{"unclosed quote takes the rest of the line",
			"[Event \"NII - Lille]\n[Site \"Lille\"]\n\n1. d4 a6 0-1\n\n[Event \"next\"]\n\n1. e4 *",
			`B1 T:Event="NII - Lille" T:Site="Lille" M d4@4 a6@4 O:0-1 E B6 T:Event="next" M e4@8 O:* E`},
		{"escaped quote before the bracket",
			"[Event \"Tournament \\\"]\n[Site \"M\"]\n\n1. d4 *",
			`B1 T:Event="Tournament \\" T:Site="M" M d4@4 O:* E`},
		{"brackets inside values",
			`[Event "vs master[!important]"]` + "\n" + `[Variation "closing ] opening"]` + "\n\n*",
			`B1 T:Event="vs master[!important]" T:Variation="closing ] opening" M O:* E`},
		{"empty value and spaces",
			`[ Event  "" ]` + "\n[WhiteElo \"\"]\n\n*",
			`B1 T:Event="" T:WhiteElo="" M O:* E`},
		{"nested variations with parentheses in comments",
			"[Event \"v\"]\n\n1. e4 (1. d4 {a (b} d5 (1... Nf6 {)} 2. c4) 2. c4) e5 {(} 2. Nf3 ({x)} 2. Bc4 (2. d4)) Nc6 *",
			`B1 T:Event="v" M e4@3 e5@3 Nf3@3 Nc6@3 O:* E`},
		{"variation spanning lines with a result inside",
			"[Event \"v\"]\n\n1. e4 (1. d4 d5\n2. c4 1-0) e5\n(1... c5) 2. Nf3 1/2-1/2",
			`B1 T:Event="v" M e4@3 e5@4 Nf3@5 O:1/2-1/2 E`},
		{"move number forms",
			"1.e4 1...e5 2. Nf3 2... Nc6 3.Bb5 a6 4 Ba4 4. .. Nf6 5.O-O 5...Be7 6.0-0-0 *",
			`B1 M e4@1 e5@1 Nf3@1 Nc6@1 Bb5@1 a6@1 Ba4@1 Nf6@1 O-O@1 Be7@1 0-0-0@1 O:* E`},
		{"NAGs, glued and spaced",
			"1. e4 $1 e5 $2 2. Nf3$14 Nc6 $ *",
			`B1 M e4@1 e5@1 Nf3@1 Nc6@1 O:* E`},
		{"suffixes stripped",
			"1. e4! e5? 2. Qh5!? Nc6?! 3. Bc4!! Nf6?? 4. Qxf7# 1-0\n\n1. e4 d5 2. exd5 c6 3. dxc6 Qd6 4. cxb7+ Kd8 5. bxa8=Q+ *",
			`B1 M e4@1 e5@1 Qh5@1 Nc6@1 Bc4@1 Nf6@1 Qxf7@1 O:1-0 E B3 M e4@3 d5@3 exd5@3 c6@3 dxc6@3 Qd6@3 cxb7@3 Kd8@3 bxa8=Q@3 O:* E`},
		{"evaluation glyphs",
			"1. e4 += e5 +/- 2. Nf3 ± Nc6 ∞ 3. Rxe5+- ⩲ *",
			`B1 M e4@1 e5@1 Nf3@1 Nc6@1 Rxe5@1 O:* E`},
		{"byte order mark",
			"\xef\xbb\xbf[Event \"bom\"]\n\n1. e4 *",
			`B1 T:Event="bom" M e4@3 O:* E`},
		{"CR-only line ends",
			"[Event \"x\"]\r\r1. e4\re5 *\r\r[Event \"y\"]\r\r1. d4 *",
			`B1 T:Event="x" M e4@3 e5@4 O:* E B6 T:Event="y" M d4@8 O:* E`},
		{"CRLF line ends",
			"[Event \"x\"]\r\n\r\n1. e4\r\ne5 *\r\n\r\n[Event \"y\"]\r\n\r\n1. d4 *\r\n",
			`B1 T:Event="x" M e4@3 e5@4 O:* E B6 T:Event="y" M d4@8 O:* E`},
		{"mixed line ends",
			"[Event \"x\"]\r\n\n\r1. e4\r\re5 *",
			`B1 T:Event="x" M e4@4 e5@6 O:* E`},
		{"Latin-1 tag value",
			"[White \"M\xfcller, J\xf6rg\"]\n[Black \"Kr\xe0mn\xeck\"]\n[Site \"\x80 \x8a\"]\n\n*",
			`B1 T:White="Müller, Jörg" T:Black="Kràmnìk" T:Site="€ Š" M O:* E`},
		{"UTF-8 tag value unchanged",
			"[White \"Müller\"]\n[Event \"FIDE Women’s\"]\n\n*",
			`B1 T:White="Müller" T:Event="FIDE Women’s" M O:* E`},
		{"game without moves",
			"[Event \"x\"]\n[Result \"*\"]\n\n*\n\n[Event \"y\"]\n\n1. e4 *",
			`B1 T:Event="x" T:Result="*" M O:* E B6 T:Event="y" M e4@8 O:* E`},
		{"games with tags only",
			"[Event \"a\"]\n[Site \"s\"]\n\n[Event \"b\"]\n[Round \"1\"]\n\n[Round \"2\"]\n[Site \"u\"]\n\n[Round \"3\"]\n",
			`B1 T:Event="a" T:Site="s" M E B4 T:Event="b" T:Round="1" M E B7 T:Round="2" T:Site="u" M E B10 T:Round="3" M E`},
		{"blank line inside a tag section",
			"[Event \"a\"]\n\n[Date \"d\"]\n\n1. e4 *",
			`B1 T:Event="a" T:Date="d" M e4@5 O:* E`},
		{"missing result",
			"[Event \"x\"]\n\n1. e4 e5\n\n[Event \"y\"]\n\n1. d4",
			`B1 T:Event="x" M e4@3 e5@3 E B5 T:Event="y" M d4@7 E`},
		{"no blank lines between games",
			"[Event \"a\"]\n1. e4 *\n[Event \"b\"]\n1. d4 *",
			`B1 T:Event="a" M e4@2 O:* E B3 T:Event="b" M d4@4 O:* E`},
		{"null moves",
			"1. e4 -- 2. d4 Z0 3. c4 -- *",
			`B1 M e4@1 --@1 d4@1 Z0@1 c4@1 --@1 O:* E`},
		{"unclosed comment at end of input",
			"[Event \"x\"]\n\n1. e4 {never closed\n2. d4",
			`B1 T:Event="x" M e4@3 X3 E`},
		{"unclosed comment recovered at the next game",
			"[Event \"x\"]\n\n1. e4 {oops\ne5\n\n[Event \"y\"]\n\n1. d4 *",
			`B1 T:Event="x" M e4@3 X3 E B6 T:Event="y" M d4@8 O:* E`},
		{"comment spanning lines with a bracket line",
			"[Event \"x\"]\n\n1. e4 {comment\n[%clk 0:01:00] more}\ne5 *",
			`B1 T:Event="x" M e4@3 e5@5 O:* E`},
		{"comment spanning lines with a tag-like line but no blank line before",
			"[Event \"x\"]\n\n1. e4 {comment\n[Event \"quoted\"]\n} e5 *",
			`B1 T:Event="x" M e4@3 e5@5 O:* E`},
		{"lichess comments",
			"[Event \"x\"]\n\n1. e4 { [%eval 0.17] [%clk 0:03:00] } 1... e5 { [%clk 0:03:00] } 2. Nf3?! { (0.2 → -0.1) Inaccuracy. } 1-0",
			`B1 T:Event="x" M e4@3 e5@3 Nf3@3 O:1-0 E`},
		{"semicolon comments and escape lines",
			"%escaped line [Event \"no\"]\n[Event \"x\"]\n\n1. e4 ; rest { is ignored\n% e6 {\ne5 *",
			`B2 T:Event="x" M e4@4 e5@6 O:* E`},
		{"tags and moves on one line",
			`[Event "a"] [Site "b"][Round "1"] 1.d4 {x} 1...Nf6 *`,
			`B1 T:Event="a" T:Site="b" T:Round="1" M d4@1 Nf6@1 O:* E`},
		{"game without tags",
			"1. e4 e5 *\n\n1. d4 d5 1-0",
			`B1 M e4@1 e5@1 O:* E B3 M d4@3 d5@3 O:1-0 E`},
		{"stray results and text after the result",
			"[Event \"x\"]\n\n1. e4 * *\n1-0 ff\n\n[Event \"y\"]\n\n1. d4 0-1 (time forfeit)",
			`B1 T:Event="x" M e4@3 O:* E B6 T:Event="y" M d4@8 O:0-1 E`},
		{"garbage before a game",
			"<html>\n<body>hello world</body>\n\n[Event \"x\"]\n\n1. e4 *",
			`B2 M X2 E B4 T:Event="x" M e4@6 O:* E`},
		{"garbage in movetext",
			"[Event \"x\"]\n\n1. e4 hello e5 2. Nf3\n\n[Event \"y\"]\n\n1. d4 *",
			`B1 T:Event="x" M e4@3 X3 E B5 T:Event="y" M d4@7 O:* E`},
		{"binary garbage",
			"PK\x03\x04\x14\x00\x08\x00\xff\xfe{\x03\n\x04\x05\n\n[Event \"x\"]\n\n1. e4 *",
			`B1 M X1 E B4 T:Event="x" M e4@6 O:* E`},
		{"stray bytes between games",
			"[Event \"x\"]\n\n1. e4 *\n\xff\x7f\x1a\x00\n",
			`B1 T:Event="x" M e4@3 O:* E`},
		{"delimiters and HTML line breaks",
			"[pgn] 1. e4 e6 2. d4 d5 [/pgn]\n[Event \"x\"]<br>\n[Site \"y\"]<br>\n\n1. c4 *",
			`B1 M e4@1 e6@1 d4@1 d5@1 E B2 T:Event="x" T:Site="y" M c4@5 O:* E`},
		{"Unicode results, dashes and figurines",
			"1. ♘f3 d5 2. O‑O ½-½\n\n1. e4 1–0\n\n[Result \"½-½\"]\n\n½-½",
			`B1 M Nf3@1 d5@1 O-O@1 O:1/2-1/2 E B3 M e4@3 O:1-0 E B5 T:Result="½-½" M O:1/2-1/2 E`},
		{"result glued to the last move",
			"[Event \"x\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf71-0\n\n1. d4 d50-1",
			`B1 T:Event="x" M e4@3 e5@3 Qh5@3 Nc6@3 Bc4@3 Nf6@3 Qxf7@3 O:1-0 E B5 M d4@5 d5@5 O:0-1 E`},
		{"en passant marks",
			"1. e4 d5 2. e5 f5 3. exf6 e.p. g6 4. fxg7ep *",
			`B1 M e4@1 d5@1 e5@1 f5@1 exf6@1 g6@1 fxg7@1 O:* E`},
		{"pawn drops and long algebraic",
			"1. e2-e4 e7e5 2. N@f3 P@e4 *",
			`B1 M e2-e4@1 e7e5@1 N@f3@1 P@e4@1 O:* E`},
		{"empty and blank input",
			"\n \r\n\t\n",
			``},
		{"only a comment",
			"{just a comment}\n; and another\n",
			``},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := parseLog(tc.in); got != tc.want {
				t.Errorf("input %q\n got: %s\nwant: %s", tc.in, got, tc.want)
			}
			checkSplitEquivalence(t, []byte(tc.in))
		})
	}
}

func TestParseVisitorSkips(t *testing.T) {
	in := "[Event \"x\"]\n\n1. e4 e5 2. Nf3 1-0\n1. d4 *\n[Event \"y\"]\n\n1. c4 c5 2. Nc3 0-1"
	r := recorder{noMovetext: true}
	Parse([]byte(in), 1, &r)
	// The structure does not depend on the Visitor's answers: the game
	// without tags after the first one still begins at its first move.
	if got, want := r.b.String(), `B1 T:Event="x" M E B4 M E B5 T:Event="y" M E`; got != want {
		t.Errorf("BeginMovetext false:\n got: %s\nwant: %s", got, want)
	}
	r = recorder{stopAfter: 2}
	Parse([]byte(in), 1, &r)
	if got, want := r.b.String(), `B1 T:Event="x" M e4@3 e5@3 E B4 M d4@4 O:* E B5 T:Event="y" M c4@7 c5@7 E`; got != want {
		t.Errorf("SAN false:\n got: %s\nwant: %s", got, want)
	}
}

func TestParseErrorReasons(t *testing.T) {
	r := recorder{withReasons: true}
	Parse([]byte("[Event \"x\"]\n\n1. e4 {open\n\n[Event \"y\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 banana *"), 1, &r)
	want := `B1 T:Event="x" M e4@3 X3:unterminated comment E B5 T:Event="y" M e4@7 e5@7 Nf3@7 Nc6@7 Bb5@7 a6@7 X7:unexpected text "banana" E`
	if got := r.b.String(); got != want {
		t.Errorf("\n got: %s\nwant: %s", got, want)
	}
}

func TestParseFirstLine(t *testing.T) {
	var r recorder
	Parse([]byte("[Event \"x\"]\n\n1. e4 *"), 100, &r)
	if got, want := r.b.String(), `B100 T:Event="x" M e4@102 O:* E`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

func TestParseStats(t *testing.T) {
	var r recorder
	st := Parse([]byte("1. e4 e5 *\n\n[Event \"x\"]\n\n1. d4 foo\n"), 1, &r)
	if st != (ParseStats{Games: 2, Moves: 3, Errors: 1}) {
		t.Errorf("stats %+v", st)
	}
}

type tagCollector struct {
	countingVisitor
	tags map[string]string
}

func (c *tagCollector) Tag(name, value []byte) { c.tags[string(name)] = string(value) }

// countingVisitor counts callbacks and checks their order; it allocates
// nothing.
type countingVisitor struct {
	games, tags, sans, outcomes, errors int
	open, unbalanced                    bool
	sanBytes                            int
	hash                                uint64
}

func (c *countingVisitor) mix(x uint64) { c.hash = (c.hash ^ x) * 1099511628211 }
func (c *countingVisitor) BeginGame(line int) {
	if c.open {
		c.unbalanced = true
	}
	c.open = true
	c.games++
	c.mix(uint64(line))
}
func (c *countingVisitor) Tag(name, value []byte) { c.tags++; c.mix(uint64(len(value))) }
func (c *countingVisitor) BeginMovetext() bool    { return true }
func (c *countingVisitor) SAN(san []byte, line int) bool {
	c.sans++
	c.sanBytes += len(san)
	c.mix(hashName(san) ^ uint64(line))
	return true
}
func (c *countingVisitor) Outcome(r Result)              { c.outcomes++; c.mix(uint64(r)) }
func (c *countingVisitor) ParseError(line int, _ string) { c.errors++; c.mix(uint64(line)) }
func (c *countingVisitor) EndGame() {
	if !c.open {
		c.unbalanced = true
	}
	c.open = false
}

// OpenCorpus opens a corpus file, decompressing it. It is ingest.Open, set
// by the external test package (corpus_open_test.go): package pgn's own
// tests cannot import ingest, which imports pgn.
var OpenCorpus func(path string) (io.ReadCloser, error)

// pgnReadAll opens and decompresses path.
func pgnReadAll(t testing.TB, path string) []byte {
	t.Helper()
	rc, err := OpenCorpus(path)
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	data, err := io.ReadAll(rc)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestCorpusCounts parses the repository's champions500 and lichess2k
// (with -tags oracle, every file of shared/data small/ and medium/) and
// checks the game counts their READMEs give, that nothing is reported as
// broken, and that splitting at several chunk sizes changes nothing.
func TestCorpusCounts(t *testing.T) {
	data, want := corpusCounts(t)
	for name, games := range want {
		t.Run(filepath.Base(name), func(t *testing.T) {
			path := filepath.Join(data, name)
			if _, err := os.Stat(path); err != nil {
				testutil.Missing(t, "shared data: %v", err)
			}
			input := pgnReadAll(t, path)
			var whole countingVisitor
			var wp Parser
			st := wp.ParseEnd(input, 1, &whole, false)
			if whole.games != games || st.Games != games {
				t.Errorf("games = %d (stats %d), want %d", whole.games, st.Games, games)
			}
			if events := bytes.Count(input, []byte("\n[Event ")) + b2i(bytes.HasPrefix(input, []byte("[Event "))); events != games {
				t.Errorf("the file has %d [Event lines, README says %d", events, games)
			}
			// head_50k is cut off after its last game's tags, at a line's
			// end: that game is whole for ParseEnd, with no outcome.
			if whole.errors != 0 || whole.unbalanced || whole.open {
				t.Errorf("errors %d, unbalanced %v", whole.errors, whole.unbalanced || whole.open)
			}
			wantOutcomes := games - b2i(strings.Contains(name, "head_50k"))
			if whole.outcomes != wantOutcomes {
				t.Errorf("outcomes = %d, want %d", whole.outcomes, wantOutcomes)
			}
			if whole.sans < 40*games {
				t.Errorf("only %d moves in %d games", whole.sans, games)
			}
			for _, size := range []int{1, 4096, 64 << 10, DefaultChunkSize, 1 << 20} {
				var c countingVisitor
				n := splitLog(t, iotest.HalfReader(bytes.NewReader(input)), size, &c)
				if n != len(input) || c != whole {
					t.Errorf("chunk size %d: %d bytes, %d games, %d moves, hash %x; whole: %d games, %d moves, hash %x",
						size, n, c.games, c.sans, c.hash, whole.games, whole.sans, whole.hash)
				}
			}
			// The sequential reader over the (possibly compressed) file.
			rc, err := OpenCorpus(path)
			if err != nil {
				t.Fatal(err)
			}
			defer rc.Close()
			var seq countingVisitor
			if err := Read(rc, &seq); err != nil {
				t.Fatal(err)
			}
			if seq != whole {
				t.Errorf("Read: %d games %d moves, Parse: %d games %d moves", seq.games, seq.sans, whole.games, whole.sans)
			}
			t.Logf("%d games, %d moves, %d tags", whole.games, whole.sans, whole.tags)
		})
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestCorpusTricky parses every file under testdata/tricky (with -tags
// oracle, shared/data/tricky too): no panic,
// BeginGame and EndGame balanced, chunked parsing equal to whole parsing,
// and no flood of games out of files that are not PGN.
func TestCorpusTricky(t *testing.T) {
	files := trickyFiles(t)
	if len(files) < 100 {
		t.Fatalf("only %d tricky files", len(files))
	}
	dir := filepath.Dir(testutil.RepoRoot(t))
	var games, errs int
	for _, f := range files {
		rel, _ := filepath.Rel(dir, f)
		t.Run(rel, func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			var c countingVisitor
			Parse(data, 1, &c)
			if c.unbalanced || c.open {
				t.Fatal("BeginGame/EndGame unbalanced")
			}
			games += c.games
			errs += c.errors
			if !strings.HasSuffix(f, ".pgn") && !strings.HasSuffix(f, ".PGN") && c.games > 1 && !strings.HasSuffix(f, ".scala.orig") {
				t.Errorf("%d games out of a file that is not PGN", c.games)
			}
			checkSplitEquivalence(t, data)
		})
	}
	t.Logf("%d files, %d games, %d parse errors", len(files), games, errs)
}

// TestCorpusTrickyCounts pins the game counts of tricky files whose
// structure is unusual: those of testdata/tricky, and with -tags oracle
// those of shared/data/tricky (sharedTrickyCounts).
func TestCorpusTrickyCounts(t *testing.T) {
	counts := map[string][3]int{ // games, moves, errors
		"testdata/tricky/rogermarsh_pgn-read/FIDE_longest_possible_game.pgn":                                    {1, 11790, 0},
		"testdata/tricky/disservin_chess-library_tests/no_moves_but_game_termination_multiple_2.pgn":            {3, 0, 0},
		"testdata/tricky/disservin_chess-library_tests/no_moves_but_comment_followed_by_termination_marker.pgn": {2, 0, 0},
		"testdata/tricky/pgnmentor_Gelfand_illegal_move_31Qxe1.pgn":                                             {1, 62, 0},
		"testdata/tricky/rogermarsh_pgn-read/twic9nn_error.pgn":                                                 {7, 140, 0},
		"testdata/tricky/tcec_dfrc_3games.pgn":                                                                  {3, 351, 0},
	}
	maps.Copy(counts, sharedTrickyCounts)
	for name, want := range counts {
		t.Run(name, func(t *testing.T) {
			var path string
			if rel, ok := strings.CutPrefix(name, "testdata/"); ok {
				path = testutil.Testdata(t, rel)
			} else {
				path = testutil.SharedFile(t, filepath.Join("tricky", name))
			}
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			var c countingVisitor
			Parse(data, 1, &c)
			if got := [3]int{c.games, c.sans, c.errors}; got != want {
				t.Errorf("games, moves, errors = %v, want %v", got, want)
			}
		})
	}
}

// TestParseNoAllocs checks that a Parser reused on the same input
// allocates nothing, tag conversion and token normalisation included.
func TestParseNoAllocs(t *testing.T) {
	input := []byte("[Event \"E\\\"x\\\"\"]\n[White \"M\xfcller\"]\n[Black \"Müller\"]\n\n" +
		"1. e4 {c} e5 (1... c5 2. Nf3) 2. Nf3+ $1 Nc6?! 3. ♗b5 a6 ½-½\n\n1. d4 d5 *\n")
	var p Parser
	var c countingVisitor
	p.Parse(input, 1, &c)
	if c.games != 2 || c.sans != 8 {
		t.Fatalf("games %d moves %d", c.games, c.sans)
	}
	if n := testing.AllocsPerRun(100, func() { p.Parse(input, 1, &c) }); n != 0 {
		t.Errorf("%v allocations per Parse", n)
	}
}

// TestParseNotPGN feeds files that are not PGN at all (Polyglot books, an
// HTML page saved as a book, compressed PGN read raw; those of testdata,
// with -tags oracle those of shared/data too): each must come out as at
// most one broken game, not a flood of bogus ones.
func TestParseNotPGN(t *testing.T) {
	var files []string
	for _, g := range []string{"reference/*.bin", "*.zst", "pgn/*.bz2"} {
		m, _ := filepath.Glob(filepath.Join(testutil.RepoRoot(t), "testdata", g))
		files = append(files, m...)
	}
	files = append(files, sharedNotPGN(t)...)
	if len(files) < 5 {
		t.Fatalf("only %d binary files", len(files))
	}
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var c countingVisitor
		var cp Parser
		cp.ParseEnd(raw, 1, &c, false)
		if c.games > 1 || c.errors != c.games || c.sans != 0 || c.unbalanced || c.open {
			t.Errorf("%s: %d games, %d errors, %d moves", filepath.Base(f), c.games, c.errors, c.sans)
		}
		var s countingVisitor
		if n := splitLog(t, bytes.NewReader(raw), 4096, &s); n != len(raw) || s.games != 1 || s.errors != 1 || s.sans != 0 || s.unbalanced || s.open {
			t.Errorf("%s: split parse: %d bytes of %d, %d games, %d errors, %d moves; want one broken game", filepath.Base(f), n, len(raw), s.games, s.errors, s.sans)
		}
	}
}

// TestParseEnd: in the input's last chunk, a game with no termination
// marker that ends inside a line, or any such game when the input failed
// to read on, was cut off and is reported; a whole last game, or one cut
// by Parse (not the last chunk), is not.
func TestParseEnd(t *testing.T) {
	for _, tc := range []struct {
		in     string
		errors int
	}{
		{"[Event \"a\"]\n\n1. e4 e5 1-0\n", 0},
		{"[Event \"a\"]\n\n1. e4 e5\n", 0}, // no marker, but a whole last line: a whole game
		{"[Event \"a\"]\n\n1. e4 e5 1-0\n\n[Event \"b\"]\n\n1. d4 d5 2. c4", 1},
		{"[Event \"a\"]\n\n1. e4 e5 1-0\n\n[Event \"b\"]\n[Whi", 1},
		{"[Event \"a\"]\n\n1. e4 e5 1-0\n\n[Event \"", 1},
		{"1. e4 e5 2. Nf3 {a comment", 1},
		{"[Event \"a\"]\n\n1. e4 e5 2. cx", 1}, // a move cut: the game is cut, not bad text
	} {
		var p Parser
		var c, cut countingVisitor
		p.ParseEnd([]byte(tc.in), 1, &cut, true) // the input failed to read on
		if cut.errors != 1 && !strings.HasSuffix(tc.in, "1-0\n") {
			t.Errorf("ParseEnd(%q, cut): %d errors, want 1", tc.in, cut.errors)
		}
		if strings.HasSuffix(tc.in, "cx") {
			var r recorder
			r.withReasons = true
			p.ParseEnd([]byte(tc.in), 1, &r, true)
			if want := `B1 T:Event="a" M e4@3 e5@3 X3:the input ends inside this game, before its result (cut off?) E`; r.b.String() != want {
				t.Errorf("ParseEnd(%q, cut): %s; want %s", tc.in, r.b.String(), want)
			}
		}
		p.ParseEnd([]byte(tc.in), 1, &c, false)
		if c.errors != tc.errors || c.unbalanced || c.open {
			t.Errorf("ParseEnd(%q): %d errors, balanced %v; want %d", tc.in, c.errors, !c.unbalanced && !c.open, tc.errors)
		}
		var whole countingVisitor
		p.Parse([]byte(tc.in), 1, &whole)
		if want := b2i(strings.Contains(tc.in, "{a comment") || strings.HasSuffix(tc.in, "cx")); whole.errors != want {
			t.Errorf("Parse(%q): %d errors, want %d", tc.in, whole.errors, want)
		}
	}
}
