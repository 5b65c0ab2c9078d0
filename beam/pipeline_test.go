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
	"github.com/chessbook/chessbook/book/export"
	"github.com/chessbook/chessbook/ingest"
	"github.com/chessbook/chessbook/internal/storetest"
	"github.com/chessbook/chessbook/internal/testutil"
	"github.com/chessbook/chessbook/stats"
	"github.com/chessbook/chessbook/store"
)

func TestMain(m *testing.M) {
	beam.Init()
	os.Exit(m.Run())
}

// The tests run the pipeline on Prism, in this process, and compare what
// it builds with what book.Build (bookbuild's build) makes of the same
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

// reference builds inputs with book.Build, as bookbuild does, and
// returns the store and the build's result.
func reference(t *testing.T, opts book.Options, inputs []string) (string, *book.BuildResult) {
	t.Helper()
	opts.Inputs = inputs
	dir := filepath.Join(t.TempDir(), "reference")
	res, err := book.Build(context.Background(), book.BuildOptions{Options: opts, Dir: dir, Workers: 2, Compact: true})
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
func checkSame(t *testing.T, ref string, refRes *book.BuildResult, res *Result) {
	t.Helper()
	want, wantPos, wantGames := unionDigest(t, ref)
	got, gotPos, gotGames := unionDigest(t, shardDirs(res.Report)...)
	if got != want {
		t.Errorf("the shard stores together differ from the build: %d positions, %d games; want %d, %d", gotPos, gotGames, wantPos, wantGames)
	}
	if wantGames == 0 || wantPos == 0 {
		t.Fatalf("the reference build is empty")
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
	if d1, _, _ := storetest.Digest(t, ref); d1 != mustDigest(t, db) {
		t.Errorf("the merged store differs from the build")
	}
	if !bytes.Equal(dump(t, ref), dump(t, db)) {
		t.Errorf("positions -moves dumps differ")
	}
	if !bytes.Equal(polyglotExport(t, ref), polyglotExport(t, db)) {
		t.Errorf("PolyGlot exports differ")
	}
	if storetest.IndexDigest(t, ref) != storetest.IndexDigest(t, db) {
		t.Errorf("game indexes differ")
	}
}

func mustDigest(t *testing.T, dir string) string {
	d, _, _ := storetest.Digest(t, dir)
	return d
}

// dump is bookquery positions -moves of the store at dir.
func dump(t *testing.T, dir string) []byte {
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
	return b.Bytes()
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
// inputs, 23 skipped) and compares with bookbuild's build.
func TestPipelineEqualsBuild(t *testing.T) {
	inputs := sharedInputs(t)
	ref, refRes := reference(t, book.Options{}, inputs)
	cfg := Config{Inputs: inputs, Shards: 4, Workdir: t.TempDir(), DB: mergedDB(t)}
	res := runPipeline(t, cfg)
	checkSame(t, ref, refRes, res)
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

// mergedDB is where a test's run merges its shards, or "" while the
// merge is not available.
func mergedDB(t *testing.T) string {
	if !mergeAvailable {
		return ""
	}
	return filepath.Join(t.TempDir(), "db")
}
