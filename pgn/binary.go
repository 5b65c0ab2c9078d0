package pgn

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"slices"
)

// This file holds how a Splitter meets binary data inside a PGN stream: a
// damaged file, a download cut and filled with garbage, a binary blob
// pasted between two PGN files. Such a region is cut out of the stream and
// reported once (BinaryDataError), and the games before and after it come
// as usual.
//
// A region begins at a line holding at least minBinaryBytes binary bytes
// (control characters no text holds). It reaches back to the end of the
// last game ended by a termination marker before that line (the text in
// between is garbage, or a game the data cuts: neither is a game to keep),
// or to the start of the game being read when there is no such marker
// (then the rest of that game's tags, names it has not had yet, and its
// moves are the region's too). It
// reaches forward over the lines that follow, binary or not, up to the
// first of: a line that begins with a tag pair and holds no binary byte
// (the next game's tags) or with the first move number (the next game,
// in files whose games have no tags), a tag pair after the last binary
// byte of a line (garbage glued to the next game's first tag), or the end
// of a line of text with a move number and a termination marker (the end
// of the game whose start the data overwrote, in files whose games have
// no tags). The region is dropped as it is read: it may be of any size.

// binaryByte marks the bytes no text holds: the C0 control characters but
// tab, the line breaks, vertical tab, form feed, NUL and Ctrl-Z (which the
// rules count as white space: files padded with NULs or ending in Ctrl-Z
// occur), and DEL.
var binaryByte = func() (t [256]bool) {
	for c := 1; c < 0x20; c++ {
		t[c] = true
	}
	for _, c := range []byte{'\t', '\n', '\v', '\f', '\r', 0x1A} {
		t[c] = false
	}
	t[0x7F] = true
	return t
}()

// minBinaryBytes is how many binary bytes a line must hold to begin a
// binary region: real PGN has a stray control character now and then (a
// ^F in a comment), and random data has one byte in ten.
const minBinaryBytes = 3

// BinaryDataError is a Splitter's error for a region of binary data,
// dropped: Next returns it with an empty chunk in the region's place, and
// goes on after it.
type BinaryDataError struct {
	Line      int   // the region's first line
	EndLine   int   // its last line
	FirstData int   // the first line with binary bytes
	Size      int64 // its size in bytes
	// GameLine is set when the region begins with the start of a game the
	// binary data cuts (a game with no termination marker before it): the
	// line of that game's start, which is Line.
	GameLine int
}

func (e *BinaryDataError) Error() string {
	return "pgn: " + e.Detail()
}

// Detail says what the region is and where, without the "pgn: " prefix.
func (e *BinaryDataError) Detail() string {
	lines := fmt.Sprintf("line %d", e.Line)
	if e.EndLine > e.Line {
		lines = fmt.Sprintf("lines %d-%d", e.Line, e.EndLine)
	}
	s := fmt.Sprintf("%d bytes that are not text (%s; a damaged file?) skipped", e.Size, lines)
	if e.GameLine > 0 {
		s += fmt.Sprintf(", with the game of line %d that the binary data from line %d cuts", e.GameLine, e.FirstData)
	}
	return s
}

// countBinary returns how many binary bytes b holds. It looks at eight
// bytes at a time, byte by byte only where a word holds a byte below 0x20
// or a DEL.
func countBinary(b []byte) int {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	n, i := 0, 0
	for ; i+8 <= len(b); i += 8 {
		x := binary.LittleEndian.Uint64(b[i:])
		y := x ^ 0x7F*ones
		if (x-0x20*ones)&^x&highs == 0 && (y-ones)&^y&highs == 0 {
			continue
		}
		for _, c := range b[i : i+8] {
			if binaryByte[c] {
				n++
			}
		}
	}
	for _, c := range b[i:] {
		if binaryByte[c] {
			n++
		}
	}
	return n
}

// lastBinary returns the index after the last binary byte of b, or 0.
func lastBinary(b []byte) int {
	for i := len(b) - 1; i >= 0; i-- {
		if binaryByte[b[i]] {
			return i + 1
		}
	}
	return 0
}

// isMarker reports whether token t is a termination marker.
func isMarker(t []byte) bool {
	return ParseResult(t) != NoResult || string(t) == "½-½"
}

// isBlank reports whether c is ASCII white space (line breaks included).
func isBlank(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

// afterLastMarker returns the index after the last termination marker in
// b (a token of its own between blanks), or -1.
func afterLastMarker(b []byte) int {
	at := -1
	for i := 0; i < len(b); {
		for i < len(b) && isBlank(b[i]) {
			i++
		}
		j := i
		for j < len(b) && !isBlank(b[j]) {
			j++
		}
		if j > i && isMarker(b[i:j]) {
			at = j
		}
		i = j
	}
	return at
}

// printable reports whether b is printable ASCII and tabs: binary data
// has lines of text, now and then one that looks like PGN's.
func printable(b []byte) bool {
	for _, c := range b {
		if c >= 0x7F || c < ' ' && c != '\t' {
			return false
		}
	}
	return true
}

// endsMoves reports whether line b looks like the last line of a game's
// moves: printable ASCII, with a move number and a termination marker.
func endsMoves(b []byte) bool {
	number := false
	for i := 1; i < len(b) && !number; i++ {
		number = b[i] == '.' && b[i-1] >= '0' && b[i-1] <= '9'
	}
	return number && printable(b) && afterLastMarker(b) >= 0
}

// beginsMoves reports whether line b begins with the first move ("1. e4",
// "1.Nf3"), as a game without tags does.
func beginsMoves(b []byte) bool {
	i := skipSpace(b, 0)
	if i+2 >= len(b) || b[i] != '1' || b[i+1] != '.' {
		return false
	}
	j := skipSpace(b, i+2)
	return j < len(b) && (b[j] >= 'a' && b[j] <= 'h' || bytes.IndexByte([]byte("KQRBNO"), b[j]) >= 0) && printable(b)
}

// countLines returns the line breaks in b (LF, CRLF or a lone CR).
func countLines(b []byte) int {
	n := 0
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case '\n':
			n++
		case '\r':
			if i+1 >= len(b) || b[i+1] != '\n' {
				n++
			}
		}
	}
	return n
}

// tagAt reports whether a whole tag pair of text begins at b[i]: a
// name that begins with a capital letter, and a value closed by '"' and
// ']' with no binary byte in it. (Binary data has a '[', a name's bytes
// and a '"' in a row now and then.)
func tagAt(b []byte, i int) bool {
	ns, _, vs, ok := tagPrefix(b, i)
	if !ok || b[ns] < 'A' || b[ns] > 'Z' {
		return false
	}
	for j := vs; j < len(b); j++ {
		switch c := b[j]; {
		case binaryByte[c]:
			return false
		case c == '\\':
			j++
		case c == '"':
			k := j + 1
			for k < len(b) && (b[k] == ' ' || b[k] == '\t') {
				k++
			}
			if k < len(b) && b[k] == ']' {
				return true
			}
		}
	}
	return false
}

// tagAfter returns the index of the first tag pair's '[' in b (see
// tagAt), or -1.
func tagAfter(b []byte) int {
	for i := 0; ; {
		k := bytes.IndexByte(b[i:], '[')
		if k < 0 {
			return -1
		}
		if tagAt(b, i+k) {
			return i + k
		}
		i += k + 1
	}
}

// regionState is the binary region a Splitter drops.
type regionState struct {
	err     BinaryDataError
	line    int  // the line number of the line at the carry's start
	midLine bool // the carry begins inside a line whose start was dropped
	// tagged says that the input's games have tags: a line with the
	// first move number does not end the region, it is the cut game's.
	tagged bool
	// inTags says that the data cuts a game in its tags: a tag line
	// after it whose tag names (names) that game has not had yet is
	// more of that game's tags, not the next game.
	inTags bool
	names  []uint64
}

// cutGame records what the text of a game the data cuts, before it,
// holds: its tag names, and whether its movetext had begun (a line of
// text but tags, which garbage before the data is not).
func (r *regionState) cutGame(text []byte) {
	moves := false
	for len(text) > 0 {
		end, next, _ := lineEnd(text, true)
		line := text[:end]
		i := skipSpace(line, 0)
		switch {
		case tagAt(line, i):
			r.addNames(line, i)
		case i < len(line) && printable(line):
			moves = true
		}
		text = text[next:]
	}
	r.inTags = len(r.names) > 0 && !moves
}

// addNames records the names of the tag pairs of line, from i.
func (r *regionState) addNames(line []byte, i int) {
	for {
		name, _, next, ok := nextTag(line, i)
		if !ok {
			return
		}
		r.names = append(r.names, hashName(name))
		i = next
	}
}

// nextGame reports whether the tag pair at line[i] begins the next game
// (see inTags), and if not records its names.
func (r *regionState) nextGame(line []byte, i int) bool {
	if !r.inTags {
		return true
	}
	name, _, _, _ := nextTag(line, i)
	if slices.Contains(r.names, hashName(name)) {
		return true
	}
	r.addNames(line, i)
	return false
}

// binaryAt handles a line, at buf[c.pos:], that begins a binary region:
// it returns what Next returns: the games before the region, or, when
// there are none, the region's report once it is dropped.
func (c *cutter) binaryAt(buf []byte) ([]byte, int, error) {
	sp := c.sp
	start, startLines, cut := c.game, c.gameLines, true
	if m := afterLastMarker(buf[c.game:c.pos]); m >= 0 {
		// The game before ended: the region begins at the first byte
		// after its marker that is not blank.
		start, cut = c.game+m, false
		for start < c.pos && isBlank(buf[start]) {
			start++
		}
		startLines += countLines(buf[c.game:start])
		if start == c.pos {
			startLines = c.lines
		}
	}
	sp.region = regionState{line: c.first + c.lines, err: BinaryDataError{
		Line: c.first + startLines, FirstData: c.first + c.lines, Size: int64(c.pos - start)}}
	if _, _, _, tag := tagPrefix(buf, skipSpace(buf[:c.pos], start)); cut && tag {
		sp.region.err.GameLine = sp.region.err.Line
	}
	sp.region.tagged = sp.tagged || sp.region.err.GameLine > 0
	if cut {
		sp.region.cutGame(buf[start:c.pos])
	}
	sp.carry = append(sp.carry[:0], buf[c.pos:]...)
	sp.inRegion = true
	sp.line = sp.region.line
	if start > 0 {
		return buf[:start], c.first, nil
	}
	return sp.dropRegion(buf)
}

// dropRegion goes on dropping a binary region: it reads on to its end,
// keeps what follows for the next chunk, and returns an empty chunk and
// the region's *BinaryDataError.
func (sp *Splitter) dropRegion(dst []byte) ([]byte, int, error) {
	r := &sp.region
	buf := sp.carry
	zeroReads := 0
	for {
		ended := sp.regionLines(&buf)
		if ended || sp.eof {
			sp.carry = buf
			sp.line = r.line
			sp.inRegion = false
			sp.done = !ended
			sp.s.reset()
			e := r.err
			return dst[:0], e.Line, &e
		}
		buf = sp.read(buf, &zeroReads)
	}
}

// regionLines drops the lines of *buf that belong to the region. It
// returns true when the region ends: *buf begins with what follows it.
// Otherwise *buf is left with at most the start of a line not read yet.
func (sp *Splitter) regionLines(buf *[]byte) bool {
	r := &sp.region
	b := *buf
	defer func() { *buf = b }()
	take := func(n, lines int) {
		r.err.Size += int64(n)
		r.err.EndLine = r.line
		r.line += lines
		b = b[:copy(b, b[n:])]
	}
	for len(b) > 0 {
		end, next, ok := lineEnd(b, sp.eof)
		if !ok {
			if len(b) <= maxLineStart {
				return false // read on: the whole line tells
			}
			// A line too long to hold: its start is read as a line of
			// its own, and the rest as more of it.
			end, next = len(b), len(b)
			if b[end-1] == '\r' {
				end, next = end-1, end-1
			}
		}
		line := b[:end]
		breaks := 0
		if ok {
			breaks = 1
		}
		if lb := lastBinary(line); lb > 0 {
			if k := tagAfter(line[lb:]); k >= 0 { // tags glued to the data
				if r.nextGame(line, lb+k) {
					take(lb+k, 0)
					r.midLine = true
					return true
				}
			}
			take(next, breaks)
			r.midLine = !ok
			continue
		}
		if !r.midLine {
			i := skipSpace(line, 0)
			if tagAt(line, i) && r.nextGame(line, i) || !r.tagged && beginsMoves(line) {
				return true
			}
		}
		marker := endsMoves(line)
		take(next, breaks)
		r.midLine = !ok
		if marker && ok {
			return true
		}
	}
	return false
}
