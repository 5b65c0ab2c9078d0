package main

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chessbook/chessbook/book/build"
	"github.com/chessbook/chessbook/ingest"
	"github.com/chessbook/chessbook/internal/savings"
	"github.com/chessbook/chessbook/store"
)

func TestSavings(t *testing.T) {
	pgn := "../../testdata/champions500.pgn"
	db := buildBook(t, pgn)
	chart := filepath.Join(t.TempDir(), "c.svg")
	out := mustRun(t, "-db", db, "savings", "-chart", chart)
	for _, want := range []string{
		"command:   bookquery -db " + db + " savings -chart", "store: " + db, "500 games;",
		"fen ", "nibbles ", "base13 ", "varbase ", "stream ", "huffman000 ", "huffman002 ", "finetuned ", "pieces ",
		"static ", "dynamic ", "dynamic85 ", "key ", "keytext ", "zobrist64 ", "hash128 ",
		"san ", "fromto ", "legalindex ", "legalradix ",
		"store directory on disk", "PolyGlot book, every entry", "Seed claims", "222 bits, base85 35",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	if svg, err := os.ReadFile(chart); err != nil || !strings.Contains(string(svg), ">keytext<") {
		t.Errorf("chart: %v %.100s", err, svg)
	}

	// The JSON report: the store holds exactly the distinct positions the
	// same games give when measured from PGN. FromPGN counts every
	// (position, move) the games play; a -count game store leaves out the
	// moves played only when a game came back to a position it had already
	// played on from (it counts a game once per position, at its first
	// visit), so it has fewer entries; a -count occurrence store has them
	// all.
	var r savings.Report
	if err := json.Unmarshal([]byte(mustRun(t, "-db", db, "savings", "-full", "-json")), &r); err != nil {
		t.Fatal(err)
	}
	fromPGN, err := savings.FromPGN(context.Background(), []string{pgn}, savings.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Distinct != fromPGN.Distinct || r.Entries >= fromPGN.Entries || r.Entries < fromPGN.Entries*99/100 || r.Distinct == 0 {
		t.Errorf("store: %d positions, %d entries; from PGN: %d, %d (want the same positions, a few entries fewer)", r.Distinct, r.Entries, fromPGN.Distinct, fromPGN.Entries)
	}
	var occ savings.Report
	occDB := buildBookCount(t, store.CountOccurrence, pgn)
	if err := json.Unmarshal([]byte(mustRun(t, "-db", occDB, "savings", "-full", "-json")), &occ); err != nil {
		t.Fatal(err)
	}
	if occ.Distinct != fromPGN.Distinct || occ.Entries != fromPGN.Entries {
		t.Errorf("occurrence store: %d positions, %d entries; from PGN: %d, %d", occ.Distinct, occ.Entries, fromPGN.Distinct, fromPGN.Entries)
	}
	if r.Source != "store" || r.Games != 500 || len(r.PositionRows) != 16 || len(r.MoveRows) != 4 || len(r.Disk) != 6 {
		t.Errorf("source %q, games %d, %d position rows, %d move rows, %d disk rows", r.Source, r.Games, len(r.PositionRows), len(r.MoveRows), len(r.Disk))
	}
	for _, row := range r.PositionRows {
		// Per position the code sizes do not depend on the weighting:
		// the same extremes as from PGN, except FEN's clocks.
		for _, p := range fromPGN.PositionRows {
			if p.ID == row.ID && p.ID != "fen" && (p.All.Max != row.All.Max || p.All.Min != row.All.Min) {
				t.Errorf("%s: store range %v..%v, PGN range %v..%v", row.ID, row.All.Min, row.All.Max, p.All.Min, p.All.Max)
			}
		}
		if row.ID == "key" && (row.All.Mean < 80 || row.All.Mean > 112) {
			t.Errorf("key: mean %v bits", row.All.Mean)
		}
	}
	if d := r.Disk[0]; d.Bytes <= 0 || d.PerPosition <= 0 || d.PerEntry <= 0 {
		t.Errorf("store size row: %+v", d)
	}
	if h := r.Hashes[0]; h.Positions != r.Distinct || h.Collisions != 0 {
		t.Errorf("hash row: %+v", h)
	}

	// The short answer: the store against its games as PGN (about the
	// input's size: the same games, printed by our writer), zstd, and a
	// Polyglot book of every entry of the full report.
	var short savings.Summary
	if err := json.Unmarshal([]byte(mustRun(t, "-db", db, "savings", "-json")), &short); err != nil {
		t.Fatal(err)
	}
	in, err := os.Stat(pgn)
	if err != nil {
		t.Fatal(err)
	}
	if short.Games != 500 || short.PGN < in.Size()*8/10 || short.PGN > in.Size()*12/10 || short.PGNZstd <= 0 || short.PGNZstd >= short.PGN/2 ||
		short.Polyglot != 16*int64(r.Entries) || short.Store <= 0 || short.KeyBits < 80 || short.KeyBits > 112 || short.FENBits < 3*short.KeyBits {
		t.Errorf("short answer %+v; input %d bytes", short, in.Size())
	}
	text := mustRun(t, "-db", db, "savings")
	for _, want := range []string{"the store takes", "the games as PGN", "the PGN under zstd -3", "a Polyglot book of every move", "less than FEN", "savings -full",
		"(measured on every stored game in"} {
		if !strings.Contains(text, want) {
			t.Errorf("short answer lacks %q:\n%s", want, text)
		}
	}

	// Men bands on request, Markdown.
	out = mustRun(t, "-db", db, "savings", "-bands", "men", "-format", "markdown")
	if !strings.Contains(out, "| fen | 000 |") || !strings.Contains(out, "32-29 men") {
		t.Errorf("markdown with men bands: %.400s", out)
	}
}

func TestSavingsBadUsage(t *testing.T) {
	for _, args := range [][]string{
		{"savings"}, // no -db
		{"-db", "x", "savings", "-format", "yaml"},
		{"-db", "x", "savings", "-bands", "moon"},
		{"-db", "x", "savings", "extra"},
		{"-db", "x", "savings", "-sample", "-1"},
		{"-db", "x", "savings", "-full", "-mem", "100"},
	} {
		if _, _, code := runCmd(t, args...); code != 2 {
			t.Errorf("%q: exit %d, want 2", args, code)
		}
	}
	if _, errOut, code := runCmd(t, "-db", filepath.Join(t.TempDir(), "none"), "savings"); code != 1 || !strings.Contains(errOut, "savings") {
		t.Errorf("missing store: exit %d, %q", code, errOut)
	}
}

// buildBookFlushing builds the book of inputs with a tiny aggregation
// budget, so that it flushes often: positions reached by several games
// are kept as several single references under one hash, or as a
// statistics record with references beside it, as in a big store.
func buildBookFlushing(t *testing.T, o build.Options, inputs ...string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "book")
	if o.CountMode == "" {
		o.CountMode = store.CountGame
	}
	st, err := store.Open(dir, store.Options{Meta: &store.Meta{CountMode: o.CountMode, MaxPly: o.MaxPly}})
	if err != nil {
		t.Fatal(err)
	}
	o.MemBudget = 256 << 10
	b := build.NewBuilder(st, o, 2)
	if _, err := ingest.Run(context.Background(), inputs, ingest.Options{Workers: 2}, b.Sink); err != nil {
		t.Fatal(err)
	}
	if err := b.Finish(); err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestSavingsSummaryEqualsFull: the summary, from a sample of the stored
// games, is exactly what the full measurement finds when the sample is
// every game (the default sample on a store of 500 games, or -sample 0),
// whatever the store's count mode and max-ply and however its positions
// are kept; a smaller sample estimates within its margins.
func TestSavingsSummaryEqualsFull(t *testing.T) {
	pgn := "../../testdata/champions500.pgn"
	for _, c := range []struct {
		name string
		db   string
	}{
		{"game", buildBook(t, pgn)},
		{"game, flushing", buildBookFlushing(t, build.Options{}, pgn)},
		{"occurrence, flushing", buildBookFlushing(t, build.Options{CountMode: store.CountOccurrence}, pgn)},
		{"max-ply 20, flushing", buildBookFlushing(t, build.Options{MaxPly: 20}, pgn)},
	} {
		var full savings.Report
		if err := json.Unmarshal([]byte(mustRun(t, "-db", c.db, "savings", "-full", "-json")), &full); err != nil {
			t.Fatal(err)
		}
		row := func(id string) float64 {
			for _, r := range full.PositionRows {
				if r.ID == id {
					return r.All.Mean
				}
			}
			t.Fatalf("%s: no row %s", c.name, id)
			return 0
		}
		near := func(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Abs(b) }
		for _, args := range [][]string{{"-sample", "0"}, nil} {
			var s savings.Summary
			if err := json.Unmarshal([]byte(mustRun(t, append([]string{"-db", c.db, "savings", "-json"}, args...)...)), &s); err != nil {
				t.Fatal(err)
			}
			if !s.Exact || s.SampledGames != 500 || s.Games != full.Games || s.Positions != full.Distinct || s.Entries != full.Entries ||
				s.PGN != full.PGNBytes || s.PGNZstd != full.PGNZstdBytes || s.Polyglot != 16*int64(full.Entries) || s.Store != full.StoreBytes ||
				!near(s.KeyBits, row("key")) || !near(s.FENBits, row("fen")) || s.ZobristBits != row("zobrist64") ||
				s.PositionsMargin != 0 || s.EntriesMargin != 0 || s.PGNMargin != 0 {
				t.Errorf("%s %q: summary %+v\nfull: games %d, positions %d, entries %d, PGN %d, zstd %d, store %d, key %v, fen %v",
					c.name, args, s, full.Games, full.Distinct, full.Entries, full.PGNBytes, full.PGNZstdBytes, full.StoreBytes, row("key"), row("fen"))
			}
		}
		// A sample of 150 games: estimates, each within twice its 95%
		// margin (the sample is the same every run: the first ids).
		var s savings.Summary
		if err := json.Unmarshal([]byte(mustRun(t, "-db", c.db, "savings", "-json", "-sample", "150")), &s); err != nil {
			t.Fatal(err)
		}
		within := func(got, want, margin float64) bool { return margin > 0 && math.Abs(got-want) <= 2*margin*want }
		if s.Exact || s.SampledGames != 150 || !within(float64(s.Positions), float64(full.Distinct), s.PositionsMargin) ||
			!within(float64(s.Entries), float64(full.Entries), s.EntriesMargin) || !within(float64(s.PGN), float64(full.PGNBytes), s.PGNMargin) ||
			math.Abs(s.KeyBits-row("key")) > 0.05*row("key") || math.Abs(s.FENBits-row("fen")) > 0.05*row("fen") {
			t.Errorf("%s: sample of 150: %+v\nfull: positions %d, entries %d, PGN %d, key %v, fen %v", c.name, s, full.Distinct, full.Entries, full.PGNBytes, row("key"), row("fen"))
		}
	}
	db := buildBook(t, pgn)
	text := mustRun(t, "-db", db, "savings", "-sample", "150")
	for _, want := range []string{"for 500 games and about ", " positions (±", " position-moves (±", "(estimated from 150 of the 500 stored games in "} {
		if !strings.Contains(text, want) {
			t.Errorf("summary of a sample lacks %q:\n%s", want, text)
		}
	}
}
