package pgn

import (
	"bytes"
	"fmt"
	"io"
)

// DefaultChunkSize is the size a Splitter aims at for each chunk.
const DefaultChunkSize = 256 << 10

// splitReadSize is the most a Splitter asks its reader for at once; it
// bounds how far a chunk is read beyond its last game.
const splitReadSize = 64 << 10

// Splitter cuts a PGN stream into chunks of whole games, to be parsed by
// several goroutines at once (each with its own Parser). It cuts only where
// a new game begins with no parser state carried over, so that parsing the
// chunks one after the other calls a Visitor exactly as parsing the whole
// input at once does. See the comment at the top of lex.go for the
// rules.
//
// A game is the text from the line that begins it to the line that begins
// the next one (the input's first game also holds what comes before it).
// A game longer than MaxGameSize is dropped, read but not held, and
// reported in its place (see GameTooLongError); the games around it come
// whole as usual. Binary data in the stream (a damaged file) is dropped
// and reported in its place too (see BinaryDataError and binary.go); the
// games before and after it come whole. The rules find the end of a dropped game as they find
// every other: a tag line inside a comment of it does not end it, and a
// line too long to hold (a tag value or a comment of a gigabyte) is read
// in pieces (see lineReader).
//
// A Splitter holds at most one partial chunk of its own (the bytes read
// beyond the last chunk it returned); the chunks themselves live in buffers
// the caller lends to Next.
type Splitter struct {
	r      io.Reader
	target int
	// MaxGameSize bounds a game's size in bytes (0: no bound): a longer
	// game is read and dropped, and Next reports it with a
	// *GameTooLongError, so that one huge game (a tag of a gigabyte)
	// cannot take the memory of a run: Next holds at most MaxGameSize
	// bytes of a game, and a read (64 KiB) and the start of the next
	// line (at most 64 KiB) more. NewSplitter sets DefaultMaxGameSize.
	MaxGameSize int
	carry       []byte // input read beyond the last chunk returned; while dropping a game, the bytes not read yet
	line        int    // line number of the next chunk's first line
	eof         bool   // r is exhausted (or failed)
	err         error  // the read error to report once the buffered input is returned
	done        bool   // everything has been returned
	s           structure
	eol         eolFinder
	long        *GameTooLongError // a game dropped, to report before going on
	dropping    bool              // a game too long is being dropped (drop)
	drop        dropState
	inRegion    bool // a binary region is being dropped (dropRegion)
	tagged      bool // a game has begun with a tag line after another
	region      regionState
}

// dropState is the game a Splitter drops and where its reading stands.
type dropState struct {
	game   GameTooLongError // the game: its line, and the bytes read of it so far
	line   int              // the line number of the line being read
	inLine bool             // lr reads a line of the game whose start is dropped
	// started says that lr reads the line that begins the carry, fed
	// bytes of it so far, and cannot tell yet whether it begins a game.
	started bool
	fed     int
	lr      lineReader
}

// maxLineStart bounds how much of a line's start (white space, then a tag
// pair's '[', name and the blanks around it) a Splitter holds to tell
// whether the line begins a game, when the game before it is too long: a
// longer start is taken for text (of the game before).
const maxLineStart = 64 << 10

// DefaultMaxGameSize is NewSplitter's MaxGameSize: far more than any real
// game, annotations included.
const DefaultMaxGameSize = 16 << 20

// GameTooLongError is Next's error for a game longer than the Splitter's
// MaxGameSize, which it dropped; Next goes on with the next game.
type GameTooLongError struct {
	Line int   // the game's first line
	Size int64 // its size in bytes
	Max  int   // MaxGameSize
}

func (e *GameTooLongError) Error() string {
	return fmt.Sprintf("pgn: the game of line %d has %d bytes, more than the %d a game may have: skipped", e.Line, e.Size, e.Max)
}

// NewSplitter returns a Splitter reading r, making chunks of about
// DefaultChunkSize bytes.
func NewSplitter(r io.Reader) *Splitter { return NewSplitterSize(r, DefaultChunkSize) }

// NewSplitterSize returns a Splitter reading r whose chunks are at least
// size bytes long (except the last, and one before a game too long), and
// as short as whole games allow. A size of 1 makes every game its own
// chunk.
func NewSplitterSize(r io.Reader, size int) *Splitter {
	if size < 1 {
		size = 1
	}
	return &Splitter{r: r, target: size, line: 1, MaxGameSize: DefaultMaxGameSize}
}

// Done reports whether the chunk Next returned last was the input's last
// (what follows is the end of the input, or a read error).
func (sp *Splitter) Done() bool { return sp.done }

// ReadFailed reports whether, once Done, the input ended in a read error
// (which the next call of Next returns) rather than at its end.
func (sp *Splitter) ReadFailed() bool { return sp.err != nil }

// Next reads the next chunk: whole games, about the Splitter's chunk size
// long (a game longer than that comes whole, alone). The chunk is appended
// to dst[:0], which is grown if it is too small, and returned; it stays the
// caller's, so buffers can be pooled and chunks handed to other goroutines.
// firstLine is the 1-based input line of the chunk's first byte. A game
// longer than MaxGameSize is reported with an empty chunk and a
// *GameTooLongError (its line as firstLine), in its place among the
// chunks; Next goes on after it. A region of binary data is reported the
// same way, with a *BinaryDataError. At the end of the input Next returns an
// empty chunk and io.EOF; a read error is returned, with the line it
// happened after, only after all input read before it has been returned.
func (sp *Splitter) Next(dst []byte) (chunk []byte, firstLine int, err error) {
	if e := sp.long; e != nil {
		sp.long = nil
		return dst[:0], e.Line, e
	}
	if sp.dropping {
		return sp.dropGame(dst)
	}
	if sp.inRegion {
		return sp.dropRegion(dst)
	}
	first := sp.line
	if sp.done {
		if sp.err != nil {
			err, sp.err = sp.err, nil
			return dst[:0], first, fmt.Errorf("pgn: reading after line %d: %w", first, err)
		}
		return dst[:0], first, io.EOF
	}
	buf := append(dst[:0], sp.carry...)
	sp.carry = sp.carry[:0]
	if cap(sp.carry) > 8*splitReadSize {
		sp.carry = nil // grown for a long line: not kept
	}
	sp.s.reset()
	sp.eol.reset()
	c := cutter{sp: sp, first: first}
	zeroReads := 0
	for {
		for {
			end, next, ok := sp.eol.next(buf, c.pos, sp.eof)
			if !ok {
				break
			}
			if countBinary(buf[c.pos:end]) >= minBinaryBytes {
				return c.binaryAt(buf)
			}
			if sp.s.splitLine(buf[c.pos:end]) {
				if chunk, ok, err := c.gameAt(buf, c.pos); ok {
					return chunk, c.line(err), err
				}
			}
			if next > end {
				c.lines++
			}
			c.pos = next
		}
		if sp.eof {
			sp.line = first + c.lines
			if sp.tooLong(len(buf) - c.game) { // the last game
				chunk, err := c.before(buf, len(buf))
				return chunk, c.line(err), err
			}
			sp.done = true
			if len(buf) == 0 {
				return sp.Next(buf)
			}
			return buf, first, nil
		}
		if sp.tooLong(len(buf) - c.game) {
			if chunk, ok, err := c.tooLong(buf); ok {
				return chunk, c.line(err), err
			}
		}
		buf = sp.read(buf, &zeroReads)
	}
}

// MaxBuffer returns the most a buffer Next fills grows to (0: no bound,
// when MaxGameSize is 0): the games before one that grows too long (less
// than the chunk size), MaxGameSize of that game, the start of a line that
// may begin the next one, and a read.
func (sp *Splitter) MaxBuffer() int {
	if sp.MaxGameSize <= 0 {
		return 0
	}
	return sp.target + sp.MaxGameSize + maxLineStart + 2*splitReadSize
}

// tooLong reports whether a game of n bytes is too long.
func (sp *Splitter) tooLong(n int) bool { return sp.MaxGameSize > 0 && n > sp.MaxGameSize }

// cutter is where Next stands in the buffer it fills.
type cutter struct {
	sp        *Splitter
	first     int // the line of the buffer's first byte
	pos       int // the start of the first line not read yet
	lines     int // the line breaks before pos
	game      int // the start of the game being read (0: the buffer's start)
	gameLines int // the line breaks before it
	// lr has read lrFed bytes of the line at lrPos, whose start told
	// nothing yet (see tooLong).
	lr           lineReader
	lrPos, lrFed int
}

// line returns the first line of what Next returns with err: the chunk's,
// or the game's that err reports.
func (c *cutter) line(err error) int {
	if e, ok := err.(*GameTooLongError); ok {
		return e.Line
	}
	return c.first
}

// gameAt handles a game that begins at buf[p] (a line start, after
// c.lines line breaks): the game before it is whole. It returns what Next
// returns, with ok, when a chunk ends there: when that game is too long
// (the games before it, or its report), or when the chunk is long enough.
func (c *cutter) gameAt(buf []byte, p int) (chunk []byte, ok bool, err error) {
	sp := c.sp
	sp.tagged = true
	if sp.tooLong(p-c.game) || p >= sp.target {
		sp.carry = append(sp.carry, buf[p:]...)
		sp.line = c.first + c.lines
		chunk, err = c.before(buf, p)
		return chunk, true, err
	}
	c.game, c.gameLines = p, c.lines
	return nil, false, nil
}

// before returns the whole games before buf[p], where a game begins (or
// the input ends): buf[:p], or when the last of them, from c.game, is too
// long, the games before it (its report to follow), or its report.
func (c *cutter) before(buf []byte, p int) ([]byte, error) {
	sp := c.sp
	if !sp.tooLong(p - c.game) {
		return buf[:p], nil
	}
	e := &GameTooLongError{Line: c.first + c.gameLines, Size: int64(p - c.game), Max: sp.MaxGameSize}
	if c.game == 0 {
		return buf[:0], e
	}
	sp.long = e
	return buf[:c.game], nil
}

// tooLong handles the game being read, from c.game, when it has grown past
// MaxGameSize before its end was seen: buf[c.pos:] is the start of a line
// that may begin the next game. When it does, the game before it may be
// whole; otherwise that game is too long, and the Splitter begins to drop
// it. It returns what Next returns, with ok, when a chunk or a report is
// ready; ok false means read on.
func (c *cutter) tooLong(buf []byte) (chunk []byte, ok bool, err error) {
	sp := c.sp
	lr := &c.lr
	if c.lrPos != c.pos || c.lrFed == 0 {
		lr.reset(&sp.s)
		c.lrPos, c.lrFed = c.pos, 0
	}
	c.lrFed += lr.feed(unended(buf[c.pos:])[c.lrFed:], false)
	n := c.lrFed
	if !lr.decided {
		if len(buf)-c.pos <= maxLineStart {
			return nil, false, nil // read on: the line's start tells nothing yet
		}
		lr.decide(false) // a line whose start is that long is taken for text
	}
	drop := c.game
	if lr.begins {
		if !sp.tooLong(len(buf) - c.pos) {
			return c.gameAt(buf, c.pos) // the game from c.pos is not too long yet
		}
		drop = c.pos // the next game is: drop it after the games before it
	}
	sp.dropping = true
	sp.drop = dropState{game: GameTooLongError{Line: c.first + c.gameLines, Size: int64(c.pos + n - drop), Max: sp.MaxGameSize},
		line: c.first + c.lines, inLine: true, lr: *lr}
	if drop == c.pos {
		sp.drop.game.Line = c.first + c.lines
	}
	sp.carry = append(sp.carry[:0], buf[c.pos+n:]...) // at most the start of a Unicode space
	sp.line = sp.drop.line
	if drop > 0 {
		chunk, err = c.before(buf, drop)
		return chunk, true, err
	}
	chunk, _, err = sp.dropGame(buf)
	return chunk, true, err
}

// dropGame goes on dropping the game too long: it reads on to the line
// that begins the next game, keeps that for the next chunk, and returns
// an empty chunk and the game's *GameTooLongError. The lines are read with
// the rules, as Next reads them (structure.splitLine), but for the one being
// read when the game grew too long and lines too long to hold, which a
// lineReader reads in pieces; the Splitter's own buffer (carry) holds only
// what is not read yet.
func (sp *Splitter) dropGame(dst []byte) ([]byte, int, error) {
	d := &sp.drop
	buf := sp.carry
	zeroReads := 0
	for {
		if !sp.dropLines(&buf) {
			sp.carry = buf
			sp.line = d.line
			sp.dropping = false
			e := d.game
			return dst[:0], e.Line, &e
		}
		if sp.eof {
			if d.inLine { // the game's last line ends the input
				d.lr.feed(buf, true)
				d.game.Size += int64(len(buf))
				buf = buf[:0]
			}
			sp.carry = buf
			sp.line = d.line
			sp.dropping = false
			sp.done = true
			e := d.game
			return dst[:0], e.Line, &e
		}
		buf = sp.read(buf, &zeroReads)
	}
}

// dropLines reads the lines of *buf for dropGame, dropping them from it.
// It returns false when a line begins the next game: *buf begins with it.
// Otherwise *buf is left with at most the start of a line whose start
// tells nothing yet, or of a Unicode space.
func (sp *Splitter) dropLines(buf *[]byte) bool {
	d := &sp.drop
	b := *buf
	defer func() { *buf = b }()
	take := func(n int) {
		d.game.Size += int64(n)
		b = b[:copy(b, b[n:])]
	}
	for len(b) > 0 {
		if d.inLine {
			end, next, ok := lineEnd(b, sp.eof)
			if !ok {
				take(d.lr.feed(unended(b), false))
				return true
			}
			d.lr.feed(b[:end], true)
			sp.s = d.lr.s
			d.inLine = false
			if next > end {
				d.line++
			}
			take(next)
			continue
		}
		end, next, ok := lineEnd(b, sp.eof)
		if ok {
			d.started = false
			if sp.s.splitLine(b[:end]) {
				return false
			}
			if next > end {
				d.line++
			}
			take(next)
			continue
		}
		// A line goes on past the bytes read: its start may tell already.
		if !d.started {
			d.lr.reset(&sp.s)
			d.started, d.fed = true, 0
		}
		d.fed += d.lr.feed(unended(b)[d.fed:], false)
		if !d.lr.decided && d.fed <= maxLineStart {
			return true
		}
		if d.lr.begins {
			return false
		}
		d.lr.decide(false) // a line whose start is that long is taken for text
		d.started, d.inLine = false, true
		take(d.fed)
		return true
	}
	return true
}

// unended returns the start of a line whose end is not read yet: b, but
// for a CR at its end (which ends the line, with an LF after it or not).
func unended(b []byte) []byte {
	if n := len(b); n > 0 && b[n-1] == '\r' {
		return b[:n-1]
	}
	return b
}

// lineEnd finds the end of the line that begins b: its content ends at end
// and the next line begins at next. ok is false when the line may go on
// past b (unless eof).
func lineEnd(b []byte, eof bool) (end, next int, ok bool) {
	i := bytes.IndexAny(b, "\r\n")
	switch {
	case i < 0:
		if eof && len(b) > 0 {
			return len(b), len(b), true
		}
		return 0, 0, false
	case b[i] == '\n':
		return i, i + 1, true
	case i+1 < len(b):
		if b[i+1] == '\n' {
			return i, i + 2, true
		}
		return i, i + 1, true
	case eof:
		return i, i + 1, true
	}
	return 0, 0, false // a CR at the end: an LF may follow
}

// read reads more input onto buf, growing it when needed, and records
// the end of the input or a read error.
func (sp *Splitter) read(buf []byte, zeroReads *int) []byte {
	if cap(buf)-len(buf) < splitReadSize/2 {
		c := max(2*cap(buf), len(buf)+splitReadSize, sp.target+splitReadSize)
		if m := sp.MaxBuffer(); m > 0 {
			c = max(min(c, m), len(buf)+splitReadSize)
		}
		nb := make([]byte, len(buf), c)
		copy(nb, buf)
		buf = nb
	}
	n, rerr := sp.r.Read(buf[len(buf):min(cap(buf), len(buf)+splitReadSize)])
	buf = buf[:len(buf)+n]
	switch {
	case rerr == io.EOF:
		sp.eof = true
	case rerr != nil:
		sp.eof, sp.err = true, rerr
	case n == 0:
		if *zeroReads++; *zeroReads > 100 {
			sp.eof, sp.err = true, io.ErrNoProgress
		}
	default:
		*zeroReads = 0
	}
	return buf
}
