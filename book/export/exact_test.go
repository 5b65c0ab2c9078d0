package export_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/book"
	"github.com/chessbook/chessbook/book/build"
	"github.com/chessbook/chessbook/book/export"
	"github.com/chessbook/chessbook/internal/storetest"
	"github.com/chessbook/chessbook/keys"
	"github.com/chessbook/chessbook/polyglot"
	"github.com/chessbook/chessbook/stats"
	"github.com/chessbook/chessbook/store"
)

// buildBook builds inputs into a new store with opts, two workers, and
// returns it open (closed when the test ends), with the pipeline's summary
// and the builder's counters: storetest.Build.
var buildBook = storetest.Build

// championsGame is the store of the champions' 500 games counted once per
// game, which several tests read: built once per test binary.
var championsGame = storetest.Once(build.Options{CountMode: store.CountGame}, "../../testdata/champions500.pgn")

// TestMain runs the tests and removes the shared stores.
func TestMain(m *testing.M) { storetest.Main(m) }

// exportBytes exports st with o and returns the written book. A small
// book is exported a second time with its entries sorted in runs of 3,
// spilled and merged, which must write the same bytes (the moves of a
// position then fall in different runs; TestEntrySorter checks the
// merge's ties on many more).
func exportBytes(t *testing.T, st *store.Store, o export.Options) ([]byte, export.Stats) {
	t.Helper()
	entries, es, err := export.Polyglot(context.Background(), st, o)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := polyglot.WriteBook(&buf, entries); err != nil {
		t.Fatal(err)
	}
	if len(entries) <= 2000 {
		chunked, runs := export.WithChunkEntries(o, 3)
		var spilled bytes.Buffer
		_, err := export.PolyglotTo(context.Background(), st, chunked, func(e polyglot.Entry) error {
			return polyglot.WriteBook(&spilled, []polyglot.Entry{e})
		})
		if err != nil {
			t.Fatal(err)
		}
		if want := max(len(entries)-1, 0) / 3; *runs != want {
			t.Errorf("%d entries sorted in %d runs of 3, want %d", len(entries), *runs, want)
		}
		if !bytes.Equal(spilled.Bytes(), buf.Bytes()) {
			t.Errorf("the book sorted in runs of 3 differs from the book sorted in memory")
		}
	}
	return buf.Bytes(), es
}

// TestExportPinnedEnPassant: White's f2-f4 and d2-d4 step beside a Black
// e4 pawn pinned on the e-file by the queen on e2. No en-passant capture
// is legal, so our canonical key has no en-passant square, but PolyGlot's
// key has the file. The same positions are also reached without the
// double step (f3-f4 with tempo moves, d3-d4), so make-book files their
// moves under two keys each; the export must write the same book.
func TestExportPinnedEnPassant(t *testing.T) {
	in := "../../testdata/ep_pinned.pgn"
	st, _, bs := buildBook(t, build.Options{MaxPly: 1024, CountMode: store.CountOccurrence, KeepDuplicates: true, Inputs: []string{in}}, in)
	if bs.Games != 12 {
		t.Fatalf("ingested %d games, want 12", bs.Games)
	}
	for _, minGame := range []uint64{1, 3} {
		want := makeBook(t, in, fmt.Sprintf("ep_pinned_makebook_mingame%d.bin", minGame), "-min-game", fmt.Sprint(minGame))
		got, es := exportBytes(t, st, export.Options{MinGame: minGame})
		if !bytes.Equal(got, want) {
			t.Errorf("min-game %d: export (%d bytes) differs from make-book's (%d bytes)", minGame, len(got), len(want))
		}
		if es.EPSplit == 0 {
			t.Errorf("min-game %d: no position split by the en-passant rule", minGame)
		}
	}

	// The position after 1.e4 d5 2.exd5 e5 3.Qe2 e4 4.f4: its key and its
	// decoding have no en-passant square.
	p := board.StartPosition()
	for _, san := range strings.Fields("e4 d5 exd5 e5 Qe2 e4 f4") {
		m, err := p.ParseSAN([]byte(san))
		if err != nil {
			t.Fatal(err)
		}
		p.Play(m)
	}
	if p.PolyglotEPFile() != 5 || p.LegalEPSquare() != board.NoSquare {
		t.Fatalf("after 4.f4: PolyGlot en-passant file %d, legal en-passant square %v; want file f and none", p.PolyglotEPFile(), p.LegalEPSquare())
	}
	k := keys.Encode(&p)
	q := p
	q.SetEPSquare(board.NoSquare)
	q.SetClocks(0, 1) // keys do not hold the clocks
	if !bytes.Equal(k, keys.Encode(&q)) {
		t.Fatal("the canonical key of the position after 4.f4 records the en-passant square")
	}
	d, err := keys.Decode(k)
	if err != nil {
		t.Fatal(err)
	}
	if d.EPSquare() != board.NoSquare || d.FEN() != q.FEN() {
		t.Fatalf("decoded %s, want %s", d.FEN(), q.FEN())
	}
	// The store's own record of it counts every occurrence; the side
	// record the direct 4.f4 ones.
	e, ok, err := book.Lookup(st, k)
	if err != nil || !ok {
		t.Fatalf("position after 4.f4: %v %v", ok, err)
	}
	var side stats.Entry
	err = st.EPRecords(func(file int, pos []byte, se *stats.Entry) error {
		if bytes.Equal(pos, k) && file == 5 {
			side = se.Clone()
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if e.Games() != 8 || side.Games() != 5 {
		t.Fatalf("after 4.f4: %d games in the position record, %d in its en-passant record; want 8 and 5", e.Games(), side.Games())
	}
}

// halvingPGN writes a PGN of short games where the start position's 1.e4
// passes 16384 games, with 1.d4 games mostly before and 1.c4 games mostly
// after: PolyGlot halves the d4 games, not most c4 ones, which no estimate
// from the totals can tell.
func halvingPGN(t *testing.T) string {
	t.Helper()
	var b strings.Builder
	results := []string{"1-0", "0-1", "1/2-1/2", "1-0", "*", "0-1", "1-0"}
	game := func(i int, moves string) {
		r := results[i%len(results)]
		fmt.Fprintf(&b, "[Event \"g%d\"]\n[White \"W%d\"]\n[Black \"B\"]\n[Result \"%s\"]\n\n1. %s %s\n\n", i, i, r, moves, r)
	}
	i := 0
	for ; i < 2500; i++ {
		switch {
		case i%5 == 0:
			game(i, "e4 c5 2. Nf3")
		default:
			game(i, "d4 d5 2. c4")
		}
	}
	for ; i < 19500; i++ {
		switch {
		case i%97 == 0:
			game(i, "d4 Nf6 2. c4")
		case i%89 == 0:
			game(i, "c4 e5 2. Nc3")
		case i%3 == 0:
			game(i, "e4 e5 2. Nf3")
		default:
			game(i, "e4 c5 2. Nf3")
		}
	}
	for ; i < 21700; i++ {
		switch {
		case i%2 == 0:
			game(i, "c4 e5 2. Nc3")
		default:
			game(i, "c4 c5 2. g3")
		}
	}
	path := filepath.Join(t.TempDir(), "halving.pgn")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestExportHalvingExact: at a position where PolyGlot halves the counts
// (a move reaching 16384), the export replays the games in input order and
// writes make-book's book byte for byte; without the game order index
// (-count game) it can only estimate, and says so.
func TestExportHalvingExact(t *testing.T) {
	in := halvingPGN(t)
	want := makeBook(t, in, "halving_makebook_mingame1.bin", "-min-game", "1")
	st, _, bs := buildBook(t, build.Options{MaxPly: 1024, CountMode: store.CountOccurrence, KeepDuplicates: true, Inputs: []string{in}}, in)
	if bs.Games != 21700 {
		t.Fatalf("ingested %d games, want 21700", bs.Games)
	}
	got, es := exportBytes(t, st, export.Options{MinGame: 1})
	if !bytes.Equal(got, want) {
		t.Errorf("export (%d bytes) differs from make-book's (%d bytes)", len(got), len(want))
	}
	if es.Halved != 1 || es.Replayed == 0 || es.Warning != "" {
		t.Errorf("halved %d, replayed %d, warning %q; want 1 halved, replayed, no warning", es.Halved, es.Replayed, es.Warning)
	}

	// A store without the game order index falls back to the estimate,
	// which here is not make-book's book, and warns.
	st2, _, _ := buildBook(t, build.Options{MaxPly: 1024, CountMode: store.CountOccurrence, KeepDuplicates: true}, in)
	got2, es2 := exportBytes(t, st2, export.Options{MinGame: 1})
	if es2.Warning == "" || es2.Estimated == 0 {
		t.Errorf("no index: estimated %d, warning %q; want a warning", es2.Estimated, es2.Warning)
	}
	if bytes.Equal(got2, want) {
		t.Error("the estimate equals make-book's book: the test input does not tell the exact replay from the estimate")
	}
}
