package main

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/internal/querytest"
	"github.com/chessbook/chessbook/internal/testutil"
	"github.com/chessbook/chessbook/polyglot"
)

func probeJSONOf(t *testing.T, args ...string) probeJSON {
	t.Helper()
	out := mustRun(t, append([]string{"probe", "-json"}, args...)...)
	var p probeJSON
	if err := json.Unmarshal([]byte(out), &p); err != nil {
		t.Fatalf("probe -json %q: %v in %q", args, err, out)
	}
	return p
}

func checkJSONOf(t *testing.T, path string) (checkJSON, int, string) {
	t.Helper()
	out, errOut, code := runCmd(t, "probe", "-json", "-check", "-book", path)
	var c checkJSON
	if err := json.Unmarshal([]byte(out), &c); err != nil {
		t.Fatalf("probe -check -json %s: %v in %q (stderr %q)", path, err, out, errOut)
	}
	return c, code, errOut
}

// TestProbeKeyVectors probes the positions of shared/spec/polyglot.md's
// key test vectors, by FEN and by the moves that reach them, and checks
// the Polyglot key probe reports.
func TestProbeKeyVectors(t *testing.T) {
	book := filepath.Join(t.TempDir(), "empty.bin")
	if err := os.WriteFile(book, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, v := range []struct{ fen, key, moves string }{
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "463b96181691fc9c", ""},
		{"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", "823c9b50fd114196", "e4"},
		{"rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2", "0756b94461c50fb0", "e4 d5"},
		{"rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2", "662fafb965db29d4", "e2e4 d7d5 e4e5"},
		{"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", "22a48b5a8e47ff78", "1.e4 d5 2.e5 f5"},
		{"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPPKPPP/RNBQ1BNR b kq - 0 3", "652a607ca3f242c1", "e4 d5 e5 f5 Ke2"},
		{"rnbq1bnr/ppp1pkpp/8/3pPp2/8/8/PPPPKPPP/RNBQ1BNR w - - 0 4", "00fdd303c946bdd9", "e4 d5 e5 f5 Ke2 Kf7"},
		{"rnbqkbnr/p1pppppp/8/8/PpP4P/8/1P1PPPP1/RNBQKBNR b KQkq c3 0 3", "3c8123ea7b067637", "a4 b5 h4 b4 c4"},
		{"rnbqkbnr/p1pppppp/8/8/P6P/R1p5/1P1PPPP1/1NBQKBNR b Kkq - 0 4", "5c3f9b829b279560", "a4 b5 h4 b4 c4 bxc3 Ra3"},
		{"rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2", "0844931a6ef4b9a0", "e4 e5"},
	} {
		if got := probeJSONOf(t, "-book", book, "-fen", v.fen); got.Key != v.key || len(got.Moves) != 0 {
			t.Errorf("probe -fen %q: key %s, moves %v; want %s and none", v.fen, got.Key, got.Moves, v.key)
		}
		if v.moves == "" {
			continue
		}
		if got := probeJSONOf(t, "-book", book, "-moves", v.moves); got.Key != v.key {
			t.Errorf("probe -moves %q: key %s, want %s", v.moves, got.Key, v.key)
		}
	}
}

func findFinding(c checkJSON, code string) *findingJSON {
	for i := range c.Findings {
		if c.Findings[i].Code == code {
			return &c.Findings[i]
		}
	}
	return nil
}

func mustParseHex(t *testing.T, s string) uint64 {
	t.Helper()
	var k uint64
	if _, err := fmt.Sscanf(s, "%016x", &k); err != nil {
		t.Fatal(err)
	}
	return k
}

// rawEntry is a book entry as the test reads it from the file's bytes,
// independently of package polyglot.
type rawEntry struct {
	move, weight uint16
	learn        uint32
}

// readRawBook reads the entries of a book file by key, in file order:
// 16 bytes each, key u64 | move u16 | weight u16 | learn u32, big-endian.
func readRawBook(t testing.TB, path string) map[uint64][]rawEntry {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(data)%16 != 0 {
		t.Fatalf("%s: size %d", path, len(data))
	}
	m := map[uint64][]rawEntry{}
	for i := 0; i < len(data); i += 16 {
		k := binary.BigEndian.Uint64(data[i:])
		m[k] = append(m[k], rawEntry{binary.BigEndian.Uint16(data[i+8:]), binary.BigEndian.Uint16(data[i+10:]), binary.BigEndian.Uint32(data[i+12:])})
	}
	return m
}

// rawUCI spells a book move as the spec says: to | from<<6 | promo<<12,
// squares a1 = 0 .. h8 = 63, promo 1..4 knight to queen, castling written
// as the king taking its rook, read as castling when the position (by its
// FEN's castling field) has that right. It returns the UCI of the move and
// the move as written.
func rawUCI(m uint16, castling string) (uci, written string) {
	sq := func(s uint16) string { return string([]byte{'a' + byte(s%8), '1' + byte(s/8)}) }
	written = sq(m>>6&63) + sq(m&63)
	if p := m >> 12 & 7; p != 0 {
		written += string(" nbrq"[p])
	}
	for _, c := range []struct{ from, to, right string }{{"e1h1", "e1g1", "K"}, {"e1a1", "e1c1", "Q"}, {"e8h8", "e8g8", "k"}, {"e8a8", "e8c8", "q"}} {
		if written == c.from && strings.Contains(castling, c.right) {
			return c.to, written
		}
	}
	return written, written
}

// TestProbeAgreesWithFile probes every position of the first plies of real
// games in every shared book and compares each answer with the book's
// entries read from the file's bytes: every entry of weight > 0 is listed
// once (the first of a move counts), heaviest first, with its weight, its
// share of the total and its learn value; the other entries are ignored.
func TestProbeAgreesWithFile(t *testing.T) {
	var books []string
	for _, pat := range []string{"reference/*.bin"} {
		m, _ := filepath.Glob(filepath.Join(testutil.RepoRoot(t), "testdata", pat))
		books = append(books, m...)
	}
	books = append(books, sharedBooks(t)...)
	if len(books) < 3 {
		t.Fatalf("only %d books", len(books))
	}
	const maxPlies = 24
	lines := querytest.GameLines(t, championsPGN, 150)
	for _, path := range books {
		b, err := polyglot.OpenBook(path)
		if err != nil {
			t.Fatal(err)
		}
		raw := readRawBook(t, path)
		found, moves := 0, 0
		for _, uci := range lines {
			p := board.StartPosition()
			line := []board.Position{p}
			for ply := 0; ply <= min(len(uci), maxPlies); ply++ {
				if ply > 0 {
					m, err := p.ParseUCI(uci[ply-1])
					if err != nil {
						t.Fatal(err)
					}
					p.Play(m)
					line = append(line, p)
				}
				got := probeBook(b, line)
				want, wantIgnored := rawProbe(raw[mustParseHex(t, got.Key)], strings.Fields(got.FEN)[2])
				gotMoves := slices.Clone(got.Moves)
				for i := range gotMoves {
					gotMoves[i].SAN = "" // the file has no SAN
				}
				if !slices.Equal(gotMoves, want) || len(got.Ignored) != wantIgnored {
					t.Fatalf("%s at %s: probe %v (%d ignored), file %v (%d ignored)", filepath.Base(path), got.FEN, gotMoves, len(got.Ignored), want, wantIgnored)
				}
				if len(want) > 0 {
					found++
					moves += len(want)
				}
			}
		}
		if found == 0 && !strings.Contains(path, "lasker-trap") {
			t.Errorf("%s: none of the positions is in the book", filepath.Base(path))
		}
		t.Logf("%s: %d positions found, %d moves", filepath.Base(path), found, moves)
	}
}

// rawProbe returns what probe must list from a key's raw entries, and how
// many it must ignore.
func rawProbe(es []rawEntry, castling string) ([]probeMoveJSON, int) {
	var out []probeMoveJSON
	var total uint64
	seen := map[string]bool{}
	for _, e := range es {
		uci, written := rawUCI(e.move, castling)
		if e.weight == 0 || seen[uci] {
			continue
		}
		seen[uci] = true
		out = append(out, probeMoveJSON{UCI: uci, Entry: written, Weight: e.weight, Learn: e.learn})
		total += uint64(e.weight)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Weight > out[j].Weight })
	for i := range out {
		out[i].Percent = 100 * float64(out[i].Weight) / float64(total)
	}
	return out, len(es) - len(out)
}

// TestProbeIgnored probes a hand-made book whose start position has a
// deleted entry, a second entry of a move, a move that is not legal and a
// castling move written both ways, and checks what is listed and why the
// rest is not.
func TestProbeIgnored(t *testing.T) {
	start := board.StartPosition()
	ruy := mustLine(t, "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6")
	mv := func(uci string) uint16 {
		from, _ := board.ParseSquare(uci[:2])
		to, _ := board.ParseSquare(uci[2:4])
		return uint16(to) | uint16(from)<<6
	}
	k, kr := polyglot.Key(&start), polyglot.Key(&ruy)
	es := []polyglot.Entry{
		{Key: k, Move: mv("e2e4"), Weight: 30, Learn: 7},
		{Key: k, Move: mv("d2d4"), Weight: 10},
		{Key: k, Move: mv("e2e5"), Weight: 50},
		{Key: k, Move: mv("g1f3"), Weight: 0},
		{Key: k, Move: mv("e2e4"), Weight: 99},
		{Key: k, Move: mv("c2c4"), Weight: 10},
		{Key: kr, Move: mv("e1h1"), Weight: 6},
		{Key: kr, Move: mv("e1g1"), Weight: 2},
		{Key: kr, Move: mv("d2d3"), Weight: 2},
	}
	path := filepath.Join(t.TempDir(), "made.bin")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := polyglot.WriteBook(f, es); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	got := probeJSONOf(t, "-book", path)
	want := []probeMoveJSON{
		{UCI: "e2e4", SAN: "e4", Entry: "e2e4", Weight: 30, Percent: 60, Learn: 7},
		{UCI: "d2d4", SAN: "d4", Entry: "d2d4", Weight: 10, Percent: 20},
		{UCI: "c2c4", SAN: "c4", Entry: "c2c4", Weight: 10, Percent: 20},
	}
	// WriteBook sorts by weight: e2e4 w=99 comes first in the file and
	// counts, the w=30 entry is the second of the move.
	want[0].Weight, want[0].Learn = 99, 0
	total := 99.0 + 10 + 10
	want[0].Percent, want[1].Percent, want[2].Percent = 100*99/total, 100*10/total, 100*10/total
	if !slices.Equal(got.Moves, want) || got.Weight != 119 {
		t.Errorf("moves %+v (weight %d), want %+v", got.Moves, got.Weight, want)
	}
	var reasons []string
	for _, ig := range got.Ignored {
		reasons = append(reasons, ig.Entry+": "+ig.Reason)
	}
	wantReasons := []string{"e2e5: is not legal", "e2e4: a second entry of the same move (the first one counts)", "g1f3: weight 0 (deleted)"}
	if !slices.Equal(reasons, wantReasons) {
		t.Errorf("ignored %q, want %q", reasons, wantReasons)
	}
	text := mustRun(t, "probe", "-book", path)
	for _, s := range []string{"key       463b96181691fc9c", "e4     e2e4  e2e4       99   83.2%      0", "total                  119  100.0%", "ignored: e2e5 weight 50 learn 0: is not legal", "Opening: Starting position"} {
		if !strings.Contains(text, s+"\n") {
			t.Errorf("text output lacks %q:\n%s", s, text)
		}
	}
	// Castling written as e1h1 and as e1g1 is one move: the first entry
	// counts.
	got = probeJSONOf(t, "-book", path, "-moves", "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6")
	if len(got.Moves) != 2 || got.Moves[0].UCI != "e1g1" || got.Moves[0].Entry != "e1h1" || got.Moves[0].Weight != 6 ||
		len(got.Ignored) != 1 || got.Ignored[0].Entry != "e1g1" {
		t.Errorf("castling both ways: %+v", got)
	}
	// -check sees the same book.
	c, code, _ := checkJSONOf(t, path)
	if code != 0 || findFinding(c, polyglot.CodeDuplicate) == nil || findFinding(c, polyglot.CodeWeightZero) == nil {
		t.Errorf("-check: exit status %d, %+v", code, c)
	}
	// Not in the book.
	got = probeJSONOf(t, "-book", path, "-moves", "a4")
	if len(got.Moves) != 0 || got.Moves == nil || len(got.Ignored) != 0 || got.Ignored == nil || got.Weight != 0 {
		t.Errorf("position not in the book: %+v", got)
	}
	if text := mustRun(t, "probe", "-book", path, "-moves", "a4"); !strings.Contains(text, "the book has no moves for this position\n") {
		t.Errorf("position not in the book:\n%s", text)
	}
}

// mustLine returns the position after the moves from the start.
func mustLine(t *testing.T, moves string) board.Position {
	t.Helper()
	line, err := movesLine("", moves)
	if err != nil {
		t.Fatal(err)
	}
	return line[len(line)-1]
}

// TestProbeNotations checks that SAN, UCI and numbered moves, and the FEN
// they reach, give the same answer.
func TestProbeNotations(t *testing.T) {
	book := notationsBook(t)
	first := mustRun(t, "probe", "-book", book, "-moves", "d4 Nf6 c4 e6 Nc3 Bb4")
	for _, args := range [][]string{
		{"-moves", "d2d4 g8f6 c2c4 e7e6 b1c3 f8b4"},
		{"-moves", "1.d4 Nf6 2.c4 e6 3.Nc3 Bb4"},
		{"-fen", "rnbqk2r/pppp1ppp/4pn2/8/1bPP4/2N5/PP2PPPP/R1BQKBNR w KQkq - 2 4", "-moves", ""},
		{"-fen", "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1", "-moves", "Nf6 c4 e6 Nc3 Bb4"},
	} {
		got := mustRun(t, append([]string{"probe", "-book", book}, args...)...)
		// The opening is named from the line: the FEN alone names the
		// position it gives.
		if cut := func(s string) string { return s[:strings.LastIndex(s, "Opening:")] }; cut(got) != cut(first) {
			t.Errorf("probe %q:\n%s\nwant\n%s", args, got, first)
		}
	}
	if !strings.Contains(first, "Opening: E20 Nimzo-Indian Defense") {
		t.Errorf("Nimzo-Indian:\n%s", first)
	}
}
