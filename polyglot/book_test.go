package polyglot

import (
	"bytes"
	"errors"
	"github.com/chessbook/chessbook/internal/testutil"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/ingest"
	"github.com/chessbook/chessbook/pgn"
)

// realBook is a book the tests read, with its entry count.
type realBook struct {
	path    string // in testdata/ ("testdata/...") or in shared/data
	entries int
}

// repoBooks are the repository's reference books, made by PolyGlot's
// make-book from its slices (testdata/reference/generate.sh); the oracle
// tests read the books of shared/data too (realBooks).
var repoBooks = []realBook{
	{"testdata/reference/champions500_makebook_default.bin", 441},
	{"testdata/reference/champions500_makebook_maxply20_mingame1.bin", 3223},
	{"testdata/reference/lichess2k_nosetup_makebook_default.bin", 1517},
}

// bookPath returns the path of a book file rel: in the repository's
// testdata/ when rel starts with "testdata/", else in shared/data.
func bookPath(t testing.TB, rel string) string {
	t.Helper()
	if r, ok := strings.CutPrefix(rel, "testdata/"); ok {
		return testutil.Testdata(t, r)
	}
	return testutil.SharedFile(t, rel)
}

// isReference reports whether the book rel was made by PolyGlot's
// make-book (the reference books of testdata/ and of shared/data).
func isReference(rel string) bool {
	return strings.HasPrefix(rel, "reference/") || strings.HasPrefix(rel, "testdata/reference/")
}

// openShared opens the book rel (see bookPath).
func openShared(t testing.TB, rel string) *Book {
	t.Helper()
	b, err := OpenBook(bookPath(t, rel))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestReadRealBooks reads every book of shared/data, checks its entry count,
// that Lookup finds every entry (unsorted tails included), and that Check
// and Probe of the start position run.
func TestReadRealBooks(t *testing.T) {
	if withOracles {
		checkSharedBooksListed(t)
	}
	start := board.StartPosition()
	for _, rb := range realBooks() {
		t.Run(filepath.Base(rb.path), func(t *testing.T) {
			b := openShared(t, rb.path)
			if b.Len() != rb.entries {
				t.Errorf("%d entries, want %d", b.Len(), rb.entries)
			}
			for i, e := range b.Entries() {
				if e.IsHeader() {
					continue
				}
				if !slices.Contains(b.Lookup(e.Key), e) {
					t.Fatalf("Lookup(%016x) misses entry %d %s", e.Key, i, e)
				}
			}
			if fs := Check(b); len(fs) == 0 {
				t.Error("Check gave no findings (want at least the summary)")
			}
			if _, err := b.Probe(&start); err != nil {
				t.Error(err)
			}
		})
	}
}

func findCode(fs []Finding, code string) *Finding {
	for i := range fs {
		if fs[i].Code == code {
			return &fs[i]
		}
	}
	return nil
}

func mustFEN(t testing.TB, fen string) *board.Position {
	t.Helper()
	p, err := board.ParseFEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	return &p
}

func TestSniffHints(t *testing.T) {
	for _, c := range []struct {
		data, want string
	}{
		{"\n\n<!DOCTYPE html><html>x", "HTML"},
		{"<html><body>404", "HTML"},
		{"[Event \"x\"]\n[Site \"y\"]\n", "PGN"},
		{"\x1f\x8b\x08\x00abc", "gzip"},
		{"\x28\xb5\x2f\xfdabc", "zstd"},
		{"PK\x03\x04abcdefg", "zip"},
		{"version https://git-lfs.github.com/spec/v1\noid sha256:x\n", "Git LFS"},
		{"hello, world\n", "text"},
		{"\x00\x00\x01\x02\x03", ""},
	} {
		_, err := ParseBook([]byte(c.data))
		if err == nil {
			t.Fatalf("%q: no error", c.data)
		}
		if c.want == "" {
			if strings.Contains(err.Error(), "looks like") {
				t.Errorf("%q: unexpected hint: %v", c.data, err)
			}
		} else if !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %q does not mention %s", c.data, err, c.want)
		}
	}
}

func TestReadBookErrors(t *testing.T) {
	boom := errors.New("boom")
	_, err := ReadBook(iotest.ErrReader(boom))
	if !errors.Is(err, boom) || !strings.Contains(err.Error(), "reading book") {
		t.Errorf("ReadBook(ErrReader) = %v", err)
	}
	_, err = OpenBook(filepath.Join(t.TempDir(), "missing.bin"))
	if !errors.Is(err, os.ErrNotExist) || !strings.Contains(err.Error(), "missing.bin") {
		t.Errorf("OpenBook(missing) = %v", err)
	}
	b, err := ReadBook(bytes.NewReader(nil))
	if err != nil || b.Len() != 0 || b.Lookup(1) != nil {
		t.Errorf("empty book: %v %v", b, err)
	}
	if f := findCode(Check(b), CodeEmpty); f == nil {
		t.Error("Check(empty) does not say so")
	}
}

// checkProbe checks the invariants of a Probe result.
func checkProbe(t *testing.T, moves []ProbeMove) {
	t.Helper()
	sum := 0.0
	for i, m := range moves {
		sum += m.Percent
		if m.Weight == 0 || m.Weight != m.Entry.Weight {
			t.Errorf("move %d: weight %d, entry %s", i, m.Weight, m.Entry)
		}
		if i > 0 && m.Weight > moves[i-1].Weight {
			t.Errorf("moves not heaviest first: %d after %d", m.Weight, moves[i-1].Weight)
		}
		for _, o := range moves[:i] {
			if o.Move == m.Move {
				t.Errorf("move %s twice", m.Move)
			}
		}
	}
	if len(moves) > 0 && (sum < 99.999 || sum > 100.001) {
		t.Errorf("percentages sum to %f", sum)
	}
}

// TestProbeStartReference probes the start position in the reference books:
// legal moves only, and the moves add up.
func TestProbeStartReference(t *testing.T) {
	for _, rb := range realBooks() {
		if !isReference(rb.path) {
			continue
		}
		t.Run(filepath.Base(rb.path), func(t *testing.T) {
			b := openShared(t, rb.path)
			p := board.StartPosition()
			moves, err := b.Probe(&p)
			if err != nil {
				t.Fatal(err)
			}
			if len(moves) < 5 {
				t.Fatalf("only %d moves", len(moves))
			}
			for _, m := range moves {
				if !p.IsLegal(m.Move) {
					t.Errorf("%s is not legal", m.Move)
				}
			}
			if got := len(b.Lookup(Key(&p))); got != len(moves) {
				t.Errorf("%d entries but %d moves", got, len(moves))
			}
			checkProbe(t, moves)
		})
	}
}

// TestLookupSynthetic checks Lookup on a small hand-made book with header
// entries, a missing key, and an unsorted tail with a key of the sorted part
// and keys found only in the tail.
func TestLookupSynthetic(t *testing.T) {
	es := []Entry{
		{0, 0x4050, 0x4740, 0x0a312e30}, // "@PG@\n1.0" header text
		{0, 0x0a31, 0x0a6e, 0x6f000000}, // "\n1\nno" then NUL
		{10, 1, 5, 0},
		{20, 2, 7, 0},
		{20, 3, 6, 0},
		{30, 4, 1, 0},
		{5, 5, 1, 0},  // tail: a key only in the tail, smaller than all
		{20, 6, 9, 0}, // tail: more of key 20
		{40, 7, 1, 0}, // tail: after all keys
		{20, 8, 1, 0},
	}
	b := NewBook(es)
	if b.Sorted() {
		t.Fatal("Sorted() = true")
	}
	if h := b.Header(); h != "@PG@\n1.0\n1\nno" {
		t.Errorf("Header() = %q", h)
	}
	for _, c := range []struct {
		key   uint64
		moves []uint16
	}{
		{0, nil}, {1, nil}, {5, []uint16{5}}, {10, []uint16{1}}, {20, []uint16{2, 3, 6, 8}},
		{25, nil}, {30, []uint16{4}}, {40, []uint16{7}}, {50, nil},
	} {
		var got []uint16
		for _, e := range b.Lookup(c.key) {
			got = append(got, e.Move)
		}
		if !slices.Equal(got, c.moves) {
			t.Errorf("Lookup(%d) moves = %v, want %v", c.key, got, c.moves)
		}
	}
	// Appending to a Lookup result must not overwrite the book.
	r := b.Lookup(10)
	_ = append(r, Entry{Key: 99})
	if b.Entries()[3].Key != 20 {
		t.Error("append to Lookup result overwrote the book")
	}
	fs := Check(b)
	if f := findCode(fs, CodeUnsorted); f == nil || f.Severity != Error || f.Index != 6 || f.Count != 2 {
		t.Errorf("unsorted finding: %+v", f)
	}
	if f := findCode(fs, CodeHeader); f == nil || f.Count != 2 || !strings.Contains(f.Message, `"@PG@\n1.0\n1\nno"`) {
		t.Errorf("header finding: %+v", f)
	}
}

// TestProbeBadEntries checks that Probe reports illegal entries and still
// returns the legal moves, skipping weight 0 and merging duplicates.
func TestProbeBadEntries(t *testing.T) {
	p := board.StartPosition()
	k := Key(&p)
	mv := func(uci string) uint16 {
		from, _ := board.ParseSquare(uci[:2])
		to, _ := board.ParseSquare(uci[2:4])
		return uint16(to) | uint16(from)<<6
	}
	b := NewBook([]Entry{
		{k, mv("e2e4"), 30, 0},
		{k, mv("d2d4"), 10, 0},
		{k, mv("e2e5"), 50, 0}, // illegal
		{k, mv("g1f3"), 0, 0},  // deleted
		{k, mv("e2e4"), 99, 0}, // duplicate: the first entry wins
		{k, mv("c2c4"), 10, 0},
	})
	moves, err := b.Probe(&p)
	var bad *BadMovesError
	if !errors.As(err, &bad) || len(bad.Entries) != 1 || MoveString(bad.Entries[0].Entry.Move) != "e2e5" {
		t.Fatalf("err = %v", err)
	}
	if !strings.Contains(err.Error(), "e2e5") || !strings.Contains(err.Error(), board.StartFEN[:20]) {
		t.Errorf("error message: %v", err)
	}
	var got []string
	for _, m := range moves {
		got = append(got, m.Move.String())
	}
	if !slices.Equal(got, []string{"e2e4", "d2d4", "c2c4"}) {
		t.Errorf("moves %v", got)
	}
	if moves[0].Percent != 60 || moves[1].Percent != 20 {
		t.Errorf("percentages %v %v", moves[0].Percent, moves[1].Percent)
	}
	checkProbe(t, moves)
	if m, err := NewBook(nil).Probe(&p); m != nil || err != nil {
		t.Errorf("empty book: %v %v", m, err)
	}
}

// prober probes every position of real games in every real book.
type prober struct {
	t     *testing.T
	books map[string]*Book
	moves map[string]int
}

func (s *prober) game(g *pgn.Game) error {
	p := g.Start
	for _, m := range g.Moves {
		for name, b := range s.books {
			moves, err := b.Probe(&p)
			if err != nil {
				s.t.Errorf("%s: %v", name, err)
			}
			s.moves[name] += len(moves)
		}
		p.Play(m)
	}
	return nil
}

// TestProbeRealGames probes every position of 500 master games in every
// real book: no book holds a move that is illegal where it is found (the
// castling, promotion and en-passant decoding agree with the books), and
// every book knows some of the positions.
func TestProbeRealGames(t *testing.T) {
	f, err := os.Open("../testdata/champions500.pgn")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s := &prober{t: t, books: map[string]*Book{}, moves: map[string]int{}}
	for _, rb := range realBooks() {
		if rb.entries > 1000 {
			s.books[rb.path] = openShared(t, rb.path)
		}
	}
	if err := pgn.Read(f, ingest.NewReplayer("champions500.pgn", ingest.SinkFunc(s.game))); err != nil {
		t.Fatal(err)
	}
	for name := range s.books {
		if s.moves[name] == 0 {
			t.Errorf("%s: no moves found", name)
		}
	}
}

// TestProbeEntries: ProbeEntries lists what Probe lists, and every other
// entry of the key in file order with its reason: a deleted entry
// (weight 0), a move no piece can make there (with Probe's reason), and a
// move's second entry; the moves' shares are out of the moves listed only.
func TestProbeEntries(t *testing.T) {
	p := mustFEN(t, board.StartFEN)
	key := Key(p)
	e2e4 := EncodeMove(p, board.NewMove(board.MakeSquare(4, 1), board.MakeSquare(4, 3)))
	d2d4 := EncodeMove(p, board.NewMove(board.MakeSquare(3, 1), board.MakeSquare(3, 3)))
	g1f3 := EncodeMove(p, board.NewMove(board.MakeSquare(6, 0), board.MakeSquare(5, 2)))
	e2e5 := EncodeMove(p, board.NewMove(board.MakeSquare(4, 1), board.MakeSquare(4, 4))) // no pawn goes three squares
	entries := []Entry{
		{Key: key, Move: e2e4, Weight: 30},
		{Key: key, Move: g1f3, Weight: 0},
		{Key: key, Move: e2e5, Weight: 9},
		{Key: key, Move: d2d4, Weight: 10},
		{Key: key, Move: e2e4, Weight: 5},
	}
	b := NewBook(entries)
	moves, ignored := b.ProbeEntries(p)
	want, err := b.Probe(p)
	var bad *BadMovesError
	if !errors.As(err, &bad) || len(bad.Entries) != 1 {
		t.Fatalf("Probe: %v; want one bad move", err)
	}
	if len(moves) != 2 || len(want) != 2 || moves[0] != want[0] || moves[1] != want[1] {
		t.Fatalf("ProbeEntries moves %+v, Probe %+v", moves, want)
	}
	if moves[0].Move.String() != "e2e4" || moves[0].Percent != 75 || moves[1].Move.String() != "d2d4" || moves[1].Percent != 25 {
		t.Errorf("moves %+v: want e2e4 75%%, d2d4 25%%", moves)
	}
	wantIgnored := []IgnoredEntry{
		{Entry: entries[1], Reason: ReasonDeleted},
		{Entry: entries[2], Reason: bad.Entries[0].Reason},
		{Entry: entries[4], Reason: ReasonDuplicate},
	}
	if len(ignored) != len(wantIgnored) {
		t.Fatalf("ignored %+v, want %+v", ignored, wantIgnored)
	}
	for i := range ignored {
		if ignored[i] != wantIgnored[i] {
			t.Errorf("ignored %d: %+v, want %+v", i, ignored[i], wantIgnored[i])
		}
	}
	if m, ig := b.ProbeEntries(mustFEN(t, "8/8/8/8/8/8/8/K6k w - - 0 1")); m != nil || ig != nil {
		t.Errorf("a position not in the book: %v, %v", m, ig)
	}
}
