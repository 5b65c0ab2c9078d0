package book_test

import (
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

// TestPositionsSpilled: the positions of a store built in three commits
// (positions with a statistics record in one and single references in
// the others, duplicate games, -count occurrence), listed with memory
// limits so low that the single references are replayed in many ranges
// of game numbers and the replays' tallies spill to many sorted runs, are
// those of the oracle (the default limits' listing, which build's
// TestSinglesOracleTestdata checks against the same runs built without
// single references):
// every position, and with a minimum of games (per position, or per move
// as the Polyglot export asks) every position that reaches it, with the
// oracle's statistics; and they are what the default limits list.
func TestPositionsSpilled(t *testing.T) {
	champions := filepath.Join("..", "testdata", "champions500.pgn")
	mixed := filepath.Join("testdata", "singles_oracle.pgn")
	b, err := os.ReadFile(champions)
	if err != nil {
		t.Fatal(err)
	}
	// The champions in three parts.
	parts := storetest.SplitPGN(t, t.TempDir(), "part", b, 3)
	o := build.Options{CountMode: store.CountOccurrence, KeepDuplicates: true, MaxPly: 1024}
	runs := [][]string{{parts[0], mixed}, {parts[1], parts[0]}, {parts[2], mixed, parts[1]}}
	dir := storetest.BuildRuns(t, o, runs...)
	// The oracle: the default listing, which build's
	// TestSinglesOracleTestdata compares with the same runs built without
	// single references (the build's hook).
	want := storetest.PositionsMap(t, dir, book.PositionsOptions{})

	// Records completed by single references of other commits.
	st, err := store.Open(dir, store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	completed := 0
	var rec stats.Entry
	for k, w := range want {
		found, err := st.StatsRecordInto(&rec, []byte(k))
		if err != nil {
			t.Fatal(err)
		}
		if found && string(rec.AppendEncode(nil)) != w {
			completed++
		}
	}
	st.Close()
	if completed < 100 {
		t.Fatalf("%d records completed by single references: want a store with many", completed)
	}

	keeps := func(enc string, minGames uint64, perMove bool) bool {
		e, err := stats.Decode([]byte(enc))
		if err != nil {
			t.Fatal(err)
		}
		if !perMove {
			return e.Total().Games() >= minGames
		}
		for _, m := range e.Moves {
			if m.Games() >= minGames {
				return true
			}
		}
		return false
	}
	for _, c := range []struct {
		min     uint64
		perMove bool
	}{{0, false}, {2, false}, {3, false}, {3, true}, {5, true}} {
		t.Run(fmt.Sprintf("min %d per move %v", c.min, c.perMove), func(t *testing.T) {
			po := book.PositionsOptions{MinGames: c.min, PerMove: c.perMove}
			plain := storetest.PositionsMap(t, dir, po)
			lo, lim := book.WithPositionsLimits(po, 16, 16)
			spilled := storetest.PositionsMap(t, dir, lo)
			if lim.Chunks() < 2 || lim.Runs() < 5 {
				t.Errorf("%d chunks, %d runs: want the tiny limits to chunk and spill", lim.Chunks(), lim.Runs())
			}
			for name, got := range map[string]map[string]string{"default limits": plain, "tiny limits": spilled} {
				bad := 0
				for k, w := range want {
					if !keeps(w, c.min, c.perMove) {
						continue
					}
					if g, ok := got[k]; !ok || g != w {
						if bad++; bad <= 5 {
							t.Errorf("%s: position %x: listed %v, statistics differ from the oracle's", name, k, ok)
						}
					}
				}
				for k, g := range got {
					if keeps(g, c.min, c.perMove) && want[k] != g {
						if bad++; bad <= 5 {
							t.Errorf("%s: position %x listed with statistics the oracle does not have", name, k)
						}
					}
				}
			}
			if len(plain) != len(spilled) {
				t.Errorf("%d positions with the default limits, %d with tiny ones", len(plain), len(spilled))
			}
			for k, g := range plain {
				if spilled[k] != g {
					t.Errorf("position %x: the tiny limits list other statistics", k)
					break
				}
			}
		})
	}
}
