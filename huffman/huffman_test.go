package huffman

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"testing"
)

func TestBitWriterMSBFirst(t *testing.T) {
	w := NewBitWriter([]byte{0xAA})
	w.WriteBit(true)
	w.WriteBits(0, 2)
	w.WriteBits(0x5, 3)    // 101
	w.WriteBits(0xFF03, 4) // only the low 4 bits: 0011
	got := w.Bytes()
	// 1 00 101 0011 -> 1001 0100 | 11 + 000000 padding
	want := []byte{0xAA, 0x94, 0xC0}
	if !bytes.Equal(got, want) {
		t.Errorf("got %x, want %x", got, want)
	}
}

func TestBitRoundTripRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for iter := 0; iter < 2000; iter++ {
		type field struct {
			v uint64
			n uint
		}
		var fields []field
		w := NewBitWriter(make([]byte, 0, rng.IntN(8)))
		total := 0
		for k := rng.IntN(40); k > 0; k-- {
			n := uint(rng.IntN(33))
			v := rng.Uint64() & (1<<n - 1)
			fields = append(fields, field{v, n})
			w.WriteBits(v, n)
			total += int(n)
		}
		b := w.Bytes()
		if len(b) != (total+7)/8 {
			t.Fatalf("%d bits gave %d bytes", total, len(b))
		}
		r := NewBitReader(b)
		for i, f := range fields {
			v, err := r.ReadBits(f.n)
			if err != nil || v != f.v {
				t.Fatalf("field %d: got %x, %v; want %x", i, v, err, f.v)
			}
		}
		if err := r.Finish(); err != nil {
			t.Fatalf("Finish: %v", err)
		}
	}
}

func TestBitReaderErrors(t *testing.T) {
	r := NewBitReader([]byte{0xF0})
	if _, err := r.ReadBits(9); !errors.Is(err, ErrUnexpectedEnd) {
		t.Errorf("reading 9 of 8 bits: %v", err)
	}
	if _, err := r.ReadBits(3); err != nil {
		t.Fatal(err)
	}
	if err := r.Finish(); !errors.Is(err, ErrNonZeroPadding) {
		t.Errorf("padding 10000: %v", err)
	}
	r = NewBitReader([]byte{0xE0, 0})
	r.ReadBits(3)
	if err := r.Finish(); !errors.Is(err, ErrTrailingBytes) {
		t.Errorf("trailing byte: %v", err)
	}
	r = NewBitReader([]byte{0xE0})
	r.ReadBits(3)
	if err := r.Finish(); err != nil {
		t.Errorf("clean padding: %v", err)
	}
}

// TestCanonicalCode checks the DEFLATE example of RFC 1951 section 3.2.2:
// lengths (3,3,3,3,3,2,4,4) give codes 010 011 100 101 110 00 1110 1111.
func TestCanonicalCode(t *testing.T) {
	c, err := NewCode([]uint8{3, 3, 3, 3, 3, 2, 4, 4})
	if err != nil {
		t.Fatal(err)
	}
	want := []uint32{0b010, 0b011, 0b100, 0b101, 0b110, 0b00, 0b1110, 0b1111}
	for sym, code := range want {
		if got := c.Packed(sym) >> 4; got != code {
			t.Errorf("symbol %d: code %b, want %b", sym, got, code)
		}
	}
	if !c.Complete() {
		t.Error("code not complete")
	}
	// Decode every symbol back, one after another.
	w := NewBitWriter(nil)
	for sym := range want {
		c.Write(&w, sym)
	}
	r := NewBitReader(w.Bytes())
	for sym := range want {
		got, err := c.Decode(&r)
		if err != nil || got != sym {
			t.Fatalf("decode: %d, %v; want %d", got, err, sym)
		}
	}
}

func TestCodeErrors(t *testing.T) {
	if _, err := NewCode([]uint8{1, 1, 1}); err == nil {
		t.Error("over-subscribed lengths accepted")
	}
	if _, err := NewCode([]uint8{16}); err == nil {
		t.Error("length 16 accepted")
	}
	// Incomplete code {0, 10}: pattern 11 is invalid.
	c, err := NewCode([]uint8{1, 2, 0})
	if err != nil {
		t.Fatal(err)
	}
	r := NewBitReader([]byte{0xC0})
	if _, err := c.Decode(&r); !errors.Is(err, ErrInvalidCode) {
		t.Errorf("invalid pattern: %v", err)
	}
	if c.Write(&BitWriter{}, 2) {
		t.Error("wrote a symbol without code")
	}
	// Truncated: a 2-bit code word with 1 bit left.
	r = NewBitReader([]byte{0xFF, 0xFF})
	r.ReadBits(15)
	if _, err := c.Decode(&r); !errors.Is(err, ErrUnexpectedEnd) {
		t.Errorf("truncated: %v", err)
	}
}

func TestBuildLengths(t *testing.T) {
	freq := []uint64{45, 13, 12, 16, 9, 5, 0}
	l, err := BuildLengths(freq, 15)
	if err != nil {
		t.Fatal(err)
	}
	// The textbook example: a 1, b..d 3, e f 4 (cost 224).
	cost := uint64(0)
	for i, f := range freq {
		cost += f * uint64(l[i])
	}
	if cost != 224 || l[6] != 0 {
		t.Errorf("lengths %v cost %d, want cost 224 and no code for the unused symbol", l, cost)
	}
	// Length limit: Fibonacci frequencies would need long codes.
	fib := []uint64{1, 1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144}
	l, err = BuildLengths(fib, 5)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := NewCode(l); err != nil {
		t.Errorf("limited lengths %v: %v", l, err)
	}
	for _, x := range l {
		if x > 5 {
			t.Errorf("length %d above the limit 5: %v", x, l)
		}
	}
	if _, err := BuildLengths(make([]uint64, 40), 5); err != nil {
		t.Error(err)
	}
	many := make([]uint64, 40)
	for i := range many {
		many[i] = 1
	}
	if _, err := BuildLengths(many, 5); err == nil {
		t.Error("40 symbols in 5-bit codes accepted")
	}
}

func TestLengthsText(t *testing.T) {
	l := []uint8{0, 1, 9, 10, 15}
	s := FormatLengths(l)
	if s != "019af" {
		t.Errorf("FormatLengths = %q", s)
	}
	back, err := ParseLengths(s)
	if err != nil || !bytes.Equal(back, l) {
		t.Errorf("ParseLengths(%q) = %v, %v", s, back, err)
	}
	if _, err := ParseLengths("0g"); err == nil {
		t.Error("bad digit accepted")
	}
}

func BenchmarkWriteBits(b *testing.B) {
	buf := make([]byte, 0, 64)
	b.ReportAllocs()
	for b.Loop() {
		w := NewBitWriter(buf[:0])
		for i := 0; i < 30; i++ {
			w.WriteBits(uint64(i), 5)
		}
		buf = w.Bytes()
	}
}
