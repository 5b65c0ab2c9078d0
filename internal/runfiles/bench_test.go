package runfiles

import (
	"encoding/binary"
	"math/rand/v2"
	"runtime"
	"slices"
	"syscall"
	"testing"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/pgn"
	"github.com/chessbook/chessbook/stats"
	"github.com/chessbook/chessbook/store"
)

// BenchmarkMergeRuns merges the sections of 12 runs as a build's commit
// does (package book/build): positions (20,000 keys a run out of 100,000, so that a key is in
// about 2.4 runs and its entries combine), game numbers (unique keys, 20,000
// a run) and single references (200,000 a run, in hash order), each
// record handed to a callback that drops it. ns/op is per merge of the
// section; cpu-ns/op is the CPU time of the goroutine's thread per merge,
// which a loaded machine's waits for a core leave out.
func BenchmarkMergeRuns(b *testing.B) {
	st, err := store.Open(b.TempDir(), store.Options{Meta: &store.Meta{CountMode: store.CountGame}})
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	const nRuns, perRun, keySpace, refsPerRun = 12, 20000, 100000, 200000
	rng := rand.New(rand.NewPCG(5, 6))
	var runs []*Run
	for ri := range nRuns {
		w := NewWriter(st)
		keys := map[uint64]bool{}
		for len(keys) < perRun {
			keys[rng.Uint64N(keySpace)<<20|0x5a5a] = true
		}
		sorted := slices.Sorted(func(yield func(uint64) bool) {
			for k := range keys {
				if !yield(k) {
					return
				}
			}
		})
		var e stats.Entry
		for _, k := range sorted {
			e.Moves = append(e.Moves[:0], stats.MoveEntry{Move: board.Move(1 + rng.IntN(3))})
			e.Moves[0].MoveStats.Add(pgn.Result(1+rng.IntN(3)), 2000+rng.IntN(500), 0)
			val := binary.BigEndian.AppendUint32(nil, uint32(k>>20))
			val = e.AppendEncode(val)
			if err := w.Add(Positions, binary.BigEndian.AppendUint64(nil, k), val); err != nil {
				b.Fatal(err)
			}
		}
		for i := range perRun {
			num := binary.BigEndian.AppendUint64(nil, uint64(i*nRuns+ri))
			if err := w.Add(Numbers, num, make([]byte, 16)); err != nil {
				b.Fatal(err)
			}
		}
		packed := make([]uint64, refsPerRun)
		for i := range packed {
			packed[i] = uint64(rng.Uint32())<<32 | uint64(i)
		}
		slices.Sort(packed)
		if err := w.AddSingles(packed, uint64(ri*refsPerRun)); err != nil {
			b.Fatal(err)
		}
		r, err := w.Finish()
		if err != nil {
			b.Fatal(err)
		}
		runs = append(runs, r)
	}
	defer func() {
		for _, r := range runs {
			r.Remove(st)
		}
	}()
	for _, c := range []struct {
		name    string
		sec     Section
		combine func() Combiner
		want    int
	}{
		{"positions", Positions, func() Combiner { return Pairwise(MergePositionValues) }, 0},
		{"numbers", Numbers, nil, nRuns * perRun},
	} {
		b.Run(c.name, func(b *testing.B) {
			var comb Combiner
			if c.combine != nil {
				comb = c.combine()
			}
			defer threadCPU(b)()
			for b.Loop() {
				n := 0
				if err := MergeSection(st, runs, c.sec, comb, func(k, v []byte) error { n++; return nil }); err != nil || n == 0 || c.want != 0 && n != c.want {
					b.Fatal(n, err)
				}
			}
		})
	}
	b.Run("refs", func(b *testing.B) {
		defer threadCPU(b)()
		for b.Loop() {
			n := 0
			if err := MergeRefs(st, runs, func(h uint32, num uint64) error { n++; return nil }); err != nil || n != nRuns*refsPerRun {
				b.Fatal(n, err)
			}
		}
	})
}

// threadCPU locks the goroutine to its thread and returns a function
// that reports the thread's CPU time since, per op (cpu-ns/op).
func threadCPU(b *testing.B) func() {
	runtime.LockOSThread()
	cpu := func() int64 {
		var ru syscall.Rusage
		if err := syscall.Getrusage(1 /* RUSAGE_THREAD */, &ru); err != nil {
			b.Fatal(err)
		}
		return ru.Utime.Nano() + ru.Stime.Nano()
	}
	start := cpu()
	return func() {
		b.ReportMetric(float64(cpu()-start)/float64(b.N), "cpu-ns/op")
		runtime.UnlockOSThread()
	}
}
