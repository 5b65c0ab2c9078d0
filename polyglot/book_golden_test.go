package polyglot

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chessbook/chessbook/board"
)

var update = flag.Bool("update", false, "rewrite testdata/golden.bin")

// goldenLines are the games of testdata/golden.bin: both castlings for both
// sides, an under-promotion with check, and an en-passant capture.
var goldenLines = []string{
	"e4 e5 Nf3 Nc6 Bc4 Nf6 O-O Be7 d4 exd4 e5 Ne4",
	"d4 d5 c4 e5 dxe5 d4 e3 Bb4+ Bd2 dxe3 Bxb4 exf2+ Ke2 fxg1=N+",
	"e4 d5 e5 f5 exf6",
	"d4 d5 Nc3 Nc6 Bf4 Bf5 Qd2 Qd7 O-O-O O-O-O",
	"e4 c5 Nf3 d6 Bb5+ Bd7 Bxd7+ Qxd7 O-O Nc6 c3 Nf6 Re1 e6 d4 cxd4 cxd4 d5 e5 Ne4 Nbd2 Be7 Nxe4 dxe4 Rxe4 O-O",
}

// goldenEntries replays goldenLines: every (position, move) gets weight
// 1 + ply%3 per game, summed over the games, in first-seen order.
func goldenEntries(t *testing.T) []Entry {
	t.Helper()
	var es []Entry
	index := map[[2]uint64]int{}
	for _, line := range goldenLines {
		p := board.StartPosition()
		for ply, san := range strings.Fields(line) {
			m, err := p.ParseSAN([]byte(san))
			if err != nil {
				t.Fatalf("%s: %v", line, err)
			}
			e := Entry{Key: Key(&p), Move: EncodeMove(&p, m), Weight: uint16(1 + ply%3)}
			id := [2]uint64{e.Key, uint64(e.Move)}
			if i, ok := index[id]; ok {
				es[i].Weight += e.Weight
			} else {
				index[id] = len(es)
				es = append(es, e)
			}
			p.Play(m)
		}
	}
	return es
}

// TestGoldenBook writes the golden book and compares it with
// testdata/golden.bin (go test -run Golden -update rewrites it), then reads
// the file back and probes the castling, promotion and en-passant moves.
// It needs no shared data.
func TestGoldenBook(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteBook(&buf, goldenEntries(t)); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("testdata", "golden.bin")
	if *update {
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	b, err := OpenBook(path)
	if err != nil {
		t.Fatal(err)
	}
	if want, _ := os.ReadFile(path); !bytes.Equal(buf.Bytes(), want) {
		t.Fatal("WriteBook output differs from testdata/golden.bin")
	}
	for _, f := range Check(b) {
		if f.Severity != Info || f.Code == CodeCastling {
			t.Errorf("Check: %v", f)
		}
	}
	for _, c := range []struct {
		line string // moves from the start
		want string // the expected move, as board writes it
		book string // and as the book writes it
	}{
		{"e4 e5 Nf3 Nc6 Bc4 Nf6", "e1g1", "e1h1"},
		{"d4 d5 Nc3 Nc6 Bf4 Bf5 Qd2 Qd7", "e1c1", "e1a1"},
		{"d4 d5 Nc3 Nc6 Bf4 Bf5 Qd2 Qd7 O-O-O", "e8c8", "e8a8"},
		{"e4 c5 Nf3 d6 Bb5+ Bd7 Bxd7+ Qxd7 O-O Nc6 c3 Nf6 Re1 e6 d4 cxd4 cxd4 d5 e5 Ne4 Nbd2 Be7 Nxe4 dxe4 Rxe4", "e8g8", "e8h8"},
		{"d4 d5 c4 e5 dxe5 d4 e3 Bb4+ Bd2 dxe3 Bxb4 exf2+ Ke2", "f2g1n", "f2g1n"},
		{"e4 d5 e5 f5", "e5f6", "e5f6"},
	} {
		p := board.StartPosition()
		for _, san := range strings.Fields(c.line) {
			m, err := p.ParseSAN([]byte(san))
			if err != nil {
				t.Fatal(err)
			}
			p.Play(m)
		}
		moves, err := b.Probe(&p)
		if err != nil || len(moves) != 1 {
			t.Fatalf("after %s: %v %v", c.line, moves, err)
		}
		if moves[0].Move.String() != c.want || MoveString(moves[0].Entry.Move) != c.book {
			t.Errorf("after %s: %s (book %s), want %s (book %s)", c.line, moves[0].Move, MoveString(moves[0].Entry.Move), c.want, c.book)
		}
	}
	p := board.StartPosition()
	moves, _ := b.Probe(&p)
	if len(moves) != 2 || moves[0].Move.String() != "e2e4" || moves[0].Weight != 3 || moves[1].Move.String() != "d2d4" {
		t.Errorf("start: %+v", moves)
	}
}
