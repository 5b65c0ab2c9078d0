package bookbeam

import (
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"

	"github.com/chessbook/chessbook/book"
	"github.com/chessbook/chessbook/book/build"
	"github.com/chessbook/chessbook/book/export"
	"github.com/chessbook/chessbook/ingest"
	"github.com/chessbook/chessbook/internal/storetest"
	"github.com/chessbook/chessbook/internal/testutil"
	"github.com/chessbook/chessbook/stats"
	"github.com/chessbook/chessbook/store"
	"github.com/klauspost/compress/zstd"
)

func TestMain(m *testing.M) {
	beam.Init()
	os.Exit(m.Run())
}

// The tests run the pipeline on Prism, in this process, and compare what
// it builds with what build.Run (bookbuild's build) makes of the same
// inputs with the same options.

// sharedInputs returns small/ and medium/ of ../shared/data, expanded as
// bookbuild expands them.
func sharedInputs(t *testing.T) []string {
	t.Helper()
	dirs := []string{"../../shared/data/small", "../../shared/data/medium"}
	for _, d := range dirs {
		if _, err := os.Stat(d); err != nil {
			testutil.Missing(t, "%s is missing", d)
		}
	}
	files, _, err := ingest.ExpandInputs(dirs)
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// reference builds inputs with build.Run, as bookbuild does, and
// returns the store and the build's result.
func reference(t *testing.T, opts build.Options, inputs []string) (string, *build.Result) {
	t.Helper()
	opts.Inputs = inputs
	dir := filepath.Join(t.TempDir(), "reference")
	res, err := build.Run(context.Background(), build.RunOptions{Options: opts, Dir: dir, Workers: 2, Compact: true})
	if err != nil {
		t.Fatal(err)
	}
	return dir, res
}

// runPipeline runs the pipeline of cfg on Prism.
func runPipeline(t *testing.T, cfg Config) *Result {
	t.Helper()
	if cfg.Options.Memory == 0 {
		cfg.Options.Memory = 256 << 20
	}
	res, err := Run(context.Background(), "prism", cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d shards in %.1fs: %+v", len(res.Report.Shards), res.Elapsed.Seconds(), res.Metrics)
	return res
}

// unionDigest is a digest of what the stores at dirs hold together, as
// one store holding all of them would answer: every position's entry
// (the stores' entries merged), every game record, en-passant side
// record and first-seen stamp, and the games counter. For one store it
// is a digest of that store: the oracle for shard stores before their
// merge, written apart from the merge.
func unionDigest(t *testing.T, dirs ...string) (digest string, positions, games int) {
	t.Helper()
	entries := map[string]*stats.Entry{}
	ep := map[string]*stats.Entry{}
	var recs, order []string
	var counter uint64
	for _, dir := range dirs {
		st, err := store.Open(dir, store.Options{ReadOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		add := func(m map[string]*stats.Entry, k string, e *stats.Entry) {
			if prev, ok := m[k]; ok {
				prev.Merge(*e)
			} else {
				c := e.Clone()
				m[k] = &c
			}
		}
		if err := book.Positions(context.Background(), st, 0, func(pos []byte, e *stats.Entry) error {
			add(entries, string(pos), e)
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		if err := st.Games(func(id store.GameID, rec []byte) (bool, error) {
			recs = append(recs, fmt.Sprintf("g %016x %x", uint64(id), rec))
			return true, nil
		}); err != nil {
			t.Fatal(err)
		}
		if err := st.EPRecords(func(file int, pos []byte, e *stats.Entry) error {
			add(ep, fmt.Sprintf("%d %x", file, pos), e)
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		if err := st.GameOrder(func(stamp uint64, id store.GameID) (bool, error) {
			order = append(order, fmt.Sprintf("o %016x %s", stamp, id))
			return true, nil
		}); err != nil {
			t.Fatal(err)
		}
		counter += st.Meta().Games
		st.Close()
	}
	h := sha256.New()
	for _, k := range slices.Sorted(maps.Keys(entries)) {
		fmt.Fprintf(h, "p %x %x\n", k, entries[k].AppendEncode(nil))
	}
	for _, k := range slices.Sorted(maps.Keys(ep)) {
		fmt.Fprintf(h, "e %s %x\n", k, ep[k].AppendEncode(nil))
	}
	slices.Sort(recs)
	slices.Sort(order)
	for _, l := range append(recs, order...) {
		fmt.Fprintln(h, l)
	}
	fmt.Fprintf(h, "games %d\n", counter)
	return fmt.Sprintf("%x", h.Sum(nil)), len(entries), len(recs)
}

// shardDirs returns the stores of a run's shards.
func shardDirs(r *Report) []string {
	var dirs []string
	for _, s := range r.Shards {
		dirs = append(dirs, s.Dir)
	}
	return dirs
}

// checkSame checks that the pipeline's result equals the reference
// store ref: its shard stores together, and its merged store (when the
// run merged) in every way a store answers: the digest of everything it
// holds, the positions dump with every move, a PolyGlot export and the
// game index.
func checkSame(t *testing.T, ref string, refRes *build.Result, res *Result, thorough bool) {
	t.Helper()
	if thorough {
		want, wantPos, wantGames := unionDigest(t, ref)
		got, gotPos, gotGames := unionDigest(t, shardDirs(res.Report)...)
		if got != want {
			t.Errorf("the shard stores together differ from the build: %d positions, %d games; want %d, %d", gotPos, gotGames, wantPos, wantGames)
		}
		if wantGames == 0 || wantPos == 0 {
			t.Fatalf("the reference build is empty")
		}
	}
	var stored int64
	for _, s := range res.Report.Shards {
		stored += s.Stored
	}
	if stored != refRes.Stats.Games {
		t.Errorf("shards stored %d games, the build %d", stored, refRes.Stats.Games)
	}
	if dups := res.Metrics.GamesEmitted - res.Metrics.GamesIntoShard; dups != refRes.Stats.Duplicates {
		t.Errorf("the dedupe dropped %d games, the build %d duplicates", dups, refRes.Stats.Duplicates)
	}
	if res.Report.Merge == nil {
		return
	}
	db := res.Report.Merge.DB
	if m := res.Report.Merge; m.Duplicates != 0 || m.Replayed != 0 || uint64(m.Games) != refRes.Store.Meta.Games {
		t.Errorf("merge %+v: want no duplicates, nothing replayed, %d games", m, refRes.Store.Meta.Games)
	}
	d1, pos, games := storetest.Digest(t, ref)
	if pos == 0 || games == 0 {
		t.Fatalf("the reference build is empty")
	}
	if d1 != mustDigest(t, db) {
		t.Errorf("the merged store differs from the build")
	}
	if thorough && !slices.Equal(dump(t, ref), dump(t, db)) {
		t.Errorf("positions -moves dumps differ")
	}
	if !bytes.Equal(polyglotExport(t, ref), polyglotExport(t, db)) {
		t.Errorf("PolyGlot exports differ")
	}
	if storetest.IndexDigest(t, ref) != storetest.IndexDigest(t, db) {
		t.Errorf("game indexes differ")
	}
	// The histories, as the query-time filters answer from them (the
	// digest leaves them out: which positions have one depends on the
	// flushes).
	if want, got := selections(t, ref), selections(t, db); !slices.Equal(got, want) {
		t.Errorf("the filters' answers (histories) differ: %d positions of 20 games or more, the build %d", len(got)/2, len(want)/2)
	}
}

// selections is storetest.Selections of the store at dir.
func selections(t *testing.T, dir string) []string {
	t.Helper()
	st, err := store.Open(dir, store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	return storetest.Selections(t, st)
}

func mustDigest(t *testing.T, dir string) string {
	d, _, _ := storetest.Digest(t, dir)
	return d
}

// dump is bookquery positions -moves of the store at dir, its lines
// sorted: the dump lists the positions with statistics records in key
// order, then those only single references reach as the games are
// replayed, and shard stores, of fewer games each, keep more positions
// as single references than one build of all the games (as a build with
// a smaller -mem does): the same lines, in another order.
func dump(t *testing.T, dir string) []string {
	t.Helper()
	st, err := store.Open(dir, store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var b bytes.Buffer
	if err := export.Positions(context.Background(), st, &b, export.PositionsOptions{MaxPly: -1, Moves: true}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(b.String(), "\n")
	slices.Sort(lines)
	return lines
}

// polyglotExport is bookquery export's entries of the store at dir.
func polyglotExport(t *testing.T, dir string) []byte {
	t.Helper()
	st, err := store.Open(dir, store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	entries, _, err := export.Polyglot(context.Background(), st, export.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	for _, e := range entries {
		fmt.Fprintf(&b, "%+v\n", e)
	}
	if b.Len() == 0 {
		t.Fatal("empty export")
	}
	return b.Bytes()
}

// TestPipelineEqualsBuild runs the pipeline over small/ and medium/ of
// ../shared/data (54k games, 3.6k of them duplicates across and within
// inputs, 23 skipped) and compares with bookbuild's build: everything the
// merged store holds (storetest.Digest: every position's statistics,
// game records, side records, stamps, games counter), the PolyGlot
// export, the game index, and the skipped games reported. (The shard
// stores and the positions dump are compared on smaller inputs, in
// TestPipelineDuplicates: each costs a replay of every game.)
func TestPipelineEqualsBuild(t *testing.T) {
	inputs := sharedInputs(t)
	ref, refRes := reference(t, build.Options{}, inputs)
	cfg := Config{Inputs: inputs, Shards: 4, Workdir: t.TempDir(), DB: mergedDB(t)}
	res := runPipeline(t, cfg)
	checkSame(t, ref, refRes, res, false)
	// The inputs' reports say what bookbuild's summary says.
	var games, skipped int64
	var errs []string
	for _, f := range res.Report.Files {
		games += f.Games
		for _, n := range f.Skipped {
			skipped += n
		}
		errs = append(errs, f.Errors...)
	}
	if games != refRes.Summary.Games || skipped != refRes.Summary.SkippedTotal() {
		t.Errorf("read %d games, %d skipped; bookbuild %d, %d", games, skipped, refRes.Summary.Games, refRes.Summary.SkippedTotal())
	}
	var want []string
	for _, e := range refRes.Summary.Errors {
		want = append(want, e.Error())
	}
	if !slices.Equal(errs, want) {
		t.Errorf("errors\n%s\nwant\n%s", strings.Join(errs, "\n"), strings.Join(want, "\n"))
	}
}

// mergedDB is where a test's run merges its shards.
func mergedDB(t *testing.T) string {
	return filepath.Join(t.TempDir(), "db")
}

// TestPipelineDuplicates runs the pipeline on inputs that share games (a
// file given twice, a copy of it, and a file of games of the same
// players), with duplicates dropped and kept, in both count modes:
// the shard stores together, and the merged store, equal bookbuild's, and
// so do the positions dumps.
func TestPipelineDuplicates(t *testing.T) {
	champions := "../testdata/champions500.pgn"
	carlsen := "../../shared/data/small/notnil_Carlsen.pgn"
	if _, err := os.Stat(carlsen); err != nil {
		testutil.Missing(t, "%s is missing", carlsen)
	}
	// A copy under another name: its games' stamps differ from the
	// first copies' (a name given twice stamps as its first place).
	data, err := os.ReadFile(champions)
	if err != nil {
		t.Fatal(err)
	}
	copied := filepath.Join(t.TempDir(), "copy.pgn")
	if err := os.WriteFile(copied, data, 0o644); err != nil {
		t.Fatal(err)
	}
	inputs := []string{champions, carlsen, champions, copied}
	for _, opts := range []build.Options{
		{},
		{CountMode: store.CountOccurrence, KeepDuplicates: true, MaxPly: 40},
		{CountMode: store.CountOccurrence},
	} {
		t.Run(fmt.Sprintf("%s keep=%v", opts.CountMode, opts.KeepDuplicates), func(t *testing.T) {
			ref, refRes := reference(t, opts, inputs)
			if refRes.Stats.Duplicates == 0 && !opts.KeepDuplicates {
				t.Fatal("no duplicates in the input")
			}
			cfg := Config{Inputs: inputs, Options: opts, Shards: 3, Workdir: t.TempDir(), DB: mergedDB(t)}
			res := runPipeline(t, cfg)
			checkSame(t, ref, refRes, res, true)
		})
	}
}

// TestPipelineFilters checks that the build's filters apply before the
// dedupe, as in bookbuild: of two copies of a game, one filtered out, the
// other is stored.
func TestPipelineFilters(t *testing.T) {
	dir := t.TempDir()
	game := "[White \"A\"]\n[Black \"B\"]\n[Date \"2020.01.01\"]\n[Result \"1-0\"]\n[WhiteElo \"%d\"]\n[BlackElo \"2000\"]\n\n1. e4 e5 2. Nf3 1-0\n\n"
	first := filepath.Join(dir, "first.pgn")
	second := filepath.Join(dir, "second.pgn")
	// The first copy is below -min-rating, the second is not (ratings
	// are not part of a game's identity).
	if err := os.WriteFile(first, fmt.Appendf(nil, game, 1000), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(second, fmt.Appendf(nil, game+game, 2100, 2200), 0o644); err != nil {
		t.Fatal(err)
	}
	inputs := []string{first, second}
	opts := build.Options{MinRating: 1500, CountMode: store.CountOccurrence}
	ref, refRes := reference(t, opts, inputs)
	if refRes.Stats.Games != 1 || refRes.Stats.Filtered[build.FilterRating] != 1 {
		t.Fatalf("reference: %+v", refRes.Stats)
	}
	res := runPipeline(t, Config{Inputs: inputs, Options: opts, Shards: 2, Workdir: t.TempDir(), DB: mergedDB(t)})
	checkSame(t, ref, refRes, res, true)
	if f := res.Report.Files[0].Filtered[build.FilterRating]; f != 1 {
		t.Errorf("%d filtered in the first input, want 1", f)
	}
}

// TestPipelineBadInputs runs the pipeline on a broken PGN file and an
// empty one among good ones: the broken games are reported at the same
// file and line as bookbuild reports them, the empty input has no game,
// and the store is bookbuild's.
func TestPipelineBadInputs(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.pgn")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	broken := filepath.Join(dir, "broken.pgn")
	text := "[Event \"ok\"]\n[White \"a\"]\n[Black \"b\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n" +
		"[Event \"illegal\"]\n[Result \"0-1\"]\n\n1. e4 e5 2. Ke3 Kd5 0-1\n\n" +
		"[Event \"bad fen\"]\n[FEN \"8/8/8/8 w - - 0 1\"]\n[Result \"*\"]\n\n1. e4 *\n\n" +
		"[Event \"cut\"]\n[Result \"1-0\"]\n\n1. d4 d5 2. c4 {never closed\n"
	if err := os.WriteFile(broken, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	inputs := []string{"../testdata/pgn/mixed.pgn.bz2", broken, empty, "../testdata/champions500.pgn"}
	ref, refRes := reference(t, build.Options{}, inputs)
	res := runPipeline(t, Config{Inputs: inputs, Shards: 2, Workdir: t.TempDir(), DB: mergedDB(t)})
	checkSame(t, ref, refRes, res, true)
	var got, want []string
	for _, f := range res.Report.Files {
		got = append(got, f.Errors...)
	}
	for _, e := range refRes.Summary.Errors {
		want = append(want, e.Error())
	}
	if len(want) < 3 || !slices.Equal(got, want) {
		t.Errorf("errors\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if f := res.Report.Files[2]; f.GamesIn != 0 || f.Games != 0 {
		t.Errorf("the empty input: %+v", f)
	}
	if f := res.Report.Files[1]; f.GamesIn != refRes.Summary.GamesIn[broken] || f.Ingested != 1 {
		t.Errorf("the broken input: %+v; bookbuild found %d games in it", f, refRes.Summary.GamesIn[broken])
	}
}

// TestPipelineRerun runs the pipeline again with the work directory of an
// earlier run, as a retried or restarted run does: shards built from the
// same games are reused, whatever a killed attempt left behind (a
// temporary directory, a shard of other games) is replaced, and the store
// is the same.
func TestPipelineRerun(t *testing.T) {
	inputs := []string{"../testdata/champions500.pgn"}
	work := t.TempDir()
	cfg := Config{Inputs: inputs, Shards: 3, Workdir: work, DB: mergedDB(t)}
	first := runPipeline(t, cfg)
	want := mustDigest(t, first.Report.Merge.DB)
	// Run again: every shard is reused.
	cfg.DB = mergedDB(t)
	again := runPipeline(t, cfg)
	for _, s := range again.Report.Shards {
		if !s.Reused {
			t.Errorf("shard %d built again", s.Shard)
		}
	}
	if mustDigest(t, cfg.DB) != want {
		t.Errorf("the store of the run again differs")
	}
	// What a killed run leaves: a temporary directory half written, and
	// a shard directory holding another build (its digest differs).
	if err := os.MkdirAll(filepath.Join(work, shardName(0)+".tmp-123", "store"), 0o755); err != nil {
		t.Fatal(err)
	}
	other := Config{Inputs: []string{"../testdata/pgn/mixed.pgn"}, Shards: 3, Workdir: t.TempDir()}
	o := runPipeline(t, other)
	victim := o.Report.Shards[0].Shard
	if err := os.RemoveAll(filepath.Join(work, shardName(victim))); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Dir(o.Report.Shards[0].Dir), filepath.Join(work, shardName(victim))); err != nil {
		t.Fatal(err)
	}
	cfg.DB = mergedDB(t)
	if err := os.MkdirAll(cfg.DB+".tmp-456/store", 0o755); err != nil {
		t.Fatal(err)
	}
	third := runPipeline(t, cfg)
	if left, _ := filepath.Glob(filepath.Join(work, "*.tmp-*")); len(left) > 0 {
		t.Errorf("left behind: %v", left)
	}
	if left, _ := filepath.Glob(cfg.DB + ".tmp-*"); len(left) > 0 {
		t.Errorf("left behind: %v", left)
	}
	for _, s := range third.Report.Shards {
		if s.Reused == (s.Shard == victim) {
			t.Errorf("shard %d: reused %v", s.Shard, s.Reused)
		}
	}
	if mustDigest(t, cfg.DB) != want {
		t.Errorf("the store after a killed run differs")
	}
}

// TestPipelineCutInput runs the pipeline on a good input and a zstd file
// cut short, as bookbuild reads them: the run does not fail (it failed
// whole, the cut input's bundle with it); the cut input's report says why
// it ends, in bookbuild's words, and the store holds the games read
// before the cut: bookbuild's store.
func TestPipelineCutInput(t *testing.T) {
	dir := t.TempDir()
	text, err := os.ReadFile("../testdata/champions500.pgn")
	if err != nil {
		t.Fatal(err)
	}
	var z bytes.Buffer
	zw, err := zstd.NewWriter(&z, zstd.WithEncoderConcurrency(1), zstd.WithWindowSize(1<<16))
	if err != nil {
		t.Fatal(err)
	}
	zw.Write(text)
	zw.Close()
	cut := filepath.Join(dir, "cut.pgn.zst")
	if err := os.WriteFile(cut, z.Bytes()[:z.Len()*2/5], 0o644); err != nil {
		t.Fatal(err)
	}
	inputs := []string{"../testdata/pgn/mixed.pgn.bz2", cut}
	refDir := filepath.Join(t.TempDir(), "reference")
	refRes, refErr := build.Run(context.Background(), build.RunOptions{Options: build.Options{Inputs: inputs}, Dir: refDir, Workers: 2, Compact: true})
	if refErr == nil || refRes == nil || refRes.Stats == nil || refRes.Stats.Games < 100 {
		t.Fatalf("bookbuild's build of a cut input: %v, %+v; want an error and the games before the cut", refErr, refRes)
	}
	res := runPipeline(t, Config{Inputs: inputs, Shards: 2, Workdir: t.TempDir(), DB: mergedDB(t)})
	if f := res.Report.Files[1]; f.ReadError != refErr.Error() || f.GamesIn != refRes.Summary.GamesIn[cut] {
		t.Errorf("the cut input's report: %q, %d games; want %q, %d", f.ReadError, f.GamesIn, refErr, refRes.Summary.GamesIn[cut])
	}
	if f := res.Report.Files[0]; f.ReadError != "" {
		t.Errorf("the whole input's report: %q", f.ReadError)
	}
	checkSame(t, refDir, refRes, res, true)
}
