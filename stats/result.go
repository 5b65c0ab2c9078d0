package stats

// Result is the result of a game, as in PGN's Result tag.
type Result uint8

// The results. ResultUnknown is the zero value: "*", a missing tag, or
// anything unrecognised.
const (
	ResultUnknown  Result = iota // "*": game unfinished or result unknown
	ResultWhiteWin               // "1-0"
	ResultDraw                   // "1/2-1/2"
	ResultBlackWin               // "0-1"
)

// ParseResult parses a PGN result. Anything but "1-0", "0-1" and "1/2-1/2"
// (or its common spelling "½-½") is ResultUnknown.
func ParseResult(s string) Result {
	switch s {
	case "1-0":
		return ResultWhiteWin
	case "0-1":
		return ResultBlackWin
	case "1/2-1/2", "½-½":
		return ResultDraw
	}
	return ResultUnknown
}

// String returns the PGN form of r: "1-0", "0-1", "1/2-1/2" or "*".
func (r Result) String() string {
	switch r {
	case ResultWhiteWin:
		return "1-0"
	case ResultBlackWin:
		return "0-1"
	case ResultDraw:
		return "1/2-1/2"
	}
	return "*"
}
