package main

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/ingest"
	"github.com/chessbook/chessbook/keys"
	"github.com/chessbook/chessbook/pgn"
	"github.com/chessbook/chessbook/polyglot"
)

// The commands between positions and their short codes (package keys).

var encodeCmd = &command{
	name:    "encode",
	args:    `[-fen FEN] [-moves "e4 e5 Nf3"] [-json]`,
	summary: "print the key of a position as hex and URL-safe text, and its Polyglot key",
	run:     runEncode,
}

var decodeCmd = &command{
	name:    "decode",
	args:    "[-json] CODE...",
	summary: "print the position (FEN, clocks 0 1) of keys given as hex or URL-safe text",
	run:     runDecode,
}

// encodeJSON is encode's -json output.
type encodeJSON struct {
	FEN      string `json:"fen"`      // the position as given or reached, with its clocks
	Hex      string `json:"hex"`      // the key in hex
	Text     string `json:"text"`     // the key in URL-safe base64
	Bytes    int    `json:"bytes"`    // the key's length
	Polyglot string `json:"polyglot"` // the Polyglot key, 16 hex digits
}

func runEncode(e *env, args []string) error {
	fs := e.flags()
	fen := fs.String("fen", "", "the position in FEN (default: the start position)")
	moves := fs.String("moves", "", `moves to play from the position, in SAN or UCI, with or without move numbers ("e4 e5 Nf3", "e2e4 e7e5 g1f3", "1.e4 e5 2.Nf3")`)
	if err := e.parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return badInput("unexpected arguments %q: give the position with -fen \"FEN\" (quoted) and the moves with -moves", strings.Join(fs.Args(), " "))
	}
	line, err := movesLine(*fen, *moves)
	if err != nil {
		return err
	}
	p := line[len(line)-1]
	k := keys.Encode(&p)
	if k == nil { // cannot happen: ParseFEN and Play only give valid positions
		return fmt.Errorf("position %s has no key", p.FEN())
	}
	out := encodeJSON{FEN: p.FEN(), Hex: keys.Hex(k), Text: keys.Text(k), Bytes: len(k), Polyglot: fmt.Sprintf("%016x", polyglot.Key(&p))}
	return e.emit(out, func(w io.Writer) error {
		_, err := fmt.Fprintf(w, "fen      %s\nhex      %s\ntext     %s\nbytes    %d\npolyglot %s\n", out.FEN, out.Hex, out.Text, out.Bytes, out.Polyglot)
		return err
	})
}

// playMoves plays the moves of text from p and returns the positions of
// the line: p first, the position reached last. text is read as PGN movetext by the parser and replayer the book
// builder uses (package ingest), so it takes what a PGN file may hold: SAN,
// long algebraic and UCI moves ("Nf3", "Ng1-f3", "g1f3", "e7e8q"), move
// numbers ("1.e4 e5 2.Nf3", "1...e5"), check and annotation marks,
// comments, NAGs, variations and a result, and a line copied from a game
// gives the position the book has for it.
func playMoves(p board.Position, text string) ([]board.Position, error) {
	var src bytes.Buffer
	fmt.Fprintf(&src, "[FEN \"%s\"]\n\n%s\n", p.FEN(), text)
	v := &movesVisitor{sink: &movesSink{}}
	v.Replayer = ingest.NewReplayer("-moves", v.sink)
	pgn.Parse(src.Bytes(), 1, v)
	s := v.sink
	switch {
	case s.err != nil && s.err.Reason == ingest.SkipSyntax:
		// The parser did not take the token for a move, so the
		// replayer's message does not say where it stands.
		num := moveNumber(&p, v.plies)
		if tok, ok := strings.CutPrefix(s.err.Detail, "unexpected text "); ok {
			if tok, err := strconv.Unquote(tok); err == nil {
				if tok == "" || tok[0] < '0' || tok[0] > '9' { // else numbered already
					tok = num + tok
				}
				return nil, badInput("-moves: %s: not a move", tok)
			}
		}
		return nil, badInput("-moves: at move %s: %s", num, s.err.Detail)
	case s.err != nil:
		return nil, badInput("-moves: %s: %s", s.err.Reason, s.err.Detail)
	case s.games > 1:
		return nil, badInput("-moves %q: more than one game (a result such as 1-0, or a tag, ends the moves)", text)
	}
	line := make([]board.Position, 0, len(s.moves)+1)
	line = append(line, p)
	for _, m := range s.moves {
		p.Play(m)
		line = append(line, p)
	}
	return line, nil
}

// moveNumber names the move after plies plies from p as PGN numbers it:
// "12." for White, "12..." for Black.
func moveNumber(p *board.Position, plies int) string {
	black := 0
	if p.SideToMove() == board.Black {
		black = 1
	}
	n := p.FullMoveNumber() + (plies+black)/2
	if (plies+black)%2 == 1 {
		return fmt.Sprintf("%d...", n)
	}
	return fmt.Sprintf("%d.", n)
}

// movesVisitor is the replayer of playMoves, counting the moves it plays.
type movesVisitor struct {
	*ingest.Replayer
	sink  *movesSink
	plies int
}

// SAN implements pgn.Visitor.
func (v *movesVisitor) SAN(san []byte, line int) bool {
	ok := v.Replayer.SAN(san, line)
	if ok {
		v.plies++
	}
	return ok
}

// movesSink keeps the moves of the one game playMoves parses.
type movesSink struct {
	games int
	moves []board.Move
	err   *ingest.GameError
}

// Game implements ingest.Sink.
func (s *movesSink) Game(g *pgn.Game) error {
	s.games++
	s.moves = append(s.moves[:0], g.Moves...)
	return nil
}

// Skip implements ingest.Sink.
func (s *movesSink) Skip(e *ingest.GameError) {
	s.games++
	if s.err == nil {
		s.err = e
	}
}

// decodeJSON is decode's -json output, one object per code.
type decodeJSON struct {
	Code string `json:"code"` // the code as given
	FEN  string `json:"fen"`  // its position, clocks 0 1
}

func runDecode(e *env, args []string) error {
	fs := e.flags()
	if err := e.parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return badInput("missing CODE: give one or more position keys in hex or URL-safe text")
	}
	// All codes are checked before anything is printed, so that the output
	// has one line per code.
	out := make([]decodeJSON, 0, fs.NArg())
	var bad []string
	for _, code := range fs.Args() {
		k, err := keys.ParseCode(code)
		if err != nil {
			bad = append(bad, fmt.Sprintf("code %q: %s", code, codeProblem(code, err)))
			continue
		}
		p, err := keys.Decode(k)
		if err != nil { // cannot happen: ParseCode checked the key
			return fmt.Errorf("code %q: %w", code, err)
		}
		out = append(out, decodeJSON{Code: code, FEN: p.FEN()})
	}
	if len(bad) > 0 {
		msg := strings.Join(bad, "; ")
		if len(bad) > 1 {
			msg = fmt.Sprintf("%d of %d codes are not position keys: %s", len(bad), fs.NArg(), msg)
		}
		return badInput("%s", msg)
	}
	for _, d := range out {
		err := e.emit(d, func(w io.Writer) error {
			_, err := fmt.Fprintln(w, d.FEN)
			return err
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// codeProblem says why code, which keys.ParseCode rejected with err, is not
// a key, in terms of the form it looks like: for a string of hex digits
// keys.ParseCode reports why it is no key as URL-safe text, which is the
// wrong half for a mistyped hex code.
func codeProblem(code string, err error) string {
	switch {
	case code == "":
		return "empty code"
	case isHex(code) && len(code)%2 == 1:
		return fmt.Sprintf("odd number of hex digits (%d), and not a key as URL-safe text either", len(code))
	case isHex(code):
		k, _ := hex.DecodeString(code) // cannot fail: an even number of hex digits
		if _, derr := keys.Decode(k); derr != nil {
			return fmt.Sprintf("not a key as hex (%v), nor as URL-safe text", derr)
		}
	case strings.ContainsAny(code, "+/="):
		return fmt.Sprintf("%v (URL-safe text writes - and _ for + and /, without = padding)", err)
	}
	if _, b64err := base64.RawURLEncoding.DecodeString(code); b64err == nil {
		return fmt.Sprintf("as URL-safe text: %v", err)
	}
	return err.Error()
}

func isHex(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}
