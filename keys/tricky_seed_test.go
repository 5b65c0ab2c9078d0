package keys

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/ingest"
	"github.com/chessbook/chessbook/internal/testutil"
	"github.com/chessbook/chessbook/pgn"
)

// trickyPositions replays every game of the tricky files (all files,
// whatever they hold) and returns a varied sample of the positions reached:
// every start position from a FEN tag, a few positions of each kind
// (castling rights, legal en-passant capture, number of pieces) among those
// with a legal en-passant capture or where a castling right is lost, and
// every sampleEvery-th other one.
func trickyPositions(tb testing.TB, sampleEvery int) []board.Position {
	tb.Helper()
	files := trickyFiles(tb)
	s := &positionSampler{every: sampleEvery, seen: map[board.Position]bool{}, kinds: map[[3]int]int{}}
	for _, path := range files {
		f, err := os.Open(path)
		if err != nil {
			continue
		}
		_ = pgn.Read(f, ingest.NewReplayer(path, ingest.SinkFunc(s.game)))
		f.Close()
	}
	return s.out
}

type positionSampler struct {
	every int
	n     int
	seen  map[board.Position]bool
	kinds map[[3]int]int
	out   []board.Position
}

func (s *positionSampler) add(p board.Position) {
	if !s.seen[p] {
		s.seen[p] = true
		s.out = append(s.out, p)
	}
}

func (s *positionSampler) game(g *pgn.Game) error {
	p := g.Start
	if g.FromFEN {
		s.add(p)
	}
	for _, m := range g.Moves {
		before := p.Castling()
		p.Play(m)
		s.n++
		ep := p.LegalEPSquare() != board.NoSquare
		if ep || p.Castling() != before {
			kind := [3]int{int(p.Castling()), p.Occupied().Count(), 0}
			if ep {
				kind[2] = 1
			}
			if s.kinds[kind]++; s.kinds[kind] <= 3 {
				s.add(p)
			}
		} else if s.n%s.every == 0 {
			s.add(p)
		}
	}
	return nil
}

// FuzzParseCode: ParseCode (what bookquery decode and the HTTP API read)
// never panics; a code it accepts is a valid key, and the key's hex and
// text forms read back as the same key.
func FuzzParseCode(f *testing.F) {
	for _, g := range testutil.GoldenKeys {
		p, err := board.ParseFEN(g.FEN)
		if err != nil {
			f.Fatal(err)
		}
		k := Encode(&p)
		f.Add(Hex(k))
		f.Add(Text(k))
		f.Add(strings.ToUpper(Hex(k)))
	}
	for _, p := range trickyPositions(f, 400) {
		k := Encode(&p)
		f.Add(Hex(k))
		f.Add(Text(k))
	}
	for _, s := range []string{"", "00", "zz", "AA==", "____", "0g", strings.Repeat("f", 100)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, code string) {
		k, err := ParseCode(code)
		if err != nil {
			if k != nil {
				t.Fatalf("ParseCode(%q) returned %x with error %v", code, k, err)
			}
			return
		}
		p, err := Decode(k)
		if err != nil {
			t.Fatalf("ParseCode(%q) accepted %x, which Decode rejects: %v", code, k, err)
		}
		if got := Encode(&p); !bytes.Equal(got, k) {
			t.Fatalf("ParseCode(%q) = %x, not canonical (%x)", code, k, got)
		}
		if back, err := ParseCode(Hex(k)); err != nil || !bytes.Equal(back, k) {
			t.Fatalf("hex %s of %x reads back as %x, %v", Hex(k), k, back, err)
		}
		// Text output is misread only when it is all hex digits and the hex
		// reading is a valid key too (see ParseCode).
		if back, err := ParseCode(Text(k)); err != nil || !bytes.Equal(back, k) && !isHex(Text(k)) {
			t.Fatalf("text %s of %x reads back as %x, %v", Text(k), k, back, err)
		}
	})
}
