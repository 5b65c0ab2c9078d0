package pgn

import (
	"fmt"
	"io"
	"strconv"

	"github.com/chessbook/chessbook/board"
)

// maxLineLen is the longest movetext line Append writes, as the PGN
// standard asks (at most 80 characters).
const maxLineLen = 80

// Append appends g to dst as standard PGN text and returns the extended
// slice: the tag pairs in g's order (values escaped), a blank line, the
// main line in SAN with move numbers in lines of at most 80 characters,
// and the termination marker (none for NoResult), followed by a blank
// line. The moves must be legal from g.Start.
func Append(dst []byte, g *Game) []byte {
	b := appendTags(dst, g.Tags)
	b = append(b, '\n')
	mw := movetextWriter{b: b, lineStart: len(b)}
	pos := g.Start
	for i, m := range g.Moves {
		mw.tok = mw.tok[:0]
		if pos.SideToMove() == board.White {
			mw.tok = strconv.AppendInt(mw.tok, int64(pos.FullMoveNumber()), 10)
			mw.tok = append(mw.tok, '.')
		} else if i == 0 {
			mw.tok = strconv.AppendInt(mw.tok, int64(pos.FullMoveNumber()), 10)
			mw.tok = append(mw.tok, "..."...)
		}
		if len(mw.tok) > 0 {
			mw.word(mw.tok)
			mw.tok = mw.tok[:0]
		}
		mw.tok = pos.AppendSAN(mw.tok, m)
		pos.Play(m)
		mw.word(mw.tok)
	}
	if g.Result != NoResult {
		mw.word([]byte(g.Result.String()))
	}
	return append(mw.b, '\n', '\n')
}

// appendTags appends one line per tag pair, escaping '"' and '\' in values.
func appendTags(b []byte, tags []Tag) []byte {
	for _, t := range tags {
		b = append(b, '[')
		b = append(b, t.Name...)
		b = append(b, ' ', '"')
		for _, c := range t.Value {
			if c == '"' || c == '\\' {
				b = append(b, '\\')
			}
			b = append(b, c)
		}
		b = append(b, '"', ']', '\n')
	}
	return b
}

// movetextWriter fills movetext lines word by word.
type movetextWriter struct {
	b         []byte
	lineStart int    // where the current line begins in b
	tok       []byte // scratch for the next word
}

// word appends w, after a space or, when the line would grow past
// maxLineLen, on a new line.
func (mw *movetextWriter) word(w []byte) {
	if len(mw.b) > mw.lineStart {
		if len(mw.b)-mw.lineStart+1+len(w) > maxLineLen {
			mw.b = append(mw.b, '\n')
			mw.lineStart = len(mw.b)
		} else {
			mw.b = append(mw.b, ' ')
		}
	}
	mw.b = append(mw.b, w...)
}

// Writer writes games to an io.Writer as PGN, reusing one buffer.
type Writer struct {
	w   io.Writer
	buf []byte
}

// NewWriter returns a Writer writing to w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: w} }

// WriteGame writes g as PGN (see Append).
func (w *Writer) WriteGame(g *Game) error {
	w.buf = Append(w.buf[:0], g)
	if _, err := w.w.Write(w.buf); err != nil {
		return fmt.Errorf("pgn: writing game: %w", err)
	}
	return nil
}
