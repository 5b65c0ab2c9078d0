package build_test

import (
	"context"
	"github.com/chessbook/chessbook/filter"
	"github.com/chessbook/chessbook/internal/storetest"
	"path/filepath"
	"testing"

	"github.com/chessbook/chessbook/internal/testutil"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/book"
	"github.com/chessbook/chessbook/book/build"
	"github.com/chessbook/chessbook/book/export"
	"github.com/chessbook/chessbook/ingest"
	"github.com/chessbook/chessbook/keys"
	"github.com/chessbook/chessbook/polyglot"
	"github.com/chessbook/chessbook/stats"
	"github.com/chessbook/chessbook/store"
)

// buildBook runs the whole pipeline into a new store in a temporary
// directory: storetest.Build.
var buildBook = storetest.Build

// championsGame is the store of the champions' 500 games counted once per
// game, which the tests only read: built once per test binary.
var championsGame = storetest.Once(build.Options{CountMode: store.CountGame}, "../../testdata/champions500.pgn")

type pgMove struct {
	key  uint64
	move uint16
}

type counts struct{ games, score uint64 }

// polyglotView decodes every stored position and returns its moves under
// Polyglot keys and moves, with games and PolyGlot scores (the store's
// totals, before any halving), and the set of positions where a move was
// played 16384 times or more. Occurrences PolyGlot files under an
// en-passant key that the store's canonical key drops come from the
// store's en-passant side records, and are taken out of the position's own
// key, as the export does.
func polyglotView(t *testing.T, st *store.Store) (map[pgMove]counts, map[uint64]bool) {
	t.Helper()
	view := map[pgMove]counts{}
	halved := map[uint64]bool{}
	add := func(p *board.Position, e *stats.Entry, sign int) {
		pk := polyglot.Key(p)
		wtm := p.SideToMove() == board.White
		for _, m := range e.Moves {
			if !p.IsLegal(m.Move) {
				t.Fatalf("position %s: stored move %s is not legal", p.FEN(), m.Move)
			}
			k := pgMove{pk, polyglot.EncodeMove(p, m.Move)}
			c := view[k]
			if sign > 0 {
				c.games += m.Games()
				c.score += m.Score(wtm)
			} else {
				c.games -= m.Games()
				c.score -= m.Score(wtm)
			}
			view[k] = c
			if m.Games() >= 16384 {
				halved[pk] = true
			}
		}
	}
	err := book.Positions(context.Background(), st, 0, func(k []byte, e *stats.Entry) error {
		p, err := keys.Decode(k)
		if err != nil {
			t.Fatalf("stored key %x does not decode: %v", k, err)
		}
		add(&p, e, +1)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	err = st.EPRecords(func(file int, k []byte, e *stats.Entry) error {
		p, err := keys.Decode(k)
		if err != nil {
			t.Fatalf("en-passant record key %x does not decode: %v", k, err)
		}
		if p.EPSquare() != board.NoSquare {
			t.Fatalf("en-passant record of %s: the position key has an en-passant square", p.FEN())
		}
		add(&p, e, -1)
		rank := 2
		if p.SideToMove() == board.White {
			rank = 5
		}
		p.SetEPSquare(board.MakeSquare(file, rank))
		if p.PolyglotEPFile() != file || p.LegalEPSquare() != board.NoSquare {
			t.Fatalf("en-passant record of %s: not a PolyGlot-only en-passant file", p.FEN())
		}
		add(&p, e, +1)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for k, c := range view {
		if c.games == 0 {
			delete(view, k)
		}
	}
	return view, halved
}

// compareReference checks the store's statistics against PolyGlot's book,
// entry for entry: every reference entry has our score as its weight, and
// every move of ours that make-book's filters keep (n >= minGame, score >
// 0) is in the reference. Totals can not show PolyGlot's halving (which
// depends on game order): at the positions where a move was played 16384
// times or more they are not compared here; compareExport, which replays
// the games there, compares every entry.
func compareReference(t *testing.T, st *store.Store, ref string, minGame uint64) {
	t.Helper()
	bk, err := polyglot.OpenBook(ref)
	if err != nil {
		t.Fatal(err)
	}
	view, halved := polyglotView(t, st)
	refSum := map[pgMove]uint64{}
	var checked, skipped int
	for _, e := range bk.Entries() {
		k := pgMove{e.Key, e.Move}
		if halved[k.key] {
			skipped++
			continue
		}
		refSum[k] += uint64(e.Weight)
	}
	for k, w := range refSum {
		c, ok := view[k]
		switch {
		case !ok:
			t.Errorf("reference entry %016x %s (weight %d) is not in our book", k.key, polyglot.MoveString(k.move), w)
		case w != c.score:
			t.Errorf("entry %016x %s: reference weight %d, our 2*wins+draws+unknown %d (games %d)", k.key, polyglot.MoveString(k.move), w, c.score, c.games)
		default:
			checked++
		}
	}
	var extra int
	for k, c := range view {
		if c.games < minGame || c.score == 0 || halved[k.key] || refSum[k] != 0 {
			continue
		}
		if extra < 10 {
			t.Errorf("our entry %016x %s (games %d, score %d) is missing from the reference", k.key, polyglot.MoveString(k.move), c.games, c.score)
		}
		extra++
	}
	if checked == 0 {
		t.Fatal("no entry compared")
	}
	t.Logf("%s: %d entries equal, %d reference entries at %d positions with halved counts left to compareExport", filepath.Base(ref), checked, skipped, len(halved))
}

// TestStartPositionCountsEveryGame: counting once per game (-count game:
// once per position, at the first visit), the start position's games equal
// the games ingested, each counted under the first move it played.
func TestStartPositionCountsEveryGame(t *testing.T) {
	st, _, bs := championsGame.Open(t)
	start := board.StartPosition()
	e, ok, err := book.Lookup(st, keys.Encode(&start))
	if err != nil || !ok {
		t.Fatalf("start position: %v %v", ok, err)
	}
	if got := e.Total().Games(); got != uint64(bs.Games) || bs.Games != 500 {
		t.Fatalf("start position games %d, games ingested %d, want 500 both", got, bs.Games)
	}
	if m := st.Meta(); m.Games != 500 {
		t.Fatalf("meta games %d, want 500", m.Games)
	}
	var n int64
	if err := book.Positions(context.Background(), st, 0, func([]byte, *stats.Entry) error { n++; return nil }); err != nil {
		t.Fatal(err)
	}
	if d := float64(bs.Distinct-n) / float64(n); d > 0.03 || d < -0.03 {
		t.Fatalf("distinct positions estimated %d, the store holds %d", bs.Distinct, n)
	}
}

// TestReferenceBooksTestdata: the repository's slices built as make-book
// counts (every occurrence, duplicates kept) are PolyGlot's books of them
// (testdata/reference, made by make-book: see generate.sh), entry by entry
// and byte for byte once exported; with -tags oracle the same is checked
// on the four reference books of shared/data.
func TestReferenceBooksTestdata(t *testing.T) {
	champions := testutil.Testdata(t, "champions500.pgn")
	lichess := testutil.Testdata(t, "lichess2k.pgn.zst")
	ref := func(name string) string { return testutil.Testdata(t, filepath.Join("reference", name)) }
	t.Run("champions500 default", func(t *testing.T) {
		t.Parallel()
		st, sum, bs := buildBook(t, build.Options{MaxPly: 1024, CountMode: store.CountOccurrence, KeepDuplicates: true, Inputs: []string{champions}}, champions)
		if sum.Games != 500 || bs.Games != 500 {
			t.Fatalf("read %d, ingested %d games; want 500", sum.Games, bs.Games)
		}
		compareReference(t, st, ref("champions500_makebook_default.bin"), 3)
		storetest.CompareExport(t, st, ref("champions500_makebook_default.bin"), export.Options{MinGame: 3})
	})
	t.Run("champions500 maxply20_mingame1", func(t *testing.T) {
		t.Parallel()
		st, _, _ := buildBook(t, build.Options{MaxPly: 20, CountMode: store.CountOccurrence, KeepDuplicates: true, Inputs: []string{champions}}, champions)
		compareReference(t, st, ref("champions500_makebook_maxply20_mingame1.bin"), 1)
		storetest.CompareExport(t, st, ref("champions500_makebook_maxply20_mingame1.bin"), export.Options{MinGame: 1, MaxPly: 20})
	})
	t.Run("lichess2k nosetup", func(t *testing.T) {
		t.Parallel()
		st, sum, bs := buildBook(t, build.Options{MaxPly: 1024, CountMode: store.CountOccurrence, Filter: filter.Filter{StandardStartOnly: true}, KeepDuplicates: true, Inputs: []string{lichess}}, lichess)
		// 6 games start from a FEN: 5 are filtered out, and 1 is skipped
		// because its FEN has 14 white pawns.
		if bs.Games != 1994 || bs.Filtered[filter.ByStart] != 5 || sum.Skipped[ingest.SkipBadFEN] != 1 {
			t.Fatalf("ingested %d, filtered %v, skipped %v; want 1994, 5 FEN starts and 1 bad FEN", bs.Games, bs.Filtered, sum.Skipped)
		}
		compareReference(t, st, ref("lichess2k_nosetup_makebook_default.bin"), 3)
		storetest.CompareExport(t, st, ref("lichess2k_nosetup_makebook_default.bin"), export.Options{MinGame: 3})
	})
}
