package polyglot

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/chessbook/chessbook/board"
)

// FuzzReadBook feeds arbitrary bytes to the reader, the checker, Lookup,
// Probe and the writer: none may panic, and a book already in make-book
// order must be written back unchanged.
func FuzzReadBook(f *testing.F) {
	f.Add([]byte{})
	f.Add(make([]byte, 16))
	f.Add([]byte("<!DOCTYPE html><html></html>"))
	var buf bytes.Buffer
	start := board.StartPosition()
	k := Key(&start)
	_ = WriteBook(&buf, []Entry{
		{0, 0x4050, 0x4740, 0x0a312e30},
		{k, 0x031c, 10, 0}, {k, 0x02db, 5, 0}, {k, 0x0107, 0, 0}, {k, 0x7fff, 3, 0},
	})
	f.Add(buf.Bytes())
	if golden, err := os.ReadFile(filepath.Join("testdata", "golden.bin")); err == nil {
		f.Add(golden[:min(len(golden), 4096)])
	}
	for _, repo := range repoBooks { // the repository's reference books
		if data, err := os.ReadFile(bookPath(f, repo.path)); err == nil {
			f.Add(data[:min(len(data), 1024)])
		}
	}
	for _, data := range sharedBookSeeds(f) { // with -tags oracle
		f.Add(data)
	}
	positions := []board.Position{start}
	for _, fen := range roundTripFENs {
		if p, err := board.ParseFEN(fen); err == nil {
			positions = append(positions, p)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		_ = CheckBytes(data)
		b, err := ReadBook(bytes.NewReader(data))
		if err != nil {
			if len(data)%EntrySize == 0 {
				t.Fatalf("error for a size multiple of 16: %v", err)
			}
			return
		}
		if b.Len() != len(data)/EntrySize {
			t.Fatalf("Len %d for %d bytes", b.Len(), len(data))
		}
		_ = Check(b)
		_ = b.Header()
		for i, e := range b.Entries() {
			if i == 64 {
				break
			}
			got := b.Lookup(e.Key)
			if !e.IsHeader() && !slices.Contains(got, e) {
				t.Fatalf("Lookup(%016x) misses %s", e.Key, e)
			}
		}
		// Probe positions whose key the fuzzer may have put in the data.
		for i := range positions {
			moves, _ := b.Probe(&positions[i])
			for _, m := range moves {
				if !positions[i].IsLegal(m.Move) {
					t.Fatalf("Probe returned illegal %s", m.Move)
				}
			}
		}
		var out bytes.Buffer
		if err := WriteBook(&out, b.Entries()); err != nil {
			t.Fatal(err)
		}
		if slices.IsSortedFunc(b.Entries(), CompareEntries) && !bytes.Equal(out.Bytes(), data) {
			t.Fatal("a book in make-book order was not written back unchanged")
		}
		if err := WriteBook(io.Discard, nil); err != nil {
			t.Fatal(err)
		}
	})
}

// FuzzDecodeMove decodes arbitrary book moves in a few positions: no
// panics, decoded moves are legal, and encoding them gives the book move
// back (castling written as the king's own move aside).
func FuzzDecodeMove(f *testing.F) {
	for i, fen := range roundTripFENs {
		p, _ := board.ParseFEN(fen)
		var buf [board.MaxMoves]board.Move
		for _, m := range p.LegalMoves(buf[:0]) {
			f.Add(uint8(i), EncodeMove(&p, m))
		}
	}
	f.Add(uint8(0), uint16(0xffff))
	f.Fuzz(func(t *testing.T, fi uint8, m uint16) {
		p, err := board.ParseFEN(roundTripFENs[int(fi)%len(roundTripFENs)])
		if err != nil {
			t.Fatal(err)
		}
		d, err := DecodeMove(&p, m)
		_ = MoveString(m)
		_ = impossibleMove(m)
		if err != nil {
			return
		}
		if !p.IsLegal(d) {
			t.Fatalf("%s: decoded %s is not legal", MoveString(m), d)
		}
		if impossibleMove(m) != "" {
			t.Fatalf("%s decodes to %s but Check calls it impossible: %s", MoveString(m), d, impossibleMove(m))
		}
		if e := EncodeMove(&p, d); e != m && !(isKingCastleMove(m) && d.Kind() == board.MoveCastling) {
			t.Fatalf("%s decoded %s encoded %s", MoveString(m), d, MoveString(e))
		}
	})
}
