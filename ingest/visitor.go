// Package ingest reads PGN: a streaming, allocation-free parser with a
// visitor API, input decompression, and the parallel replay pipeline that
// turns games into positions for the book builder.
package ingest

// Result is a game's outcome as written in its movetext (or Result tag).
type Result uint8

// The possible results. NoResult means the movetext had no termination marker.
const (
	NoResult  Result = iota // no result token at all
	WhiteWins               // 1-0
	BlackWins               // 0-1
	Draw                    // 1/2-1/2
	Unknown                 // *
)

// String returns the PGN token for r ("1-0", "0-1", "1/2-1/2", "*"), or "" for NoResult.
func (r Result) String() string {
	switch r {
	case WhiteWins:
		return "1-0"
	case BlackWins:
		return "0-1"
	case Draw:
		return "1/2-1/2"
	case Unknown:
		return "*"
	}
	return ""
}

// ParseResult maps a PGN result token to a Result; anything else is NoResult.
func ParseResult(b []byte) Result {
	switch string(b) {
	case "1-0":
		return WhiteWins
	case "0-1":
		return BlackWins
	case "1/2-1/2":
		return Draw
	case "*":
		return Unknown
	}
	return NoResult
}

// Visitor receives the parts of each game in input order, in the style of a
// SAX parser: nothing is built that the visitor does not build itself. Byte
// slices passed to a Visitor are only valid during the call; copy what you
// keep. Line numbers are 1-based lines of the input file.
//
// For every game the parser calls BeginGame, then Tag for each tag pair,
// then BeginMovetext; if that returns true, SAN for each main-line move
// (variations, comments, NAGs and move numbers are skipped), then Outcome
// when a termination marker is found; and always EndGame last. A syntax
// error that makes the rest of the game unreadable is reported through
// ParseError, after which the parser resynchronises at the next game and
// still calls EndGame for the broken one.
type Visitor interface {
	// BeginGame starts a game whose first line is line.
	BeginGame(line int)
	// Tag reports a tag pair. value has its escapes (\" and \\) resolved and
	// is valid UTF-8 (Latin-1 input is converted).
	Tag(name, value []byte)
	// BeginMovetext is called once after the tags. Returning false skips
	// the game's movetext (SAN and Outcome are not called).
	BeginMovetext() bool
	// SAN reports one main-line move token as written, with its check and
	// annotation suffixes (+ # ! ? !! ?? !? ?!) removed; null moves arrive
	// as "--" (or "Z0", "0000", "@@@@" as some tools write them). Returning
	// false skips the rest of this game's movetext.
	SAN(san []byte, line int) bool
	// Outcome reports the movetext's termination marker.
	Outcome(r Result)
	// ParseError reports a syntax error at line; the rest of the game is skipped.
	ParseError(line int, reason string)
	// EndGame ends the game begun by the last BeginGame.
	EndGame()
}
