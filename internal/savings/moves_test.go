package savings

import (
	"bytes"
	"context"
	"encoding/hex"
	"math"
	"math/big"
	"slices"
	"testing"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/gamecode"
	"github.com/chessbook/chessbook/pgn"
	"github.com/klauspost/compress/zstd"
)

// TestMoveCodesRoundTrip encodes every game with each move code and the
// game codes, decodes it and compares the moves; it also checks the
// per-move sizes the report adds up against the codes' lengths.
func TestMoveCodesRoundTrip(t *testing.T) {
	games := loadGames(t, championsPGN)
	if testing.Short() {
		games = games[:200]
	}
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderConcurrency(1))
	if err != nil {
		t.Fatal(err)
	}
	dec, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1))
	if err != nil {
		t.Fatal(err)
	}
	defer dec.Close()
	var buf [board.MaxMoves]board.Move
	for gi, g := range games {
		start := g.start
		type codec struct {
			name   string
			encode func(*board.Position, []board.Move) (code, error)
			decode func(*board.Position, code) ([]board.Move, error)
		}
		sizes := map[string]float64{}
		p := start
		for _, m := range g.moves {
			n := len(p.LegalMoves(buf[:0]))
			sizes["san"] += float64(sanBits(&p, m, nil))
			sizes["fromto"] += float64(fromToBits(m))
			sizes["legalindex"] += float64(legalIndexBits(n))
			sizes["legalradix"] += legalRadixBits(n)
			p.Play(m)
		}
		plies := len(g.moves)
		for _, c := range []codec{
			{"san", encodeSANText, decodeSANText},
			{"fromto", encodeFromTo, decodeFromTo},
			{"legalindex", encodeLegalIndex, func(s *board.Position, c code) ([]board.Move, error) { return decodeLegalIndex(s, c, plies) }},
			{"legalradix", encodeLegalRadix, func(s *board.Position, c code) ([]board.Move, error) { return decodeLegalRadix(s, c, plies) }},
		} {
			code, err := c.encode(&start, g.moves)
			if err != nil {
				t.Fatalf("game %d: %s: %v", gi, c.name, err)
			}
			got, err := c.decode(&start, code)
			if err != nil {
				t.Fatalf("game %d: %s: decode: %v", gi, c.name, err)
			}
			if !slices.Equal(got, g.moves) {
				t.Fatalf("game %d: %s: moves differ after the round trip", gi, c.name)
			}
			want := sizes[c.name]
			if c.name == "legalradix" {
				want = math.Ceil(want - 1e-9)
			}
			if float64(code.Bits) != want && !(c.name == "legalradix" && math.Abs(float64(code.Bits)-want) <= 1) {
				t.Fatalf("game %d: %s: %d bits, the per-move sizes add up to %v", gi, c.name, code.Bits, want)
			}
		}
		// gamecode and zstd of the SAN text.
		ig := pgn.Game{Start: start, Moves: g.moves, Result: pgn.Draw}
		rec, err := gamecode.AppendGame(nil, &ig)
		if err != nil {
			t.Fatalf("game %d: gamecode: %v", gi, err)
		}
		dg, err := gamecode.DecodeGame(rec)
		if err != nil || !slices.Equal(dg.Moves, g.moves) {
			t.Fatalf("game %d: gamecode round trip: %v", gi, err)
		}
		text := appendSANText(nil, &start, g.moves)
		z := enc.EncodeAll(text, nil)
		back, err := dec.DecodeAll(z, nil)
		if err != nil || !bytes.Equal(back, text) {
			t.Fatalf("game %d: zstd round trip: %v", gi, err)
		}
		moves, err := decodeSANText(&start, padded(back))
		if err != nil || !slices.Equal(moves, g.moves) {
			t.Fatalf("game %d: SAN from zstd: %v", gi, err)
		}
	}
}

// TestMoveCodesReject checks that decoders refuse codes that are not
// theirs.
func TestMoveCodesReject(t *testing.T) {
	start := board.StartPosition()
	if _, err := decodeFromTo(&start, code{Bytes: []byte{0xff, 0xf0}, Bits: 12}); err == nil {
		t.Error("fromto: h8h8 accepted")
	}
	if _, err := decodeLegalIndex(&start, code{Bytes: []byte{0xf8}, Bits: 5}, 1); err == nil {
		t.Error("legalindex: index 31 of 20 accepted")
	}
	if _, err := decodeSANText(&start, padded([]byte("e5 "))); err == nil {
		t.Error("san: e5 accepted for White")
	}
	if _, err := decodeLegalRadix(&start, code{Bytes: []byte{0xff}, Bits: 5}, 1); err == nil {
		t.Error("legalradix: 31 of 20 accepted")
	}
}

// TestBase85 compares with Python's base64.b85encode.
func TestBase85(t *testing.T) {
	for _, tc := range []struct{ hex, text string }{
		{"68656c6c6f", "Xk~0{Zv"},
		{"00", "00"},
		{"ffffffffff", "|NsC0{{"},
		{"01020304050607", "0RjUA1qKH"},
		{"", ""},
	} {
		b, _ := hex.DecodeString(tc.hex)
		if got := string(appendBase85(nil, b)); got != tc.text {
			t.Errorf("%s: %q, want %q", tc.hex, got, tc.text)
		}
		if base85Len(len(b)) != len(tc.text) {
			t.Errorf("%s: Base85Len %d, want %d", tc.hex, base85Len(len(b)), len(tc.text))
		}
		back, err := decodeBase85(tc.text)
		if err != nil || !bytes.Equal(back, b) {
			t.Errorf("%q: decoded %x, %v", tc.text, back, err)
		}
	}
	if _, err := decodeBase85("0"); err == nil {
		t.Error("a lone character accepted")
	}
	if _, err := decodeBase85("~~~~~"); err == nil {
		t.Error("a group above 2^32 accepted")
	}
}

// TestDist checks the histogram's statistics against exact ones.
func TestDist(t *testing.T) {
	d := dist{Scale: 8}
	var vals []float64
	for i := 0; i < 1001; i++ {
		v := float64(i%97) + float64(i%8)/8
		vals = append(vals, v)
		d.Add(v, 1)
	}
	slices.Sort(vals)
	s := d.Stat()
	if s.Count != 1001 || s.Median != vals[500] || s.Min != vals[0] || s.Max != vals[1000] {
		t.Errorf("stat %+v; want median %v min %v max %v", s, vals[500], vals[0], vals[1000])
	}
	var sum float64
	for _, v := range vals {
		sum += v
	}
	if math.Abs(s.Mean-sum/1001) > 1e-9 {
		t.Errorf("mean %v, want %v", s.Mean, sum/1001)
	}
	var e, w dist
	e.Add(3, 5)
	w.Add(10, 1)
	w.Merge(&e)
	if st := w.Stat(); st.Count != 6 || st.Median != 3 || st.Max != 10 || st.Min != 3 {
		t.Errorf("weighted merge: %+v", st)
	}
}

// TestFENLen checks the FEN length shortcut on odd positions.
func TestFENLen(t *testing.T) {
	for _, fen := range specialFENs {
		p, _ := board.ParseFEN(fen)
		if got, want := fenLen(&p), len(p.FEN()); got != want {
			t.Errorf("%s: FENLen %d, want %d", fen, got, want)
		}
	}
	p := board.StartPosition()
	if c, _ := encodeFEN(&p); c.Bits != 56*8 {
		t.Errorf("start position FEN: %d bits, want 448 (56 characters)", c.Bits)
	}
}

// TestRadixWidths checks the fixed widths against math/big.
func TestRadixWidths(t *testing.T) {
	if got := bitsFor(powInt(13, 64)); got != base13BoardBits {
		t.Errorf("base 13: %d bits, constant %d", got, base13BoardBits)
	}
	if got := bitsFor(new(big.Int).Mul(powInt(11, 16), powInt(13, 48))); got != varBaseBoardBits {
		t.Errorf("variable base: %d bits, constant %d", got, varBaseBoardBits)
	}
}

// TestSeedClaims checks a few verdicts that follow from the seeds'
// arithmetic, whatever the corpus.
func TestSeedClaims(t *testing.T) {
	r, err := FromPGN(context.Background(), []string{championsPGN}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"Huffman table: the start position in 164 bits":                          Holds,
		"stream code: the start position in 18 bytes":                            Holds,
		"base 13: 13^64 ~ 1.96e71, 237 bits, 7.5% less than 256":                 Holds,
		"variable base 11/13: 11^16 x 13^48 ~ 1.35e70, 233 bits":                 Holds,
		"piece positions: 105 bits per side, 210 at worst (the start position)":  NotHolds,
		"dynamic method: 42 to 228 bits":                                         Holds,
		"test case rnbqkbnr/pppp1ppp/8/4Pp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3": Corrected,
		"static: the second White bishop at bit indexes [113, 119]":              NotHolds,
		"20 possible moves for each side's first move":                           Holds,
	}
	for _, c := range r.Claims {
		if v, ok := want[c.Claim]; ok {
			if c.Verdict != v {
				t.Errorf("%s: %s (%s), want %s", c.Claim, c.Verdict, c.Got, v)
			}
			delete(want, c.Claim)
		}
	}
	for c := range want {
		t.Errorf("claim %q not checked", c)
	}
}
