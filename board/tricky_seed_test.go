package board

import (
	"bytes"
	"os"
	"regexp"
	"strings"
	"testing"
)

// The fuzz targets of this package are seeded from the real broken and
// unusual PGN in ../shared/data/tricky, read at test time (no seeds from
// there when it is missing). package ingest can not be used here (it
// imports board), so the movetext is tokenised by the small reader below:
// it need not be a full PGN parser, only find real positions and the move
// tokens written in them.

var (
	fenTagRE = regexp.MustCompile(`\[\s*FEN\s+"([^"\r\n]*)"`)
	// Anything that looks like a FEN's board and side to move, with what
	// follows on its line (other fields, or junk).
	fenLikeRE = regexp.MustCompile(`[pnbrqkPNBRQK1-8]{1,8}(?:/[pnbrqkPNBRQK1-8]{1,8}){7} [wbWB][^\r\n"\]]{0,40}`)
	tagLineRE = regexp.MustCompile(`^\s*\[\s*([A-Za-z0-9_]+)\s+"(.*)"\s*\]`)
	moveNumRE = regexp.MustCompile(`^[0-9]+\.+`)
)

// trickyFENs returns the FEN tag values of the tricky files and other
// FEN-like strings found in them (in comments, in the Scala fixtures),
// deduplicated.
func trickyFENs(tb testing.TB) []string {
	tb.Helper()
	seen := map[string]bool{}
	var out []string
	for _, path := range trickyFiles(tb) {
		data, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		for _, m := range fenTagRE.FindAllSubmatch(data, -1) {
			if s := string(m[1]); !seen[s] {
				seen[s] = true
				out = append(out, s)
			}
		}
		for _, m := range fenLikeRE.FindAll(data, -1) {
			if s := strings.TrimSpace(string(m)); !seen[s] {
				seen[s] = true
				out = append(out, s)
			}
		}
	}
	return out
}

// sanSeed is a move token as written in a tricky file, with the position
// it was written in.
type sanSeed struct{ fen, san string }

// trickySANs replays the main line of every game of the tricky files and
// returns move tokens with their positions: up to perShape tokens of each
// shape (the token with files and ranks abstracted, so "Nbd7" and "Nge2"
// share one), and every token that does not parse where it stands.
func trickySANs(tb testing.TB, perShape int) []sanSeed {
	tb.Helper()
	shapes := map[string]int{}
	seen := map[sanSeed]bool{}
	var out []sanSeed
	add := func(p *Position, tok string, always bool) {
		s := sanSeed{p.FEN(), tok}
		if seen[s] {
			return
		}
		shape := sanShapeOf(tok)
		if !always && shapes[shape] >= perShape {
			return
		}
		seen[s] = true
		shapes[shape]++
		out = append(out, s)
	}
	for _, path := range trickyFiles(tb) {
		data, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		for _, g := range splitRawGames(data) {
			p := StartPosition()
			if g.fen != "" {
				if p, err = ParseFEN(g.fen); err != nil {
					continue
				}
			}
			for _, tok := range g.tokens {
				m, err := p.ParseSAN([]byte(tok))
				if err != nil {
					add(&p, tok, true)
					break
				}
				add(&p, tok, false)
				p.Play(m)
			}
		}
	}
	return out
}

// sanShapeOf abstracts files and ranks out of a move token.
func sanShapeOf(tok string) string {
	b := []byte(tok)
	for i, c := range b {
		switch {
		case c >= 'a' && c <= 'h' && c != 'b':
			b[i] = 'f'
		case c >= '1' && c <= '8':
			b[i] = 'r'
		}
	}
	return string(b)
}

// rawGame is one game as splitRawGames finds it.
type rawGame struct {
	fen    string
	tokens []string // main-line move tokens, move numbers and suffixes cut off
}

// splitRawGames is a rough PGN reader: tag sections start games, {} and ;
// comments, variations, NAGs, move numbers and results are dropped, and
// check and annotation suffixes are cut off the moves.
func splitRawGames(data []byte) []rawGame {
	var games []rawGame
	var cur *rawGame
	inMoves := false
	inComment := false
	depth := 0
	for _, line := range bytes.Split(bytes.ReplaceAll(data, []byte("\r"), []byte("\n")), []byte("\n")) {
		s := string(line)
		if inComment {
			j := strings.IndexByte(s, '}')
			if j < 0 {
				continue
			}
			s, inComment = s[j+1:], false
		}
		if m := tagLineRE.FindStringSubmatch(s); m != nil {
			if cur == nil || inMoves {
				games = append(games, rawGame{})
				cur = &games[len(games)-1]
				inMoves, depth = false, 0
			}
			if m[1] == "FEN" {
				cur.fen = m[2]
			}
			continue
		}
		if strings.HasPrefix(s, "%") {
			continue
		}
		// Drop comments on the line.
		var b strings.Builder
		for i := 0; i < len(s); i++ {
			switch c := s[i]; {
			case c == '{':
				j := strings.IndexByte(s[i:], '}')
				if j < 0 {
					inComment = true
					i = len(s)
				} else {
					i += j
				}
				b.WriteByte(' ')
			case c == ';':
				i = len(s)
			case c == '(' || c == ')':
				b.WriteString(" " + string(c) + " ")
			default:
				b.WriteByte(c)
			}
		}
		for _, tok := range strings.Fields(b.String()) {
			switch {
			case tok == "(":
				depth++
				continue
			case tok == ")":
				depth = max(depth-1, 0)
				continue
			case depth > 0 || strings.HasPrefix(tok, "$"):
				continue
			}
			tok = moveNumRE.ReplaceAllString(tok, "")
			tok = strings.TrimRight(tok, "!?+#")
			switch tok {
			case "", "1-0", "0-1", "1/2-1/2", "*":
				continue
			}
			if cur == nil {
				games = append(games, rawGame{})
				cur = &games[len(games)-1]
			}
			inMoves = true
			cur.tokens = append(cur.tokens, tok)
		}
	}
	return games
}

func TestTrickySeedsFound(t *testing.T) {
	fens, sans := trickyFENs(t), trickySANs(t, 20)
	minFENs, minSANs := 20, 150 // testdata/tricky
	if withOracles {
		minFENs, minSANs = 100, 300 // and ../shared/data/tricky
	}
	if len(fens) < minFENs || len(sans) < minSANs {
		t.Fatalf("found only %d FENs and %d SAN tokens in tricky/", len(fens), len(sans))
	}
	// The seeds are real positions: most FENs parse, most tokens are moves.
	okFEN, okSAN := 0, 0
	for _, f := range fens {
		if _, err := ParseFEN(f); err == nil {
			okFEN++
		}
	}
	for _, s := range sans {
		p, err := ParseFEN(s.fen)
		if err != nil {
			t.Fatalf("seed position %q does not parse: %v", s.fen, err)
		}
		if _, err := p.ParseSAN([]byte(s.san)); err == nil {
			okSAN++
		}
	}
	if okFEN < len(fens)/2 || okSAN < len(sans)/2 {
		t.Fatalf("%d of %d FENs and %d of %d SAN seeds parse", okFEN, len(fens), okSAN, len(sans))
	}
	t.Logf("%d FENs (%d parse), %d SAN seeds (%d parse)", len(fens), okFEN, len(sans), okSAN)
}
