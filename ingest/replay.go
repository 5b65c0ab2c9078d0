package ingest

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/pgn"
)

// SkipReason classifies why a game was not ingested.
type SkipReason uint8

// The reasons a game is skipped. Each is counted separately in a Summary.
const (
	SkipNone        SkipReason = iota
	SkipIllegalMove            // a SAN move that is well formed but not legal (or ambiguous) here
	SkipBadMove                // a move token that is not SAN at all
	SkipNullMove               // a null move ("--"): the position after it is not a chess position
	SkipBadFEN                 // the FEN tag does not describe a legal position
	SkipVariant                // a variant other than standard chess (Chess960, crazyhouse, ...)
	SkipSyntax                 // the PGN itself is malformed beyond repair
	SkipTooLong                // a game longer than pgn.DefaultMaxGameSize (a huge tag or comment)
	SkipBinary                 // a region of binary data in the input (a damaged file), with the game it cuts
	numSkipReasons
)

var skipReasonNames = [numSkipReasons]string{
	SkipNone:        "ok",
	SkipIllegalMove: "illegal move",
	SkipBadMove:     "unparsable move",
	SkipNullMove:    "null move",
	SkipBadFEN:      "bad FEN",
	SkipVariant:     "unsupported variant",
	SkipSyntax:      "PGN syntax error",
	SkipTooLong:     "game too long",
	SkipBinary:      "binary data",
}

// String names the reason as the summary prints it.
func (r SkipReason) String() string {
	if r < numSkipReasons {
		return skipReasonNames[r]
	}
	return "unknown"
}

// GameError says why one game was skipped and where.
type GameError struct {
	File   string     // input name
	Line   int        // 1-based line of the offending token (or of the game)
	Reason SkipReason // the class of the problem
	Detail string     // what exactly was wrong
	// NotGame is set on a syntax error in text that has neither a tag
	// pair nor a move before it: no game at all (a README given as PGN).
	NotGame bool
}

// Error formats the error as file:line: reason: detail.
func (e *GameError) Error() string {
	return fmt.Sprintf("%s:%d: %s: %s", e.File, e.Line, e.Reason, e.Detail)
}

// Warning is a problem in a game that was ingested all the same (an
// unclosed variation, a Result tag that contradicts the result marker).
type Warning struct {
	File   string // input name
	Line   int    // 1-based line of the problem (or of the game)
	Detail string // what is wrong
}

// String formats the warning as file:line: detail.
func (w *Warning) String() string { return fmt.Sprintf("%s:%d: %s", w.File, w.Line, w.Detail) }

// warner is a Sink that takes the warnings of the games it gets (the
// pipeline's counter).
type warner interface {
	Warn(w *Warning)
}

// Sink consumes the games of one pipeline worker. Its methods are called
// from a single goroutine.
type Sink interface {
	// Game is called for each legal game; g is reused after the call
	// returns: copy what you keep (pgn.Game.Clone).
	Game(g *pgn.Game) error
	// Skip is called for each game that could not be replayed.
	Skip(e *GameError)
}

// SinkFunc makes a function a Sink: Game calls it, Skip does nothing (Run
// counts the skipped games in its Summary). The function is called from
// one worker at a time for a Sink that newSink made for that worker; a
// SinkFunc shared by several workers must lock what it writes.
type SinkFunc func(g *pgn.Game) error

// Game calls f(g).
func (f SinkFunc) Game(g *pgn.Game) error { return f(g) }

// Skip does nothing.
func (SinkFunc) Skip(*GameError) {}

// Replayer is a pgn.Visitor that replays each game on a board.Position and
// hands finished games to a Sink. It allocates nothing per move or per good
// game in steady state.
type Replayer struct {
	sink Sink
	file string
	game pgn.Game

	pos    board.Position
	skip   *GameError // the reason the current game is being skipped, or nil
	tagRes pgn.Result // the Result tag's value
	warns  []Warning  // the current game's warnings
	err    error      // the first error the Sink returned
}

// NewReplayer returns a Replayer that reports to sink; file names the input in errors.
func NewReplayer(file string, sink Sink) *Replayer {
	return &Replayer{sink: sink, file: file}
}

// Err returns the first error a Sink returned, which stops the replay.
func (r *Replayer) Err() error { return r.err }

// BeginGame implements pgn.Visitor.
func (r *Replayer) BeginGame(line int) {
	g := &r.game
	g.Reset()
	g.File, g.Line = r.file, line
	r.skip = nil
	r.tagRes = pgn.NoResult
	r.warns = r.warns[:0]
}

// Warning implements pgn.Warner.
func (r *Replayer) Warning(line int, reason string) {
	r.warns = append(r.warns, Warning{File: r.file, Line: line, Detail: reason})
}

// Tag implements pgn.Visitor.
func (r *Replayer) Tag(name, value []byte) { r.game.AddTag(name, value) }

// BeginMovetext implements pgn.Visitor: it sets up the start position from
// the tags and decides whether the game can be replayed at all.
func (r *Replayer) BeginMovetext() bool {
	g := &r.game
	var fen []byte
	for _, t := range g.Tags {
		switch string(t.Name) {
		case "Variant":
			if !standardVariant(t.Value) {
				r.fail(g.Line, SkipVariant, fmt.Sprintf("Variant %q", t.Value))
				return false
			}
		case "FEN":
			fen = t.Value
		case "Result":
			r.tagRes = pgn.ParseResult(bytes.TrimSpace(t.Value))
		}
	}
	if fen != nil {
		p, err := parseLenientFEN(string(bytes.TrimSpace(fen)))
		if err != nil {
			r.fail(g.Line, SkipBadFEN, err.Error())
			return false
		}
		g.Start = p
		g.FromFEN = true
	} else {
		g.Start = board.StartPosition()
	}
	r.pos = g.Start
	return true
}

// standardVariant reports whether a Variant tag value means ordinary chess.
func standardVariant(v []byte) bool {
	v = bytes.TrimSpace(v)
	for _, name := range standardVariants {
		if bytes.EqualFold(v, name) {
			return true
		}
	}
	return false
}

// standardVariants are the Variant tag values that mean ordinary chess.
var standardVariants = [...][]byte{[]byte(""), []byte("standard"), []byte("chess"), []byte("from position"), []byte("fromposition"), []byte("normal")}

// SAN implements pgn.Visitor.
func (r *Replayer) SAN(san []byte, line int) bool {
	if r.skip != nil {
		return false
	}
	m, err := r.pos.ParseSAN(san)
	if err != nil {
		// Not SAN: a null move, or another notation (rare: off the hot path).
		if isNullMove(san) {
			r.fail(line, SkipNullMove, fmt.Sprintf("%q after %d plies", san, len(r.game.Moves)))
			return false
		}
		// Long algebraic, UCI or lower-case castling, which some tools
		// write instead of SAN; the error names SAN's objection.
		var merr error
		if m, merr = r.pos.ParseMove(san); merr != nil {
			r.moveError(line, san, err)
			return false
		}
	}
	r.pos.Play(m)
	r.game.Moves = append(r.game.Moves, m)
	return true
}

// moveError records why san could not be played, naming the move as PGN
// numbers it ("31.Qxe1" or "31...Qxe1") and the position.
func (r *Replayer) moveError(line int, san []byte, err error) {
	reason, why := SkipIllegalMove, err.Error()
	if se, ok := errors.AsType[*board.SANError](err); ok {
		why = se.Reason
		if se.Syntax {
			reason = SkipBadMove
		}
	}
	dots := "."
	if r.pos.SideToMove() == board.Black {
		dots = "..."
	}
	r.fail(line, reason, fmt.Sprintf("%d%s%s: %s (position %s)", r.pos.FullMoveNumber(), dots, san, why, r.pos.FEN()))
}

func isNullMove(san []byte) bool {
	switch string(san) {
	case "--", "Z0", "0000", "@@@@", "null":
		return true
	}
	return false
}

// Outcome implements pgn.Visitor.
func (r *Replayer) Outcome(res pgn.Result) { r.game.Result = res }

// ParseError implements pgn.Visitor.
func (r *Replayer) ParseError(line int, reason string) {
	if r.skip == nil {
		r.fail(line, SkipSyntax, reason)
		r.skip.NotGame = len(r.game.Tags) == 0 && len(r.game.Moves) == 0
	}
}

// EndGame implements pgn.Visitor: the finished game goes to the Sink.
func (r *Replayer) EndGame() {
	if r.skip != nil {
		r.sink.Skip(r.skip)
		return
	}
	if r.err != nil {
		return
	}
	g := &r.game
	if g.Result == pgn.NoResult {
		g.Result = r.tagRes
	} else if r.tagRes != pgn.NoResult && r.tagRes != pgn.Unknown && g.Result != pgn.Unknown && r.tagRes != g.Result {
		r.Warning(g.Line, fmt.Sprintf("the Result tag says %s, the result marker %s: the marker counts", r.tagRes, g.Result))
	}
	if err := r.sink.Game(g); err != nil {
		r.err = err
		return
	}
	if w, ok := r.sink.(warner); ok {
		for i := range r.warns {
			w.Warn(&r.warns[i])
		}
	}
}

func (r *Replayer) fail(line int, reason SkipReason, detail string) {
	if r.skip == nil {
		r.skip = &GameError{File: r.file, Line: line, Reason: reason, Detail: detail}
	}
}

// parseLenientFEN parses a FEN tag. A FEN that claims castling rights
// without the king and rook on their home squares (common in PGN written by
// hand or by study tools) is accepted with those rights dropped; every
// other problem is an error. The games are standard chess: a castling
// field that board.ParseStandardFEN refuses as Chess960 (a king or castling rook off
// e / a / h) counts as such a claim too.
func parseLenientFEN(fen string) (board.Position, error) {
	p, err := board.ParseStandardFEN(fen)
	if err == nil {
		return p, nil
	}
	f := strings.Fields(fen)
	if len(f) < 3 || f[2] == "-" {
		return p, err
	}
	given := f[2]
	f[2] = "-"
	q, err2 := board.ParseFEN(strings.Join(f, " "))
	if err2 != nil {
		return p, err
	}
	var rights board.CastlingRights
	type right struct {
		letter     byte
		cr         board.CastlingRights
		king, rook board.Square
		c          board.Color
	}
	for _, x := range []right{
		{'K', board.WhiteKingSide, board.E1, board.H1, board.White},
		{'Q', board.WhiteQueenSide, board.E1, board.A1, board.White},
		{'k', board.BlackKingSide, board.E8, board.H8, board.Black},
		{'q', board.BlackQueenSide, board.E8, board.A8, board.Black},
	} {
		if strings.IndexByte(given, x.letter) >= 0 &&
			q.PieceAt(x.king) == board.MakePiece(x.c, board.King) &&
			q.PieceAt(x.rook) == board.MakePiece(x.c, board.Rook) {
			rights |= x.cr
		}
	}
	q.SetCastling(rights)
	if q.Validate() != nil {
		return p, err
	}
	return q, nil
}
