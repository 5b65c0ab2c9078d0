package merge_test

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chessbook/chessbook/book/build"
	"github.com/chessbook/chessbook/book/export"
	"github.com/chessbook/chessbook/book/merge"
	"github.com/chessbook/chessbook/gamecode"
	"github.com/chessbook/chessbook/gamedb"
	"github.com/chessbook/chessbook/internal/storetest"
	"github.com/chessbook/chessbook/internal/testutil"
	"github.com/chessbook/chessbook/store"
)

// storeView is what must be equal between a merged store and one build of
// the same inputs: the positions dump with moves, every game record, the
// games' first-seen stamps and order, and the game index's answers.
type storeView struct {
	meta      store.Meta
	positions []byte
	games     map[store.GameID][]byte
	stamps    map[store.GameID]uint64
	order     []string
	names     map[gamedb.NameKind][]gamedb.Name
	searches  []string
	// selected is what the query-time filters answer (book.Select, from
	// the positions' histories and their single references' tags) at
	// every position of 20 games or more: its games by month, and its
	// moves since the corpus's median month, in key order.
	selected []string
}

func viewOf(t *testing.T, dir string) storeView {
	t.Helper()
	ctx := context.Background()
	st := storetest.OpenRO(t, dir)
	v := storeView{meta: st.Meta(), games: map[store.GameID][]byte{}, stamps: map[store.GameID]uint64{},
		names: map[gamedb.NameKind][]gamedb.Name{}}
	var buf bytes.Buffer
	if err := export.Positions(ctx, st, &buf, export.PositionsOptions{Moves: true, MaxPly: -1}); err != nil {
		t.Fatal(err)
	}
	// The dump's order depends on which positions the builds' flushes
	// kept as records and which as single references (see
	// book.Positions), not on the book: compare its lines sorted.
	lines := bytes.Split(bytes.TrimSuffix(buf.Bytes(), []byte("\n")), []byte("\n"))
	slices.SortFunc(lines, bytes.Compare)
	v.positions = bytes.Join(lines, []byte("\n"))
	err := st.Games(func(id store.GameID, rec []byte) (bool, error) {
		v.games[id] = bytes.Clone(rec)
		return true, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	err = st.GameNumbers(0, max(v.meta.NextGame, 1), func(_ uint64, id store.GameID, stamp uint64) (bool, error) {
		if _, dup := v.stamps[id]; dup {
			return false, fmt.Errorf("game %s numbered twice", id)
		}
		v.stamps[id] = stamp
		return true, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	err = st.GameOrder(func(stamp uint64, id store.GameID) (bool, error) {
		v.order = append(v.order, fmt.Sprintf("%x %s", stamp, id))
		return true, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	db, err := gamedb.Open(st)
	if err != nil {
		t.Fatal(err)
	}
	for _, kind := range []gamedb.NameKind{gamedb.Players, gamedb.Events, gamedb.Sites} {
		if v.names[kind], err = db.Names(ctx, kind, "", 0); err != nil {
			t.Fatal(err)
		}
	}
	// Searches: the most frequent players' games, every game by date,
	// and a position's games.
	players := slices.Clone(v.names[gamedb.Players])
	slices.SortFunc(players, func(a, b gamedb.Name) int { return (b.White + b.Black) - (a.White + a.Black) })
	queries := []gamedb.Query{{Limit: 100}, {Limit: 100, Offset: 1000}}
	for _, p := range players[:min(3, len(players))] {
		queries = append(queries, gamedb.Query{Player: p.Name, Limit: 50})
	}
	for _, q := range queries {
		res, err := db.Search(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		// The whole answer: games on the same date come by game number,
		// which a build hands out as its workers flush (not in input
		// order): compare them by id within each date.
		q.Offset, q.Limit = 0, res.Total
		all, err := db.Search(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		for i := range all.Games {
			all.Games[i].Num = 0
		}
		for i := 0; i < len(all.Games); {
			j := i + 1
			for j < len(all.Games) && all.Games[j].Date == all.Games[i].Date {
				j++
			}
			slices.SortFunc(all.Games[i:j], func(a, b gamedb.GameRef) int { return cmp.Compare(a.ID, b.ID) })
			i = j
		}
		v.searches = append(v.searches, fmt.Sprintf("%+v: %d %+v", q, res.Total, all.Games))
	}
	v.selected = storetest.Selections(t, st)
	rep, err := gamedb.Check(ctx, st, func(p string) { t.Errorf("%s: index: %s", dir, p) })
	if err != nil {
		t.Fatal(err)
	}
	_ = rep
	return v
}

// checkClean runs the store's check on dir and fails on any problem.
func checkClean(t *testing.T, dir string) {
	t.Helper()
	rep, err := store.CheckDir(context.Background(), dir, store.CheckOptions{
		Game: func(rec []byte) error { _, err := gamecode.DecodeGame(rec); return err }, Index: gamedb.CheckRecord})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Damaged != 0 || len(rep.Leftovers) != 0 {
		t.Errorf("%s: check: %+v", dir, rep)
	}
}

// compareViews fails unless the stores at got and want are the same
// book.
func compareViews(t *testing.T, got, want string) {
	t.Helper()
	g, w := viewOf(t, got), viewOf(t, want)
	if g.meta.Games != w.meta.Games || g.meta.MaxPly != w.meta.MaxPly || g.meta.CountMode != w.meta.CountMode ||
		g.meta.KeepDuplicates != w.meta.KeepDuplicates || g.meta.GameIndex != w.meta.GameIndex {
		t.Errorf("meta: merged %+v, one build %+v", g.meta, w.meta)
	}
	if !bytes.Equal(g.positions, w.positions) {
		gl, wl := bytes.Split(g.positions, []byte("\n")), bytes.Split(w.positions, []byte("\n"))
		bad := 0
		for i := 0; i < min(len(gl), len(wl)) && bad < 5; i++ {
			if !bytes.Equal(gl[i], wl[i]) {
				t.Errorf("positions line %d:\nmerged    %s\none build %s", i+1, gl[i], wl[i])
				bad++
			}
		}
		t.Errorf("positions dumps differ: %d and %d lines", len(gl), len(wl))
	}
	if len(g.games) != len(w.games) {
		t.Errorf("%d games merged, %d in one build", len(g.games), len(w.games))
	}
	bad := 0
	for id, rec := range w.games {
		if grec, ok := g.games[id]; !ok || !bytes.Equal(grec, rec) {
			if bad++; bad <= 5 {
				t.Errorf("game %s: merged %x (found %t), one build %x", id, grec, ok, rec)
			}
		}
	}
	for id, s := range w.stamps {
		if gs, ok := g.stamps[id]; !ok || gs != s {
			if bad++; bad <= 10 {
				t.Errorf("game %s: merged stamp %x (numbered %t), one build %x", id, gs, ok, s)
			}
		}
	}
	if len(g.stamps) != len(w.stamps) {
		t.Errorf("%d games numbered merged, %d in one build", len(g.stamps), len(w.stamps))
	}
	if !slices.Equal(g.order, w.order) {
		t.Errorf("game order: %d records merged, %d in one build, or in another order", len(g.order), len(w.order))
	}
	for kind, wn := range w.names {
		if !slices.Equal(g.names[kind], wn) {
			t.Errorf("names %c: %d merged, %d in one build, or different", kind, len(g.names[kind]), len(wn))
		}
	}
	if !slices.Equal(g.selected, w.selected) {
		bad := 0
		for i := 0; i < min(len(g.selected), len(w.selected)) && bad < 5; i++ {
			if g.selected[i] != w.selected[i] {
				t.Errorf("selection %d (the histories):\nmerged    %.300s\none build %.300s", i, g.selected[i], w.selected[i])
				bad++
			}
		}
		t.Errorf("selections (histories) differ: %d merged, %d in one build", len(g.selected), len(w.selected))
	}
	for i := range w.searches {
		if gs, ws := g.searches[i], w.searches[i]; gs != ws {
			j := 0
			for j < min(len(gs), len(ws)) && gs[j] == ws[j] {
				j++
			}
			t.Errorf("search %.100s:\nmerged    ...%.300s\none build ...%.300s", ws, gs[max(j-100, 0):], ws[max(j-100, 0):])
		}
	}
	checkClean(t, got)
}

// championsPGN returns the world champions corpus, decompressed.
func championsPGN(t *testing.T) []byte {
	t.Helper()
	return testutil.ReadZst(t, filepath.Join(mergeData(t), "medium", "pgnmentor_world_champions_16players.pgn.zst"))
}

// TestMergeOverlapping merges the world champions corpus built in three
// parts (its 1,857 duplicates by content id spread across them: the later parts share
// games with the earlier ones and are replayed), in the default mode, and
// compares with one build of the parts in order.
func TestMergeOverlapping(t *testing.T) {
	parts := storetest.SplitPGN(t, t.TempDir(), "wc", championsPGN(t), 3)
	opts := build.Options{}
	out, ms := storetest.MergeParts(t, opts, merge.Options{}, parts[:1], parts[1:2], parts[2:])
	one := filepath.Join(t.TempDir(), "one")
	bs := storetest.BuildStore(t, one, opts, parts...)
	if ms.Games != bs.Games || bs.Games+bs.Duplicates != championsGames {
		t.Errorf("merged %d games, one build %d (and %d duplicates); want the same, of %d", ms.Games, bs.Games, bs.Duplicates, championsGames)
	}
	if ms.Replayed == 0 || ms.Duplicates == 0 {
		t.Errorf("merge %+v: want stores replayed and duplicates across stores", ms)
	}
	t.Logf("merge: %+v", ms)
	compareViews(t, out, one)
}

// TestMergeKeepDuplicatesReference merges the world champions corpus
// built in two parts with PolyGlot's options (every copy kept, every
// occurrence counted): the export must equal make-book's reference book
// for the whole corpus, and the store one build of the parts.
func TestMergeKeepDuplicatesReference(t *testing.T) {
	data := mergeData(t)
	parts := storetest.SplitPGN(t, t.TempDir(), "wc", championsPGN(t), 2)
	for _, c := range []struct {
		name   string
		opts   build.Options
		ref    string
		export export.Options
	}{
		{"default", build.Options{MaxPly: 1024, CountMode: store.CountOccurrence, KeepDuplicates: true},
			"polyglot204_makebook_default__pgnmentor_world_champions_16players.bin", export.Options{MinGame: 3}},
		{"maxply20", build.Options{MaxPly: 20, CountMode: store.CountOccurrence, KeepDuplicates: true},
			"polyglot204_makebook_maxply20_mingame1__pgnmentor_world_champions_16players.bin", export.Options{MinGame: 1, MaxPly: 20}},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, ms := storetest.MergeParts(t, c.opts, merge.Options{}, parts[:1], parts[1:])
			if ms.Games != championsGames || ms.Replayed != 1 {
				t.Errorf("merge %+v: want %d games, the second store replayed", ms, championsGames)
			}
			storetest.CompareExport(t, storetest.OpenRO(t, out), filepath.Join(data, "reference", c.ref), c.export)
			one := filepath.Join(t.TempDir(), "one")
			storetest.BuildStore(t, one, c.opts, parts...)
			compareViews(t, out, one)
		})
	}
}

// TestMergeDisjoint merges stores that share no game: copied record by
// record (no replay), first-seen stamps moved past the earlier stores'
// inputs.
func TestMergeDisjoint(t *testing.T) {
	data := mergeData(t)
	small := func(name string) string { return filepath.Join(data, "small", name) }
	a := []string{small("allancao_lichess_DannyTheDonkey_2019-01-29.pgn"), small("allancao_lichess_DrDrunkenstein_2019-01-29.pgn")}
	b := []string{small("notnil_twic0920.pgn")}
	for _, opts := range []build.Options{
		{CountMode: store.CountOccurrence},
		{MaxPly: 12},
	} {
		t.Run(fmt.Sprintf("%s-maxply%d", opts.CountMode, opts.MaxPly), func(t *testing.T) {
			out, ms := storetest.MergeParts(t, opts, merge.Options{}, a, b)
			if ms.Replayed != 0 || ms.Duplicates != 0 {
				t.Errorf("merge %+v: want the fast path", ms)
			}
			one := filepath.Join(t.TempDir(), "one")
			storetest.BuildStore(t, one, opts, append(slices.Clone(a), b...)...)
			compareViews(t, out, one)
		})
	}
}

// TestMergeKeepStamps merges shards of one build split by game, each
// built with the global input list (as the Beam pipeline builds them):
// their stamps agree already and are kept.
func TestMergeKeepStamps(t *testing.T) {
	data := mergeData(t)
	all := []string{filepath.Join(data, "small", "allancao_games.pgn"), filepath.Join(data, "small", "notnil_Carlsen.pgn")}
	opts := build.Options{CountMode: store.CountOccurrence, Inputs: all}
	tmp := t.TempDir()
	var dirs []string
	for i, in := range all {
		dir := filepath.Join(tmp, fmt.Sprint("shard", i))
		storetest.BuildStore(t, dir, opts, in)
		dirs = append(dirs, dir)
	}
	// The shards in reverse order: stamps, not the order of the stores,
	// say which game came first.
	slices.Reverse(dirs)
	out := filepath.Join(tmp, "merged")
	ms, err := merge.Run(context.Background(), out, dirs, merge.Options{KeepStamps: true})
	if err != nil {
		t.Fatal(err)
	}
	if ms.Replayed != 0 {
		t.Errorf("merge %+v: want the fast path", ms)
	}
	one := filepath.Join(tmp, "one")
	storetest.BuildStore(t, one, opts, all...)
	compareViews(t, out, one)
}

// TestMergeRefused checks the merges refused: stores built with other
// options, a destination that holds games or is a source.
func TestMergeRefused(t *testing.T) {
	in := filepath.Join(mergeData(t), "small", "allancao_lichess_DannyTheDonkey_2019-01-29.pgn")
	tmp := t.TempDir()
	a, b, c := filepath.Join(tmp, "a"), filepath.Join(tmp, "b"), filepath.Join(tmp, "c")
	storetest.BuildStore(t, a, build.Options{}, in)
	storetest.BuildStore(t, b, build.Options{MaxPly: 10}, in)
	storetest.BuildStore(t, c, build.Options{KeepDuplicates: true}, in)
	ctx := context.Background()
	for _, srcs := range [][]string{{a, b}, {a, c}} {
		out := filepath.Join(tmp, "out")
		_, err := merge.Run(ctx, out, srcs, merge.Options{})
		if !errors.Is(err, merge.ErrMismatch) {
			t.Errorf("merge %v: %v, want ErrMergeMismatch", srcs, err)
		}
		t.Log(err)
	}
	if _, err := merge.Run(ctx, a, []string{c}, merge.Options{}); !errors.Is(err, merge.ErrTarget) {
		t.Errorf("merge into a store with games: %v, want ErrMergeTarget", err)
	}
	if _, err := merge.Run(ctx, a, []string{a}, merge.Options{}); !errors.Is(err, merge.ErrTarget) {
		t.Errorf("merge into a source: %v, want ErrMergeTarget", err)
	}
	// An empty store (what an interrupted merge leaves) is a target.
	empty := filepath.Join(tmp, "empty")
	st, err := store.Open(empty, store.Options{Meta: &store.Meta{CountMode: store.CountGame}})
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	if _, err := merge.Run(ctx, empty, []string{a}, merge.Options{}); err != nil {
		t.Errorf("merge into an empty store: %v", err)
	}
	compareViews(t, empty, a)
}

// TestMergeInterrupted interrupts merges at each of their phases: the
// destination is left an empty store, sound, and the same merge into it
// then completes.
func TestMergeInterrupted(t *testing.T) {
	data := mergeData(t)
	tmp := t.TempDir()
	danny := filepath.Join(data, "small", "allancao_lichess_DannyTheDonkey_2019-01-29.pgn")
	raw, err := os.ReadFile(danny)
	if err != nil {
		t.Fatal(err)
	}
	again := filepath.Join(tmp, "danny-again.pgn") // the same games under another name: shared by both stores
	if err := os.WriteFile(again, raw, 0o644); err != nil {
		t.Fatal(err)
	}
	groups := [][]string{{danny}, {again, filepath.Join(data, "small", "allancao_lichess_DrDrunkenstein_2019-01-29.pgn")}}
	opts := build.Options{CountMode: store.CountOccurrence}
	var dirs []string
	for i, g := range groups {
		dir := filepath.Join(tmp, fmt.Sprint("part", i))
		storetest.BuildStore(t, dir, opts, g...)
		dirs = append(dirs, dir)
	}
	one := filepath.Join(tmp, "one")
	storetest.BuildStore(t, one, opts, slices.Concat(groups...)...)
	for _, phase := range []string{"checking", "replaying", "records merged"} {
		t.Run(phase, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "merged")
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			seen := false
			_, err := merge.Run(ctx, out, dirs, merge.Options{Progress: func(what string, _, _ int64) {
				if strings.HasPrefix(what, phase) {
					seen = true
					cancel()
				}
			}})
			if !seen || !errors.Is(err, build.ErrInterrupted) {
				t.Fatalf("phase %q seen %t; merge: %v, want ErrInterrupted", phase, seen, err)
			}
			st := storetest.OpenRO(t, out)
			if m := st.Meta(); m.Games != 0 || m.NextGame != 0 {
				t.Errorf("interrupted merge left %d games, next game %d", m.Games, m.NextGame)
			}
			rep, err := store.CheckDir(context.Background(), out, store.CheckOptions{})
			if err != nil || rep.Damaged != 0 {
				t.Fatalf("check: %v, %+v", err, rep)
			}
			st.Close()
			ms, err := merge.Run(context.Background(), out, dirs, merge.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if ms.Replayed != 1 || ms.Duplicates != 105 {
				t.Errorf("merge %+v: want the second store replayed, its 105 games of the first left out", ms)
			}
			compareViews(t, out, one)
		})
	}
}

// TestMergeSameStoreTwice: a store given twice to a merge is merged as one
// build given its input twice: in a -count occurrence -keep-duplicates
// store, the second copies keep the first copies' stamps, as the build
// stamps a name given again by its first place; with a store in between,
// as one build of those inputs.
func TestMergeSameStoreTwice(t *testing.T) {
	data, err := os.ReadFile(champions)
	if err != nil {
		t.Fatal(err)
	}
	parts := storetest.SplitPGN(t, t.TempDir(), "c", data, 2)
	opts := build.Options{CountMode: store.CountOccurrence, KeepDuplicates: true}
	tmp := t.TempDir()
	a, b := filepath.Join(tmp, "a"), filepath.Join(tmp, "b")
	storetest.BuildStore(t, a, opts, parts[0])
	storetest.BuildStore(t, b, opts, parts[1])
	for _, c := range []struct {
		stores []string
		inputs []string
	}{
		{[]string{a, a}, []string{parts[0], parts[0]}},
		{[]string{a, b, a}, []string{parts[0], parts[1], parts[0]}},
	} {
		out := filepath.Join(t.TempDir(), "merged")
		if _, err := merge.Run(context.Background(), out, c.stores, merge.Options{}); err != nil {
			t.Fatal(err)
		}
		one := filepath.Join(t.TempDir(), "one")
		storetest.BuildStore(t, one, opts, c.inputs...)
		compareViews(t, out, one)
	}
}

// champions is the world champions' games of the repository's test data.
const champions = "../../testdata/champions500.pgn"
