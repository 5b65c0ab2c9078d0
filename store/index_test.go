package store

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
)

var testOps = []TallyOp{TallySum, TallyMin, TallyMax}

// TestMergeTally: sums add up, minima keep the least known (non-zero)
// value, maxima the greatest, in any grouping and order; tallies with
// other fields do not merge.
func TestMergeTally(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 200 {
		n := 1 + rng.IntN(6)
		var ops [][]byte
		var sum, lo, hi uint64
		for range n {
			v := []uint64{uint64(rng.IntN(5)), uint64(rng.IntN(4)) * 1000, uint64(rng.IntN(3000))}
			sum += v[0]
			if v[1] != 0 && (lo == 0 || v[1] < lo) {
				lo = v[1]
			}
			hi = max(hi, v[2])
			ops = append(ops, AppendTally(nil, testOps, v))
		}
		rng.Shuffle(len(ops), func(i, j int) { ops[i], ops[j] = ops[j], ops[i] })
		// Fold in a random grouping: merge random neighbours until one is left.
		for len(ops) > 1 {
			i := rng.IntN(len(ops) - 1)
			m, err := MergeTally(nil, ops[i], ops[i+1])
			if err != nil {
				t.Fatal(err)
			}
			ops = append(ops[:i], append([][]byte{m}, ops[i+2:]...)...)
		}
		got, err := DecodeTally(nil, ops[0], testOps)
		if err != nil {
			t.Fatal(err)
		}
		if want := []uint64{sum, lo, hi}; fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("trial %d: merged %v, want %v", trial, got, want)
		}
	}
	a := AppendTally(nil, testOps, []uint64{1, 2, 3})
	b := AppendTally(nil, []TallyOp{TallySum, TallyMax, TallyMax}, []uint64{1, 2, 3})
	if _, err := MergeTally(nil, a, b); err == nil {
		t.Error("tallies with other ops merged")
	}
	if _, err := MergeTally(nil, a, a[:len(a)-2]); err == nil {
		t.Error("tallies of other lengths merged")
	}
	for _, bad := range [][]byte{{0, 1}, {4, 1}, {1}, {1, 0x80}} {
		if validateTally(bad) == nil {
			t.Errorf("tally %x validated", bad)
		}
	}
	if _, err := DecodeTally(nil, a, []TallyOp{TallySum, TallyMin}); err == nil {
		t.Error("a tally of 3 fields decoded as 2")
	}
}

// TestIndexRecords: index records ingested by two writers in two
// ingestions read back, the tallies merged (through reads, and once
// compacted); the ingestion that asks for it marks the store indexed;
// ClearIndex removes them all and the mark.
func TestIndexRecords(t *testing.T) {
	dir := t.TempDir()
	s := mustOpen(t, dir, Options{Meta: &Meta{CountMode: CountGame}})
	ingest := func(fn func(w *SSTWriter) error, index int) {
		t.Helper()
		w, err := s.NewSSTWriter()
		if err != nil {
			t.Fatal(err)
		}
		if err := fn(w); err != nil {
			t.Fatal(err)
		}
		if index != 0 {
			w.SetGameIndex(index)
		}
		if err := w.Ingest(); err != nil {
			t.Fatal(err)
		}
	}
	ingest(func(w *SSTWriter) error {
		if err := w.SetIndex([]byte("a1"), []byte("one")); err != nil {
			return err
		}
		if err := w.MergeIndex([]byte("n\x00carlsen"), AppendTally(nil, testOps, []uint64{1, 2000, 2000})); err != nil {
			return err
		}
		if err := w.SetIndex([]byte("a0"), nil); err == nil {
			return fmt.Errorf("a key out of order was taken")
		}
		if err := w.MergeIndex([]byte("z"), []byte{9}); err == nil {
			return fmt.Errorf("a bad tally was taken")
		}
		return nil
	}, 0)
	if m := s.Meta(); m.GameIndex != 0 {
		t.Fatalf("GameIndex %d after an ingestion that did not set it", m.GameIndex)
	}
	ingest(func(w *SSTWriter) error {
		if err := w.SetIndex([]byte("a2"), []byte("two")); err != nil {
			return err
		}
		return w.MergeIndex([]byte("n\x00carlsen"), AppendTally(nil, testOps, []uint64{2, 1900, 1950}))
	}, 3)
	if m := s.Meta(); m.GameIndex != 3 {
		t.Fatalf("GameIndex %d, want 3", m.GameIndex)
	}
	check := func(when string) {
		t.Helper()
		it, err := s.NewIndexIter(nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for ok := it.Last(); ok; ok = it.Prev() {
			v, err := it.Value()
			if err != nil {
				t.Fatal(err)
			}
			if it.Key()[0] == 'n' {
				vals, err := DecodeTally(nil, v, testOps)
				if err != nil {
					t.Fatal(err)
				}
				v = []byte(fmt.Sprint(vals))
			}
			got = append(got, fmt.Sprintf("%s=%s", it.Key(), v))
		}
		if err := it.Close(); err != nil {
			t.Fatal(err)
		}
		want := "[n\x00carlsen=[3 1900 2000] a2=two a1=one]"
		if fmt.Sprint(got) != want {
			t.Errorf("%s: records (backward) %q, want %q", when, got, want)
		}
		v, ok, err := s.IndexGet([]byte("a2"))
		if err != nil || !ok || string(v) != "two" {
			t.Errorf("%s: IndexGet(a2) = %q, %v, %v", when, v, ok, err)
		}
		if _, ok, err := s.IndexGet([]byte("a3")); ok || err != nil {
			t.Errorf("%s: IndexGet(a3) = %v, %v", when, ok, err)
		}
		it, _ = s.NewIndexIter([]byte("a"), []byte("b"))
		n := 0
		for ok := it.SeekGE([]byte("a15")); ok; ok = it.Next() {
			n++
		}
		it.Close()
		if n != 1 {
			t.Errorf("%s: %d records from a15 below b, want 1", when, n)
		}
	}
	check("ingested")
	if err := s.Compact(context.Background()); err != nil {
		t.Fatal(err)
	}
	check("compacted")
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = mustOpen(t, dir, Options{})
	check("reopened")
	if m := s.Meta(); m.GameIndex != 3 {
		t.Fatalf("reopened: GameIndex %d, want 3", m.GameIndex)
	}
	rep, err := s.Check(context.Background(), CheckOptions{Index: func(k, v []byte) (string, error) {
		if bytes.HasPrefix(k, []byte("n")) {
			return "names", validateTally(v)
		}
		return "other", nil
	}})
	if err != nil || rep.Damaged != 0 || rep.Records["names"] != 1 || rep.Records["other"] != 2 {
		t.Errorf("check: %v, %+v", err, rep)
	}
	if err := s.ClearIndex(); err != nil {
		t.Fatal(err)
	}
	it, _ := s.NewIndexIter(nil, nil)
	if it.First() {
		t.Errorf("record %q left after ClearIndex", it.Key())
	}
	it.Close()
	if m := s.Meta(); m.GameIndex != 0 {
		t.Errorf("GameIndex %d after ClearIndex", m.GameIndex)
	}
	// An ingestion with nothing in it but the mark sets it.
	ingest(func(*SSTWriter) error { return nil }, 1)
	if m := s.Meta(); m.GameIndex != 1 {
		t.Errorf("GameIndex %d after an empty ingestion setting it", m.GameIndex)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
}
