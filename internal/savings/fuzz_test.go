package savings

import (
	"testing"

	"github.com/chessbook/chessbook/board"
)

// FuzzDecode feeds arbitrary bytes to every position decoder: each must
// return an error or a valid position that encodes back to a code it
// decodes to the same position, never panic.
func FuzzDecode(f *testing.F) {
	p := board.StartPosition()
	for _, e := range positionEncodings() {
		if c, err := e.Encode(&p); err == nil {
			f.Add(c.Bytes, c.Bits)
		}
	}
	f.Fuzz(func(t *testing.T, b []byte, bits int) {
		for _, e := range positionEncodings() {
			if !e.Lossless() {
				continue
			}
			q, err := e.Decode(code{Bytes: b, Bits: bits})
			if err != nil {
				continue
			}
			if err := q.Validate(); err != nil {
				t.Fatalf("%s: decoded an invalid position: %v", e.ID, err)
			}
			c, err := e.Encode(&q)
			if err != nil {
				t.Fatalf("%s: decoded %s, which does not encode: %v", e.ID, q.FEN(), err)
			}
			r, err := e.Decode(c)
			if err != nil || identity(&r, e.Keeps) != identity(&q, e.Keeps) {
				t.Fatalf("%s: %s does not survive a second round trip: %v", e.ID, q.FEN(), err)
			}
		}
	})
}
