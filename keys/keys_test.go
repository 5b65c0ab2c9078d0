package keys

import (
	"bytes"
	"errors"
	"github.com/chessbook/chessbook/internal/testutil"
	"math/bits"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/huffman"
	"github.com/chessbook/chessbook/multitable"
	"github.com/chessbook/chessbook/polyglot"
)

func mustFEN(t testing.TB, fen string) board.Position {
	t.Helper()
	p, err := board.ParseFEN(fen)
	if err != nil {
		t.Fatalf("%s: %v", fen, err)
	}
	return p
}

func TestGolden(t *testing.T) {
	for _, g := range testutil.GoldenKeys {
		p := mustFEN(t, g.FEN)
		k := Encode(&p)
		if Hex(k) != g.Hex || Text(k) != g.Text {
			t.Errorf("%s: key %s / %s, want %s / %s", g.FEN, Hex(k), Text(k), g.Hex, g.Text)
		}
		q, err := Decode(k)
		if err != nil {
			t.Errorf("%s: %v", g.FEN, err)
			continue
		}
		if want := normalize(&p); q != want {
			t.Errorf("%s: decodes to %s, want %s", g.FEN, q.FEN(), want.FEN())
		}
	}
}

func TestStartPosition(t *testing.T) {
	p := board.StartPosition()
	k := Encode(&p)
	if k[0] != 80 || len(k) != 6 {
		t.Errorf("start key %x: want category 80 and 6 bytes", k)
	}
}

// TestClocksIgnored: the clocks and a dead en-passant square do not change
// the key, and Decode returns clocks 0 1.
func TestClocksIgnored(t *testing.T) {
	a := mustFEN(t, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1")
	b := mustFEN(t, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 17 33")
	ka, kb := Encode(&a), Encode(&b)
	if !bytes.Equal(ka, kb) {
		t.Errorf("keys differ: %x %x", ka, kb)
	}
	q, _ := Decode(ka)
	if q.HalfMoveClock() != 0 || q.FullMoveNumber() != 1 || q.EPSquare() != board.NoSquare {
		t.Errorf("decoded %s, want clocks 0 1 and no ep square", q.FEN())
	}
}

// TestEnPassant covers the en-passant field: present only with a legal
// capture, two candidates, a pinned capturer, and Black to move.
func TestEnPassant(t *testing.T) {
	for _, c := range []struct {
		fen    string
		legal  bool   // the en-passant square is kept
		noEP   string // the same position without en passant
		ptDiff bool   // the standard Polyglot key still differs from noEP's
	}{
		// Two candidates (d6 and f6 look like double steps), f6 is the real one.
		{"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", true,
			"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3", false},
		{"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3", true,
			"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3", false},
		// bxc6 e.p. would leave the king on a5 in check from h5: no key field.
		{"4k3/8/8/KPp4r/8/8/8/8 w - c6 0 1", false, "4k3/8/8/KPp4r/8/8/8/8 w - - 0 1", true},
		// Black to move.
		{"rnbqkbnr/ppp1pppp/8/8/2Pp4/8/PP1PPPPP/RNBQKBNR b KQkq c3 0 2", true,
			"rnbqkbnr/ppp1pppp/8/8/2Pp4/8/PP1PPPPP/RNBQKBNR b KQkq - 0 2", false},
		// No pawn beside the double-stepped one: the square is dead.
		{"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", false,
			"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1", false},
	} {
		p, q := mustFEN(t, c.fen), mustFEN(t, c.noEP)
		kp, kq := Encode(&p), Encode(&q)
		if c.legal == bytes.Equal(kp, kq) {
			t.Errorf("%s: key %x, without ep %x; legal capture %v", c.fen, kp, kq, c.legal)
		}
		d, err := Decode(kp)
		if err != nil {
			t.Errorf("%s: %v", c.fen, err)
			continue
		}
		if want := normalize(&p); d != want {
			t.Errorf("%s: decodes to %s, want %s", c.fen, d.FEN(), want.FEN())
		}
		if got := polyglot.Key(&p) != polyglot.Key(&q); got != (c.legal || c.ptDiff) {
			t.Errorf("%s: Polyglot keys differ: %v", c.fen, got)
		}
	}
}

// TestEncodeUnrepresentable: positions without exactly one king per side,
// or with a pawn on a back rank, get no key.
func TestEncodeUnrepresentable(t *testing.T) {
	var p board.Position
	p.Clear()
	p.Put(board.E1, board.WhiteKing)
	if k := Encode(&p); k != nil {
		t.Errorf("no black king: key %x", k)
	}
	p.Put(board.E8, board.BlackKing)
	p.Put(board.A1, board.WhiteKing)
	if k := Encode(&p); k != nil {
		t.Errorf("two white kings: key %x", k)
	}
	p.Put(board.A1, board.WhitePawn)
	if k := Encode(&p); k != nil {
		t.Errorf("pawn on a1: key %x", k)
	}
	dst := []byte("prefix")
	if got := Append(dst, &p); string(got) != "prefix" {
		t.Errorf("Append changed dst to %q", got)
	}
	p.Put(board.A1, board.NoPiece)
	if got := Append(dst, &p); !bytes.HasPrefix(got, dst) || len(got) <= len(dst) {
		t.Errorf("Append to a prefix: %q", got)
	}
}

// rawKey builds a key bit by bit like Append, but with any category byte
// and any en-passant field value (-1: none), to forge non-canonical keys.
func rawKey(cat uint8, p *board.Position, ep int, epBits uint) []byte {
	im := multitable.Implies(cat)
	w := huffman.NewBitWriter([]byte{cat})
	w.WriteBit(p.SideToMove() == board.Black)
	skip := im.Skip
	for c := board.White; c <= board.Black; c++ {
		k := p.KingSquare(c)
		if !im.KingImplied(c) {
			kingCode(int(c)).Write(&w, int(k))
		}
		skip |= k.Bitboard()
	}
	rest := uint64(^skip)
	occ := uint64(p.Occupied() &^ skip)
	for occ != 0 {
		s := bits.TrailingZeros64(occ)
		occ &= occ - 1
		start := bits.TrailingZeros64(rest)
		pc := int(p.PieceAt(board.Square(s)))
		if start == s {
			squareCode(s).Write(&w, pc)
		} else {
			squareCode(start).Write(&w, RunBase+bits.OnesCount64(rest&(1<<uint(s)-1)))
			landingCode(s).Write(&w, pc)
		}
		rest &^= 1<<uint(s)<<1 - 1
	}
	if rest != 0 {
		squareCode(bits.TrailingZeros64(rest)).Write(&w, RunBase+bits.OnesCount64(rest))
	}
	if ep >= 0 {
		w.WriteBits(uint64(ep), epBits)
	}
	return w.Bytes()
}

func TestRawKeyMatchesAppend(t *testing.T) {
	for _, g := range testutil.GoldenKeys {
		p := mustFEN(t, g.FEN)
		ep, epBits := -1, uint(0)
		if strings.Contains(g.FEN, "f6") {
			ep, epBits = 2, 2
		} else if strings.Contains(g.FEN, "KQkq - 0 3") {
			ep, epBits = 0, 2
		}
		if got := Hex(rawKey(multitable.Category(&p), &p, ep, epBits)); got != g.Hex {
			t.Errorf("%s: rawKey %s, Append %s", g.FEN, got, g.Hex)
		}
	}
}

// TestDecodeRejects feeds Decode broken and non-canonical keys.
func TestDecodeRejects(t *testing.T) {
	start := board.StartPosition()
	sk := Encode(&start)
	rooks := mustFEN(t, "4k3/8/8/8/8/8/8/R3K3 w - - 0 1")   // white rook at home, no right
	epPos := mustFEN(t, "4k3/8/8/KPp4r/8/8/8/8 w - c6 0 1") // illegal ep capture
	twoEP := mustFEN(t, "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3")
	// White (not to move) in check from the rook on h1: built by hand, as
	// ParseFEN rejects it.
	var check board.Position
	check.Clear()
	check.Put(board.E1, board.WhiteKing)
	check.Put(board.E8, board.BlackKing)
	check.Put(board.H1, board.BlackRook)
	check.SetSideToMove(board.Black)

	cases := []struct {
		name string
		key  []byte
	}{
		{"empty", nil},
		{"one byte", []byte{80}},
		{"category 81", append([]byte{81}, sk[1:]...)},
		{"category 255", append([]byte{255}, sk[1:]...)},
		{"trailing zero byte", append(append([]byte(nil), sk...), 0)},
		{"trailing garbage", append(append([]byte(nil), sk...), 0xde, 0xad)},
		{"non-zero padding", func() []byte { k := append([]byte(nil), sk...); k[len(k)-1] |= 1; return k }()},
		{"truncated", sk[:len(sk)-1]},
		{"too long", make([]byte, MaxLen+1)},
		// The rook on a1 coded in the scan under a category saying "no
		// rook on a1": the same position, a second, non-canonical key.
		{"rook coded under NoRook category", rawKey(multitable.Category(&rooks)-1, &rooks, -1, 0)},
		// An en-passant field although no capture is legal is not even
		// read: it is trailing data. With two candidates, value 3 is out
		// of range.
		{"ep field without legal capture", rawKey(multitable.Category(&epPos), &epPos, 1, 1)},
		{"ep value out of range", rawKey(multitable.Category(&twoEP), &twoEP, 3, 2)},
		{"side not to move in check", rawKey(multitable.Category(&check), &check, -1, 0)},
	}
	for _, c := range cases {
		p, err := Decode(c.key)
		if err == nil {
			t.Errorf("%s: key %x accepted as %s", c.name, c.key, p.FEN())
			continue
		}
		if !errors.Is(err, ErrInvalidKey) {
			t.Errorf("%s: error %v does not wrap ErrInvalidKey", c.name, err)
		}
		if p != (board.Position{}) {
			var empty board.Position
			empty.Clear()
			if p != empty {
				t.Errorf("%s: non-empty position %s with the error", c.name, p.FEN())
			}
		}
	}
}

// TestDecodeShortStrings decodes every string of up to two bytes: whatever
// is accepted must re-encode to itself and be valid.
func TestDecodeShortStrings(t *testing.T) {
	accepted := 0
	for n := 0; n <= 0xffff; n++ {
		for _, k := range [][]byte{{byte(n)}, {byte(n >> 8), byte(n)}} {
			p, err := Decode(k)
			if err != nil {
				continue
			}
			accepted++
			if got := Encode(&p); !bytes.Equal(got, k) {
				t.Errorf("%x accepted as %s, which encodes to %x", k, p.FEN(), got)
			}
		}
	}
	t.Logf("%d keys of at most 2 bytes", accepted)
}

// TestMutatedKeys flips bits of real keys: Decode must never panic, and
// whatever it accepts must be a valid position whose key is the input.
func TestMutatedKeys(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	var seeds [][]byte
	for _, g := range testutil.GoldenKeys {
		p := mustFEN(t, g.FEN)
		seeds = append(seeds, Encode(&p))
	}
	accepted := 0
	for i := 0; i < 200000; i++ {
		k := append([]byte(nil), seeds[rng.IntN(len(seeds))]...)
		for j := rng.IntN(3) + 1; j > 0; j-- {
			switch rng.IntN(4) {
			case 0, 1:
				if len(k) == 0 {
					continue
				}
				b := rng.IntN(len(k) * 8)
				k[b/8] ^= 0x80 >> (b % 8)
			case 2:
				k = k[:rng.IntN(len(k)+1)]
			case 3:
				k = append(k, byte(rng.IntN(256)))
			}
		}
		p, err := Decode(k)
		if err != nil {
			continue
		}
		accepted++
		if err := p.Validate(); err != nil {
			t.Fatalf("%x accepted as invalid %s: %v", k, p.FEN(), err)
		}
		if got := Encode(&p); !bytes.Equal(got, k) {
			t.Fatalf("%x accepted as %s, which encodes to %x", k, p.FEN(), got)
		}
	}
	t.Logf("%d of 200000 mutated keys are keys of other positions", accepted)
}

func TestParseCode(t *testing.T) {
	p := mustFEN(t, "r2q1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 9")
	k := Encode(&p)
	for _, s := range []string{Hex(k), strings.ToUpper(Hex(k)), Text(k)} {
		got, err := ParseCode(s)
		if err != nil || !bytes.Equal(got, k) {
			t.Errorf("ParseCode(%q) = %x, %v; want %x", s, got, err, k)
		}
	}
	for _, s := range []string{"", "zz", "5000241c0403", "UAAkHAQD", "UAAkHAQC=", "not a key!"} {
		if got, err := ParseCode(s); err == nil || !errors.Is(err, ErrInvalidKey) {
			t.Errorf("ParseCode(%q) = %x, %v; want an ErrInvalidKey error", s, got, err)
		}
	}
}

// TestAppendNoAllocs: encoding into a caller buffer allocates nothing, nor
// does decoding.
func TestAppendNoAllocs(t *testing.T) {
	p := mustFEN(t, "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3")
	var buf [MaxLen]byte
	if n := testing.AllocsPerRun(1000, func() { Append(buf[:0], &p) }); n != 0 {
		t.Errorf("Append: %v allocations", n)
	}
	k := Encode(&p)
	if n := testing.AllocsPerRun(1000, func() { Decode(k) }); n != 0 {
		t.Errorf("Decode: %v allocations", n)
	}
}
