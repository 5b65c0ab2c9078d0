package gamedb

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/gamecode"
	"github.com/chessbook/chessbook/ingest"
	"github.com/chessbook/chessbook/pgn"
	"github.com/chessbook/chessbook/stats"
	"github.com/chessbook/chessbook/store"
)

// readGames reads the games of a PGN file.
func readGames(tb testing.TB, path string) []*pgn.Game {
	tb.Helper()
	var mu sync.Mutex
	var games []*pgn.Game
	_, err := ingest.Run(context.Background(), []string{path}, ingest.Options{Workers: 1}, func(int) ingest.Sink {
		return ingest.SinkFunc(func(g *pgn.Game) error {
			mu.Lock()
			games = append(games, g.Clone())
			mu.Unlock()
			return nil
		})
	})
	if err != nil {
		tb.Fatal(err)
	}
	return games
}

// TestSummaryRoundTrip: a summary of every game of the champions sample
// decodes to what was coded, and its moves walk back to the game's first
// plies; the entry's names are the tags', normalized.
func TestSummaryRoundTrip(t *testing.T) {
	var ix gamecode.MoveIndexer
	rng := rand.New(rand.NewPCG(3, 4))
	for _, g := range readGames(t, "../testdata/champions500.pgn") {
		f := Facts{WhiteElo: rng.IntN(3000), BlackElo: rng.IntN(3000), Date: stats.NewDate(1800+rng.IntN(300), rng.IntN(13), rng.IntN(32)),
			Cell: stats.NewCell(stats.Speed(rng.IntN(16)), stats.RatingBand(rng.IntN(16)))}
		ent := AppendEntry(nil, g, f, &ix)
		// The numbers the record's coding gives make the same entry.
		var nums [SummaryPlies]gamecode.MoveNumber
		_, k, err := gamecode.AppendGameCodedNumbered(nil, g, gamecode.Indexed, nums[:])
		if err != nil || k != min(len(g.Moves), SummaryPlies) {
			t.Fatalf("game at line %d: %d numbers, %v", g.Line, k, err)
		}
		f.Moves = nums[:k]
		if again := AppendEntry(nil, g, f, &ix); !bytes.Equal(again, ent) {
			t.Fatalf("game at line %d: the entry from the coding's numbers differs", g.Line)
		}
		var e entry
		if err := decodeEntry(&e, ent); err != nil {
			t.Fatal(err)
		}
		var s Summary
		if err := DecodeSummary(&s, e.summary); err != nil {
			t.Fatal(err)
		}
		if s.Result != g.Result || s.WhiteElo != f.WhiteElo || s.BlackElo != f.BlackElo || s.Date != f.Date || s.Cell != f.Cell ||
			s.Plies != len(g.Moves) || ECOString(s.ECO) != string(g.Tag("ECO")) || s.Coded != min(len(g.Moves), SummaryPlies) {
			t.Fatalf("game at line %d: summary %+v, facts %+v, ECO %q, %d plies", g.Line, s, f, g.Tag("ECO"), len(g.Moves))
		}
		var moves []board.Move
		if err := s.Walk(&ix, func(ply int, pos *board.Position, m board.Move) bool {
			if m != 0 {
				moves = append(moves, m)
			}
			return true
		}); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(moves, g.Moves[:s.Coded]) {
			t.Fatalf("game at line %d: walked %v, want %v", g.Line, moves, g.Moves[:s.Coded])
		}
		for i, tag := range []string{"White", "Black", "Event", "Site"} {
			if got, want := string(e.norm[i]), Normalize(string(g.Tag(tag))); got != want {
				t.Fatalf("game at line %d: %s normalized %q, want %q", g.Line, tag, got, want)
			}
			if posted := s.Posted&(1<<i) != 0; posted != (len(e.norm[i]) > 0) {
				t.Fatalf("game at line %d: %s posted %v with name %q", g.Line, tag, posted, e.norm[i])
			}
		}
	}
}

func TestSummaryBad(t *testing.T) {
	good := (&Summary{Result: pgn.Draw, Plies: 3, ECO: 12}).Append(nil)
	var s Summary
	if err := DecodeSummary(&s, good); err != nil {
		t.Fatal(err)
	}
	for _, bad := range [][]byte{nil, good[:2], append(slices.Clone(good[:3]), 0x80), {7, 0, 0, 0, 0, 0, 0, 0},
		append(slices.Clone(good), 25), append(slices.Clone(good), 4, 0)} {
		if DecodeSummary(&s, bad) == nil {
			t.Errorf("summary %x decoded", bad)
		}
	}
}

func TestECO(t *testing.T) {
	for _, c := range []struct {
		in   string
		want uint16
	}{{"A00", 1}, {"E99", 500}, {"b90", 191}, {" C65 ", 266}, {"F00", 0}, {"A0", 0}, {"A000", 0}, {"?", 0}, {"", 0}} {
		if got := ParseECO([]byte(c.in)); got != c.want {
			t.Errorf("ParseECO(%q) = %d, want %d", c.in, got, c.want)
		}
		if c.want != 0 {
			if back := ECOString(c.want); ParseECO([]byte(back)) != c.want {
				t.Errorf("ECOString(%d) = %q", c.want, back)
			}
		}
	}
}

func TestPostingLists(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for range 100 {
		var ps []Posting
		num := uint64(1 + rng.IntN(1000))
		for range 1 + rng.IntN(50) {
			ps = append(ps, Posting{Num: num, Date: stats.NewDate(rng.IntN(2100), rng.IntN(13), rng.IntN(32))})
			num += 1 + uint64(rng.IntN(300))
		}
		got, err := decodePlayerList(nil, ps[0].Num, appendPlayerList(nil, ps))
		if err != nil || !slices.Equal(got, ps) {
			t.Fatalf("player list: %v, %v, want %v", got, err, ps)
		}
		nums := make([]uint64, len(ps))
		for i, p := range ps {
			nums[i] = p.Num
		}
		gotN, err := decodeTermList(nil, nums[0], appendTermList(nil, nums))
		if err != nil || !slices.Equal(gotN, nums) {
			t.Fatalf("term list: %v, %v, want %v", gotN, err, nums)
		}
	}
	if _, err := decodeTermList(nil, 1, []byte{1}); err == nil {
		t.Error("a list whose first number is not the key's decoded")
	}
	if _, err := decodeTermList(nil, 1, []byte{0, 0}); err == nil {
		t.Error("a list with a number twice decoded")
	}
}

// TestBatchRecords: a batch's records come in key order; the tallies of
// a name add up its games; split in two batches, the records with equal
// keys (the tallies) combine into the one batch's.
func TestBatchRecords(t *testing.T) {
	var ix gamecode.MoveIndexer
	games := readGames(t, "../testdata/champions500.pgn")
	var ents [][]byte
	for _, g := range games {
		white, black := atoi(g.Tag("WhiteElo")), atoi(g.Tag("BlackElo"))
		ents = append(ents, AppendEntry(nil, g, Facts{WhiteElo: white, BlackElo: black, Date: stats.ParseDate(string(g.Tag("Date")))}, &ix))
	}
	records := func(bs ...*Batch) map[string][]byte {
		out := map[string][]byte{}
		for _, b := range bs {
			var last []byte
			err := b.Records(func(k, v []byte) error {
				if last != nil && bytes.Compare(k, last) <= 0 {
					return fmt.Errorf("key %q after %q", k, last)
				}
				last = bytes.Clone(k)
				if old, ok := out[string(k)]; ok {
					m, err := store.MergeTally(nil, old, v)
					if err != nil {
						return err
					}
					v = m
				}
				out[string(k)] = bytes.Clone(v)
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
		}
		return out
	}
	var whole, a, b Batch
	for i, e := range ents {
		num := uint64(i + 1)
		if err := whole.Add(num, e); err != nil {
			t.Fatal(err)
		}
		half := &a
		if i%3 == 0 {
			half = &b
		}
		if err := half.Add(num, e); err != nil {
			t.Fatal(err)
		}
	}
	one := records(&whole)
	// Count Steinitz's games (every spelling normalizing to steinitzwilliam).
	var white, black uint64
	for _, g := range games {
		if Normalize(string(g.Tag("White"))) == "steinitzwilliam" {
			white++
		}
		if Normalize(string(g.Tag("Black"))) == "steinitzwilliam" {
			black++
		}
	}
	var tw, tb uint64
	for k, v := range one {
		if k[0] == kindPlayerDict && bytes.HasPrefix([]byte(k[1:]), []byte("steinitzwilliam\x00")) {
			vals, err := store.DecodeTally(nil, v, playerOps)
			if err != nil {
				t.Fatal(err)
			}
			tw += vals[ptWhite]
			tb += vals[ptBlack]
		}
	}
	if white == 0 || tw != white || tb != black {
		t.Errorf("Steinitz: tallies %d+%d games, the tags %d+%d", tw, tb, white, black)
	}
	two := records(&a, &b)
	// Posting lists split in two; everything else must be equal.
	for k, v := range one {
		if k[0] == kindPlayerPost || k[0] == kindEventPost || k[0] == kindSitePost {
			continue
		}
		if !bytes.Equal(two[k], v) {
			t.Errorf("record %q: %x in one batch, %x in two", k, v, two[k])
		}
	}
	for k := range two {
		if _, ok := one[k]; !ok && k[0] != kindPlayerPost && k[0] != kindEventPost && k[0] != kindSitePost {
			t.Errorf("record %q only in two batches", k)
		}
	}
}

func atoi(b []byte) int {
	n := 0
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0
		}
		n = n*10 + int(c-'0')
	}
	return n
}
