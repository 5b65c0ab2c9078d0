package keys_test

import (
	"fmt"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/keys"
)

// A position's key, its text forms, and the position read back from a
// text form. The en-passant square of the FEN is dropped: no capture onto
// it is legal, so the key (canonical) does not hold it, and neither do the
// clocks.
func Example() {
	p, err := board.ParseFEN("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1")
	if err != nil {
		panic(err)
	}
	k := keys.Encode(&p)
	fmt.Println(len(k), "bytes")
	fmt.Println("hex: ", keys.Hex(k))
	fmt.Println("text:", keys.Text(k))

	back, err := keys.ParseCode(keys.Text(k))
	if err != nil {
		panic(err)
	}
	q, err := keys.Decode(back)
	if err != nil {
		panic(err)
	}
	fmt.Println(q.FEN())
	// Output:
	// 7 bytes
	// hex:  5080206da04020
	// text: UIAgbaBAIA
	// rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1
}

// Keys are canonical: a position reached by two move orders has one key,
// and keys compare as bytes.
func ExampleEncode() {
	line := func(moves ...string) []byte {
		p := board.StartPosition()
		for _, san := range moves {
			m, err := p.ParseSAN([]byte(san))
			if err != nil {
				panic(err)
			}
			p.Play(m)
		}
		return keys.Encode(&p)
	}
	a := line("Nf3", "d5", "d4")
	b := line("d4", "d5", "Nf3")
	fmt.Println(keys.Text(a), keys.Text(b), string(a) == string(b))
	// Output:
	// UIIAICdCAQA UIIAICdCAQA true
}
