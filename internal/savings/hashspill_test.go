package savings

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/chessbook/chessbook/book/build"
	"github.com/chessbook/chessbook/ingest"
	scratchdir "github.com/chessbook/chessbook/internal/scratch"
	"github.com/chessbook/chessbook/keys"
	"github.com/chessbook/chessbook/store"
)

// TestHashSpill: the collisions counted from records spilled to files
// (the memory bound of 'bookquery savings -full') are those counted in
// memory: Polyglot keys forced to collide in groups of three, spread over
// the spill's parts, give the same rows, examples included, and the files
// are removed.
func TestHashSpill(t *testing.T) {
	seen := map[string]bool{}
	var records []byte
	n := 0
	for _, p := range positionsOf(loadGames(t, testFiles(t)[0]), 1) {
		k := keys.Append(nil, &p)
		if seen[string(k)] {
			continue
		}
		seen[string(k)] = true
		z := uint64(n/3+1) * 0x9e3779b97f4a7c15 // three positions a value
		records = appendHashRecord(records, z, k)
		n++
	}
	if n < 10000 {
		t.Fatalf("only %d distinct positions", n)
	}
	rows := func(limit int) ([]HashRow, string) {
		h := newHashSpill(limit)
		defer h.close()
		for b := records; len(b) > 0; {
			// batches of about 4 KiB, as the workers give them
			end, count := 0, 0
			for end < len(b) && end < 4096 {
				end += 9 + int(b[end+8])
				count++
			}
			if err := h.add(b[:end], count); err != nil {
				t.Fatal(err)
			}
			b = b[end:]
		}
		r, err := h.report()
		if err != nil {
			t.Fatal(err)
		}
		return r, h.dir
	}
	inMemory, dir := rows(len(records))
	if dir != "" {
		t.Errorf("spilled with room for every record")
	}
	spilled, dir := rows(64 << 10)
	if dir == "" {
		t.Fatalf("did not spill")
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("spill directory %s left behind: %v", dir, err)
	}
	wantC := uint64(n - (n+2)/3)
	if z := inMemory[0]; z.Positions != uint64(n) || z.Collisions != wantC || len(z.Examples) != 5 || inMemory[1].Collisions != 0 {
		t.Errorf("in memory: %+v, want %d positions, %d collisions", inMemory, n, wantC)
	}
	if !reflect.DeepEqual(spilled, inMemory) {
		t.Errorf("spilled: %+v\nin memory: %+v", spilled, inMemory)
	}
}

// TestFromStoreSpills: FromStore under a memory budget too small for the
// positions' hashes spills them and reports what it reports with room to
// spare, and leaves nothing in the temporary directory.
func TestFromStoreSpills(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "book")
	st, err := store.Open(dir, store.Options{Meta: &store.Meta{CountMode: store.CountGame}})
	if err != nil {
		t.Fatal(err)
	}
	b := build.NewBuilder(st, build.Options{}, 2)
	if _, err := ingest.Run(context.Background(), testFiles(t)[:1], ingest.Options{Workers: 2}, b.Sink); err != nil {
		t.Fatal(err)
	}
	if err := b.Finish(); err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	roomy, err := FromStore(context.Background(), st, Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	tight, err := FromStore(context.Background(), st, Options{Workers: 1, Memory: 64 << 10}) // 8 KiB of hashes in memory
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	if roomy.Distinct < 30000 || !reflect.DeepEqual(tight.Hashes, roomy.Hashes) || tight.Distinct != roomy.Distinct ||
		tight.PGNBytes != roomy.PGNBytes || !reflect.DeepEqual(tight.PositionRows, roomy.PositionRows) {
		t.Errorf("under 64 KiB: %d positions, hashes %+v; with room: %d, %+v", tight.Distinct, tight.Hashes, roomy.Distinct, roomy.Hashes)
	}
	if left, _ := os.ReadDir(tmp); len(left) > 0 {
		t.Errorf("left in TMPDIR: %v", left)
	}
}

// TestHashSpillStale: a spill removes the spill directory a killed
// 'savings -full' left in TMPDIR (nobody holds its lock), and keeps one a
// running one holds.
func TestHashSpillStale(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	killed := filepath.Join(tmp, "savings-hashes-123")
	if err := os.MkdirAll(killed, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(killed, "000"), make([]byte, 1000), 0o644); err != nil {
		t.Fatal(err)
	}
	running, err := scratchdir.CreateLocked(tmp, "savings-hashes-*", true)
	if err != nil {
		t.Fatal(err)
	}
	defer running.Close()
	h := newHashSpill(0)
	rec := appendHashRecord(nil, 1, []byte{1, 2, 3})
	if err := h.add(rec, 1); err != nil {
		t.Fatal(err)
	}
	if h.dir == "" {
		t.Fatal("nothing spilled")
	}
	if _, err := os.Stat(killed); !os.IsNotExist(err) {
		t.Errorf("the killed run's %s is still there (%v)", killed, err)
	}
	if _, err := os.Stat(running.Name()); err != nil {
		t.Errorf("the running one's %s was removed: %v", running.Name(), err)
	}
	h.close()
	if _, err := os.Stat(h.dir); !os.IsNotExist(err) {
		t.Errorf("the spill's own %s is left (%v)", h.dir, err)
	}
}
