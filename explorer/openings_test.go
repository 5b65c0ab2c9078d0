package explorer

import (
	"fmt"
	"os"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/notnil/chess"
	"github.com/notnil/chess/opening"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/internal/querytest"
	"github.com/chessbook/chessbook/internal/testutil"
	"github.com/chessbook/chessbook/keys"
)

// The reference for the generated table: notnil's opening list, read the
// way bookquery named openings before the table existed (by position, a
// position named twice keeping the shortest line, then the smallest code
// and name).

// notnilBook is notnil's opening index, built once for all the tests.
var notnilBook = sync.OnceValue(opening.NewBookECO)

// refNamed is one position the list names, with the lines that name it.
type refNamed struct {
	best  Opening
	plies int
	all   []*opening.Opening // every list entry that reaches the position
}

// notnilNames returns the named positions of notnil's list by key.
var notnilNames = sync.OnceValue(func() map[string]*refNamed {
	names := map[string]*refNamed{}
	for _, o := range notnilBook().Possible(nil) {
		p := board.StartPosition()
		uci := strings.Fields(o.PGN())
		ok := len(uci) > 0
		for _, s := range uci {
			m, err := p.ParseUCI(s)
			if err != nil {
				ok = false
				break
			}
			p.Play(m)
		}
		if !ok {
			continue
		}
		k := string(keys.Encode(&p))
		n := Opening{ECO: o.Code(), Name: o.Title()}
		r := names[k]
		if r == nil {
			r = &refNamed{best: n, plies: len(uci)}
			names[k] = r
		} else if len(uci) < r.plies || len(uci) == r.plies && (n.ECO < r.best.ECO || n.ECO == r.best.ECO && n.Name < r.best.Name) {
			r.best, r.plies = n, len(uci)
		}
		r.all = append(r.all, o)
	}
	return names
})

// refOpeningOf is openingOf over notnilNames.
func refOpeningOf(line []board.Position) *Opening {
	for i := len(line) - 1; i >= 0; i-- {
		if r, ok := notnilNames()[string(keys.Encode(&line[i]))]; ok {
			return &r.best
		}
	}
	return nil
}

// TestOpeningTableMatchesNotnil checks that the generated table holds
// exactly the positions notnil's list names, with the same names, and
// that every line of the list is named as notnil's own lookup (Find) names
// it.
func TestOpeningTableMatchesNotnil(t *testing.T) {
	ref := notnilNames()
	list := notnilBook().Possible(nil)
	if len(list) < 3000 {
		t.Fatalf("notnil's list has %d openings", len(list))
	}
	if len(openingTable) != len(ref) {
		t.Errorf("table has %d positions, notnil's list names %d", len(openingTable), len(ref))
	}
	if !sort.SliceIsSorted(openingTable[:], func(i, j int) bool { return openingTable[i].key < openingTable[j].key }) {
		t.Fatal("openingTable is not sorted by key")
	}
	var occupied []uint64
	for i, e := range openingTable {
		r, ok := ref[e.key]
		if !ok {
			t.Errorf("table entry %d (%s %s) names a position notnil's list does not", i, e.eco, e.name)
			continue
		}
		if got := (Opening{ECO: e.eco, Name: e.name}); got != r.best {
			t.Errorf("table names %x %+v, notnil's list %+v", e.key, got, r.best)
		}
		p, err := keys.Decode([]byte(e.key))
		if err != nil {
			t.Fatal(err)
		}
		occupied = append(occupied, uint64(p.Occupied()))
	}
	slices.Sort(occupied)
	if occupied = slices.Compact(occupied); !slices.Equal(occupied, openingOccupied[:]) {
		t.Errorf("openingOccupied does not hold the occupied squares of the table's positions")
	}

	// Every line of the list, as notnil's Find names it: the list entry
	// itself, unless another entry reaches the same position (then the
	// table keeps one of them by the rule above).
	shared := 0
	for _, o := range list {
		moves, line := notnilLine(t, o.PGN())
		found := notnilBook().Find(moves)
		if found == nil || found.Code() != o.Code() || found.Title() != o.Title() {
			t.Fatalf("notnil's Find(%s) = %v, want %s %s", o.PGN(), found, o.Code(), o.Title())
		}
		got := OpeningOf(line)
		want := Opening{ECO: o.Code(), Name: o.Title()}
		r := ref[string(keys.Encode(&line[len(line)-1]))]
		if len(r.all) > 1 {
			shared++
			want = r.best
		}
		if got == nil || *got != want {
			t.Errorf("line %s: named %v, want %+v", o.PGN(), got, want)
		}
	}
	t.Logf("%d named positions, %d list lines, %d lines reach a position another line reaches too", len(openingTable), len(list), shared)

	// Positions no line reaches are not named.
	for _, fen := range []string{board.StartFEN, "4k3/8/8/8/8/8/8/4K3 w - - 0 1", testutil.PerftFENs[1]} {
		p, err := board.ParseFEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		if o := OpeningOf([]board.Position{p}); o != nil {
			t.Errorf("%s named %+v", fen, o)
		}
	}
}

// notnilLine plays the list's uci line with notnil and with board, and
// returns notnil's moves and board's positions (the start first).
func notnilLine(t testing.TB, uci string) ([]*chess.Move, []board.Position) {
	t.Helper()
	pos := chess.StartingPosition()
	p := board.StartPosition()
	line := []board.Position{p}
	var moves []*chess.Move
	for _, s := range strings.Fields(uci) {
		m, err := chess.UCINotation{}.Decode(pos, s)
		if err != nil {
			t.Fatalf("notnil: %s in %s: %v", s, uci, err)
		}
		pos = pos.Update(m)
		moves = append(moves, m)
		bm, err := p.ParseUCI(s)
		if err != nil {
			t.Fatalf("%s in %s: %v", s, uci, err)
		}
		p.Play(bm)
		line = append(line, p)
	}
	return moves, line
}

// TestOpeningRealGames names every position of real games (the first 40
// plies: notnil replays slowly) and checks the names against the
// reference and against notnil's own lookup. notnil's Find follows the
// moves (the longest list line the game starts with), the table the
// positions (the last named position of the game, transpositions
// included): they agree whenever the last named position is the end of
// that longest line.
func TestOpeningRealGames(t *testing.T) {
	files := []string{championsPGN}
	if !testing.Short() {
		files = append(files, openingGames(t))
	}
	const maxPlies = 40
	var checked, sameAsFind, transposed int
	for _, f := range files {
		if _, err := os.Stat(f); err != nil {
			t.Logf("skipping %s: %v", f, err)
			continue
		}
		n := 0
		if strings.Contains(f, "lichess") {
			n = 3000
		}
		for _, uci := range querytest.GameLines(t, f, n) {
			uci = uci[:min(len(uci), maxPlies)]
			moves, line := notnilLine(t, strings.Join(uci, " "))
			for ply := 0; ply <= len(uci); ply++ {
				got, want := OpeningOf(line[:ply+1]), refOpeningOf(line[:ply+1])
				if fmt.Sprint(got) != fmt.Sprint(want) {
					t.Fatalf("%s after %s: named %v, reference %v", f, strings.Join(uci[:ply], " "), got, want)
				}
				checked++
				found := notnilBook().Find(moves[:ply])
				if found == nil {
					if got != nil {
						transposed++ // a transposition into a named position
					}
					continue
				}
				// The end of the longest list line the game starts with.
				k := len(strings.Fields(found.PGN()))
				last := lastNamed(line[:ply+1])
				if last != k {
					transposed++
					continue
				}
				r := notnilNames()[string(keys.Encode(&line[k]))]
				if len(r.all) > 1 {
					continue // the table keeps one of the lines reaching it
				}
				if got == nil || got.ECO != found.Code() || got.Name != found.Title() {
					t.Errorf("%s after %s: named %v, notnil's Find %s %s", f, strings.Join(uci[:ply], " "), got, found.Code(), found.Title())
				}
				sameAsFind++
			}
		}
	}
	if checked < 10000 || sameAsFind < checked/2 {
		t.Errorf("only %d positions checked, %d named as notnil's Find names them", checked, sameAsFind)
	}
	t.Logf("%d positions named as the reference; %d as notnil's Find, %d named through a transposition", checked, sameAsFind, transposed)
}

// lastNamed returns the index of the last position of line that the table
// names, -1 if none.
func lastNamed(line []board.Position) int {
	for i := len(line) - 1; i >= 0; i-- {
		if _, ok := lookupOpening(keys.Encode(&line[i])); ok {
			return i
		}
	}
	return -1
}

func BenchmarkOpeningOf(b *testing.B) {
	lines := querytest.GameLines(b, championsPGN, 200)
	var ls [][]board.Position
	for _, uci := range lines {
		p := board.StartPosition()
		line := []board.Position{p}
		for _, s := range uci[:min(len(uci), 30)] {
			m, err := p.ParseUCI(s)
			if err != nil {
				b.Fatal(err)
			}
			p.Play(m)
			line = append(line, p)
		}
		ls = append(ls, line)
	}
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		OpeningOf(ls[i%len(ls)])
	}
}

// TestOpeningNamesAlongTheLine walks the Najdorf's English Attack move by
// move, as a user of the page or of play= does: every position is named by
// its own name, else by the last named position of the line played (as
// lichess names it), never by another game's move order. Along this line
// the header once flipped to "Najdorf Variation" at 8.f3 and back.
func TestOpeningNamesAlongTheLine(t *testing.T) {
	x := New(openStore(t, buildStore(t, mastersGames(t))))
	line := strings.Fields("e2e4 c7c5 g1f3 d7d6 d2d4 c5d4 f3d4 g8f6 b1c3 a7a6 c1e3 e7e5 d4b3 c8e6 f2f3 f8e7 d1d2")
	var last *Opening // the last named position's opening so far
	for i := range line {
		play := strings.Join(line[:i+1], ",")
		ps, err := requestLine("", play, "")
		if err != nil {
			t.Fatal(err)
		}
		m, err := x.Moves(ps, Query{})
		if err != nil {
			t.Fatal(err)
		}
		own := openingAt(&ps[len(ps)-1])
		if own != nil {
			last = own
		}
		if last == nil {
			if m.Opening != nil && i < 2 {
				t.Errorf("after %s: opening %+v, want none yet", play, m.Opening)
			}
			continue
		}
		if m.Opening == nil || *m.Opening != *last {
			t.Errorf("after %s: opening %+v, want %+v (own name %v)", play, m.Opening, *last, own != nil)
		}
		if i >= 10 && !strings.Contains(m.Opening.Name, "English Attack") {
			t.Errorf("after %s (move %d): %q, want the English Attack", play, i/2+1, m.Opening.Name)
		}
	}
}
