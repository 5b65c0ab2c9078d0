package stats

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/pgn"
)

const (
	e2e4 = board.Move(12 | 28<<6)
	d2d4 = board.Move(11 | 27<<6)
	g1f3 = board.Move(6 | 21<<6)
)

func TestEntryAdd(t *testing.T) {
	var e Entry
	e.Add(e2e4, pgn.WhiteWins, 2500, ParseDate("1859.??.??"))
	e.Add(d2d4, pgn.Draw, 0, 0)
	e.Add(e2e4, pgn.BlackWins, 2300, ParseDate("1858.03.01"))
	e.Add(e2e4, pgn.Unknown, -5, ParseDate("1901.01.01"))
	e.Add(e2e4, pgn.Draw, 2400, 0)

	if err := e.Validate(); err != nil {
		t.Fatal(err)
	}
	if len(e.Moves) != 2 || e.Moves[0].Move != d2d4 || e.Moves[1].Move != e2e4 {
		t.Fatalf("moves = %v, want d2d4, e2e4 in move order", e.Moves)
	}
	got, ok := e.Lookup(e2e4)
	want := MoveStats{
		CellStats: CellStats{WhiteWins: 1, Draws: 1, BlackWins: 1, Unknown: 1, RatingSum: 2500 + 2300 + 2400, RatingCount: 3},
		FirstDate: 18580301, LastDate: 19010101,
	}
	if !ok || got != want {
		t.Errorf("e2e4 = %+v, %v; want %+v", got, ok, want)
	}
	if got.Games() != 4 {
		t.Errorf("e2e4 games = %d, want 4", got.Games())
	}
	if avg, ok := got.AverageRating(); !ok || avg != 2400 {
		t.Errorf("average rating = %v, %v; want 2400", avg, ok)
	}
	if _, ok := e.Lookup(g1f3); ok {
		t.Error("g1f3 found")
	}
	d4, _ := e.Lookup(d2d4)
	if d4.FirstDate != 0 || d4.LastDate != 0 {
		t.Errorf("unknown date changed first/last: %+v", d4)
	}
	tot := e.Total()
	if tot.Games() != 5 || e.Games() != 5 || tot.Draws != 2 || tot.FirstDate != 18580301 || tot.LastDate != 19010101 {
		t.Errorf("total = %+v", tot)
	}
}

func TestScore(t *testing.T) {
	s := MoveStats{CellStats: CellStats{WhiteWins: 5, Draws: 3, BlackWins: 2, Unknown: 1}}
	if got := s.Score(true); got != 2*5+3+1 {
		t.Errorf("white score = %d", got)
	}
	if got := s.Score(false); got != 2*2+3+1 {
		t.Errorf("black score = %d", got)
	}
	if s.Wins(true) != 5 || s.Losses(true) != 2 || s.Wins(false) != 2 || s.Losses(false) != 5 {
		t.Error("wins/losses by mover")
	}
}

func TestMergeSaturates(t *testing.T) {
	a := MoveStats{CellStats: CellStats{WhiteWins: math.MaxUint64 - 1, RatingSum: math.MaxUint64}}
	a.Merge(MoveStats{CellStats: CellStats{WhiteWins: 5, RatingSum: 1}})
	if a.WhiteWins != math.MaxUint64 || a.RatingSum != math.MaxUint64 {
		t.Errorf("merge wrapped: %+v", a)
	}
}

func TestMergeSelf(t *testing.T) {
	var e Entry
	e.Add(e2e4, pgn.WhiteWins, 2000, 20000101)
	e.Add(d2d4, pgn.Draw, 0, 0)
	e.Merge(e)
	if s, _ := e.Lookup(e2e4); s.WhiteWins != 2 || s.RatingSum != 4000 {
		t.Errorf("e.Merge(e): %+v", s)
	}
}

// randomEntry returns an entry over a small move alphabet, so that entries
// share moves, with counters and dates that include the edge cases: zero,
// huge (to exercise saturation) and half-known dates.
func randomEntry(r *rand.Rand) Entry {
	var e Entry
	moves := []board.Move{1, 2, e2e4, d2d4, g1f3, 0x4000 | 52 | 60<<6, 0xFFFF}
	slices.Sort(moves)
	for _, m := range moves {
		if r.IntN(2) == 0 {
			continue
		}
		e.Moves = append(e.Moves, MoveEntry{Move: m, MoveStats: randomStats(r)})
	}
	return e
}

func randomStats(r *rand.Rand) MoveStats {
	n := func() uint64 {
		switch r.IntN(6) {
		case 0:
			return 0
		case 1:
			return math.MaxUint64 - r.Uint64N(3)
		case 2:
			return r.Uint64()
		default:
			return r.Uint64N(300)
		}
	}
	d := func() Date {
		switch r.IntN(4) {
		case 0:
			return 0
		case 1:
			return Date(r.Uint32())
		default:
			return NewDate(1800+r.IntN(250), r.IntN(13), r.IntN(32))
		}
	}
	s := MoveStats{
		CellStats: CellStats{WhiteWins: n(), Draws: n(), BlackWins: n(), Unknown: n(), RatingSum: n(), RatingCount: n()},
	}
	switch r.IntN(3) {
	case 0: // no date
	case 1: // one date
		s.FirstDate = d()
		s.LastDate = s.FirstDate
	default: // anything, even inconsistent: the encoding must keep it
		s.FirstDate, s.LastDate = d(), d()
	}
	if r.IntN(3) > 0 {
		s.LowPly = uint32(r.IntN(200))
		s.FirstSeen = r.Uint64N(1000)
		// Games from a small pool, so that merges see the same game again
		// and ties in rating and date.
		for range r.IntN(7) {
			s.Refs.Add(poolRef(1 + r.Uint64N(12)))
		}
	}
	return s
}

// poolRef returns the reference of pool game id: its rating and date are a
// function of the id, with ties.
func poolRef(id uint64) GameRef {
	return GameRef{ID: id, Rating: uint16(2000 + 100*(id%3)), Date: NewDate(2000+int(id%4), 1, 1)}
}

// TestMergeAssociativeCommutative merges the same random entries in random
// orders and groupings, as a Pebble merge operator may (batches, flushes,
// compactions, partial merges without the base value), through Entry.Merge
// and through MergeEncoded, and checks every result is the same.
func TestMergeAssociativeCommutative(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for iter := 0; iter < 500; iter++ {
		parts := make([]Entry, 1+r.IntN(8))
		for i := range parts {
			parts[i] = randomEntry(r)
		}
		// Reference: left fold in the given order.
		var want Entry
		for _, p := range parts {
			want.Merge(p)
		}
		wantEnc := want.AppendEncode(nil)

		for trial := 0; trial < 10; trial++ {
			perm := r.Perm(len(parts))
			// A random binary tree over the permuted parts, in memory.
			got := mergeTree(r, parts, perm)
			if !got.Equal(want) {
				t.Fatalf("iter %d: tree merge differs:\n got %+v\nwant %+v", iter, got, want)
			}
			// The same over encodings.
			encs := make([][]byte, len(parts))
			for i, p := range parts {
				encs[i] = p.AppendEncode(nil)
			}
			gotEnc, err := mergeTreeEncoded(r, encs, perm)
			if err != nil {
				t.Fatalf("iter %d: %v", iter, err)
			}
			if string(gotEnc) != string(wantEnc) {
				t.Fatalf("iter %d: encoded tree merge differs:\n got %x\nwant %x", iter, gotEnc, wantEnc)
			}
		}
	}
}

func mergeTree(r *rand.Rand, parts []Entry, idx []int) Entry {
	if len(idx) == 1 {
		return parts[idx[0]].Clone()
	}
	cut := 1 + r.IntN(len(idx)-1)
	left := mergeTree(r, parts, idx[:cut])
	right := mergeTree(r, parts, idx[cut:])
	if r.IntN(2) == 0 {
		left, right = right, left
	}
	left.Merge(right)
	return left
}

func mergeTreeEncoded(r *rand.Rand, encs [][]byte, idx []int) ([]byte, error) {
	if len(idx) == 1 {
		return encs[idx[0]], nil
	}
	cut := 1 + r.IntN(len(idx)-1)
	left, err := mergeTreeEncoded(r, encs, idx[:cut])
	if err != nil {
		return nil, err
	}
	right, err := mergeTreeEncoded(r, encs, idx[cut:])
	if err != nil {
		return nil, err
	}
	if r.IntN(2) == 0 {
		left, right = right, left
	}
	return MergeEncoded(nil, left, right)
}

// TestMergeUnsortedNoPanic: hand-built, unsorted entries are invalid, but
// merging them must not panic.
func TestMergeUnsortedNoPanic(t *testing.T) {
	a := Entry{Moves: []MoveEntry{{Move: 1}, {Move: 2}, {Move: 3}}}
	b := Entry{Moves: []MoveEntry{{Move: 3}, {Move: 1}}}
	a.Merge(b)
	b.Merge(Entry{Moves: []MoveEntry{{Move: 9}, {Move: 0}, {Move: 3}}})
	if err := b.Validate(); err == nil {
		t.Error("Validate accepted an unsorted entry")
	}
}

// TestRefsKeepBest adds games one by one and checks the lists against a
// sort of all of them: the top games by rating, the recent ones by date.
func TestRefsKeepBest(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for iter := 0; iter < 200; iter++ {
		var rs Refs
		var all []GameRef
		for range 1 + r.IntN(20) {
			g := poolRef(1 + r.Uint64N(30))
			if !slices.Contains(all, g) {
				all = append(all, g)
			}
			rs.Add(g)
		}
		check := func(name string, got [MaxRefs]GameRef, before func(a, b GameRef) bool) {
			want := slices.Clone(all)
			slices.SortFunc(want, func(a, b GameRef) int {
				if before(a, b) {
					return -1
				}
				return 1
			})
			want = want[:min(len(want), MaxRefs)]
			var w [MaxRefs]GameRef
			copy(w[:], want)
			if got != w {
				t.Fatalf("iter %d: %s = %v, want %v", iter, name, got, w)
			}
		}
		check("Top", rs.Top, TopBefore)
		check("Recent", rs.Recent, RecentBefore)
		// Round trip through the encoding.
		e := Entry{Moves: []MoveEntry{{Move: e2e4, MoveStats: MoveStats{CellStats: CellStats{WhiteWins: 1}, Refs: rs}}}}
		d, err := Decode(e.AppendEncode(nil))
		if err != nil || !d.Equal(e) {
			t.Fatalf("iter %d: round trip: %v %+v", iter, err, d)
		}
	}
}
