package pgn

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

// A Warner is a Visitor that also takes warnings: problems in a game that
// the Parser still reports whole, as pgn-extract warns of them. The
// Parser calls Warning, when its Visitor is a Warner, before the game's
// EndGame.
type Warner interface {
	Warning(line int, reason string)
}
