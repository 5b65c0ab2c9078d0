package pgn

import "testing"

// TestParseResult checks the result tokens both ways. Only the standard
// tokens are results; spellings such as "½-½" are read by the movetext
// lexer, not by ParseResult (a Result tag saying "½-½" is no result).
func TestParseResult(t *testing.T) {
	for in, want := range map[string]Result{
		"1-0": WhiteWins, "0-1": BlackWins, "1/2-1/2": Draw, "*": Unknown,
		"½-½": NoResult, "": NoResult, "1-1": NoResult, "1-0 ": NoResult,
	} {
		if got := ParseResult([]byte(in)); got != want {
			t.Errorf("ParseResult(%q) = %v, want %v", in, got, want)
		}
	}
	for _, r := range []Result{WhiteWins, Draw, BlackWins, Unknown} {
		if ParseResult([]byte(r.String())) != r {
			t.Errorf("ParseResult(%v.String()) != %v", r, r)
		}
	}
	if s := NoResult.String(); s != "" {
		t.Errorf("NoResult.String() = %q, want \"\"", s)
	}
}
