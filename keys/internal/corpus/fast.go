package corpus

import (
	"fmt"
	"strings"

	"github.com/chessbook/chessbook/board"
)

// replayFast replays one game's text (tags and movetext) with board.
func replayFast(idx int, text string) Game {
	g := Game{Index: idx}
	p := board.StartPosition()
	i := 0
	// Tag section: read the FEN tag if any.
	for i < len(text) && text[i] == '[' {
		end := strings.IndexByte(text[i:], '\n')
		if end < 0 {
			end = len(text) - i
		}
		line := text[i : i+end]
		i += end + 1
		if strings.HasPrefix(line, "[FEN ") {
			v := strings.TrimSuffix(strings.TrimPrefix(line, "[FEN "), "]")
			v = strings.Trim(strings.TrimSpace(v), `"`)
			fp, err := board.ParseFEN(v)
			if err != nil {
				g.Err = fmt.Errorf("game %d: FEN tag: %w", idx, err)
				return g
			}
			p = fp
		}
		for i < len(text) && text[i] == '\n' {
			i++
		}
	}
	g.Positions = append(make([]board.Position, 0, 128), p)
	depth := 0 // variation nesting
	for i < len(text) {
		c := text[i]
		switch {
		case c <= ' ' || c == '.': // white space and stray control bytes (NUL)
			i++
			continue
		case c == '{':
			end := strings.IndexByte(text[i:], '}')
			if end < 0 {
				i = len(text)
			} else {
				i += end + 1
			}
			continue
		case c == ';' || (c == '%' && (i == 0 || text[i-1] == '\n')):
			end := strings.IndexByte(text[i:], '\n')
			if end < 0 {
				i = len(text)
			} else {
				i += end + 1
			}
			continue
		case c == '(':
			depth++
			i++
			continue
		case c == ')':
			if depth > 0 {
				depth--
			}
			i++
			continue
		}
		// A token runs to white space or a delimiter.
		j := i
		for j < len(text) && text[j] > ' ' && !strings.ContainsRune("{}();", rune(text[j])) {
			j++
		}
		tok := text[i:j]
		i = j
		if depth > 0 || tok == "" {
			continue
		}
		switch tok {
		case "1-0", "0-1", "1/2-1/2", "*":
			return g
		}
		if tok[0] == '$' {
			continue
		}
		// Move number, possibly glued to the move ("12.e4", "12...Nf6").
		k := 0
		for k < len(tok) && tok[k] >= '0' && tok[k] <= '9' {
			k++
		}
		if k > 0 && k < len(tok) && tok[k] == '.' {
			for k < len(tok) && tok[k] == '.' {
				k++
			}
			tok = tok[k:]
		} else if k == len(tok) {
			continue // bare move number without dot
		}
		if tok == "" {
			continue
		}
		if tok == "--" || tok == "Z0" || tok == "0000" || tok == "@@@@" {
			g.Err = fmt.Errorf("game %d: null move after ply %d", idx, len(g.Positions)-1)
			g.Positions = nil
			return g
		}
		m, err := p.ParseSAN([]byte(tok))
		if err != nil {
			g.Err = fmt.Errorf("game %d ply %d: %w", idx, len(g.Positions), err)
			g.Positions = nil
			return g
		}
		p.Play(m)
		g.Positions = append(g.Positions, p)
	}
	return g
}
