//go:build oracle

package polyglot

import (
	"bufio"
	"bytes"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/chessbook/chessbook/internal/testutil"

	"github.com/chessbook/chessbook/board"
)

// withOracles is true in the oracle tests (-tags oracle, see
// docs/testing.md).
const withOracles = true

// sharedBooks are the books of shared/data with their entry counts
// (books/PROVENANCE.txt, reference/PROVENANCE.txt).
var sharedBooks = []realBook{
	{"books/debian_pychess_book.bin", 136947},
	{"books/donna_gm2001.bin", 30416},
	{"books/donna_rodent.bin", 175355},
	{"books/gochess_book.bin", 12740},
	{"books/gochess_testdata_Titans.bin", 121160},
	{"books/pychesslib_lasker-trap.bin", 7},
	{"books/pychesslib_performance.bin", 92954},
	{"books/scid_Elo2400.bin", 155878},
	{"books/scid_Performance.bin", 92954},
	{"books/scid_gm2600.bin", 21671},
	{"books/scid_varied.bin", 92229},
	{"books/virtuoso_Titans.bin", 121160},
	{"books/dog_book_pair/dog-book.bin", 1749},
	{"reference/polyglot204_makebook_default__pgnmentor_world_champions_16players.bin", 33016},
	{"reference/polyglot204_makebook_maxply20_mingame1__pgnmentor_world_champions_16players.bin", 133495},
	{"reference/polyglot204_makebook_default__corentings_lichess10k_nosetup.bin", 6427},
	{"reference/polyglot204_makebook_default__pgnmentor_players_239files_pgnextract_clean.bin", 437582},
}

// TestUnsortedTail checks the two real books that end with out-of-order
// duplicate entries: Lookup still finds the sorted part's entries (and the
// tail's), and Check reports the tail.
func TestUnsortedTail(t *testing.T) {
	for _, c := range []struct {
		path         string
		first, tail  int
		key          uint64
		sortedCopies int // entries of key in the sorted part
		tailCopies   int // and in the tail
	}{
		{"books/donna_rodent.bin", 175228, 127, 0xfffff2fbfd5e5704, 2, 126},
		{"books/virtuoso_Titans.bin", 121157, 3, 0xfffff2fbfd5e5704, 1, 1},
	} {
		t.Run(filepath.Base(c.path), func(t *testing.T) {
			b := openShared(t, c.path)
			if b.Sorted() {
				t.Fatal("Sorted() = true")
			}
			got := b.Lookup(c.key)
			if len(got) != c.sortedCopies+c.tailCopies {
				t.Errorf("Lookup(%016x) = %d entries, want %d", c.key, len(got), c.sortedCopies+c.tailCopies)
			}
			// The entries come in file order: the sorted part's first.
			var want []Entry
			for _, e := range b.Entries() {
				if e.Key == c.key {
					want = append(want, e)
				}
			}
			if !slices.Equal(got, want) {
				t.Errorf("Lookup(%016x) = %v, want %v", c.key, got, want)
			}
			f := findCode(Check(b), CodeUnsorted)
			if f == nil {
				t.Fatal("Check does not report the unsorted tail")
			}
			if f.Index != c.first || f.Count != 1 {
				t.Errorf("unsorted finding at %d, %d descents; want %d, 1: %s", f.Index, f.Count, c.first, f.Message)
			}
			if !strings.Contains(f.Message, "the "+itoa(c.tail)+" entries") {
				t.Errorf("message does not give the tail length %d: %s", c.tail, f.Message)
			}
			// Every tail entry repeats a sorted one: a warning, not an error.
			if f.Severity != Warning {
				t.Errorf("severity %v, want warning", f.Severity)
			}
			if d := findCode(Check(b), CodeDuplicate); d == nil || d.Count < c.tail {
				t.Errorf("duplicates not reported: %v", d)
			}
		})
	}
}

// TestNotABook reads the HTML page saved as a .bin.
func TestNotABook(t *testing.T) {
	path := filepath.Join(testutil.SharedData(t), "books/broken/dimtrigkakis_komodo_NOT_A_BOOK.bin")
	data, err := os.ReadFile(path)
	if err != nil {
		testutil.Missing(t, "shared data: %v", err)
	}
	_, err = OpenBook(path)
	if err == nil {
		t.Fatal("OpenBook succeeded")
	}
	if !errors.Is(err, ErrNotBook) {
		t.Errorf("error does not wrap ErrNotBook: %v", err)
	}
	for _, want := range []string{path, "not a Polyglot book: size 43126 is not a multiple of 16", "HTML"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not contain %q", err, want)
		}
	}
	if _, err := ReadBook(bytes.NewReader(data)); err == nil || !strings.HasPrefix(err.Error(), "polyglot: not a Polyglot book: size 43126") {
		t.Errorf("ReadBook: %v", err)
	}
	fs := CheckBytes(data)
	if findCode(fs, CodeSize) == nil || findCode(fs, CodeNotBook) == nil {
		t.Errorf("CheckBytes: %v", fs)
	}
}

// TestKnownReads are the reads shared/spec/polyglot.md gives.
func TestKnownReads(t *testing.T) {
	t.Run("performance start e2e4", func(t *testing.T) {
		b := openShared(t, "books/pychesslib_performance.bin")
		moves, err := b.Probe(mustFEN(t, board.StartFEN))
		if err != nil {
			t.Fatal(err)
		}
		if len(moves) == 0 || moves[0].Move.String() != "e2e4" {
			t.Fatalf("top move %v, want e2e4", moves)
		}
		checkProbe(t, moves)
	})
	t.Run("lasker-trap f2g1n", func(t *testing.T) {
		b := openShared(t, "books/pychesslib_lasker-trap.bin")
		p := mustFEN(t, "rnbqk1nr/ppp2ppp/8/4P3/1BP5/8/PP2KpPP/RN1Q1BNR b kq - 1 7")
		es := b.Lookup(Key(p))
		if len(es) == 0 {
			t.Fatal("position not in the book")
		}
		if es[0].Move>>12 != 1 || MoveString(es[0].Move) != "f2g1n" {
			t.Errorf("entry %s, want f2g1 with promotion code 1", es[0])
		}
		moves, err := b.Probe(p)
		if err != nil {
			t.Fatal(err)
		}
		if len(moves) != 1 || moves[0].Move.String() != "f2g1n" || moves[0].Move.Promotion() != board.Knight || moves[0].Percent != 100 {
			t.Errorf("Probe = %+v, want f2g1n at 100%%", moves)
		}
	})
}

// TestLaskerTrapIndependent rebuilds python-chess's lasker-trap.bin (Black's
// moves of the Lasker trap, weight 2 each) with Key, EncodeMove and
// WriteBook: a check against a book written by another implementation.
func TestLaskerTrapIndependent(t *testing.T) {
	want, err := os.ReadFile(filepath.Join(testutil.SharedData(t), "books/pychesslib_lasker-trap.bin"))
	if err != nil {
		testutil.Missing(t, "shared data: %v", err)
	}
	var es []Entry
	p := board.StartPosition()
	for _, san := range strings.Fields("d4 d5 c4 e5 dxe5 d4 e3 Bb4+ Bd2 dxe3 Bxb4 exf2+ Ke2 fxg1=N+") {
		m, err := p.ParseSAN([]byte(san))
		if err != nil {
			t.Fatal(err)
		}
		if p.SideToMove() == board.Black {
			es = append(es, Entry{Key: Key(&p), Move: EncodeMove(&p, m), Weight: 2})
		}
		p.Play(m)
	}
	var buf bytes.Buffer
	if err := WriteBook(&buf, es); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(buf.Bytes(), want) {
		t.Errorf("rebuilt lasker-trap differs: %s", firstDiff(buf.Bytes(), want))
	}
}

// TestRandom64MatchesSpec compares the embedded numbers with the spec's
// text file.
func TestRandom64MatchesSpec(t *testing.T) {
	f, err := os.Open(testutil.SharedSpec(t, "polyglot_random64.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	i := 0
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		v, err := strconv.ParseUint(strings.TrimPrefix(line, "0x"), 16, 64)
		if err != nil {
			t.Fatalf("line %q: %v", line, err)
		}
		if i >= len(random64) {
			t.Fatalf("spec has more than %d numbers", len(random64))
		}
		if random64[i] != v {
			t.Errorf("random64[%d] = %016x, spec %016x", i, random64[i], v)
		}
		i++
	}
	if i != len(random64) {
		t.Errorf("spec has %d numbers, want %d", i, len(random64))
	}
}

// TestMakeBookTieOrder documents why WriteBook does not break ties by move:
// in make-book's own books, moves of equal key and weight are in ascending
// move order about as often as in descending order (their order is the
// order they were first met in the games; see SortEntries and
// TestWriteBookReproducesMakeBook).
func TestMakeBookTieOrder(t *testing.T) {
	b := openShared(t, "reference/polyglot204_makebook_maxply20_mingame1__pgnmentor_world_champions_16players.bin")
	es := b.Entries()
	asc, desc := 0, 0
	for i := 1; i < len(es); i++ {
		if es[i].Key == es[i-1].Key && es[i].Weight == es[i-1].Weight {
			if es[i].Move > es[i-1].Move {
				asc++
			} else {
				desc++
			}
		}
	}
	if asc < 1000 || desc < 1000 {
		t.Errorf("ties: %d ascending, %d descending; expected both in the thousands", asc, desc)
	}
	t.Logf("equal-weight neighbours: %d in ascending move order, %d descending", asc, desc)
}

// sharedBookSeeds returns fuzz seeds from ../shared/data: the head and the tail of every real book under books/ (some
// end with out-of-order duplicates), whole when small, the HTML page named
// .bin, and the heads of the files under tricky/, which are not books at
// all (PGN, text, Scala).
func sharedBookSeeds(tb testing.TB) [][]byte {
	d := testutil.SharedData(tb)
	var seeds [][]byte
	_ = filepath.WalkDir(filepath.Join(d, "books"), func(path string, e fs.DirEntry, err error) error {
		if err != nil || !e.Type().IsRegular() || !strings.HasSuffix(path, ".bin") {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return nil
		}
		seeds = append(seeds, data[:min(len(data), 1024)])
		if len(data) > 1024 {
			tail := data[len(data)-512:]
			if len(data)%EntrySize == 0 {
				tail = data[len(data)-32*EntrySize:]
			}
			seeds = append(seeds, tail)
		}
		return nil
	})
	n := 0
	_ = filepath.WalkDir(filepath.Join(d, "tricky"), func(path string, e fs.DirEntry, err error) error {
		if err != nil || !e.Type().IsRegular() || n >= 16 {
			return nil
		}
		if data, err := os.ReadFile(path); err == nil {
			seeds = append(seeds, data[:min(len(data), 512)])
			n++
		}
		return nil
	})
	return seeds
}

// realBooks are the books the tests read: the repository's reference books
// and those of shared/data.
func realBooks() []realBook { return append(repoBooks, sharedBooks...) }

// makeBookCases are the reference books TestWriteBookReproducesMakeBook
// rebuilds: the repository's and those of shared/data (with
// POLYGLOT_LONG=1 the players corpus's too, about a minute more).
func makeBookCases() []makeBookCase {
	cases := append(repoMakeBookCases,
		makeBookCase{"medium/pgnmentor_world_champions_16players.pgn.zst",
			"reference/polyglot204_makebook_default__pgnmentor_world_champions_16players.bin", 1024, 3, 0, 0},
		makeBookCase{"medium/pgnmentor_world_champions_16players.pgn.zst",
			"reference/polyglot204_makebook_maxply20_mingame1__pgnmentor_world_champions_16players.bin", 20, 1, 0, 0},
		makeBookCase{"medium/lichess_10k.pgn.zst",
			"reference/polyglot204_makebook_default__corentings_lichess10k_nosetup.bin", 1024, 3, 106, 0},
	)
	if os.Getenv("POLYGLOT_LONG") != "" {
		// 412,225 games, about a minute: the only reference where make-book
		// halves counters (positions met 16384 times).
		cases = append(cases, makeBookCase{"large/pgnmentor_players_239files.pgn.zst",
			"reference/polyglot204_makebook_default__pgnmentor_players_239files_pgnextract_clean.bin", 1024, 3, 0, 2}) // the 2 games pgn-extract dropped
	}
	return cases
}

// TestReferenceOutputs runs testdata/reference/generate.sh, PolyGlot's
// make-book and pgn-extract on the repository's slices, and checks that it
// makes the committed reference books byte for byte: the default tests
// compare with those files.
func TestReferenceOutputs(t *testing.T) {
	testutil.NeedTool(t, "polyglot", "apt-get install polyglot")
	testutil.NeedTool(t, "pgn-extract", "apt-get install pgn-extract")
	testutil.NeedTool(t, "zstd", "apt-get install zstd")
	script := testutil.Testdata(t, "reference/generate.sh")
	out := t.TempDir()
	cmd := exec.Command("bash", script, out)
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", script, err, msg)
	}
	made, err := filepath.Glob(filepath.Join(out, "*"))
	if err != nil || len(made) == 0 {
		t.Fatalf("%s made nothing (%v)", script, err)
	}
	for _, f := range made {
		got, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile(filepath.Join(filepath.Dir(script), filepath.Base(f)))
		if err != nil {
			t.Errorf("%s made %s, which testdata/reference lacks: %v", script, filepath.Base(f), err)
			continue
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s differs from the committed one: %s", filepath.Base(f), firstDiff(got, want))
		}
	}
	committed, _ := filepath.Glob(filepath.Join(filepath.Dir(script), "*"))
	for _, f := range committed {
		if name := filepath.Base(f); name != "generate.sh" && !slices.Contains(made, filepath.Join(out, name)) {
			t.Errorf("testdata/reference/%s is not made by %s", name, script)
		}
	}
}

// checkSharedBooksListed checks that every .bin under books/ and
// reference/ of shared/data is in sharedBooks, so that a new book gets a
// count.
func checkSharedBooksListed(t *testing.T) {
	dir := testutil.SharedData(t)
	var found []string
	for _, pat := range []string{"books/*.bin", "books/*/*.bin", "reference/*.bin"} {
		m, _ := filepath.Glob(filepath.Join(dir, pat))
		for _, f := range m {
			rel, _ := filepath.Rel(dir, f)
			found = append(found, filepath.ToSlash(rel))
		}
	}
	for _, f := range found {
		if strings.Contains(f, "broken/") {
			continue
		}
		if !slices.ContainsFunc(sharedBooks, func(rb realBook) bool {
			return rb.path == f
		}) {
			t.Errorf("%s is not in sharedBooks", f)
		}
	}
}
