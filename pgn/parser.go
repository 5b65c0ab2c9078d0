package pgn

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"unicode"
	"unicode/utf8"
)

// ParseStats counts what one Parse call reported.
type ParseStats struct {
	Games  int // BeginGame calls
	Moves  int // SAN calls
	Errors int // ParseError calls
}

// Parser modes.
const (
	modeOutside = iota // no game open
	modeTags           // in a game's tag section; BeginMovetext not called yet
	modeMoves          // in a game's movetext
	modeSkip           // after a ParseError: skipping to the next game
)

// Token kinds.
const (
	tkIgnore = iota // annotation glyphs, lone dots, "e.p.": nothing to report
	tkNumber        // a move number with dots ("12.", "12...")
	tkBare          // a number without dots
	tkSAN           // a move
	tkResult        // a termination marker
	tkBad           // anything else
)

// Parser is a streaming PGN parser in the style of a SAX parser: it calls a
// Visitor for each part of each game and builds nothing itself. A Parser
// keeps scratch buffers between calls, so that in steady state parsing
// allocates nothing per game or move; use one Parser per goroutine. The
// zero value is ready to use.
//
// The Parser is lenient in the ways real PGN files need: tag values with
// unescaped quotes or without a closing quote, tags several to a line,
// Latin-1 text, move numbers glued to moves ("12.e4", "1...e5"), castling
// with zeros, NAGs, nested variations, games without tags, without moves or
// without a result, a byte order mark, LF, CRLF or CR line ends, "1/2" and
// "½-½" for draws, Unicode dashes and figurines. It never builds a tree:
// variations are skipped by counting parentheses.
type Parser struct {
	s       structure
	v       Visitor
	line    int   // the line being read
	mode    uint8 // modeOutside ...
	emit    bool  // the Visitor wants this game's moves
	depth   int   // variation nesting
	varLine int   // the line of the outermost open variation's '('

	commentLine int // where the open {comment} began
	resultLine  int // where the last termination marker was
	// cutTok is the token a last chunk that may be cut off ends with, on
	// line cutLine (nil: none).
	cutTok  []byte
	cutLine int
	val     []byte
	tok     []byte
	stats   ParseStats
}

// Parse parses data, which must hold whole games (as a Splitter's chunks
// or a whole file do), calling v as documented on Visitor, and returns what
// it reported. firstLine is the line number of data's first line.
//
// A game begins at its first tag line, or at its first move when it has no
// tags, and ends at its termination marker (1-0, 0-1, 1/2-1/2, *), at the
// next game's tags, or at the end of data. Comments, variations, NAGs and
// move numbers are skipped; check and annotation suffixes are cut off the
// moves. Text that cannot be PGN (a token that is not a move, number,
// result or annotation) is reported with ParseError, and the Parser skips
// to the next tag line; when such text comes between games, it is reported
// as a game of its own (BeginGame, BeginMovetext, ParseError, EndGame), so
// that a file that is not PGN at all shows up as one broken game.
func (p *Parser) Parse(data []byte, firstLine int, v Visitor) ParseStats {
	return p.parse(data, firstLine, v, false)
}

// ParseEnd is Parse for the input's last chunk (a Splitter is Done after
// returning it). A game still open at the end, with no termination
// marker, was cut off (a truncated file or download) when the input ends
// inside a line, or when cut is set (the input failed to read on: a
// truncated compressed stream): it is reported with ParseError ("the
// input ends inside this game") instead of being ended as a whole game, so
// that a cut input adds no partial game, and the whole input, read later,
// adds it whole. A last game without a marker whose last line is whole
// (as many tools write a single game) is a whole game.
func (p *Parser) ParseEnd(data []byte, firstLine int, v Visitor, cut bool) ParseStats {
	return p.parse(data, firstLine, v, cut || len(data) > 0 && data[len(data)-1] != '\n' && data[len(data)-1] != '\r')
}

func (p *Parser) parse(data []byte, firstLine int, v Visitor, last bool) ParseStats {
	p.cutTok, p.cutLine = nil, 0
	if last {
		p.cutTok = lastToken(data)
		p.cutLine = firstLine + countLines(data)
	}
	p.s.reset()
	p.v = v
	p.line = firstLine
	p.mode = modeOutside
	p.resultLine = 0
	p.stats = ParseStats{}
	var eol eolFinder
	eol.reset()
	for pos := 0; ; {
		end, next, ok := eol.next(data, pos, true)
		if !ok {
			break
		}
		p.doLine(data[pos:end])
		if next > end {
			p.line++
		}
		pos = next
	}
	if p.mode != modeOutside {
		switch {
		case p.s.inComment && p.mode != modeSkip:
			p.fail(p.commentLine, "unterminated comment")
		case last && p.mode == modeMoves && p.depth > 0:
			p.fail(p.varLine, fmt.Sprintf("the input ends inside the variation opened at line %d (a '(' never closed, or the input is cut off)", p.varLine))
		case last && p.mode != modeSkip:
			p.fail(p.line, "the input ends inside this game, before its result (cut off?)")
		}
		p.endGame()
	}
	p.v = nil
	return p.stats
}

// lastToken returns the token data ends with (no blank after it), or nil:
// at the end of an input that may be cut off, maybe the start of a token
// ("cxd" of "cxd4").
func lastToken(data []byte) []byte {
	i := len(data)
	for i > 0 && !isBlank(data[i-1]) {
		i--
	}
	if i == len(data) {
		return nil
	}
	return data[i:]
}

// Parse parses data with a new Parser; see Parser.Parse. Keep a Parser to
// parse many chunks without allocating.
func Parse(data []byte, firstLine int, v Visitor) ParseStats {
	var p Parser
	return p.Parse(data, firstLine, v)
}

// Read parses all games from r, calling v, on the calling goroutine: a
// Splitter feeding one Parser (ParseEnd for the last chunk). It returns
// nil at the end of the input, or the first read error.
func Read(r io.Reader, v Visitor) error {
	sp := NewSplitter(r)
	var p Parser
	buf := make([]byte, 0, DefaultChunkSize+splitReadSize)
	for {
		chunk, line, err := sp.Next(buf)
		if len(chunk) > 0 {
			if sp.Done() {
				p.ParseEnd(chunk, line, v, sp.ReadFailed())
			} else {
				p.Parse(chunk, line, v)
			}
		}
		var long *GameTooLongError
		var bin *BinaryDataError
		switch {
		case errors.As(err, &long): // reported as a broken game
			v.BeginGame(long.Line)
			v.BeginMovetext()
			v.ParseError(long.Line, long.Error())
			v.EndGame()
			buf = chunk[:0]
			continue
		case errors.As(err, &bin): // the same
			v.BeginGame(bin.Line)
			v.BeginMovetext()
			v.ParseError(bin.Line, bin.Error())
			v.EndGame()
			buf = chunk[:0]
			continue
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		buf = chunk[:0]
	}
}

func (p *Parser) beginGame() {
	p.v.BeginGame(p.line)
	p.stats.Games++
	p.mode = modeTags
	p.emit = true
	p.depth = 0
}

func (p *Parser) beginMovetext() {
	p.emit = p.v.BeginMovetext()
	p.mode = modeMoves
}

func (p *Parser) endGame() {
	if p.mode == modeOutside {
		return
	}
	if p.mode == modeTags {
		p.beginMovetext()
	}
	if p.mode == modeMoves && p.depth > 0 {
		// The next game's tags end it: what followed the '(' was taken
		// as a variation, the result marker too.
		if w, ok := p.v.(Warner); ok {
			w.Warning(p.varLine, fmt.Sprintf("unclosed variation: the '(' of line %d is never closed, the moves after it are not in the game", p.varLine))
		}
	}
	p.v.EndGame()
	p.mode = modeOutside
}

// fail reports a syntax error in the open game and skips the rest of it.
func (p *Parser) fail(line int, reason string) {
	if p.mode == modeTags {
		p.beginMovetext()
	}
	p.v.ParseError(line, reason)
	p.stats.Errors++
	p.mode = modeSkip
}

func (p *Parser) doLine(b []byte) {
	kind, i, recovered := p.s.lineStart(b)
	switch kind {
	case lineScan:
		p.scan(b, i)
	case lineTag:
		if recovered && (p.mode == modeTags || p.mode == modeMoves) {
			p.fail(p.commentLine, "unterminated comment")
		}
		p.tagLine(b, i)
	}
}

// tagLine reads a tag line starting at b[i]; Splitter.splitLine must make
// the same decisions.
func (p *Parser) tagLine(b []byte, i int) {
	name, raw, next, _ := nextTag(b, i)
	if p.s.tagLine(name) || p.mode == modeOutside {
		p.endGame()
		p.beginGame()
	}
	for {
		if p.mode == modeTags {
			p.v.Tag(name, p.tagValue(raw))
		}
		var ok bool
		if name, raw, next, ok = nextTag(b, next); !ok {
			break
		}
	}
	p.scan(b, next)
}

// tagValue resolves the escapes \" and \\ in raw and converts it to UTF-8,
// taking bytes that are not valid UTF-8 as Latin-1. Plain values are
// returned as they are; others are built in the Parser's scratch buffer.
func (p *Parser) tagValue(raw []byte) []byte {
	if bytes.IndexByte(raw, '\\') < 0 && utf8.Valid(raw) {
		return raw
	}
	v := p.val[:0]
	for i := 0; i < len(raw); {
		c := raw[i]
		switch {
		case c == '\\' && i+1 < len(raw) && (raw[i+1] == '"' || raw[i+1] == '\\'):
			v = append(v, raw[i+1])
			i += 2
		case c < utf8.RuneSelf:
			v = append(v, c)
			i++
		default:
			if r, n := utf8.DecodeRune(raw[i:]); r != utf8.RuneError || n > 1 {
				v = append(v, raw[i:i+n]...)
				i += n
			} else {
				v = appendLatin1(v, c)
				i++
			}
		}
	}
	p.val = v
	return v
}

// scan reads the movetext b[i:]. Its decisions about comments, brackets
// and content must be those of structure.scan.
func (p *Parser) scan(b []byte, i int) {
	for i < len(b) {
		switch byteClass[b[i]] {
		case clSpace, clClose:
			i++
		case clLBrace:
			j := bytes.IndexByte(b[i+1:], '}')
			if j < 0 {
				p.s.inComment = true
				p.commentLine = p.line
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
		case clParen:
			p.s.st = stContent
			p.token(b[i : i+1])
			i++
		case clDollar:
			p.s.st = stContent
			j := i + 1
			for j < len(b) && b[j]-'0' < 10 {
				j++
			}
			p.token(b[i:j])
			i = j
		case clHigh:
			if n := spaceLen(b[i:]); n > 0 {
				i += n
				continue
			}
			fallthrough
		default:
			p.s.st = stContent
			m := tokBits[b[i]]
			j := i + 1
			for j < len(b) {
				c := tokBits[b[j]]
				if c&tbTok == 0 && (c&tbHigh == 0 || spaceLen(b[j:]) > 0) {
					break
				}
				m |= c
				j++
			}
			switch {
			case p.mode == modeSkip || p.mode == modeMoves && p.depth > 0:
				// Ignored.
			case p.mode == modeMoves && m&tbHigh == 0:
				p.moveToken(b[i:j], m)
			default:
				p.token(b[i:j])
			}
			i = j
		}
	}
}

// moveToken is token for the common case, an ASCII token in the main line:
// it handles plain moves and move numbers itself, exactly as classify
// would, and leaves everything else to token. m is the OR of the tokBits
// of t's bytes.
func (p *Parser) moveToken(t []byte, m uint8) {
	s := t
	if t[0]-'0' < 10 {
		if m&tbDot == 0 {
			p.token(t)
			return
		}
		k := 1
		for t[k]-'0' < 10 {
			k++
		}
		if t[k] != '.' {
			p.token(t)
			return
		}
		for k < len(t) && t[k] == '.' {
			k++
		}
		if k == len(t) {
			return // a move number
		}
		s = t[k:]
	}
	if san, ok := fastMove(s); ok {
		if p.emit {
			p.stats.Moves++
			p.emit = p.v.SAN(san, p.line)
		}
		return
	}
	p.token(t)
}

// fastMove accepts the moves that need no more than one check suffix cut
// off; classifyMove gives the same answer for them.
func fastMove(t []byte) ([]byte, bool) {
	if n := len(t); t[n-1] == '+' || t[n-1] == '#' {
		t = t[:n-1]
	}
	if len(t) < 2 || len(t) > 12 || !sanFirst[t[0]] {
		return nil, false
	}
	rank := false
	for _, c := range t {
		b := tokBits[c]
		if b&tbSAN == 0 {
			return nil, false
		}
		rank = rank || b&tbRank != 0
	}
	return t, rank
}

// Bits of tokBits.
const (
	tbTok   = 1 << iota // continues a token
	tbSAN               // may be part of a move (sanByte)
	tbRank              // '1'-'8'
	tbDigit             // '0'-'9'
	tbDot               // '.'
	tbHigh              // >= 0x80
)

// tokBits classifies bytes for the token scanner.
var tokBits = func() (t [256]uint8) {
	for c := range 256 {
		var b uint8
		switch {
		case c >= 0x80:
			b = tbHigh
		case byteClass[c] == clTok:
			b = tbTok
		}
		if sanByte[c] {
			b |= tbSAN
		}
		if c >= '1' && c <= '8' {
			b |= tbRank
		}
		if c >= '0' && c <= '9' {
			b |= tbDigit
		}
		if c == '.' {
			b |= tbDot
		}
		t[c] = b
	}
	return t
}()

// token handles one movetext token.
func (p *Parser) token(t []byte) {
	switch p.mode {
	case modeSkip:
		return
	case modeOutside:
		p.outside(t)
		return
	case modeTags:
		p.beginMovetext()
	}
	switch t[0] {
	case '(':
		if p.depth == 0 {
			p.varLine = p.line
		}
		p.depth++
		return
	case ')':
		if p.depth > 0 {
			p.depth--
		}
		return
	case '$':
		return
	}
	if p.depth > 0 {
		return
	}
	kind, san, res := p.classify(t)
	switch kind {
	case tkSAN:
		if p.emit {
			p.stats.Moves++
			p.emit = p.v.SAN(san, p.line)
		}
	case tkResult:
		if p.emit {
			p.v.Outcome(res)
		}
		p.endGame()
		p.resultLine = p.line
	case tkBad:
		switch {
		case p.gluedResult(t):
		case p.line == p.cutLine && p.cutTok != nil && bytes.HasPrefix(p.cutTok, t):
			// The last token of an input cut off: a move cut short.
			p.fail(p.line, "the input ends inside this game, before its result (cut off?)")
		default:
			p.fail(p.line, badToken(t))
		}
	}
}

// outside handles a token that comes when no game is open: a move or move
// number begins a game without tags; a stray result or annotation is
// ignored, and so are text after a termination marker on its line ("1-0
// ff", "0-1 (time)") and stray bytes without letters or digits; anything
// else is reported as a broken game.
func (p *Parser) outside(t []byte) {
	kind := tkBad
	if t[0] != '(' && t[0] != ')' && t[0] != '$' {
		kind, _, _ = p.classify(t)
	}
	switch kind {
	case tkResult:
		p.resultLine = p.line
		return
	case tkIgnore:
		return
	case tkBad, tkBare:
		if p.line == p.resultLine || !hasAlnum(t) {
			return
		}
	}
	p.beginGame()
	if kind == tkNumber || kind == tkSAN {
		p.token(t)
	} else {
		p.fail(p.line, badToken(t))
	}
}

func badToken(t []byte) string {
	if len(t) > 40 {
		return fmt.Sprintf("unexpected text %q...", t[:40])
	}
	return fmt.Sprintf("unexpected text %q", t)
}

// classify says what a token is; for a move it returns the move without
// its move number and suffixes.
func (p *Parser) classify(t []byte) (kind int, san []byte, res Result) {
	kind, san, res = classifyASCII(t)
	if kind == tkBad && hasHigh(t) {
		return p.classifyUnicode(t)
	}
	return kind, san, res
}

// hasAlnum reports whether t has an ASCII letter or digit.
func hasAlnum(t []byte) bool {
	for _, c := range t {
		if nameChar[c] && c != '-' && c != '_' {
			return true
		}
	}
	return false
}

// hasHigh reports whether t has a non-ASCII byte.
func hasHigh(t []byte) bool {
	for _, c := range t {
		if c >= utf8.RuneSelf {
			return true
		}
	}
	return false
}

// classifyASCII classifies a token written in PGN's own characters.
func classifyASCII(t []byte) (kind int, san []byte, res Result) {
	if c := t[0]; c-'0' < 10 {
		if r := resultToken(t); r != NoResult {
			return tkResult, nil, r
		}
		if c == '0' {
			if s := stripSuffix(t); isCastle(s) || string(s) == "0000" {
				return tkSAN, s, NoResult
			}
		}
		n := 1
		for n < len(t) && t[n]-'0' < 10 {
			n++
		}
		if n == len(t) {
			return tkBare, nil, NoResult
		}
		if t[n] != '.' {
			return tkBad, nil, NoResult
		}
		for n < len(t) && t[n] == '.' {
			n++
		}
		if n == len(t) {
			return tkNumber, nil, NoResult
		}
		if kind, san, _ = classifyMove(t[n:]); kind == tkIgnore {
			kind = tkNumber
		}
		return kind, san, NoResult
	}
	return classifyMove(t)
}

// classifyMove classifies a token that is not a move number.
func classifyMove(t []byte) (kind int, san []byte, res Result) {
	c := t[0]
	switch {
	case c == '*':
		if len(t) == 1 {
			return tkResult, nil, Unknown
		}
		return tkBad, nil, NoResult
	case c == '.':
		for len(t) > 0 && t[0] == '.' {
			t = t[1:]
		}
		if len(t) == 0 {
			return tkIgnore, nil, NoResult
		}
		if t[0]-'0' < 10 {
			return tkBad, nil, NoResult
		}
		return classifyMove(t)
	case c >= utf8.RuneSelf:
		return tkBad, nil, NoResult
	case annotation[c]:
		if s := stripSuffix(t); string(s) == "--" {
			return tkSAN, s, NoResult
		}
		for _, c := range t {
			if !annotation[c] {
				return tkBad, nil, NoResult
			}
		}
		return tkIgnore, nil, NoResult
	}
	s := stripEP(stripSuffix(t))
	if len(s) == 0 {
		return tkIgnore, nil, NoResult
	}
	if sanShape(s) {
		return tkSAN, s, NoResult
	}
	// Evaluation glyphs glued to the move: "Rxe5+-", "e4=+".
	s = t
	for len(s) > 0 && annotation[s[len(s)-1]] {
		s = s[:len(s)-1]
	}
	if len(s) > 0 && sanShape(s) {
		return tkSAN, s, NoResult
	}
	return tkBad, nil, NoResult
}

// classifyUnicode handles a token with non-ASCII characters: it maps the
// characters some tools write for PGN's ASCII ones ("½", dashes,
// figurines) and classifies the result. A token of other symbols only is an
// annotation glyph ("±", "∞").
func (p *Parser) classifyUnicode(t []byte) (kind int, san []byte, res Result) {
	n := p.tok[:0]
	high := false
	for i := 0; i < len(t); {
		if t[i] < utf8.RuneSelf {
			n = append(n, t[i])
			i++
			continue
		}
		r, size := utf8.DecodeRune(t[i:])
		switch {
		case r == '½':
			n = append(n, "1/2"...)
		case r >= 0x2010 && r <= 0x2015 || r == 0x2212 || r == 0xFE58 || r == 0xFE63 || r == 0xFF0D:
			n = append(n, '-')
		case r >= 0x2654 && r <= 0x265F: // chess figurines, white then black
			n = append(n, "KQRBNP"[(r-0x2654)%6])
		case r == 0x2026: // ellipsis
			n = append(n, "..."...)
		case r == 0xD7: // multiplication sign for captures
			n = append(n, 'x')
		default:
			n = append(n, t[i:i+size]...)
			high = true
		}
		i += size
	}
	p.tok = n
	if !high {
		return classifyASCII(n)
	}
	// Symbols only (valid UTF-8, no letters or digits, no control bytes)?
	for i := 0; i < len(n); {
		c := n[i]
		if c < utf8.RuneSelf {
			if c < ' ' || c == 0x7F || nameChar[c] && c != '-' && c != '_' {
				return tkBad, nil, NoResult
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(n[i:])
		if r == utf8.RuneError || unicode.IsLetter(r) || unicode.IsDigit(r) {
			return tkBad, nil, NoResult
		}
		i += size
	}
	return tkIgnore, nil, NoResult
}

// gluedResult handles a move with the termination marker glued to it
// ("Qc20-1"), reporting both; it returns false if t is not one.
func (p *Parser) gluedResult(t []byte) bool {
	for _, r := range [...]Result{WhiteWins, BlackWins, Draw} {
		m := r.String()
		if len(t) <= len(m) || string(t[len(t)-len(m):]) != m {
			continue
		}
		kind, san, _ := p.classify(t[:len(t)-len(m)])
		if kind != tkSAN {
			return false
		}
		if p.emit {
			p.stats.Moves++
			p.emit = p.v.SAN(san, p.line)
		}
		if p.emit {
			p.v.Outcome(r)
		}
		p.endGame()
		return true
	}
	return false
}

// resultToken returns the result a termination marker stands for.
func resultToken(t []byte) Result {
	switch len(t) {
	case 3:
		switch string(t) {
		case "1-0":
			return WhiteWins
		case "0-1":
			return BlackWins
		case "1/2":
			return Draw
		}
	case 7:
		if string(t) == "1/2-1/2" {
			return Draw
		}
	}
	return NoResult
}

// annotation marks the bytes of move suffixes and evaluation glyphs.
var annotation = byteSet("!?+#=~/-<>")

// sanByte marks the bytes a move may consist of.
var sanByte = byteSet("abcdefgh12345678KQRBNPxX:=@-qrn")

// sanFirst marks the bytes a move (other than castling or a null move) may
// begin with.
var sanFirst = byteSet("abcdefghKQRBNP")

// stripSuffix cuts check and annotation suffixes (+ # ! ?) off a move.
func stripSuffix(t []byte) []byte {
	for len(t) > 0 {
		switch t[len(t)-1] {
		case '+', '#', '!', '?':
			t = t[:len(t)-1]
		default:
			return t
		}
	}
	return t
}

// stripEP cuts an en-passant mark ("e.p.", "ep") off a move.
func stripEP(t []byte) []byte {
	if len(t) == 0 || t[len(t)-1] != 'p' && t[len(t)-1] != '.' {
		return t
	}
	for _, s := range [...]string{"e.p.", "e.p", "ep"} {
		if len(t) >= len(s) && string(t[len(t)-len(s):]) == s {
			return t[:len(t)-len(s)]
		}
	}
	return t
}

// isCastle reports whether t is O-O or O-O-O, written with letter O, digit
// zero or lower-case o.
func isCastle(t []byte) bool {
	switch len(t) {
	case 3:
		return (t[0] == 'O' || t[0] == '0' || t[0] == 'o') && t[1] == '-' && t[2] == t[0]
	case 5:
		return (t[0] == 'O' || t[0] == '0' || t[0] == 'o') && t[1] == '-' && t[2] == t[0] && t[3] == '-' && t[4] == t[0]
	}
	return false
}

// sanShape reports whether t looks like a move: a null move, castling, or
// SAN-like letters and digits with at least one rank. Whether it is a legal
// move is for the replayer to say.
func sanShape(t []byte) bool {
	if len(t) < 2 || len(t) > 12 {
		return false
	}
	switch t[0] {
	case 'O', 'o', '0':
		return isCastle(t) || string(t) == "0000"
	case 'Z':
		return string(t) == "Z0"
	case '@':
		return string(t) == "@@@@"
	case '-':
		return string(t) == "--"
	}
	if !sanFirst[t[0]] {
		return false
	}
	rank := false
	for _, c := range t {
		if !sanByte[c] {
			return false
		}
		if c-'1' < 8 {
			rank = true
		}
	}
	return rank
}
