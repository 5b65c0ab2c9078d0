package stats

import (
	"bytes"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"github.com/chessbook/chessbook/internal/testutil"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/pgn"
)

var rewrite = flag.Bool("rewrite", false, "rewrite the expected output of data-driven tests")

// TestEncodingDataDriven runs testdata/encoding: "encode" adds the games
// listed one per line (move result rating date) and shows the encoding one
// move record per line; "decode HEX" shows the decoded entry or the error.
func TestEncodingDataDriven(t *testing.T) {
	testutil.RunDataDriven(t, "testdata/encoding", *rewrite, func(cmd string, args []string, input []string) string {
		switch cmd {
		case "encode":
			var e Entry
			for _, line := range input {
				f := strings.Fields(line)
				if len(f) != 4 {
					t.Fatalf("bad game line %q", line)
				}
				rating, err := strconv.Atoi(f[2])
				if err != nil {
					t.Fatal(err)
				}
				e.Add(parseMove(t, f[0]), pgn.ParseResult([]byte(f[1])), rating, ParseDate(f[3]))
			}
			enc := e.AppendEncode(nil)
			return formatEncoding(enc) + formatEntry(enc)
		case "decode":
			b, err := hex.DecodeString(strings.Join(args, ""))
			if err != nil {
				t.Fatal(err)
			}
			return formatEntry(b)
		}
		t.Fatalf("unknown command %q", cmd)
		return ""
	})
}

// formatEncoding shows enc as hex, the version byte and then one move
// record per line.
func formatEncoding(enc []byte) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "%x\n", enc[:1])
	r, _ := newReader(enc)
	start := r.off
	for {
		_, _, ok, err := r.next()
		if err != nil || !ok {
			break
		}
		fmt.Fprintf(&sb, "%x\n", enc[start:r.off])
		start = r.off
	}
	fmt.Fprintf(&sb, "(%d bytes)\n", len(enc))
	return sb.String()
}

func formatEntry(enc []byte) string {
	e, err := Decode(enc)
	if err != nil {
		return "error: " + err.Error() + "\n"
	}
	var sb strings.Builder
	for _, m := range e.Moves {
		fmt.Fprintf(&sb, "%s: +%d =%d -%d *%d rating %d/%d dates %s..%s\n",
			formatMove(m.Move), m.WhiteWins, m.Draws, m.BlackWins, m.Unknown,
			m.RatingSum, m.RatingCount, m.FirstDate, m.LastDate)
	}
	return sb.String()
}

// parseMove parses a plain from-to move such as "e2e4", or a raw number.
func parseMove(t *testing.T, s string) board.Move {
	if v, err := strconv.ParseUint(s, 0, 16); err == nil {
		return board.Move(v)
	}
	if len(s) != 4 {
		t.Fatalf("bad move %q", s)
	}
	sq := func(f, r byte) board.Square { return board.Square(int(r-'1')*8 + int(f-'a')) }
	return board.NewMove(sq(s[0], s[1]), sq(s[2], s[3]))
}

func formatMove(m board.Move) string {
	if m.Kind() != board.MoveNormal {
		return fmt.Sprintf("%#04x", uint16(m))
	}
	sq := func(s board.Square) string { return string([]byte{'a' + byte(s%8), '1' + byte(s/8)}) }
	return sq(m.From()) + sq(m.To())
}

func TestRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 2000; i++ {
		e := randomEntry(r)
		enc := e.AppendEncode([]byte("prefix"))
		got, err := Decode(enc[len("prefix"):])
		if err != nil {
			t.Fatalf("%+v: %v", e, err)
		}
		if !got.Equal(e) {
			t.Fatalf("round trip:\n got %+v\nwant %+v", got, e)
		}
		if err := ValidateEncoded(enc[len("prefix"):]); err != nil {
			t.Fatal(err)
		}
	}
}

func TestDecodeErrors(t *testing.T) {
	valid := Entry{Moves: []MoveEntry{{Move: e2e4, MoveStats: MoveStats{CellStats: CellStats{WhiteWins: 1}}}}}.AppendEncode(nil)
	for name, b := range map[string][]byte{
		"empty":          {},
		"version":        {2},
		"truncated":      valid[:len(valid)-1],
		"trailing":       append(append([]byte{}, valid...), 0),
		"reserved flag":  {1, 0x0c, 0x07, 0x80},
		"span no date":   {1, 0x0c, 0x07, 0x40, 0x02},
		"zero counter":   {1, 0x0c, 0x07, 0x01, 0x00},
		"zero rating":    {1, 0x0c, 0x07, 0x10, 0x00, 0x00},
		"zero date":      {1, 0x0c, 0x07, 0x20, 0x00},
		"zero span":      {1, 0x0c, 0x07, 0x60, 0x05, 0x00},
		"negative date":  {1, 0x0c, 0x07, 0x60, 0x05, 0x0b},
		"date too big":   {1, 0x0c, 0x07, 0x20, 0x80, 0x80, 0x80, 0x80, 0x10},
		"overlong":       {1, 0x0c, 0x07, 0x01, 0x81, 0x00},
		"varint too big": {1, 0x0c, 0x07, 0x01, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f},
		"same move":      {1, 0x0c, 0x07, 0x01, 0x01, 0x0c, 0x07, 0x01, 0x01},
		"unsorted":       {1, 0x0c, 0x07, 0x01, 0x01, 0x0b, 0x07, 0x01, 0x01},
	} {
		if _, err := Decode(b); !errors.Is(err, ErrCorrupt) {
			t.Errorf("%s: Decode(%x) error = %v, want ErrCorrupt", name, b, err)
		}
		if _, err := MergeEncoded(nil, valid, b); !errors.Is(err, ErrCorrupt) {
			t.Errorf("%s: MergeEncoded error = %v, want ErrCorrupt", name, err)
		}
		if _, err := MergeEncoded(nil, b, valid); !errors.Is(err, ErrCorrupt) {
			t.Errorf("%s: MergeEncoded error = %v, want ErrCorrupt", name, err)
		}
	}
}

func TestMergeEncodedAllocs(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	a, b := randomEntry(r).AppendEncode(nil), randomEntry(r).AppendEncode(nil)
	dst := make([]byte, 0, len(a)+len(b))
	if n := testing.AllocsPerRun(100, func() {
		if _, err := MergeEncoded(dst[:0], a, b); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Errorf("MergeEncoded allocates %v times", n)
	}
	if n := testing.AllocsPerRun(100, func() { _ = ValidateEncoded(a) }); n != 0 {
		t.Errorf("ValidateEncoded allocates %v times", n)
	}
	var e Entry
	_ = DecodeInto(&e, a)
	if n := testing.AllocsPerRun(100, func() { _ = DecodeInto(&e, a) }); n != 0 {
		t.Errorf("DecodeInto with capacity allocates %v times", n)
	}
}

// FuzzDecode checks that Decode never panics, that whatever it accepts
// re-encodes to the same bytes (the encoding is canonical), and that
// MergeEncoded agrees with Entry.Merge on the accepted values.
func FuzzDecode(f *testing.F) {
	r := rand.New(rand.NewPCG(7, 8))
	for i := 0; i < 20; i++ {
		f.Add(randomEntry(r).AppendEncode(nil), randomEntry(r).AppendEncode(nil))
	}
	f.Add([]byte{1}, []byte{})
	f.Add([]byte{1, 0x0c, 0x07, 0x60, 0x05, 0x0b}, []byte{1, 0x0c, 0x07, 0x01, 0x81, 0x00})
	f.Fuzz(func(t *testing.T, a, b []byte) {
		ea, errA := Decode(a)
		if (errA == nil) != (ValidateEncoded(a) == nil) {
			t.Fatalf("Decode and ValidateEncoded disagree on %x: %v", a, errA)
		}
		if errA == nil {
			if re := ea.AppendEncode(nil); !bytes.Equal(re, a) {
				t.Fatalf("not canonical: %x re-encodes to %x", a, re)
			}
		}
		eb, errB := Decode(b)
		m, err := MergeEncoded(nil, a, b)
		if (err == nil) != (errA == nil && errB == nil) {
			t.Fatalf("MergeEncoded error %v, Decode errors %v, %v", err, errA, errB)
		}
		if err != nil {
			return
		}
		if len(m) > len(a)+len(b) {
			t.Fatalf("merged %d+%d bytes into %d", len(a), len(b), len(m))
		}
		ea.Merge(eb)
		if want := ea.AppendEncode(nil); !bytes.Equal(m, want) {
			t.Fatalf("MergeEncoded = %x, Entry.Merge gives %x", m, want)
		}
	})
}

func BenchmarkMergeEncoded(b *testing.B) {
	r := rand.New(rand.NewPCG(9, 10))
	x, y := randomEntry(r).AppendEncode(nil), randomEntry(r).AppendEncode(nil)
	dst := make([]byte, 0, len(x)+len(y))
	b.SetBytes(int64(len(x) + len(y)))
	for b.Loop() {
		if _, err := MergeEncoded(dst[:0], x, y); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDecode(b *testing.B) {
	r := rand.New(rand.NewPCG(9, 10))
	x := randomEntry(r).AppendEncode(nil)
	var e Entry
	b.SetBytes(int64(len(x)))
	for b.Loop() {
		if err := DecodeInto(&e, x); err != nil {
			b.Fatal(err)
		}
	}
}
