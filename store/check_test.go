package store

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/chessbook/chessbook/pgn"
	"github.com/cockroachdb/pebble/v2/sstable"
	"github.com/cockroachdb/pebble/v2/vfs"
)

// fillStore commits runs ingestions to s, each of games game records
// (random bytes), their game numbers, and a merge record for every
// position of positions whose index is the run's number modulo runs. It
// returns the ids of the games.
func fillStore(t *testing.T, s *Store, runs, games int, positions []string, seed uint64) []GameID {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 99))
	var ids []GameID
	next := max(s.Meta().NextGame, 1)
	for run := range runs {
		w, err := s.NewSSTWriter()
		if err != nil {
			t.Fatal(err)
		}
		var runIDs []GameID
		for range games {
			runIDs = append(runIDs, GameID(r.Uint64()|1))
		}
		slices.Sort(runIDs)
		runIDs = slices.Compact(runIDs)
		for _, id := range runIDs {
			rec := make([]byte, 100+r.IntN(200))
			for i := range rec {
				rec[i] = byte(r.IntN(256))
			}
			if err := w.SetGame(id, rec); err != nil {
				t.Fatal(err)
			}
		}
		for i, id := range runIDs {
			if err := w.SetGameNumber(next+uint64(i), id, 0); err != nil {
				t.Fatal(err)
			}
		}
		next += uint64(len(runIDs))
		for i, k := range positions {
			if i%runs == run {
				if err := w.MergeEntry([]byte(k), oneGame(uint16(1+i%7), pgn.Draw)); err != nil {
					t.Fatal(err)
				}
			}
		}
		w.AddGames(uint64(len(runIDs)))
		if err := w.Ingest(); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, runIDs...)
	}
	return ids
}

// state describes what a store holds: its Meta's games, every position's
// statistics, every game record.
func state(t *testing.T, dir string) string {
	t.Helper()
	s := mustOpen(t, dir, Options{ReadOnly: true})
	defer s.Close()
	var b strings.Builder
	fmt.Fprintf(&b, "games %d next %d\n", s.Meta().Games, s.Meta().NextGame)
	b.WriteString(dump(t, s))
	if err := s.Games(func(id GameID, rec []byte) (bool, error) {
		fmt.Fprintf(&b, "%s %x\n", id, rec)
		return true, nil
	}); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// check runs CheckDir on dir and returns its report and the problems.
func check(t *testing.T, dir string) (*CheckReport, []Damage) {
	t.Helper()
	var damage []Damage
	rep, err := CheckDir(context.Background(), dir, CheckOptions{Report: func(d Damage) { damage = append(damage, d) }})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range damage {
		t.Logf("problem: %s", d)
	}
	if rep.Damaged != len(damage) {
		t.Errorf("the report counts %d problems, %d were reported", rep.Damaged, len(damage))
	}
	return rep, damage
}

func removeLogs(t *testing.T, dir string) {
	t.Helper()
	logs, _ := filepath.Glob(filepath.Join(dir, "*.log"))
	for _, l := range logs {
		if err := os.Remove(l); err != nil {
			t.Fatal(err)
		}
	}
}

// du returns the bytes du counts for path.
func du(t *testing.T, path string) int64 {
	t.Helper()
	out, err := exec.Command("du", "-s", "-B1", path).Output()
	if err != nil {
		t.Fatalf("du: %v", err)
	}
	n, err := strconv.ParseInt(strings.Fields(string(out))[0], 10, 64)
	if err != nil {
		t.Fatalf("du: %q: %v", out, err)
	}
	return n
}

// TestClosedStoreNeedsNoLog: a store closed after its commits has every
// table in its manifest: with its write-ahead logs deleted it opens with
// the same games and statistics, and check finds nothing amiss. Its size
// on disk is its tables' (no preallocated log blocks), and DirSize says
// what du says.
func TestClosedStoreNeedsNoLog(t *testing.T) {
	dir := t.TempDir()
	s := mustOpen(t, dir, buildOpts())
	fillStore(t, s, 3, 500, randomPositionKeys(3000), 1)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	want := state(t, dir)
	if !strings.HasPrefix(want, "games 1500 ") {
		t.Fatalf("the store: %.40q; want 1500 games", want)
	}
	rep, damage := check(t, dir)
	if len(damage) != 0 || len(rep.Notes) != 0 || len(rep.Leftovers) != 0 || rep.Records["game"] != 1500 {
		t.Fatalf("check on a closed store: %+v", rep)
	}

	var tables int64
	ssts, _ := filepath.Glob(filepath.Join(dir, "*.sst"))
	for _, p := range ssts {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		tables += diskSize(fi)
	}
	size := DirSize(dir)
	if d := du(t, dir); size != d {
		t.Errorf("DirSize = %d, du says %d", size, d)
	}
	if size > tables+64<<10 {
		t.Errorf("the store takes %d bytes on disk, its sstables %d: more than 64 KiB of other files (preallocated logs?)", size, tables)
	}
	t.Logf("%d bytes on disk, %d in %d sstables", size, tables, len(ssts))

	removeLogs(t, dir)
	if got := state(t, dir); got != want {
		t.Fatalf("without its logs the store holds something else:\n%.300s\nwant\n%.300s", got, want)
	}
	if rep, damage := check(t, dir); len(damage) != 0 || rep.Records["game"] != 1500 {
		t.Fatalf("check without the logs: %+v", rep)
	}
	// And adding to it works as before.
	s = mustOpen(t, dir, buildOpts())
	fillStore(t, s, 1, 100, randomPositionKeys(500), 2)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if rep, damage := check(t, dir); len(damage) != 0 || rep.Records["game"] != 1600 || rep.Meta.Games != 1600 {
		t.Fatalf("check after adding: %+v", rep)
	}
}

// closeNoFlush closes s as stores were closed before Close flushed them:
// what the memtable holds stays in the write-ahead log.
func closeNoFlush(t *testing.T, s *Store) {
	t.Helper()
	s.closed.Store(true)
	if err := s.db.Close(); err != nil {
		t.Fatal(err)
	}
	if err := s.lock.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestTablesNamedOnlyByLog: a store written the way chessbook wrote them
// before (ingestions queued above the memtable, named only in a
// write-ahead log, and no flush at close) checks clean with a note; with
// its logs deleted it lost its data, which check says (the user's report:
// it used to say "no damage found"); one writable open makes its manifest
// name every table, after which the logs are not needed.
func TestTablesNamedOnlyByLog(t *testing.T) {
	dir := t.TempDir()
	opts := buildOpts()
	opts.flushableIngests = true
	s := mustOpen(t, dir, opts)
	fillStore(t, s, 1, 600, randomPositionKeys(2000), 3)
	closeNoFlush(t, s)
	want := state(t, dir)

	rep, damage := check(t, dir)
	if len(damage) != 0 || len(rep.Notes) != 1 || !strings.Contains(rep.Notes[0], "named only by a write-ahead log") ||
		rep.Records["game"] != 600 || len(rep.Leftovers) != 0 {
		t.Fatalf("check on a store whose tables are in its log: %+v", rep)
	}

	lost := t.TempDir()
	copyDir(t, dir, lost)
	removeLogs(t, lost)
	rep, damage = check(t, lost)
	lacks := 0
	for _, d := range damage {
		if d.File != "" && strings.Contains(d.Err.Error(), "records the store lacks") {
			lacks++
		}
	}
	if lacks == 0 || rep.Damaged == 0 {
		t.Fatalf("check on a store that lost the log naming its tables: %+v; want tables holding records the store lacks", rep)
	}

	s = mustOpen(t, dir, buildOpts())
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	removeLogs(t, dir)
	if got := state(t, dir); got != want {
		t.Fatal("after a writable open, the store without its logs holds something else")
	}
	if rep, damage := check(t, dir); len(damage) != 0 || len(rep.Notes) != 0 || rep.Records["game"] != 600 {
		t.Fatalf("check after a writable open: %+v", rep)
	}
}

func copyDir(t *testing.T, from, to string) {
	t.Helper()
	if err := os.CopyFS(to, os.DirFS(from)); err != nil && !os.IsExist(err) {
		t.Fatal(err)
	}
}

// tableOf returns the sstable of the store in dir that holds key.
func tableOf(t *testing.T, dir string, key []byte) string {
	t.Helper()
	s := mustOpen(t, dir, Options{ReadOnly: true})
	defer s.Close()
	levels, err := s.db.SSTables()
	if err != nil {
		t.Fatal(err)
	}
	for _, level := range levels {
		for _, tb := range level {
			if string(tb.Smallest.UserKey) <= string(key) && string(key) <= string(tb.Largest.UserKey) {
				return filepath.Join(dir, tableName(uint64(tb.BackingSSTNum)))
			}
		}
	}
	t.Fatalf("no table holds %q", key)
	return ""
}

// damageDataBlocks flips a byte in the middle of the data blocks which of
// the sstable at path, and returns their number.
func damageDataBlocks(t *testing.T, path string, which func(i, n int) bool) int {
	t.Helper()
	f, err := vfs.Default.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	readable, err := sstable.NewSimpleReadable(f)
	if err != nil {
		t.Fatal(err)
	}
	popts := (&Store{fs: vfs.Default, opts: Options{ReadOnly: true}}).pebbleOptions(true)
	r, err := sstable.NewReader(context.Background(), readable, popts.MakeReaderOptions())
	if err != nil {
		t.Fatal(err)
	}
	l, err := r.Layout()
	if err != nil {
		t.Fatal(err)
	}
	_ = r.Close()
	w, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	n := 0
	for i, h := range l.Data {
		if !which(i, len(l.Data)) {
			continue
		}
		off := int64(h.Offset + h.Length/2)
		var b [1]byte
		if _, err := w.ReadAt(b[:], off); err != nil {
			t.Fatal(err)
		}
		b[0] ^= 0x5a
		if _, err := w.WriteAt(b[:], off); err != nil {
			t.Fatal(err)
		}
		n++
	}
	if n == 0 || n == len(l.Data) {
		t.Fatalf("%s: damaged %d of %d data blocks; want some, not all", path, n, len(l.Data))
	}
	return n
}

// TestCheckCountsEveryDamagedBlock damages several data blocks (next to
// each other, and apart) in two tables: check counts each, per table, and
// reads every record outside them: as many positions and games as the
// store still answers lookups for. The games it cannot read make the
// Meta's count disagree, one more problem.
func TestCheckCountsEveryDamagedBlock(t *testing.T) {
	dir := t.TempDir()
	s := mustOpen(t, dir, buildOpts())
	positions := randomPositionKeys(20000)
	ids := fillStore(t, s, 1, 3000, positions, 4)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	posTable := tableOf(t, dir, positionKey(nil, []byte(positions[0])))
	gameTable := tableOf(t, dir, gameKey(nil, ids[0]))
	if posTable == gameTable {
		t.Fatal("positions and games in one table")
	}
	// The positions table holds the game numbers first: damage the
	// positions (the last blocks), each block on its own and two next
	// to each other.
	// (Few blocks: every lookup that meets one costs Pebble a search for
	// a single flipped bit.)
	nPos := damageDataBlocks(t, posTable, func(i, n int) bool { return i == n/2 || i == n-20 || i == n-19 })
	nGames := damageDataBlocks(t, gameTable, func(i, n int) bool { return i == 1 || i == 7 || i == n-1 })

	r := mustOpen(t, dir, Options{ReadOnly: true})
	readable := map[string]int{}
	for _, p := range positions {
		if _, _, err := r.StatsRecord([]byte(p)); err == nil {
			readable["position"]++
		}
	}
	for _, id := range ids {
		if _, err := r.Game(id); err == nil {
			readable["game"]++
		}
	}
	_ = r.Close()
	if readable["position"] == len(positions) || readable["game"] == len(ids) {
		t.Fatalf("lookups answer %v of %d positions and %d games: the damage missed", readable, len(positions), len(ids))
	}

	rep, damage := check(t, dir)
	byTable := map[string]int{}
	for _, tr := range rep.Tables {
		byTable[tr.File] = tr.Damaged
	}
	if byTable[filepath.Base(posTable)] != nPos || byTable[filepath.Base(gameTable)] != nGames {
		t.Errorf("damaged blocks by table: %v; want %d in %s, %d in %s", byTable, nPos, filepath.Base(posTable), nGames, filepath.Base(gameTable))
	}
	if rep.Damaged != nPos+nGames+1 {
		t.Errorf("%d problems; want %d damaged blocks and the Meta's count", rep.Damaged, nPos+nGames)
	}
	blocks := 0
	for _, d := range damage {
		if strings.Contains(d.Err.Error(), "data block") {
			blocks++
		}
	}
	if blocks != nPos+nGames {
		t.Errorf("%d damaged data blocks reported; want %d", blocks, nPos+nGames)
	}
	for _, kind := range []string{"position", "game"} {
		if rep.Records[kind] != readable[kind] {
			t.Errorf("check read %d %s records; lookups answer %d", rep.Records[kind], kind, readable[kind])
		}
	}
	if rep.Records["game number"] != len(ids) {
		t.Errorf("check read %d game numbers (undamaged); want %d", rep.Records["game number"], len(ids))
	}
}

// TestCheckLeftovers: tables the store does not reference are leftovers
// (safe to delete, no problem) when they are cut short, when an
// ingestion that did not commit linked them in, or when the store holds
// all their records; a table holding records the store lacks, with
// nothing to show it was an interrupted commit, is data the store lost.
func TestCheckLeftovers(t *testing.T) {
	dir := t.TempDir()
	s := mustOpen(t, dir, buildOpts())
	positions := randomPositionKeys(4000)
	ids := fillStore(t, s, 2, 400, positions, 5)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	// Another store's tables: records this one lacks.
	other := t.TempDir()
	o := mustOpen(t, other, buildOpts())
	otherIDs := fillStore(t, o, 1, 50, nil, 6)
	if err := o.Close(); err != nil {
		t.Fatal(err)
	}
	posTable := tableOf(t, dir, positionKey(nil, []byte(positions[0])))
	otherGames := tableOf(t, other, gameKey(nil, otherIDs[0]))

	cp := func(from, to string, n int64) {
		b, err := os.ReadFile(from)
		if err != nil {
			t.Fatal(err)
		}
		if n > 0 {
			b = b[:n]
		}
		if err := os.WriteFile(to, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	fi, _ := os.Stat(posTable)
	cp(posTable, filepath.Join(dir, "000900.sst"), 0)           // a compaction's output: records all in the store
	cp(posTable, filepath.Join(dir, "000901.sst"), fi.Size()/2) // a compaction's output, cut short
	if err := os.MkdirAll(filepath.Join(dir, ingestDir), 0o755); err != nil {
		t.Fatal(err)
	}
	pending := filepath.Join(dir, ingestDir, "000003.sst")
	cp(otherGames, pending, 0) // an ingestion linked in, not committed
	// A merge's scratch store, a directory of its own: counted whole.
	nested := filepath.Join(dir, ingestDir, "rebuild")
	if err := os.MkdirAll(nested, 0o755); err != nil {
		t.Fatal(err)
	}
	cp(posTable, filepath.Join(nested, "000001.sst"), 0)
	if err := os.Link(pending, filepath.Join(dir, "000902.sst")); err != nil {
		t.Fatal(err)
	}

	rep, damage := check(t, dir)
	var left []string
	for _, l := range rep.Leftovers {
		left = append(left, l.File)
		if l.Bytes <= 0 || l.Why == "" {
			t.Errorf("leftover %+v: want its size and why", l)
		}
	}
	wantLeft := []string{"000900.sst", "000901.sst", "000902.sst", ingestDir + "/"}
	if len(damage) != 0 || !slices.Equal(left, wantLeft) {
		t.Fatalf("check: %d problems, leftovers %v; want none, leftovers %v", len(damage), left, wantLeft)
	}
	if rep.Records["game"] != len(ids) {
		t.Errorf("%d game records; want %d", rep.Records["game"], len(ids))
	}
	pfi, _ := os.Stat(pending)
	if got, want := rep.Leftovers[3].Bytes, fi.Size()+pfi.Size(); got < want {
		t.Errorf("%s holds %d bytes, with the scratch store below it; want at least its two tables' %d", ingestDir, got, want)
	}
	if err := os.RemoveAll(nested); err != nil {
		t.Fatal(err)
	}

	// Without the ingestion's own link, nothing shows the table was an
	// interrupted commit: the store lost it.
	if err := os.Remove(pending); err != nil {
		t.Fatal(err)
	}
	rep, damage = check(t, dir)
	if len(damage) != 1 || damage[0].File != "000902.sst" || !strings.Contains(damage[0].Err.Error(), fmt.Sprintf("%d game", len(otherIDs))) {
		t.Fatalf("check with a table holding games the store lacks: %v", damage)
	}
	if len(rep.Leftovers) != 2 {
		t.Errorf("leftovers %+v; want the two copies", rep.Leftovers)
	}
}

// TestCheckMissingTables: a table the manifest names whose file is gone
// is a problem (the store opens, without it); with every table gone, and
// with the manifest gone, check still says what it can.
func TestCheckMissingTables(t *testing.T) {
	dir := t.TempDir()
	s := mustOpen(t, dir, buildOpts())
	positions := randomPositionKeys(2000)
	ids := fillStore(t, s, 2, 200, positions, 7)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	gone := tableOf(t, dir, positionKey(nil, []byte(positions[0])))
	all := t.TempDir()
	copyDir(t, dir, all)
	noManifest := t.TempDir()
	copyDir(t, dir, noManifest)

	if err := os.Remove(gone); err != nil {
		t.Fatal(err)
	}
	rep, damage := check(t, dir)
	missing := 0
	for _, tr := range rep.Tables {
		if tr.Missing {
			missing++
			if tr.File != filepath.Base(gone) {
				t.Errorf("missing %s; want %s", tr.File, filepath.Base(gone))
			}
		}
	}
	if missing != 1 || len(damage) != 1 || rep.Records["game"] != len(ids) {
		t.Fatalf("check with a table gone: %d missing, problems %v, %d games; want 1, 1, %d", missing, damage, rep.Records["game"], len(ids))
	}

	ssts, _ := filepath.Glob(filepath.Join(all, "*.sst"))
	for _, p := range ssts {
		_ = os.Remove(p)
	}
	rep, damage = check(t, all)
	missing = 0
	for _, tr := range rep.Tables {
		if tr.Missing {
			missing++
		}
	}
	if missing != len(ssts) || len(damage) < len(ssts) || rep.OpenError != "" {
		t.Fatalf("check with every table gone: %d of %d missing, %d problems, open error %q", missing, len(ssts), len(damage), rep.OpenError)
	}

	manifests, _ := filepath.Glob(filepath.Join(noManifest, "MANIFEST-*"))
	for _, p := range manifests {
		_ = os.Remove(p)
	}
	rep, damage = check(t, noManifest)
	if rep.OpenError == "" || len(rep.Files) == 0 || len(damage) != 1 || len(rep.Tables) != len(ssts) {
		t.Fatalf("check without a manifest: %+v", rep)
	}
	note := strings.Join(rep.Notes, "\n")
	if !strings.Contains(note, "no manifest") {
		t.Errorf("notes %q; want them to say there is no manifest", note)
	}
}

// TestCheckMetaCount: a Meta that counts games the store holds no record
// of is a problem.
func TestCheckMetaCount(t *testing.T) {
	dir := t.TempDir()
	s := mustOpen(t, dir, buildOpts())
	fillStore(t, s, 1, 100, nil, 8)
	w, err := s.NewSSTWriter()
	if err != nil {
		t.Fatal(err)
	}
	if err := w.MergeEntry([]byte(randomPositionKeys(1)[0]), oneGame(3, pgn.WhiteWins)); err != nil {
		t.Fatal(err)
	}
	w.AddGames(3) // counted, not stored
	if err := w.Ingest(); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	rep, damage := check(t, dir)
	if len(damage) != 1 || !strings.Contains(damage[0].Err.Error(), "counts 103 games, the store holds 100 game records") {
		t.Fatalf("check: %v (%+v)", damage, rep)
	}
}

// TestCheckNotAStore: CheckDir on a directory without a store, or with
// something else, says so.
func TestCheckNotAStore(t *testing.T) {
	dir := t.TempDir()
	if _, err := CheckDir(context.Background(), filepath.Join(dir, "none"), CheckOptions{}); !isErr(err, ErrNotExist) {
		t.Errorf("missing directory: %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := CheckDir(context.Background(), dir, CheckOptions{}); !isErr(err, ErrNotStore) {
		t.Errorf("foreign directory: %v", err)
	}
}

func isErr(err, target error) bool { return errors.Is(err, target) }
