package build_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/chessbook/chessbook/book"
	"github.com/chessbook/chessbook/book/build"
	"github.com/chessbook/chessbook/internal/storetest"
	"github.com/chessbook/chessbook/stats"
	"github.com/chessbook/chessbook/store"
)

// allPositions lists every position of the store at dir through
// book.Positions, singles included, as key -> encoded entry; it fails on a
// position listed twice. It also returns the number of statistics records
// and of single references.
func allPositions(t *testing.T, dir string) (all map[string]string, records, singles int) {
	t.Helper()
	st, err := store.Open(dir, store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	all = map[string]string{}
	err = book.Positions(context.Background(), st, 0, func(pos []byte, e *stats.Entry) error {
		if _, dup := all[string(pos)]; dup {
			return fmt.Errorf("position %x listed twice", pos)
		}
		all[string(pos)] = string(e.AppendEncode(nil))
		// Entry finds the same.
		got, found, err := book.Lookup(st, pos)
		if err != nil || !found {
			return fmt.Errorf("Lookup(%x): found %v, %v", pos, found, err)
		}
		if !bytes.Equal(got.AppendEncode(nil), e.AppendEncode(nil)) {
			return fmt.Errorf("Lookup(%x) differs from what Positions lists", pos)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := st.StatsRecords(func([]byte, *stats.Entry) error { records++; return nil }); err != nil {
		t.Fatal(err)
	}
	if err := st.AllSingles(func(store.SingleRef) (bool, error) { singles++; return true, nil }); err != nil {
		t.Fatal(err)
	}
	return all, records, singles
}

// TestSinglesOracleTestdata is TestSinglesOracle on the committed test
// data, so that it runs everywhere: the world champions' games split in
// two builds, games set up from FEN tags (one at move 20, one with an
// en-passant square), games that repeat positions (pieces going there and
// back), rated and unrated players, time controls and dates, a game given
// twice, and the games of the en-passant tests.
func TestSinglesOracleTestdata(t *testing.T) {
	champions := filepath.Join("..", "..", "testdata", "champions500.pgn")
	mixed := filepath.Join("..", "testdata", "singles_oracle.pgn")
	ep := filepath.Join("..", "..", "testdata", "ep_pinned.pgn")
	b, err := os.ReadFile(champions)
	if err != nil {
		t.Fatal(err)
	}
	// The champions in two halves: positions single in one build and
	// counted in the other.
	cut := bytes.Index(b[len(b)/2:], []byte("\n[Event ")) + len(b)/2 + 1
	first, second := filepath.Join(t.TempDir(), "first.pgn"), filepath.Join(t.TempDir(), "second.pgn")
	if err := os.WriteFile(first, b[:cut], 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(second, b[cut:], 0o644); err != nil {
		t.Fatal(err)
	}
	// The champions in three parts, as book's TestPositionsSpilled cuts them.
	thirds := storetest.SplitPGN(t, t.TempDir(), "third", b, 3)
	cases := []singlesCase{
		{"one run", build.Options{}, [][]string{{champions, mixed, ep}}},
		{"two runs", build.Options{}, [][]string{{first, ep}, {mixed, second}}},
		{"max-ply 20, two runs", build.Options{MaxPly: 20}, [][]string{{mixed, first}, {second}}},
		{"occurrence, duplicates kept", build.Options{CountMode: store.CountOccurrence, KeepDuplicates: true, MaxPly: 1024},
			[][]string{{first, mixed}, {mixed, second, ep}}},
		{"occurrence, max-ply 30", build.Options{CountMode: store.CountOccurrence, MaxPly: 30}, [][]string{{mixed, champions}}},
		// book's TestPositionsSpilled lists this store with tiny memory
		// limits and compares with its default listing, checked here.
		{"occurrence, duplicates kept, three runs", build.Options{CountMode: store.CountOccurrence, KeepDuplicates: true, MaxPly: 1024},
			[][]string{{thirds[0], mixed}, {thirds[1], thirds[0]}, {thirds[2], mixed, thirds[1]}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { t.Parallel(); checkSingles(t, c) })
	}
}

// singlesCase is a case of the singles oracle: the options and the
// inputs of each build into one store.
type singlesCase struct {
	name string
	o    build.Options
	runs [][]string
}

// checkSingles builds c's runs into a store with single references and
// into one without (the oracle), and compares every position of both.
func checkSingles(t *testing.T, c singlesCase) {
	t.Helper()
	buildDir := storetest.BuildRuns(t, c.o, c.runs...)
	got, records, singles := allPositions(t, buildDir)
	want, wantRecords, wantSingles := allPositions(t, storetest.BuildRuns(t, build.WithoutSingles(c.o), c.runs...))
	if wantSingles != 0 || singles == 0 {
		t.Fatalf("single references: %d with them, %d without: want some and none", singles, wantSingles)
	}
	if wantRecords != len(want) || records+singles < len(got) || records > wantRecords/2 {
		t.Errorf("records: %d + %d single references for %d positions; the oracle has %d records", records, singles, len(got), wantRecords)
	}
	if len(got) != len(want) {
		t.Errorf("%d positions, the oracle has %d", len(got), len(want))
	}
	bad := 0
	for k, w := range want {
		if g, ok := got[k]; !ok || g != w {
			if bad++; bad <= 5 {
				t.Errorf("position %x: listed %v, statistics differ from the oracle's", k, ok)
			}
		}
	}
	// With a minimum: every position of that many games, once.
	for _, min := range []uint64{2, 3} {
		several := storetest.PositionsMap(t, buildDir, book.PositionsOptions{MinGames: min})
		for k, w := range want {
			e, _ := stats.Decode([]byte(w))
			if g, ok := several[k]; e.Total().Games() >= min && (!ok || g != w) {
				if bad++; bad <= 10 {
					t.Errorf("position %x, %d games: listed with min %d %v, statistics equal %v", k, e.Total().Games(), min, ok, g == w)
				}
			}
		}
	}
	t.Logf("%d positions: %d records and %d single references (oracle: %d records)", len(got), records, singles, wantRecords)
}
