package polyglot

import (
	"bytes"
	"strings"
	"testing"
)

func TestCheckFindings(t *testing.T) {
	mv := func(s string) uint16 { return bookMove(t, s) }
	b := NewBook([]Entry{
		{0, 0x4050, 0x4740, 0x0a312e30}, // 0 header
		{10, mv("e2e4"), 5, 0},          // 1
		{10, mv("d2d4"), 7, 0},          // 2 heavier than the one before
		{10, mv("e2e4"), 1, 0},          // 3 duplicate of 1
		{20, mv("e2e2"), 1, 0},          // 4 from == to
		{20, mv("a1b4"), 1, 0},          // 5 no piece moves so
		{20, mv("e7e8q") | 7<<12, 1, 0}, // 6 promotion code 7 (with q bits: 4|7 = 7)
		{20, mv("e6e7q"), 1, 0},         // 7 promotion to the 7th rank
		{20, mv("a7c8q"), 1, 0},         // 8 promotion two files away
		{30, mv("e1g1"), 1, 0},          // 9 king-style castling
		{30, mv("g1f3"), 0, 0},          // 10 weight 0
		{40, mv("b8c6"), 3, 12345},      // 11 learn
		{40, mv("a2a1n"), 3, 0},         // 12 a legal-looking promotion
	})
	fs := Check(b)
	want := map[string]struct {
		sev          Severity
		index, count int
	}{
		CodeBadMove:     {Error, 4, 5},
		CodeDuplicate:   {Warning, 3, 1},
		CodeCastling:    {Warning, 9, 1}, // no e1h1-style castling in the book
		CodeWeightOrder: {Info, 2, 1},
		CodeWeightZero:  {Info, 10, 1},
		CodeLearn:       {Info, 11, 1},
		CodeHeader:      {Info, 0, 1},
		CodeSummary:     {Info, -1, 13},
	}
	for code, w := range want {
		f := findCode(fs, code)
		if f == nil {
			t.Errorf("no %s finding in %v", code, fs)
			continue
		}
		if f.Severity != w.sev || f.Index != w.index || f.Count != w.count {
			t.Errorf("%s: got %v at %d count %d, want %v at %d count %d: %s", code, f.Severity, f.Index, f.Count, w.sev, w.index, w.count, f.Message)
		}
	}
	if len(fs) != len(want) {
		t.Errorf("%d findings, want %d: %v", len(fs), len(want), fs)
	}
	for i := 1; i < len(fs); i++ {
		if fs[i].Severity > fs[i-1].Severity {
			t.Errorf("findings not most serious first: %v", fs)
		}
	}
	if s := findCode(fs, CodeSummary).Message; !strings.Contains(s, "13 entries (208 bytes), 4 positions") {
		t.Errorf("summary %q", s)
	}
	bad := findCode(fs, CodeBadMove).Message
	for _, s := range []string{"e2e2", "a1b4", "e7e8?", "..."} {
		if !strings.Contains(bad, s) {
			t.Errorf("bad-move message lacks %q: %s", s, bad)
		}
	}
	if s := fs[0].String(); !strings.HasPrefix(s, "error: ") {
		t.Errorf("String() = %q", s)
	}

	if s := findCode(fs, CodeCastling).String(); s != "warning: 1 entry moves from e1/e8 to g1/c1/g8/c8, suspicious: "+
		"PolyGlot writes castling as king-takes-rook (e1h1, e1a1, e8h8, e8a8), and the book has no king-takes-rook castling move, "+
		"so it probably writes castling the wrong way: entry 9 000000000000001e e1g1 w=1 l=0" {
		t.Errorf("castling finding %q", s)
	}
}

// TestCheckRookMovesNotSuspicious: in a book that writes castling the
// PolyGlot way (make-book's, bookquery export's), e1g1-style entries are
// rook or queen moves, noted as info and not called suspicious (a large
// export had 22 such entries, all rook or queen moves of its games).
func TestCheckRookMovesNotSuspicious(t *testing.T) {
	mv := func(s string) uint16 { return bookMove(t, s) }
	b := NewBook([]Entry{{30, mv("e1g1"), 1, 0}, {31, mv("e1h1"), 1, 0}, {32, mv("e8c8"), 4, 0}, {33, mv("e8a8"), 2, 0}})
	f := findCode(Check(b), CodeCastling)
	want := "info: 2 entries move from e1/e8 to g1/c1/g8/c8: rook or queen moves, not castling, as the book writes castling the PolyGlot way, " +
		"king takes rook (e1h1, e1a1, e8h8, e8a8: 2 entries): entry 0 000000000000001e e1g1 w=1 l=0; entry 2 0000000000000020 e8c8 w=4 l=0"
	if f == nil || f.String() != want {
		t.Errorf("castling finding %v, want %q", f, want)
	}
}

func TestCheckNotABookContent(t *testing.T) {
	// An HTML page whose size happens to be a multiple of 16 reads as a
	// book; Check says what it is.
	page := []byte("<!DOCTYPE html>\n<html><body>Not Found</body></html>\n")
	page = append(page, bytes.Repeat([]byte(" "), (16-len(page)%16)%16)...)
	b, err := ParseBook(page)
	if err != nil {
		t.Fatal(err)
	}
	if f := findCode(Check(b), CodeNotBook); f == nil || f.Severity != Error || !strings.Contains(f.Message, "HTML") {
		t.Errorf("Check(html) = %v", Check(b))
	}
	// A truncated real-looking book: the size is reported, the whole
	// entries are still checked.
	var buf bytes.Buffer
	if err := WriteBook(&buf, []Entry{{1, bookMove(t, "e2e4"), 1, 0}, {1, bookMove(t, "e2e4"), 1, 0}}); err != nil {
		t.Fatal(err)
	}
	fs := CheckBytes(buf.Bytes()[:buf.Len()-3])
	if f := findCode(fs, CodeSize); f == nil || f.Count != 13 || !strings.Contains(f.Message, "size 29 is not a multiple of 16") {
		t.Errorf("size finding: %v", fs)
	}
	if findCode(fs, CodeSummary) == nil || findCode(fs, CodeNotBook) != nil {
		t.Errorf("CheckBytes(truncated) = %v", fs)
	}
	if fs := CheckBytes(nil); findCode(fs, CodeEmpty) == nil {
		t.Errorf("CheckBytes(nil) = %v", fs)
	}
}

func TestCheckCleanReference(t *testing.T) {
	// make-book's output has nothing worse than info.
	for _, rb := range realBooks() {
		if !isReference(rb.path) {
			continue
		}
		for _, f := range Check(openShared(t, rb.path)) {
			if f.Severity != Info {
				t.Errorf("%s: %v", rb.path, f)
			}
		}
	}
}

func TestSeverityString(t *testing.T) {
	if Info.String() != "info" || Warning.String() != "warning" || Error.String() != "error" || Severity(9).String() != "Severity(9)" {
		t.Error("Severity.String")
	}
}
