package savings

import (
	"os"
	"reflect"
	"testing"

	"github.com/chessbook/chessbook/keys"
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
