package gamecode

import (
	"bytes"
	"fmt"
	"io"
	"strconv"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/ingest"
)

// PGN returns the game as standard PGN text: tag pairs in stored order,
// SAN moves with move numbers, lines of at most 80 characters, and the
// termination marker (none for ingest.NoResult), followed by a blank line.
func (g *Game) PGN() []byte {
	var b []byte
	for _, t := range g.Tags {
		b = append(b, '[')
		b = append(b, t.Name...)
		b = append(b, ' ', '"')
		for i := 0; i < len(t.Value); i++ {
			c := t.Value[i]
			if c == '"' || c == '\\' {
				b = append(b, '\\')
			}
			b = append(b, c)
		}
		b = append(b, '"', ']', '\n')
	}
	b = append(b, '\n')
	lineStart := len(b)
	var tok []byte
	word := func(w []byte) {
		if len(b) > lineStart {
			if len(b)-lineStart+1+len(w) > 80 {
				b = append(b, '\n')
				lineStart = len(b)
			} else {
				b = append(b, ' ')
			}
		}
		b = append(b, w...)
	}
	pos := g.Start
	for i, m := range g.Moves {
		tok = tok[:0]
		if pos.SideToMove() == board.White {
			tok = strconv.AppendInt(tok, int64(pos.FullMoveNumber()), 10)
			tok = append(tok, '.')
		} else if i == 0 {
			tok = strconv.AppendInt(tok, int64(pos.FullMoveNumber()), 10)
			tok = append(tok, "..."...)
		}
		if len(tok) > 0 {
			word(tok)
			tok = tok[:0]
		}
		tok = pos.AppendSAN(tok, m)
		pos.Play(m)
		word(tok)
	}
	if g.Result != ingest.NoResult {
		word([]byte(g.Result.String()))
	}
	b = append(b, '\n', '\n')
	return b
}

// WritePGN writes g to w as PGN (see Game.PGN).
func WritePGN(w io.Writer, g *Game) error {
	if _, err := io.Copy(w, bytes.NewReader(g.PGN())); err != nil {
		return fmt.Errorf("gamecode: writing PGN: %w", err)
	}
	return nil
}
