package keys

import (
	"bytes"
	"github.com/chessbook/chessbook/internal/testutil"
	"testing"

	"github.com/chessbook/chessbook/board"
)

// FuzzDecode: Decode never panics, and any key it accepts decodes to a
// valid position that encodes back to exactly that key.
func FuzzDecode(f *testing.F) {
	for _, g := range testutil.GoldenKeys {
		p, err := board.ParseFEN(g.FEN)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(Encode(&p))
	}
	// Keys of positions reached in the games of the tricky files,
	// and each of them cut short by one byte.
	for _, p := range trickyPositions(f, 200) {
		k := Encode(&p)
		f.Add(k)
		f.Add(k[:len(k)-1])
	}
	f.Add([]byte{})
	f.Add([]byte{80, 0})
	f.Add([]byte{0, 0x77, 0x7f, 0xff, 0xff, 0xe0})
	f.Fuzz(func(t *testing.T, key []byte) {
		p, err := Decode(key)
		if err != nil {
			return
		}
		if err := p.Validate(); err != nil {
			t.Fatalf("%x decodes to invalid %s: %v", key, p.FEN(), err)
		}
		if got := Encode(&p); !bytes.Equal(got, key) {
			t.Fatalf("%x decodes to %s, which encodes to %x", key, p.FEN(), got)
		}
		if p.HalfMoveClock() != 0 || p.FullMoveNumber() != 1 || p.EPSquare() != p.LegalEPSquare() {
			t.Fatalf("%x decodes to %s: want clocks 0 1 and only a legal ep square", key, p.FEN())
		}
	})
}
