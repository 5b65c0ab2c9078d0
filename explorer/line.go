package explorer

import (
	"errors"
	"fmt"
	"strings"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/filter"
)

// The query side's one reader of move lines: bookquery's -fen and -moves,
// and the API's fen, play and moves parameters. It reads the text itself,
// move by move on a board.Position; it is no PGN reader.

// Notation says what a move line may be written in.
type Notation uint8

const (
	// Movetext takes moves in SAN ("Nf3", "exd6", "O-O", "e8=Q"), UCI
	// ("g1f3", "e7e8q") or long algebraic notation ("Ng1-f3", "e5xd6",
	// "e7-e8=Q"), in any mix, separated by spaces or commas, with:
	//   - move numbers, standing alone or before the move ("12", "12.",
	//     "12...", "12.e4", "12...e5"), which are not checked: the moves
	//     are numbered by the position they are played in;
	//   - check, mate and annotation marks on a move ("Bb5+?", "Qxf7#")
	//     or alone ("!?"), a trailing or lone "e.p.", NAGs ("$1");
	//   - comments ("{...}", "; ..." to the end of the line) and
	//     variations ("(3...Nf6)", nested), which are skipped;
	//   - a result (1-0, 0-1, 1/2-1/2, *), which ends the moves: only
	//     comments may follow it.
	// It is what bookquery's -moves and the API's moves parameter take:
	// the union of what the command (which read PGN movetext) and the API
	// (SAN or UCI, spaces or commas, move numbers) took before they shared
	// this reader, plus lower-case castling ("o-o").
	Movetext Notation = iota
	// UCIList takes UCI moves only ("e2e4", "e7e8q", castling as the
	// king's move "e1g1"), separated by commas or spaces: the lichess
	// explorer's play parameter.
	UCIList
)

// LineOptions are the options of ParseLine.
type LineOptions struct {
	Notation Notation // what the moves may be written in
	// MaxPlies is the most moves the line may hold, 0 for no limit.
	MaxPlies int
}

// ErrBadInput is matched (errors.Is) by every error that blames the
// input of a query: a bad FEN, a move that cannot be played, a bad game
// id or parameter. bookquery exits with status 2 on them, the API answers
// 400. It is filter.ErrBadInput, which the filters' errors match too.
var ErrBadInput = filter.ErrBadInput

// FENError is the error for a FEN that does not give a legal position.
type FENError struct {
	FEN string // as given
	Err error  // board.ParseFEN's error
}

// Error implements error.
func (e *FENError) Error() string { return fmt.Sprintf("bad FEN %q: %v", e.FEN, e.Err) }

// Unwrap returns board's error and ErrBadInput.
func (e *FENError) Unwrap() []error { return []error{e.Err, ErrBadInput} }

// MoveErrorKind classifies a MoveError.
type MoveErrorKind uint8

// The kinds of MoveError.
const (
	NotAMove     MoveErrorKind = iota + 1 // no move in any notation the line takes
	IllegalMove                           // a move, but not legal (or ambiguous) in its position
	NullMove                              // a null move ("--", "0000"): no position follows it
	AfterResult                           // a move after the result that ends the line
	Unterminated                          // a comment or variation that is not closed
	TooManyMoves                          // more moves than LineOptions.MaxPlies
)

// MoveError is the error for a move of a line that cannot be played. It
// names the move as given and where it stands in the line.
type MoveError struct {
	Kind MoveErrorKind
	Ply  int // the moves of the line played before it: 0 for the first
	// Number is the move's number as PGN writes it: "2." for a move of
	// White, "2..." for one of Black.
	Number string
	Move   string // the text as given, without a move number
	FEN    string // the position the move was to be played in
	Detail string // more about what is wrong (the result, for AfterResult), or ""
	Err    error  // board's error, when it gave one
}

// Error formats the error as "move 2.Ke3: illegal move: no king can move
// to e3 (position FEN)".
func (e *MoveError) Error() string {
	move := e.Move
	if len(move) > 64 {
		move = move[:64] + "..."
	}
	what, detail := "", e.Detail
	switch e.Kind {
	case NotAMove:
		what = "not a move"
	case IllegalMove:
		what = "illegal move"
	case NullMove:
		what = "null move"
	case AfterResult:
		what, detail = "after the result "+e.Detail+", which ends the moves (more than one game?)", ""
	case Unterminated:
		what = "not closed"
	case TooManyMoves:
		what = "too many moves"
	default:
		what = "bad move"
	}
	if detail != "" {
		what += ": " + detail
	}
	if e.FEN != "" {
		what += " (position " + e.FEN + ")"
	}
	return fmt.Sprintf("move %s%s: %s", e.Number, move, what)
}

// Unwrap returns board's error, if any, and ErrBadInput.
func (e *MoveError) Unwrap() []error {
	if e.Err != nil {
		return []error{e.Err, ErrBadInput}
	}
	return []error{ErrBadInput}
}

// ParseFEN returns the position of fen, the start position when fen is
// "". A bad FEN is a *FENError.
func ParseFEN(fen string) (board.Position, error) {
	if fen == "" {
		return board.StartPosition(), nil
	}
	p, err := board.ParseStandardFEN(fen)
	if err != nil {
		return board.Position{}, &FENError{FEN: fen, Err: err}
	}
	return p, nil
}

// ParseLine plays the moves of text from start and returns the positions
// of the line: start first, the position reached last. A move that cannot
// be played is a *MoveError.
func ParseLine(start board.Position, text string, o LineOptions) ([]board.Position, error) {
	// One position per move, counted first: 60 moves make 9 kB of
	// positions, worth allocating once.
	n := 1 + strings.Count(text, " ") + strings.Count(text, ",")
	if o.MaxPlies > 0 {
		n = min(n, o.MaxPlies)
	}
	r := lineReader{text: text, opts: o, pos: start, line: make([]board.Position, 1, 1+min(n, 1000))}
	r.line[0] = start
	if err := r.read(); err != nil {
		return nil, err
	}
	return r.line, nil
}

// lineReader reads one line of moves.
type lineReader struct {
	text   string
	opts   LineOptions
	pos    board.Position // the position reached
	line   []board.Position
	result string // the result read, "" while none was
}

// read reads the text: the tokens between separators, comments and
// variations.
func (r *lineReader) read() error {
	s := r.text
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v' || c == ',':
			i++
		case r.opts.Notation == UCIList:
			j := tokenEnd(s, i)
			if j == i { // a lone bracket
				j++
			}
			if err := r.uciMove(s[i:j]); err != nil {
				return err
			}
			i = j
		case c == '{':
			j := strings.IndexByte(s[i:], '}')
			if j < 0 {
				return r.fail(Unterminated, s[i:], "a comment {...} ends with }", nil)
			}
			i += j + 1
		case c == ';':
			j := strings.IndexByte(s[i:], '\n')
			if j < 0 {
				return nil
			}
			i += j + 1
		case c == '(':
			j, ok := variationEnd(s, i)
			if !ok {
				return r.fail(Unterminated, s[i:], "a variation (...) ends with )", nil)
			}
			i = j
		default:
			j := tokenEnd(s, i)
			if j == i { // a lone ')'
				j++
			}
			if err := r.token(s[i:j]); err != nil {
				return err
			}
			i = j
		}
	}
	return nil
}

// tokenEnd returns the end of the token that starts at s[i].
func tokenEnd(s string, i int) int {
	for ; i < len(s); i++ {
		switch s[i] {
		case ' ', '\t', '\n', '\r', '\f', '\v', ',', '{', '}', '(', ')', ';':
			return i
		}
	}
	return i
}

// variationEnd returns the index after the ')' that closes the variation
// opened at s[i], skipping comments and nested variations.
func variationEnd(s string, i int) (int, bool) {
	depth := 0
	for ; i < len(s); i++ {
		switch s[i] {
		case '(':
			depth++
		case ')':
			if depth--; depth == 0 {
				return i + 1, true
			}
		case '{':
			j := strings.IndexByte(s[i:], '}')
			if j < 0 {
				return 0, false
			}
			i += j
		case ';':
			j := strings.IndexByte(s[i:], '\n')
			if j < 0 {
				return 0, false
			}
			i += j
		}
	}
	return 0, false
}

// token reads one token of Movetext: a move, a move number, a mark, a NAG
// or a result.
func (r *lineReader) token(tok string) error {
	switch {
	case isResult(tok):
		if r.result == "" {
			r.result = tok
		}
		return nil
	case isNullMove(tok):
		return r.fail(NullMove, tok, "no position follows it", nil)
	case tok[0] >= '0' && tok[0] <= '9':
		// A move number, alone or before the move ("12.e4").
		i := 0
		for i < len(tok) && tok[i] >= '0' && tok[i] <= '9' {
			i++
		}
		if i == len(tok) {
			return nil
		}
		if tok[i] == '.' {
			if tok = strings.TrimLeft(tok[i:], "."); tok == "" {
				return nil
			}
			return r.token(tok)
		}
	case tok[0] == '.' && strings.Trim(tok, ".") == "", // "1 . e4", "1 ... e5"
		tok == "e.p.",
		tok[0] == '$' && len(tok) > 1 && strings.Trim(tok[1:], "0123456789") == "",
		strings.Trim(tok, "!?+#") == "":
		return nil
	}
	if r.result != "" {
		return r.fail(AfterResult, tok, r.result, nil)
	}
	m, err := r.pos.ParseMove([]byte(tok))
	if err != nil {
		return r.moveError(tok, err)
	}
	return r.play(tok, m)
}

// moveError returns the error to report for tok, which ParseMove rejected
// with err: a *board.UCIError for a move written in coordinates, else the
// *board.SANError of tok.
func (r *lineReader) moveError(tok string, err error) error {
	if ue, ok := errors.AsType[*board.UCIError](err); ok {
		return r.illegalUCI(tok, ue)
	}
	se, _ := errors.AsType[*board.SANError](err)
	switch {
	case se == nil:
		return r.fail(NotAMove, tok, "", err)
	case !se.Syntax:
		return r.fail(IllegalMove, tok, se.Reason, err)
	case looksLikeMove(tok):
		return r.fail(NotAMove, tok, se.Reason, err)
	}
	return r.fail(NotAMove, tok, "", err)
}

// uciMove reads tok as a move of UCIList.
func (r *lineReader) uciMove(tok string) error {
	m, err := r.pos.ParseUCI(tok)
	switch {
	case err == nil:
		return r.play(tok, m)
	case isNullMove(tok):
		return r.fail(NullMove, tok, "no position follows it", nil)
	case len(tok) != 4 && len(tok) != 5:
		return r.fail(NotAMove, tok, "want 4 or 5 characters in UCI notation, as e2e4 or e7e8q", nil)
	}
	ue, _ := errors.AsType[*board.UCIError](err)
	if ue == nil || ue.Syntax {
		return r.fail(NotAMove, tok, "want a move in UCI notation: two squares and a promotion piece, as e2e4 or e7e8q", nil)
	}
	return r.illegalUCI(tok, ue)
}

// illegalUCI returns the error for tok, a move written in coordinates
// whose UCI form ParseUCI rejected with ue although it is well formed.
func (r *lineReader) illegalUCI(tok string, ue *board.UCIError) error {
	detail := ""
	if len(ue.UCI) == 4 {
		if _, err := r.pos.ParseUCI(ue.UCI + "q"); err == nil {
			detail = "promotion without a promotion piece"
		}
	}
	return r.fail(IllegalMove, tok, detail, ue)
}

// play plays m, read from tok.
func (r *lineReader) play(tok string, m board.Move) error {
	if r.opts.MaxPlies > 0 && len(r.line) > r.opts.MaxPlies {
		return r.fail(TooManyMoves, tok, fmt.Sprintf("more than %d moves", r.opts.MaxPlies), nil)
	}
	r.pos.Play(m)
	r.line = append(r.line, r.pos)
	return nil
}

// fail returns the MoveError for tok at the current position.
func (r *lineReader) fail(kind MoveErrorKind, tok, detail string, err error) error {
	e := &MoveError{Kind: kind, Ply: len(r.line) - 1, Move: tok, Detail: detail, Err: err}
	e.Number = moveNumber(&r.line[0], e.Ply)
	if kind == IllegalMove {
		e.FEN = r.pos.FEN()
	}
	return e
}

// moveNumber names the move after plies moves from p as PGN numbers it:
// "12." for a move of White, "12..." for one of Black.
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

// isResult reports whether tok is a game result.
func isResult(tok string) bool {
	switch tok {
	case "1-0", "0-1", "1/2-1/2", "*":
		return true
	}
	return false
}

// isNullMove reports whether tok is a null move as PGN writers write one.
func isNullMove(tok string) bool {
	switch tok {
	case "--", "Z0", "0000", "@@@@", "null":
		return true
	}
	return false
}

// looksLikeMove reports whether tok starts as a move does: a piece
// letter, a file or castling. ParseSAN's reason is worth giving then.
func looksLikeMove(tok string) bool {
	c := tok[0]
	return c >= 'a' && c <= 'h' || strings.IndexByte("KQRBNPO0", c) >= 0
}
