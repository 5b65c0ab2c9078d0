package pgn

import (
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
	carry  []byte // input read beyond the last chunk returned
	line   int    // line number of the next chunk's first line
	eof    bool   // r is exhausted (or failed)
	err    error  // the read error to report once the buffered input is returned
	done   bool   // everything has been returned
	s      structure
	eol    eolFinder
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
	return &Splitter{r: r, target: size, line: 1}
}

// Done reports whether the chunk Next returned last was the input's last
// (what follows is the end of the input, or a read error).
func (sp *Splitter) Done() bool { return sp.done }

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
	for {
		for {
			end, next, ok := sp.eol.next(buf, pos, sp.eof)
			if !ok {
				break
			}
			if sp.s.splitLine(buf[pos:end]) && pos >= sp.target {
				sp.carry = append(sp.carry, buf[pos:]...)
				sp.line = first + lines
				return buf[:pos], first, nil
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
			if zeroReads++; zeroReads > 100 {
				sp.eof, sp.err = true, io.ErrNoProgress
			}
		default:
			zeroReads = 0
		}
	}
}
