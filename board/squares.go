package board

import "fmt"

// The remaining named squares (ranks 2 to 7; ranks 1 and 8 are in types.go).
const (
	A2 Square = 8
	B2 Square = 9
	C2 Square = 10
	D2 Square = 11
	E2 Square = 12
	F2 Square = 13
	G2 Square = 14
	H2 Square = 15

	A3 Square = 16
	B3 Square = 17
	C3 Square = 18
	D3 Square = 19
	E3 Square = 20
	F3 Square = 21
	G3 Square = 22
	H3 Square = 23

	A4 Square = 24
	B4 Square = 25
	C4 Square = 26
	D4 Square = 27
	E4 Square = 28
	F4 Square = 29
	G4 Square = 30
	H4 Square = 31

	A5 Square = 32
	B5 Square = 33
	C5 Square = 34
	D5 Square = 35
	E5 Square = 36
	F5 Square = 37
	G5 Square = 38
	H5 Square = 39

	A6 Square = 40
	B6 Square = 41
	C6 Square = 42
	D6 Square = 43
	E6 Square = 44
	F6 Square = 45
	G6 Square = 46
	H6 Square = 47

	A7 Square = 48
	B7 Square = 49
	C7 Square = 50
	D7 Square = 51
	E7 Square = 52
	F7 Square = 53
	G7 Square = 54
	H7 Square = 55
)

// ParseSquare parses a square name such as "e4" (lower-case file).
func ParseSquare(s string) (Square, error) {
	if len(s) != 2 || !isFile(s[0]) || !isRank(s[1]) {
		return NoSquare, fmt.Errorf("board: bad square %q", s)
	}
	return MakeSquare(int(s[0]-'a'), int(s[1]-'1')), nil
}
