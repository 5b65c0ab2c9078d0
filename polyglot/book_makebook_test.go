package polyglot

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/chessbook/chessbook/ingest"
	"github.com/chessbook/chessbook/pgn"
)

// makeBook re-implements what PolyGlot 2.0.4's make-book computes (see
// shared/spec/polyglot.md) in the simplest way, to show that WriteBook's
// order reproduces make-book's files: entries are kept in the order each
// (key, move) pair is first met, as make-book's entry array does.
type makeBook struct {
	maxPly, minGame int
	entries         []mbEntry
	index           map[mbKey]int
	byKey           map[uint64][]int
	skipped         []string
	fromFEN         int
	halvings        int
}

type mbKey struct {
	key  uint64
	move uint16
}

type mbEntry struct {
	mbKey
	n, sum int
}

func newMakeBook(maxPly, minGame int) *makeBook {
	return &makeBook{maxPly: maxPly, minGame: minGame, index: map[mbKey]int{}, byKey: map[uint64][]int{}}
}

// Game implements ingest.Sink.
func (mb *makeBook) Game(g *pgn.Game) error {
	if g.FromFEN {
		mb.fromFEN++ // make-book does not support them; the references were built without them
		return nil
	}
	// make-book scores from the Result tag ("*" when missing).
	result := 0
	switch string(g.Tag("Result")) {
	case "1-0":
		result = 1
	case "0-1":
		result = -1
	}
	p := g.Start
	for ply, m := range g.Moves {
		if ply >= mb.maxPly {
			break
		}
		k := mbKey{Key(&p), EncodeMove(&p, m)}
		i, ok := mb.index[k]
		if !ok {
			i = len(mb.entries)
			mb.index[k] = i
			mb.entries = append(mb.entries, mbEntry{mbKey: k})
			mb.byKey[k.key] = append(mb.byKey[k.key], i)
		}
		e := &mb.entries[i]
		e.n++
		e.sum += result + 1
		if e.n >= 16384 {
			mb.halvings++
			for _, j := range mb.byKey[k.key] {
				mb.entries[j].n = (mb.entries[j].n + 1) / 2
				mb.entries[j].sum = (mb.entries[j].sum + 1) / 2
			}
		}
		p.Play(m)
		result = -result
	}
	return nil
}

// Skip implements ingest.Sink.
// Games with a bad FEN start from a FEN too: make-book never sees them.
func (mb *makeBook) Skip(e *ingest.GameError) {
	if e.Reason == ingest.SkipBadFEN {
		mb.fromFEN++
		return
	}
	mb.skipped = append(mb.skipped, e.Error())
}

// book returns the kept entries in first-seen order, unsorted.
func (mb *makeBook) book() []Entry {
	var out []Entry
	for _, e := range mb.entries {
		if e.n >= mb.minGame && e.sum > 0 {
			out = append(out, Entry{Key: e.key, Move: e.move, Weight: uint16(e.sum)})
		}
	}
	return out
}

// makeBookCase is a reference book made by PolyGlot's make-book and its
// PGN source (see bookPath for the paths).
type makeBookCase struct {
	pgn, ref        string
	maxPly, minGame int
	fromFEN         int // games starting from a FEN, left out
	illegal         int // games with an illegal move, left out
}

// repoMakeBookCases are the repository's reference books
// (testdata/reference/generate.sh); with -tags oracle, makeBookCases adds
// those of shared/data.
var repoMakeBookCases = []makeBookCase{
	{"testdata/champions500.pgn", "testdata/reference/champions500_makebook_default.bin", 1024, 3, 0, 0},
	{"testdata/champions500.pgn", "testdata/reference/champions500_makebook_maxply20_mingame1.bin", 20, 1, 0, 0},
	{"testdata/lichess2k.pgn.zst", "testdata/reference/lichess2k_nosetup_makebook_default.bin", 1024, 3, 6, 0},
}

// TestWriteBookReproducesMakeBook rebuilds reference books from their PGN
// sources and checks that WriteBook writes them byte for byte: this pins
// down make-book's order of equal-weight moves (first seen first).
func TestWriteBookReproducesMakeBook(t *testing.T) {
	if testing.Short() {
		t.Skip("replays thousands of games")
	}
	for _, c := range makeBookCases() {
		t.Run(filepath.Base(c.ref), func(t *testing.T) {
			t.Parallel() // each replay is one goroutine
			want, err := os.ReadFile(bookPath(t, c.ref))
			if err != nil {
				t.Fatal(err)
			}
			rc, err := ingest.Open(bookPath(t, c.pgn))
			if err != nil {
				t.Fatal(err)
			}
			defer rc.Close()
			mb := newMakeBook(c.maxPly, c.minGame)
			if err := pgn.Read(rc, ingest.NewReplayer(c.pgn, mb)); err != nil {
				t.Fatal(err)
			}
			if len(mb.skipped) != c.illegal || mb.fromFEN != c.fromFEN {
				t.Fatalf("skipped %d games (want %d), %d FEN games (want %d): %v",
					len(mb.skipped), c.illegal, mb.fromFEN, c.fromFEN, mb.skipped[:min(3, len(mb.skipped))])
			}
			t.Logf("%d entries, %d halvings", len(mb.entries), mb.halvings)
			var got bytes.Buffer
			if err := WriteBook(&got, mb.book()); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got.Bytes(), want) {
				t.Fatalf("rebuilt book differs from %s: %s", c.ref, firstDiff(got.Bytes(), want))
			}
		})
	}
}

// firstDiff describes where two books first differ.
func firstDiff(got, want []byte) string {
	g, w := mustParse(got), mustParse(want)
	for i := 0; i < min(len(g), len(w)); i++ {
		if g[i] != w[i] {
			return "entry " + itoa(i) + ": got " + g[i].String() + ", want " + w[i].String()
		}
	}
	return "got " + itoa(len(g)) + " entries, want " + itoa(len(w))
}

func mustParse(data []byte) []Entry {
	b, err := ParseBook(data)
	if err != nil {
		return nil
	}
	return b.Entries()
}

func itoa(i int) string { return strconv.Itoa(i) }
