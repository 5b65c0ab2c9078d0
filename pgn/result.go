package pgn

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
