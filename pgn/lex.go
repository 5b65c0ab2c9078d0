package pgn

import (
	"bytes"
	"encoding/binary"
	"math/bits"
)

// This file holds the lexical rules that the Splitter and the Parser share.
// Both must agree exactly on where games begin: the Splitter only cuts the
// input where the Parser, reading the whole input at once, would begin a
// new game with no state carried over, so that parsing the chunks one by
// one gives the same callbacks as parsing everything in one go.
//
// The rules, line by line (a line ends at LF, CRLF or a lone CR):
//
//   - Inside a multi-line {comment} a line is comment text up to the first
//     '}', except that a tag line (see below) right after a blank line ends
//     an unterminated comment before it.
//   - A blank line (white space only) and a line with '%' in column one (an
//     escape line; a byte order mark may come before it) carry nothing.
//   - A tag line is one whose first non-blank characters are '[', a tag
//     name and '"'. Its tag pairs are read, and whatever follows them on the
//     line is read as movetext.
//   - In movetext, {...} comments, ';' comments (to the end of the line),
//     [...] brackets that are not tag pairs and <...> (reserved by the PGN
//     standard; in practice HTML such as <br>) are neutral; a '[' or '<'
//     without its partner on the line makes the rest of the line neutral.
//     Everything else is content (moves, numbers, results, NAGs,
//     parentheses, garbage).
//   - A tag line begins a new game when content has been seen since the
//     last tag line, or when a blank line separates it from earlier tags of
//     the same game and its tag name already occurred in that game (a game
//     with tags and no movetext at all, followed by the next game).

// Byte classes of the movetext scanner.
const (
	clTok    = iota // part of a token
	clSpace         // ASCII white space (line breaks never occur inside a line)
	clLBrace        // '{'
	clSemi          // ';'
	clLBrack        // '['
	clLAngle        // '<'
	clClose         // '}' or ']' without an opening partner: ignored
	clParen         // '(' or ')'
	clDollar        // '$'
	clHigh          // >= 0x80: a token byte unless it starts Unicode white space
)

// byteClass gives the class of each byte for the movetext scanners.
var byteClass = func() (t [256]uint8) {
	for c := 0x80; c < 0x100; c++ {
		t[c] = clHigh
	}
	// NUL and DOS's end-of-file mark Ctrl-Z count as white space: files
	// padded with them occur.
	for _, c := range []byte{' ', '\t', '\v', '\f', '\r', '\n', 0, 0x1A} {
		t[c] = clSpace
	}
	t['{'] = clLBrace
	t[';'] = clSemi
	t['['] = clLBrack
	t['<'] = clLAngle
	t['}'] = clClose
	t[']'] = clClose
	t['('] = clParen
	t[')'] = clParen
	t['$'] = clDollar
	return t
}()

// nameChar marks the bytes allowed in a tag name.
var nameChar = byteSet("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_-")

// byteSet returns the set of the bytes of s.
func byteSet(s string) (t [256]bool) {
	for i := range len(s) {
		t[s[i]] = true
	}
	return t
}

// spaceLen returns the length of the white-space character at the start of
// b (which must not be empty), or 0. Besides ASCII blanks it knows the UTF-8
// byte order mark, the no-break spaces and the zero-width characters that
// copy-and-paste leaves in PGN.
func spaceLen(b []byte) int {
	c := b[0]
	if c < 0x80 {
		if byteClass[c] == clSpace {
			return 1
		}
		return 0
	}
	switch c {
	case 0xC2: // U+00A0 no-break space
		if len(b) > 1 && b[1] == 0xA0 {
			return 2
		}
	case 0xE2:
		if len(b) > 2 {
			switch {
			case b[1] == 0x80 && (b[2] >= 0x8B && b[2] <= 0x8D || b[2] == 0xAF): // U+200B-U+200D, U+202F
				return 3
			case b[1] == 0x81 && b[2] == 0xA0: // U+2060 word joiner
				return 3
			}
		}
	case 0xEF: // U+FEFF byte order mark / zero-width no-break space
		if len(b) > 2 && b[1] == 0xBB && b[2] == 0xBF {
			return 3
		}
	}
	return 0
}

// skipSpace returns the index of the first non-white-space byte of b at or
// after i, or len(b).
func skipSpace(b []byte, i int) int {
	for i < len(b) {
		c := b[i]
		if c < 0x80 {
			if byteClass[c] != clSpace {
				return i
			}
			i++
			continue
		}
		n := spaceLen(b[i:])
		if n == 0 {
			return i
		}
		i += n
	}
	return i
}

// tagPrefix checks for the start of a tag pair at b[i]: '[', optional
// blanks, a tag name, optional blanks and '"'. It returns the name's bounds
// and the index just after the quote.
func tagPrefix(b []byte, i int) (ns, ne, vs int, ok bool) {
	if i >= len(b) || b[i] != '[' {
		return 0, 0, 0, false
	}
	j := i + 1
	for j < len(b) && (b[j] == ' ' || b[j] == '\t') {
		j++
	}
	ns = j
	for j < len(b) && nameChar[b[j]] {
		j++
	}
	ne = j
	if ne == ns {
		return 0, 0, 0, false
	}
	for j < len(b) && (b[j] == ' ' || b[j] == '\t') {
		j++
	}
	if j >= len(b) || b[j] != '"' {
		return 0, 0, 0, false
	}
	return ns, ne, j + 1, true
}

// nextTag reads the tag pair starting at the first non-blank byte at or
// after i. It returns the tag name, the raw value (escapes unresolved) and
// the index after the closing ']'. Without a tag pair there, ok is false
// and next is the index of that first non-blank byte.
//
// Real files contain values with unescaped quotes ("Smith "The King"") and
// values whose closing quote is missing; the value therefore ends at the
// first unescaped '"' that is followed by optional blanks and ']', and when
// there is none the rest of the line (up to its last ']') is the value.
func nextTag(b []byte, i int) (name, raw []byte, next int, ok bool) {
	i = skipSpace(b, i)
	ns, ne, vs, ok := tagPrefix(b, i)
	if !ok {
		return nil, nil, i, false
	}
	name = b[ns:ne]
	// Fast path: the first quote closes the value and nothing is escaped.
	if q := bytes.IndexByte(b[vs:], '"'); q >= 0 && bytes.IndexByte(b[vs:vs+q], '\\') < 0 {
		e := vs + q + 1
		for e < len(b) && (b[e] == ' ' || b[e] == '\t') {
			e++
		}
		if e < len(b) && b[e] == ']' {
			return name, b[vs : vs+q], e + 1, true
		}
	}
	for k := vs; k < len(b); k++ {
		switch b[k] {
		case '\\':
			k++ // the escaped byte never closes the value
		case '"':
			e := k + 1
			for e < len(b) && (b[e] == ' ' || b[e] == '\t') {
				e++
			}
			if e < len(b) && b[e] == ']' {
				return name, b[vs:k], e + 1, true
			}
		}
	}
	// Unterminated value: take the rest of the line.
	raw = b[vs:]
	if e := bytes.LastIndexByte(raw, ']'); e >= 0 {
		raw = raw[:e]
	}
	for len(raw) > 0 && (raw[len(raw)-1] == ' ' || raw[len(raw)-1] == '\t') {
		raw = raw[:len(raw)-1]
	}
	if len(raw) > 0 && raw[len(raw)-1] == '"' {
		raw = raw[:len(raw)-1]
	}
	return name, raw, len(b), true
}

// eolFinder finds line ends: LF, CRLF or a lone CR. It remembers where the
// next LF and the next CR are (or how far there is none), so that no byte
// is searched twice: not in a file with CR line ends and no LF at all, and
// not when the data grows a byte at a time.
type eolFinder struct {
	lf, lfTo int // index of the next '\n', or -1 if there is none in b[:lfTo]
	cr, crTo int // the same for '\r'
}

func (f *eolFinder) reset() { *f = eolFinder{lf: -1, cr: -1} }

// eolFind updates the cached index *at of the next c at or after pos.
func eolFind(b []byte, pos int, c byte, at, to *int) {
	if *at >= pos || *at < 0 && *to == len(b) {
		return
	}
	from := max(*to, pos)
	if i := bytes.IndexByte(b[from:], c); i >= 0 {
		*at = from + i
		*to = *at + 1
	} else {
		*at = -1
		*to = len(b)
	}
}

// next returns the line starting at pos in b: its content ends at end and
// the next line starts at next. ok is false when there is no line at pos, or
// when the line may not be complete yet and eof is false (b may grow by
// appending; positions stay valid).
func (f *eolFinder) next(b []byte, pos int, eof bool) (end, next int, ok bool) {
	if pos >= len(b) {
		return 0, 0, false
	}
	eolFind(b, pos, '\n', &f.lf, &f.lfTo)
	eolFind(b, pos, '\r', &f.cr, &f.crTo)
	switch {
	case f.cr >= 0 && (f.lf < 0 || f.cr < f.lf):
		switch {
		case f.cr+1 < len(b) && b[f.cr+1] == '\n': // CRLF
			return f.cr, f.cr + 2, true
		case f.cr+1 < len(b) || eof: // a lone CR
			return f.cr, f.cr + 1, true
		}
		return 0, 0, false // CR at the end of the data so far: LF may follow
	case f.lf >= 0:
		return f.lf, f.lf + 1, true
	case eof:
		return len(b), len(b), true
	}
	return 0, 0, false
}

// Structural states of the game-boundary rules.
const (
	stNone    = iota // nothing but neutral text since the start
	stTags           // in a tag section
	stContent        // movetext content seen since the last tag line
)

// What lineStart found.
const (
	lineDone = iota // nothing more to read on this line
	lineScan        // movetext from the returned index
	lineTag         // a tag line; its first tag starts at the returned index
)

// structure is the state of the game-boundary rules.
type structure struct {
	st            uint8
	inComment     bool // inside a {comment} that spans lines
	prevBlank     bool // the previous line was blank
	blankSinceTag bool // a blank line came after the last tag line
	nNames        int
	names         [32]uint64 // hashes of the first tag name of each tag line of this game
}

func (s *structure) reset() {
	s.st, s.inComment, s.prevBlank, s.blankSinceTag, s.nNames = stNone, false, false, false, 0
}

// lineStart applies the line-level rules to line b. recovered reports that
// b ended an unterminated comment.
func (s *structure) lineStart(b []byte) (kind, i int, recovered bool) {
	i = skipSpace(b, 0)
	blank := i == len(b)
	if blank {
		s.blankSinceTag = true
	}
	if s.inComment {
		if s.prevBlank && !blank {
			if _, _, _, ok := tagPrefix(b, i); ok {
				s.inComment, s.prevBlank = false, false
				return lineTag, i, true
			}
		}
		s.prevBlank = blank
		j := bytes.IndexByte(b, '}')
		if j < 0 {
			return lineDone, 0, false
		}
		s.inComment = false
		return lineScan, j + 1, false
	}
	s.prevBlank = blank
	if blank || b[0] == '%' || b[0] == 0xEF && len(b) > 3 && b[3] == '%' && spaceLen(b) == 3 {
		return lineDone, 0, false
	}
	if _, _, _, ok := tagPrefix(b, i); ok {
		return lineTag, i, false
	}
	return lineScan, i, false
}

// tagLine records a tag line whose first tag is named name and reports
// whether it begins a new game after an earlier one.
func (s *structure) tagLine(name []byte) bool { return s.tagLineHash(hashName(name)) }

// tagLineHash is tagLine for a name given by its hashName.
func (s *structure) tagLineHash(h uint64) bool {
	starts := s.st == stContent || s.st == stTags && s.blankSinceTag && s.seen(h)
	if starts || s.st == stNone {
		s.nNames = 0
	}
	s.st = stTags
	s.blankSinceTag = false
	if s.nNames < len(s.names) {
		s.names[s.nNames] = h
		s.nNames++
	}
	return starts
}

func (s *structure) seen(h uint64) bool {
	for _, x := range s.names[:s.nNames] {
		if x == h {
			return true
		}
	}
	return false
}

// hashName returns a hash of a tag name: exact for names of up to eight
// bytes, and for longer ones made of their first and last eight bytes.
func hashName(b []byte) uint64 {
	if len(b) >= 8 {
		return binary.LittleEndian.Uint64(b) ^ bits.RotateLeft64(binary.LittleEndian.Uint64(b[len(b)-8:]), 29) ^ uint64(len(b))<<59
	}
	var h uint64
	for _, c := range b {
		h = h<<8 | uint64(c)
	}
	return h
}

// splitLine applies all rules to line b, as the Splitter needs them, and
// reports whether b begins a new game after an earlier one.
func (s *structure) splitLine(b []byte) bool {
	kind, i, _ := s.lineStart(b)
	switch kind {
	case lineScan:
		s.scan(b, i)
	case lineTag:
		name, _, next, _ := nextTag(b, i)
		starts := s.tagLine(name)
		for {
			var ok bool
			if _, _, next, ok = nextTag(b, next); !ok {
				break
			}
		}
		s.scan(b, next)
		return starts
	}
	return false
}

// scan reads movetext b[i:] for the Splitter: it only tracks comments and
// whether there is content. Parser.scan must make the same decisions.
func (s *structure) scan(b []byte, i int) {
	for i < len(b) {
		if s.st == stContent {
			s.scanContent(b, i)
			return
		}
		switch byteClass[b[i]] {
		case clSpace, clClose:
			i++
		case clLBrace:
			j := bytes.IndexByte(b[i+1:], '}')
			if j < 0 {
				s.inComment = true
				return
			}
			i += j + 2
		case clSemi:
			return
		case clLBrack, clLAngle:
			j := bytes.IndexByte(b[i+1:], closerOf(b[i]))
			if j < 0 {
				return
			}
			i += j + 2
		case clHigh:
			if n := spaceLen(b[i:]); n > 0 {
				i += n
				continue
			}
			s.st = stContent
		default:
			s.st = stContent
		}
	}
}

// scanContent is scan once the line is known to hold content: all that is
// left to find out is whether a comment stays open at the end of the line.
// It jumps from '{' to '{' with bytes.IndexByte, looking at the ';', '['
// and '<' that come before each one.
func (s *structure) scanContent(b []byte, i int) {
	for {
		k := bytes.IndexByte(b[i:], '{')
		if k < 0 {
			return // no comment opens on this line
		}
		seg := b[i : i+k]
		j := bytes.IndexByte(seg, ';')
		if j < 0 {
			j = k
		}
		if x := bytes.IndexByte(seg[:j], '['); x >= 0 {
			j = x
		}
		if x := bytes.IndexByte(seg[:j], '<'); x >= 0 {
			j = x
		}
		if j < k { // a ';' comment or a bracket comes first
			c := b[i+j]
			if c == ';' {
				return
			}
			e := bytes.IndexByte(b[i+j+1:], closerOf(c))
			if e < 0 {
				return
			}
			i += j + e + 2
			continue
		}
		e := bytes.IndexByte(b[i+k+1:], '}')
		if e < 0 {
			s.inComment = true
			return
		}
		i += k + e + 2
	}
}

// closerOf returns the byte that closes a '[' or '<'.
func closerOf(c byte) byte {
	if c == '<' {
		return '>'
	}
	return ']'
}

// lineReader applies the rules of structure.splitLine to a line that
// comes in pieces: a line too long to hold, which only a Splitter dropping
// a game too long meets. It makes exactly splitLine's decisions
// (TestLineReader checks it against splitLine, piece by piece): it is
// splitLine's scans written as a byte-at-a-time automaton whose lookahead
// (a search for a closing byte, a tag pair's prefix, a value's closing
// quote) is a state, so that it holds no more than the three bytes a
// Unicode space may take.
type lineReader struct {
	s        structure // the state, as splitLine leaves it once the line has ended
	state    uint8
	prefix   uint8 // what the tag prefix being read is (lrFirst ...)
	sub      uint8 // where in the prefix (pOpen ...)
	closer   byte  // the byte lrSeek looks for
	col      int   // bytes of the line read, up to 4 (the escape-line rule)
	bom      bool  // the line begins with a byte order mark
	hadBlank bool  // s.prevBlank when the line began
	// decided is set once the line is known to begin a new game after an
	// earlier one (begins) or not.
	decided, begins bool
	// The first tag name's hash, as hashName computes it.
	nameLen          int
	nameHead, nameTl uint64
	shortName        uint64
}

// States of lineReader.
const (
	lrLead     = iota // leading white space
	lrPrefix          // a tag pair's prefix ('[', blanks, name, blanks, '"')
	lrValue           // a tag value
	lrEscape          // the byte after a '\' in a tag value
	lrQuote           // a '"' in a tag value, then blanks: a ']' closes the pair
	lrPairLead        // after a tag pair: white space before the next one
	lrMove            // movetext
	lrSeek            // looking for closer ('}', ']' or '>')
	lrDone            // nothing more on this line counts
)

// What the tag prefix being read is.
const (
	lrFirst   = iota // the line's first tag pair
	lrRecover        // the first, in a comment after a blank line (it ends the comment)
	lrPair           // a later tag pair
)

// Where in a tag prefix.
const (
	pOpen  = iota // after '[' and blanks
	pName         // in the name
	pAfter        // after the name, in blanks
)

// reset begins a line read with state s (which it copies).
func (r *lineReader) reset(s *structure) {
	*r = lineReader{s: *s, state: lrLead, hadBlank: s.prevBlank}
}

// decide records whether the line begins a game, the first time.
func (r *lineReader) decide(begins bool) {
	if !r.decided {
		r.decided, r.begins = true, begins
	}
}

// feed reads b, the next bytes of the line (without its line end), and
// returns how many it took: all of them, but for up to two bytes at the
// end that may begin a Unicode space, which must be given again with the
// bytes that follow. eol says the line ends after b: then all of b is
// taken, and r.s is the state after the line.
func (r *lineReader) feed(b []byte, eol bool) int {
	i := 0
	for i < len(b) {
		c := b[i]
		switch r.state {
		case lrLead, lrPairLead, lrMove:
			n := 1
			if c >= 0x80 {
				if len(b)-i < 3 && !eol {
					return i // a Unicode space may go on in the next piece
				}
				n = spaceLen(b[i:])
			} else if byteClass[c] != clSpace {
				n = 0
			}
			if n > 0 { // white space
				if r.state == lrLead && r.col == 0 && n == 3 && c == 0xEF {
					r.bom = true
				}
				r.col += n
				i += n
				continue
			}
			switch r.state {
			case lrLead:
				if r.lineBegins(c) {
					continue // c is read again in the state it chose
				}
			case lrPairLead:
				if c == '[' {
					r.state, r.prefix, r.sub = lrPrefix, lrPair, pOpen
				} else {
					r.state = lrMove
					r.move(c)
				}
			default:
				r.move(c)
			}
			r.col++
			i++
		case lrPrefix:
			r.prefixByte(c)
			if r.state == lrPrefix || r.state == lrValue {
				r.col++
				i++
			} // else the prefix failed: c is read again in the state it fell back to
		case lrValue:
			switch c {
			case '\\':
				r.state = lrEscape
			case '"':
				r.state = lrQuote
			}
			i++
		case lrEscape:
			r.state = lrValue
			i++
		case lrQuote:
			switch c {
			case ' ', '\t':
			case ']':
				r.state = lrPairLead
			case '\\':
				r.state = lrEscape
			case '"':
			default:
				r.state = lrValue
			}
			i++
		case lrSeek:
			j := bytes.IndexByte(b[i:], r.closer)
			if j < 0 {
				i = len(b)
				continue
			}
			if r.closer == '}' {
				r.s.inComment = false
			}
			r.state = lrMove
			i += j + 1
		case lrDone:
			i = len(b)
		}
	}
	if eol {
		r.end()
	}
	return i
}

// lineBegins handles c, the line's first byte that is not white space (as
// structure.lineStart does). again says that c must be read again in the
// state it chose.
func (r *lineReader) lineBegins(c byte) (again bool) {
	r.s.prevBlank = false
	if r.s.inComment {
		if r.hadBlank && c == '[' {
			r.state, r.prefix, r.sub = lrPrefix, lrRecover, pOpen
			return false
		}
		r.decide(false)
		r.seek('}') // from the line's start: c may close the comment
		return true
	}
	switch {
	case c == '%' && (r.col == 0 || r.col == 3 && r.bom):
		r.decide(false)
		r.state = lrDone
	case c == '[':
		r.state, r.prefix, r.sub = lrPrefix, lrFirst, pOpen
	default:
		r.decide(false)
		r.state = lrMove
		r.move(c)
	}
	return false
}

// prefixByte reads byte c of a tag pair's prefix (the '[' is read), as
// tagPrefix does. When the prefix fails, the state becomes the one the
// line's reading falls back to, and c must be read again in it.
func (r *lineReader) prefixByte(c byte) {
	blank := c == ' ' || c == '\t'
	switch {
	case r.sub == pOpen && blank, r.sub == pAfter && blank:
		return
	case r.sub != pAfter && nameChar[c]:
		r.sub = pName
		if r.prefix != lrPair {
			r.nameByte(c)
		}
		return
	case r.sub == pName && blank:
		r.sub = pAfter
		return
	case r.sub != pOpen && c == '"':
		r.prefixDone()
		return
	}
	r.prefixFailed()
}

// prefixDone handles a whole tag prefix: the pair's value follows.
func (r *lineReader) prefixDone() {
	r.state = lrValue
	switch r.prefix {
	case lrRecover:
		r.s.inComment = false
		fallthrough
	case lrFirst:
		r.decide(r.s.tagLineHash(r.nameHash()))
	}
}

// prefixFailed falls back from a tag prefix that is not one: the bytes
// read hold no closing byte, so the search for it goes on.
func (r *lineReader) prefixFailed() {
	switch r.prefix {
	case lrRecover: // the comment goes on
		r.decide(false)
		r.seek('}')
	case lrFirst:
		r.decide(false)
		r.seek(']')
	case lrPair: // movetext from the '['
		r.seek(']')
	}
}

// seek makes the reader look for closer; a '{' opens a comment.
func (r *lineReader) seek(closer byte) {
	r.state, r.closer = lrSeek, closer
	if closer == '}' {
		r.s.inComment = true
	}
}

// move reads movetext byte c, which is not white space (as structure.scan does).
func (r *lineReader) move(c byte) {
	switch byteClass[c] {
	case clClose:
	case clLBrace:
		r.seek('}')
	case clSemi:
		r.state = lrDone
	case clLBrack, clLAngle:
		r.seek(closerOf(c))
	default:
		r.s.st = stContent
	}
}

// nameByte adds a byte of the first tag name to its hash.
func (r *lineReader) nameByte(c byte) {
	if r.nameLen < 8 {
		r.nameHead |= uint64(c) << (8 * r.nameLen)
	}
	r.nameTl = r.nameTl>>8 | uint64(c)<<56
	r.shortName = r.shortName<<8 | uint64(c)
	r.nameLen++
}

// nameHash returns hashName of the first tag name.
func (r *lineReader) nameHash() uint64 {
	if r.nameLen >= 8 {
		return r.nameHead ^ bits.RotateLeft64(r.nameTl, 29) ^ uint64(r.nameLen)<<59
	}
	return r.shortName
}

// end finishes the line.
func (r *lineReader) end() {
	switch r.state {
	case lrLead: // a blank line
		r.s.blankSinceTag = true
		r.s.prevBlank = true
		r.decide(false)
	case lrPrefix: // the line ends inside a prefix: not a tag pair
		r.prefixFailed()
	}
	r.decide(false)
}
