package build_test

import (
	"context"
	"fmt"
	"github.com/chessbook/chessbook/internal/storetest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chessbook/chessbook/book/build"
	"github.com/chessbook/chessbook/book/merge"
	"github.com/chessbook/chessbook/gamedb"
	"github.com/chessbook/chessbook/store"
)

// searchPages returns what the searches and player trees of the store at
// dir answer, game ids in order, page by page, and the game numbers of
// the games, by id.
func searchPages(t *testing.T, dir string) (string, map[store.GameID]uint64) {
	t.Helper()
	db, err := gamedb.Open(storetest.OpenRO(t, dir))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	var b strings.Builder
	nums := map[store.GameID]uint64{}
	for _, q := range []gamedb.Query{
		{}, {Sort: gamedb.ByRating}, {Sort: gamedb.ByPlies},
		{Player: "steinitz"}, {Player: "a"}, {Player: "a", Sort: gamedb.ByPlies},
		{Event: "london"}, {Black: "steinitz", Sort: gamedb.ByRating},
	} {
		for _, per := range []int{7, 50} {
			for off := 0; ; off += per {
				q.Offset, q.Limit = off, per
				res, err := db.Search(ctx, q)
				if err != nil {
					t.Fatalf("%+v: %v", q, err)
				}
				if len(res.Games) == 0 {
					break
				}
				fmt.Fprintf(&b, "%+v:", q)
				for _, g := range res.Games {
					fmt.Fprintf(&b, " %s", g.ID)
					nums[g.ID] = g.Num
				}
				b.WriteByte('\n')
			}
		}
	}
	for _, color := range []int{gamedb.White, gamedb.Black} {
		tree, err := db.PlayerTree(ctx, gamedb.TreeQuery{Player: "steinitzwilliam", Color: color, Recent: 30})
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "tree %d:", color)
		for _, g := range tree.Recent {
			fmt.Fprintf(&b, " %s", g.ID)
		}
		b.WriteByte('\n')
	}
	return b.String(), nums
}

// TestSearchOrderAnyBuild: the same games give the same search pages and
// recent games in any store: builds with one worker and with four (their
// scheduling shuffled), many commits each, and a merge of two stores
// built from halves of the input. Games equal by the sort key go by
// their ids; the builds number the games differently.
func TestSearchOrderAnyBuild(t *testing.T) {
	data, err := os.ReadFile(champions)
	if err != nil {
		t.Fatal(err)
	}
	parts := storetest.SplitPGN(t, t.TempDir(), "c", data, 2)
	opts := build.Options{CountMode: store.CountGame, MemBudget: 1 << 20, CommitRuns: 1}
	one := filepath.Join(t.TempDir(), "one")
	s := storetest.BuildWorkers(t, one, opts, 1, parts...)
	four := filepath.Join(t.TempDir(), "four")
	storetest.BuildWorkers(t, four, build.WithHook(opts, 3, jitter), 4, parts...)
	merged, _ := storetest.MergeParts(t, build.Options{}, merge.Options{}, parts[1:], parts[:1])
	want, wantNums := searchPages(t, one)
	if s.Games != 500 || strings.Count(want, "\n") < 50 {
		t.Fatalf("%d games, %d pages", s.Games, strings.Count(want, "\n"))
	}
	for _, dir := range []string{four, merged} {
		got, nums := searchPages(t, dir)
		renumbered := 0
		for id, n := range nums {
			if wantNums[id] != n {
				renumbered++
			}
		}
		t.Logf("%s: %d of %d games numbered otherwise", filepath.Base(dir), renumbered, len(nums))
		if got != want {
			gl, wl := strings.Split(got, "\n"), strings.Split(want, "\n")
			for i := range min(len(gl), len(wl)) {
				if gl[i] != wl[i] {
					t.Errorf("%s: page %d differs from one build's:\n%s\nwant\n%s", filepath.Base(dir), i, gl[i], wl[i])
					break
				}
			}
		}
	}
}
