package book_test

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"github.com/chessbook/chessbook/book"
	"github.com/chessbook/chessbook/internal/testutil"
	"github.com/chessbook/chessbook/polyglot"
	"github.com/chessbook/chessbook/store"
)

// compareExport exports st with o and compares the book with PolyGlot's
// reference ref entry for entry, in order: key, move and weight. At
// positions PolyGlot halved the moves are compared with halvedAgree;
// positions PolyGlot split under its en-passant rule (see polyglotView)
// are not compared.
func compareExport(t *testing.T, st *store.Store, ref string, o book.ExportOptions) {
	t.Helper()
	got, es, err := book.Export(context.Background(), st, o)
	if err != nil {
		t.Fatal(err)
	}
	bk, err := polyglot.OpenBook(ref)
	if err != nil {
		t.Fatal(err)
	}
	want := bk.Entries()
	_, _, alias := polyglotView(t, st)
	aliased := map[uint64]bool{}
	for alt, base := range alias {
		aliased[alt], aliased[base] = true, true
	}
	halved := map[uint64]bool{}
	for _, k := range es.HalvedKeys {
		halved[k] = true
	}
	group := func(es []polyglot.Entry) map[uint64][]polyglot.Entry {
		m := map[uint64][]polyglot.Entry{}
		for _, e := range es {
			m[e.Key] = append(m[e.Key], e)
		}
		return m
	}
	g, w := group(got), group(want)
	var equal, movesOnly, skipped, bad int
	for key, we := range w {
		ge := g[key]
		switch {
		case slices.Equal(ge, we):
			equal += len(we)
		case aliased[key]:
			skipped += len(we)
		case halved[key] && halvedAgree(ge, we):
			movesOnly += len(we)
		default:
			if bad < 10 {
				t.Errorf("key %016x: exported %v, reference %v", key, ge, we)
			}
			bad++
		}
	}
	for key, ge := range g {
		if _, ok := w[key]; !ok && !aliased[key] {
			if bad < 10 {
				t.Errorf("key %016x: exported %v, not in the reference", key, ge)
			}
			bad++
		}
	}
	// The exported book must also be in the reference's exact order
	// wherever the entries were compared.
	if !slices.IsSortedFunc(got, polyglot.CompareEntries) {
		t.Error("the exported book is not in book order")
	}
	if bad > 0 {
		t.Fatalf("%d positions differ", bad)
	}
	t.Logf("%s: %d of %d reference entries equal (key, move, weight, order), %d at %d halved positions agreeing (top move, order of clearly different weights), %d split by the en-passant rule",
		filepath.Base(ref), equal, len(want), movesOnly, es.Halved, skipped)
	if skipped == 0 && movesOnly == 0 && !slices.Equal(got, want) {
		t.Fatal("every position agrees but the books differ")
	}
	if equal < len(want)*99/100 {
		t.Fatalf("only %d of %d entries compared equal", equal, len(want))
	}
}

// halvedAgree compares a position PolyGlot halved: its counts there depend
// on the order of the games, which the store does not keep. The most played
// move must agree, and every two moves both books kept must be in the same
// order unless their weights are within 25% of each other (close enough for
// game order to swap them) or one is below 1% of the top move's (a few
// games, whose halvings depend on when they came); moves only one book kept
// must be rare ones (weight at most 3% of the top move's).
func halvedAgree(got, want []polyglot.Entry) bool {
	if len(got) == 0 || len(want) == 0 || got[0].Move != want[0].Move {
		return false
	}
	wi := map[uint16]int{}
	for i, e := range want {
		wi[e.Move] = i
	}
	gi := map[uint16]int{}
	for i, e := range got {
		gi[e.Move] = i
		if _, ok := wi[e.Move]; !ok && uint32(e.Weight)*33 > uint32(got[0].Weight) {
			return false
		}
	}
	for _, e := range want {
		if _, ok := gi[e.Move]; !ok && uint32(e.Weight)*33 > uint32(want[0].Weight) {
			return false
		}
	}
	for i := range got {
		for j := i + 1; j < len(got); j++ {
			a, b := got[i], got[j]
			ia, oka := wi[a.Move]
			ib, okb := wi[b.Move]
			if oka && okb && ia > ib && uint32(b.Weight)*5 < uint32(a.Weight)*4 && uint32(b.Weight)*100 >= uint32(got[0].Weight) {
				return false
			}
		}
	}
	return true
}

// TestExportEqualsPolyglot compares exports with three reference books;
// the fourth (the players corpus) is compared in TestReferenceBookPlayers,
// on the store it builds.
func TestExportEqualsPolyglot(t *testing.T) {
	data := testutil.SharedData(t)
	champions := filepath.Join(data, "medium", "pgnmentor_world_champions_16players.pgn.zst")
	lichess := filepath.Join(data, "medium", "lichess_10k.pgn.zst")
	for _, c := range []struct {
		name  string
		build book.Options
		in    string
		ref   string
		opts  book.ExportOptions
		large bool
	}{
		{"champions default", book.Options{MaxPly: 1024}, champions, "polyglot204_makebook_default__pgnmentor_world_champions_16players.bin", book.ExportOptions{MinGame: 3}, false},
		{"champions maxply20 mingame1", book.Options{MaxPly: 20}, champions, "polyglot204_makebook_maxply20_mingame1__pgnmentor_world_champions_16players.bin", book.ExportOptions{MinGame: 1, MaxPly: 20}, false},
		{"lichess10k nosetup", book.Options{MaxPly: 1024, StandardStartOnly: true}, lichess, "polyglot204_makebook_default__corentings_lichess10k_nosetup.bin", book.ExportOptions{MinGame: 3}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.large && testing.Short() {
				t.Skip("large corpus skipped with -short")
			}
			c.build.CountMode, c.build.KeepDuplicates, c.build.Inputs = store.CountOccurrence, true, []string{c.in}
			st, _, _ := build(t, c.build, c.in)
			compareExport(t, st, filepath.Join(data, "reference", c.ref), c.opts)
		})
	}
}
