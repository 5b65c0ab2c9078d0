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
// A Splitter holds at most one partial chunk of its own (the bytes read
// beyond the last chunk it returned); the chunks themselves live in buffers
// the caller lends to Next.
type Splitter struct {
	r      io.Reader
	target int
	// MaxGameSize bounds a game's size in bytes (0: no bound): a longer
	// game is read and dropped, and Next reports it with a
	// *GameTooLongError, so that one huge game (a tag of a gigabyte)
	// cannot take the memory of a run. NewSplitter sets DefaultMaxGameSize.
	MaxGameSize int
	carry       []byte // input read beyond the last chunk returned
	line        int    // line number of the next chunk's first line
	eof         bool   // r is exhausted (or failed)
	err         error  // the read error to report once the buffered input is returned
	done        bool   // everything has been returned
	s           structure
	eol         eolFinder
}

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
// size bytes long (except the last), and as short as whole games allow. A
// size of 1 makes every game its own chunk.
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
// firstLine is the 1-based input line of the chunk's first byte. At the end
// of the input Next returns an empty chunk and io.EOF; a read error is
// returned, with the line it happened after, only after all input read
// before it has been returned.
func (sp *Splitter) Next(dst []byte) (chunk []byte, firstLine int, err error) {
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
	sp.s.reset()
	sp.eol.reset()
	pos, lines, zeroReads := 0, 0, 0
	lastStart, lastLines := 0, 0 // the last game begun after the chunk's first
	for {
		for {
			end, next, ok := sp.eol.next(buf, pos, sp.eof)
			if !ok {
				break
			}
			if sp.s.splitLine(buf[pos:end]) {
				if pos >= sp.target {
					sp.carry = append(sp.carry, buf[pos:]...)
					sp.line = first + lines
					return buf[:pos], first, nil
				}
				if pos > 0 {
					lastStart, lastLines = pos, lines
				}
			}
			if next > end {
				lines++
			}
			pos = next
		}
		if sp.eof {
			sp.done = true
			sp.line = first + lines
			if len(buf) == 0 {
				return sp.Next(buf)
			}
			return buf, first, nil
		}
		if sp.MaxGameSize > 0 && len(buf)-lastStart > sp.MaxGameSize {
			if lastStart > 0 { // the games before the long one, first
				sp.carry = append(sp.carry, buf[lastStart:]...)
				sp.line = first + lastLines
				return buf[:lastStart], first, nil
			}
			return sp.skipGame(buf, pos, first, lines)
		}
		buf = sp.read(buf, &zeroReads)
	}
}

// read reads more input onto buf, growing it when needed, and records
// the end of the input or a read error.
func (sp *Splitter) read(buf []byte, zeroReads *int) []byte {
	if cap(buf)-len(buf) < splitReadSize/2 {
		nb := make([]byte, len(buf), max(2*cap(buf), len(buf)+splitReadSize, sp.target+splitReadSize))
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

// skipGame drops the game that begins buf, longer than MaxGameSize:
// buf[:pos] is scanned (lines line breaks), the rest not yet. It reads on
// to the next tag line that begins a game, dropping what it reads (a
// line too, however long: only where it ends and how it begins count),
// carries the next game over to the next chunk, and returns a
// *GameTooLongError. Comments are not tracked in the dropped game: a tag
// line inside a comment of it would begin a game (a broken one).
func (sp *Splitter) skipGame(buf []byte, pos, first, lines int) ([]byte, int, error) {
	size := int64(pos)
	buf = buf[:copy(buf, buf[pos:])]
	zeroReads := 0
	// lineTag: the line being read, whose start was dropped already, is
	// a tag line; midLine: its start was dropped.
	lineTag, midLine := false, false
	done := func() ([]byte, int, error) {
		sp.line = first + lines
		return buf[:0], first, &GameTooLongError{Line: first, Size: size, Max: sp.MaxGameSize}
	}
	for {
		for len(buf) > 0 {
			if !midLine && len(buf) < 2 && !sp.eof {
				break // too little to tell a tag line
			}
			tag := lineTag
			if !midLine {
				tag = buf[0] == '[' && len(buf) > 1 && isTagNameStart(buf[1])
			}
			nl := bytes.IndexByte(buf, '\n')
			if nl < 0 {
				// The line goes on: drop it but remember how it began.
				size += int64(len(buf))
				buf = buf[:0]
				lineTag, midLine = tag, true
				break
			}
			if tag && !midLine && lines > 0 { // the next game
				sp.carry = append(sp.carry, buf...)
				return done()
			}
			size += int64(nl + 1)
			lines++
			buf = buf[:copy(buf, buf[nl+1:])]
			lineTag, midLine = false, false
		}
		if sp.eof {
			size += int64(len(buf))
			if sp.err == nil {
				sp.done = true
			}
			return done()
		}
		buf = sp.read(buf, &zeroReads)
	}
}

// isTagNameStart reports whether c may begin a tag name.
func isTagNameStart(c byte) bool {
	return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_'
}
