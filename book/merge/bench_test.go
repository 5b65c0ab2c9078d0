package merge

import (
	"context"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"

	"github.com/chessbook/chessbook/book/build"
	"github.com/chessbook/chessbook/store"
)

// BenchmarkMergeRecords merges the position records ('p') of three
// stores by key, as a merge of stores does for every kind: the champions'
// 500 games, the lichess games of package gamedb's testdata, and both
// (every key in two stores or three). ns/op is per
// merge of the three.
func BenchmarkMergeRecords(b *testing.B) {
	var stores []*store.Store
	for _, in := range [][]string{{"../../testdata/champions500.pgn"}, {"../../gamedb/testdata/lichess200.pgn"}, {"../../testdata/champions500.pgn", "../../gamedb/testdata/lichess200.pgn"}} {
		dir := filepath.Join(b.TempDir(), "s")
		opts := build.RunOptions{Options: build.Options{Inputs: in, Memory: build.MinMemory}, Dir: dir, Workers: 2}
		if _, err := build.Run(context.Background(), opts); err != nil {
			b.Fatal(err)
		}
		st, err := store.Open(dir, store.Options{ReadOnly: true})
		if err != nil {
			b.Fatal(err)
		}
		defer st.Close()
		stores = append(stores, st)
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
	start := cpu()
	for b.Loop() {
		its := make([]*store.RecordIter, len(stores))
		for i, st := range stores {
			it, err := st.NewRecordIter(store.KindPosition)
			if err != nil {
				b.Fatal(err)
			}
			its[i] = it
		}
		n, shared := 0, 0
		err := mergeRecords(context.Background(), its, nil, func(k []byte, vals []kwayVal) error {
			n++
			if len(vals) > 1 {
				shared++
			}
			return nil
		})
		if err != nil || n == 0 || shared == 0 {
			b.Fatal(n, shared, err)
		}
	}
	b.ReportMetric(float64(cpu()-start)/float64(b.N), "cpu-ns/op")
}
