package savings

import (
	"errors"
	"reflect"
	"testing"

	"github.com/chessbook/chessbook/board"
)

// specialFENs are positions the corpora rarely or never hold: legal and
// illegal en-passant captures, promoted men beyond the initial set, lone
// kings, a king as the last man on the board, long clocks.
var specialFENs = []string{
	board.StartFEN,
	"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
	"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3",
	"4k3/8/8/KPp4r/8/8/8/8 w - c6 0 1",
	"8/8/8/8/8/8/8/K6k w - - 0 1",
	"k7/8/8/8/8/8/8/7K b - - 99 120",
	"7k/8/8/8/8/8/8/K7 w - - 150 200",
	"QQQ4k/QQQ5/8/8/8/8/8/K7 b - - 0 80",
	"rrrrk3/8/8/8/8/8/8/4K2R w K - 0 40",
	"r3k2r/8/8/8/8/8/8/R3K2R b Qk - 3 30",
	"1nbqkbn1/pppppppp/8/8/8/8/PPPPPPPP/1NBQKBN1 w - - 0 1",
	"4k3/8/8/8/3pPp2/8/8/4K3 b - e3 0 1",
	"8/8/8/2pPpPp1/8/8/8/K6k w - e6 0 1",
}

// TestRoundTrip encodes and decodes real positions with every lossless
// encoding and compares what comes back with the original; it also checks
// that the fast size functions agree with the encoders.
func TestRoundTrip(t *testing.T) {
	// Every position of the repository's games; in long mode every third
	// position of the shared small/ corpus too.
	files := testFiles(t)
	positions := positionsOf(loadGames(t, files[0]), 1)
	if len(files) > 1 {
		positions = append(positions, positionsOf(loadGames(t, files[1:]...), 3)...)
	}
	for _, fen := range specialFENs {
		p, err := board.ParseFEN(fen)
		if err != nil {
			t.Fatalf("%s: %v", fen, err)
		}
		positions = append(positions, p)
	}
	t.Logf("%d positions", len(positions))
	var s scratch
	for _, e := range positionEncodings() {
		t.Run(e.ID, func(t *testing.T) {
			unrep, fails := 0, 0
			for i := range positions {
				p := &positions[i]
				c, err := e.Encode(p)
				if errors.Is(err, errUnrepresentable) {
					unrep++
					if n := e.bits(p, &s); n != -1 {
						t.Fatalf("%s: size %d for a position Encode cannot write", p.FEN(), n)
					}
					continue
				}
				if err != nil {
					t.Fatalf("%s: %v", p.FEN(), err)
				}
				if n := e.bits(p, &s); n != c.Bits {
					t.Fatalf("%s: size function says %d bits, the code has %d", p.FEN(), n, c.Bits)
				}
				if !e.Lossless() {
					continue
				}
				q, err := e.Decode(c)
				if err != nil {
					t.Fatalf("%s: decode: %v", p.FEN(), err)
				}
				if got, want := identity(&q, e.Keeps), identity(p, e.Keeps); got != want {
					fails++
					if fails < 5 {
						t.Errorf("round trip of %s:\n got %s\nwant %s", p.FEN(), got, want)
					}
				}
			}
			if fails > 0 {
				t.Errorf("%d of %d positions differ after the round trip", fails, len(positions))
			}
			if unrep > 0 {
				t.Logf("%d positions not representable", unrep)
			}
		})
	}
}

// TestIdentityDetectsDifferences makes sure the comparison used by the
// round-trip test can fail: positions that differ in each kept field
// compare unequal.
func TestIdentityDetectsDifferences(t *testing.T) {
	base, _ := board.ParseFEN("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3")
	for _, fen := range []string{
		"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3",  // en passant
		"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w Kkq f6 0 3",  // castling
		"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPPKPPP/RNBQ1BNR b kq - 0 3",    // side, king
		"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 7 3", // clock
	} {
		q, err := board.ParseFEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		keeps := keepsPosition
		if fen[len(fen)-3] == '7' {
			keeps = keepsHalfMove
		}
		if identity(&q, keeps) == identity(&base, keeps) {
			t.Errorf("%s compares equal to %s", fen, base.FEN())
		}
	}
}

// TestCorruptInput feeds every decoder truncated and altered codes: each
// must return an error or a valid position, never panic.
func TestCorruptInput(t *testing.T) {
	p := board.StartPosition()
	for _, e := range positionEncodings() {
		if !e.Lossless() {
			continue
		}
		c, err := e.Encode(&p)
		if err != nil {
			t.Fatal(err)
		}
		for n := 0; n < c.Bits; n += 7 {
			b := append([]byte(nil), c.Bytes[:(n+7)/8]...)
			if n%8 != 0 {
				b[len(b)-1] &= 0xff << (8 - uint(n%8))
			}
			if q, err := e.Decode(code{Bytes: b, Bits: n}); err == nil {
				if q.Validate() != nil {
					t.Errorf("%s: truncated to %d bits: invalid position %s without an error", e.ID, n, q.FEN())
				}
			}
		}
		for i := 0; i < c.Bits; i++ {
			b := append([]byte(nil), c.Bytes...)
			b[i/8] ^= 0x80 >> uint(i%8)
			if q, err := e.Decode(code{Bytes: b, Bits: c.Bits}); err == nil && q.Validate() != nil {
				t.Errorf("%s: bit %d flipped: invalid position without an error", e.ID, i)
			}
		}
		if _, err := e.Decode(code{Bytes: c.Bytes, Bits: c.Bits + 9}); err == nil {
			t.Errorf("%s: a length beyond the bytes was accepted", e.ID)
		}
	}
}

// TestSizesAgree checks the accumulator's shared size computation against
// each encoding's own on real positions.
func TestSizesAgree(t *testing.T) {
	positions := positionsOf(loadGames(t, championsPGN), 1)
	a, err := newAccumulator(accumulatorOptions{})
	if err != nil {
		t.Fatal(err)
	}
	encs := positionEncodings()
	var s scratch
	for i := range positions {
		q := normalize(&positions[i])
		var sz [numPositionEncodings]int
		a.sizes(&q, &sz)
		for j := range encs {
			if want := encs[j].bits(&q, &s); sz[j] != want {
				t.Fatalf("%s: %s: %d bits, want %d", q.FEN(), encs[j].ID, sz[j], want)
			}
		}
	}
}

// TestDistinct checks the distinct counts and the collision detection
// against a plain map, with a deliberately weak "Polyglot key" (the
// occupancy's population count and side to move) so that collisions are
// many.
func TestDistinct(t *testing.T) {
	games := loadGames(t, championsPGN)
	weak := func(p *board.Position) uint64 {
		return uint64(p.Occupied().Count())<<8 | uint64(p.SideToMove()) |
			uint64(p.KingSquare(board.White))<<16 | uint64(p.KingSquare(board.Black))<<24
	}
	weak128 := func(p *board.Position) [2]uint64 { return [2]uint64{weak(p), uint64(p.Castling())} }
	for _, tc := range []struct {
		name string
		zob  func(*board.Position) uint64
		h128 func(*board.Position) [2]uint64
	}{{"real", zobristKey, hash128}, {"weak", weak, weak128}} {
		d := newDistinct()
		d.zob, d.h128 = tc.zob, tc.h128
		games := games
		if tc.name == "weak" {
			games = games[:100] // every probe decodes keys: keep it small
		}
		keysSeen := map[string]bool{}
		pairs := map[string]bool{}
		zobs := map[uint64]bool{}
		h128s := map[[2]uint64]bool{}
		for _, g := range games {
			p := g.start
			for _, m := range g.moves {
				q := normalize(&p)
				k, _ := encodeKey(&q)
				d.Add(k.Bytes, tc.zob(&q), m)
				if !keysSeen[string(k.Bytes)] {
					keysSeen[string(k.Bytes)] = true
					zobs[tc.zob(&q)] = true
					h128s[tc.h128(&q)] = true
				}
				pairs[string(k.Bytes)+string(rune(m))] = true
				p.Play(m)
			}
		}
		c, err := d.Counts()
		if err != nil {
			t.Fatal(err)
		}
		want := distinctCounts{Positions: uint64(len(keysSeen)), Entries: uint64(len(pairs)),
			Collisions: uint64(len(keysSeen) - len(zobs)), Collisions2: uint64(len(keysSeen) - len(h128s))}
		var kb uint64
		for k := range keysSeen {
			kb += uint64(len(k))
		}
		want.KeyBytes = kb
		got := c
		got.Examples = nil
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: got %+v, want %+v", tc.name, got, want)
		}
		if tc.name == "weak" && len(c.Examples) == 0 {
			t.Errorf("weak hash: no collision example")
		}
		t.Logf("%s: %+v", tc.name, got)
	}
}
