package export

import (
	"context"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"syscall"
	"testing"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/polyglot"
)

// WithChunkEntries returns o sorting its entries in chunks of n, and the
// count of the runs it spills (for the tests of package export_test).
func WithChunkEntries(o Options, n int) (Options, *int) {
	o.limits = &sortLimits{chunkEntries: n}
	return o, &o.limits.runs
}

// TestEntrySorter: entries with many ties of key and weight, some with
// no first-seen stamp, come out of the sorter in compareRanked's order
// whatever the chunk size, spilled in the expected number of runs, which
// are gone once it is closed.
func TestEntrySorter(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	r := rand.New(rand.NewPCG(1, 2))
	in := make([]ranked, 3000)
	for i := range in {
		in[i] = ranked{
			Entry: polyglot.Entry{Key: r.Uint64N(40) << 50, Move: uint16(r.Uint32N(1 << 15)), Weight: uint16(r.UintN(4)), Learn: r.Uint32()},
			seen:  r.Uint64N(3) * r.Uint64N(1<<40), // a third with no stamp
			move:  board.Move(r.Uint32N(1 << 16)),
		}
	}
	want := slices.Clone(in)
	slices.SortFunc(want, func(a, b ranked) int { return compareRanked(&a, &b) })
	wantEntries := make([]polyglot.Entry, len(want))
	for i := range want {
		wantEntries[i] = want[i].Entry
	}
	for _, c := range []struct{ chunk, runs int }{{0, 0}, {29, (len(in) - 1) / 29}, {1000, 2}, {len(in), 0}} {
		s := entrySorter{}
		if c.chunk > 0 {
			s.limits = &sortLimits{chunkEntries: c.chunk}
		}
		for _, e := range in {
			if err := s.add(e); err != nil {
				t.Fatal(err)
			}
		}
		var got []polyglot.Entry
		err := s.each(context.Background(), func(e polyglot.Entry) error {
			got = append(got, e)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, wantEntries) {
			t.Errorf("chunk %d: the entries come out of order", c.chunk)
		}
		if s.limits != nil && s.limits.runs != c.runs {
			t.Errorf("chunk %d: %d runs spilled, want %d", c.chunk, s.limits.runs, c.runs)
		}
		dir := s.dir
		if (dir != "") != (c.runs > 0) {
			t.Errorf("chunk %d: scratch directory %q with %d runs", c.chunk, dir, c.runs)
		}
		s.close()
		if _, err := os.Stat(dir); dir != "" && !os.IsNotExist(err) {
			t.Errorf("chunk %d: %s left behind: %v", c.chunk, dir, err)
		}
	}
}

// BenchmarkEntrySorter merges 1 Mi random entries spilled in 16 runs
// (the k-way merge of a big book's export); ns/op is per merge, the runs'
// sorting and writing left out (but for the last chunk's sort); cpu-ns/op
// is the CPU time of the goroutine's thread in the merge, which a loaded
// machine's waits for a core leave out.
func BenchmarkEntrySorter(b *testing.B) {
	b.Setenv("TMPDIR", b.TempDir())
	r := rand.New(rand.NewPCG(3, 4))
	in := make([]ranked, 1<<20)
	for i := range in {
		in[i] = ranked{
			Entry: polyglot.Entry{Key: r.Uint64(), Move: uint16(r.Uint32N(1 << 15)), Weight: uint16(r.UintN(4))},
			seen:  r.Uint64N(1 << 40),
		}
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	cpu := func() int64 {
		var ru syscall.Rusage
		if err := syscall.Getrusage(1 /* RUSAGE_THREAD */, &ru); err != nil {
			b.Fatal(err)
		}
		return ru.Utime.Nano() + ru.Stime.Nano()
	}
	var spent int64
	for b.Loop() {
		b.StopTimer()
		s := entrySorter{limits: &sortLimits{chunkEntries: len(in) / 16}}
		for _, e := range in {
			if err := s.add(e); err != nil {
				b.Fatal(err)
			}
		}
		b.StartTimer()
		start := cpu()
		n := 0
		if err := s.each(context.Background(), func(polyglot.Entry) error { n++; return nil }); err != nil || n != len(in) {
			b.Fatal(n, err)
		}
		spent += cpu() - start
		s.close()
	}
	b.ReportMetric(float64(spent)/float64(b.N), "cpu-ns/op")
}
