package merge_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/chessbook/chessbook/book/build"
	"github.com/chessbook/chessbook/book/merge"
	"github.com/chessbook/chessbook/internal/storetest"
	"github.com/chessbook/chessbook/store"
)

// The mutation test: for every kind of record of the store's registry, a
// merge made to drop it, or to miscopy it (game numbers or stamps not
// moved, records of several stores not merged: whichever the registry
// says the kind holds), must give a store whose digest
// (storetest.DigestKinds) differs from one build's of the same inputs,
// while the merge itself gives the same digest. The inputs are
// champions500.pgn cut in two halves, with one in two of the games of
// ep_pinned.pgn each (en-passant side records in both), built apart and
// merged: in -count occurrence, the halves disjoint (records copied,
// stamps moved); in -count game, the second half with the first 20 games
// of the first again (the second store shares games: it is replayed).

// mutationScenario is one pair of stores merged, and one build of their
// inputs.
type mutationScenario struct {
	name  string
	parts []string // the stores merged, in order
	one   string   // one build of their inputs
	kinds map[store.Prefix]string
	held  []store.Prefix // the kinds one holds
}

// mutationStores builds the scenarios' stores once, in a directory
// TestMain removes.
var mutationStores = sync.OnceValues(func() ([]*mutationScenario, error) {
	dir, err := os.MkdirTemp("", "chessbook-merge-mutations-")
	if err != nil {
		return nil, err
	}
	mutationDir.Store(&dir)
	games := func(path string) ([][]byte, error) {
		data, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		var out [][]byte
		for len(data) > 0 {
			j := bytes.Index(data[1:], []byte("\n[Event "))
			if j < 0 {
				out = append(out, append(data, '\n'))
				break
			}
			out = append(out, data[:j+2])
			data = data[j+2:]
		}
		return out, nil
	}
	wc, err := games(champions)
	if err != nil {
		return nil, err
	}
	ep, err := games("../../testdata/ep_pinned.pgn")
	if err != nil {
		return nil, err
	}
	if len(wc) != 500 || len(ep) != 12 {
		return nil, fmt.Errorf("%d and %d games in the test data, want 500 and 12", len(wc), len(ep))
	}
	// The games of ep_pinned.pgn (the en-passant side records), one in
	// two to each half: the halves share en-passant records.
	var epA, epB [][]byte
	for i, g := range ep {
		if i%2 == 0 {
			epA = append(epA, g)
		} else {
			epB = append(epB, g)
		}
	}
	write := func(name string, parts ...[][]byte) (string, error) {
		f := filepath.Join(dir, name)
		return f, os.WriteFile(f, bytes.Join(slices.Concat(parts...), nil), 0o644)
	}
	first, err := write("first.pgn", wc[:250], epA)
	if err != nil {
		return nil, err
	}
	second, err := write("second.pgn", wc[250:], epB)
	if err != nil {
		return nil, err
	}
	again, err := write("second-again.pgn", wc[250:], epB, wc[:20])
	if err != nil {
		return nil, err
	}
	buildOne := func(name string, o build.Options, inputs ...string) (string, error) {
		db := filepath.Join(dir, name)
		o.Inputs = inputs
		_, err := build.Run(context.Background(), build.RunOptions{Options: o, Dir: db, Workers: 2, Compact: true})
		return db, err
	}
	var out []*mutationScenario
	for _, c := range []struct {
		name   string
		opts   build.Options
		second string
	}{
		{"occurrence-disjoint", build.Options{CountMode: store.CountOccurrence}, second},
		{"game-overlap", build.Options{CountMode: store.CountGame}, again},
	} {
		s := &mutationScenario{name: c.name}
		a, err := buildOne(c.name+"-a", c.opts, first)
		if err != nil {
			return nil, err
		}
		b, err := buildOne(c.name+"-b", c.opts, c.second)
		if err != nil {
			return nil, err
		}
		s.parts = []string{a, b}
		if s.one, err = buildOne(c.name+"-one", c.opts, first, c.second); err != nil {
			return nil, err
		}
		if s.kinds, err = storetest.DigestKinds(s.one); err != nil {
			return nil, err
		}
		st, err := store.Open(s.one, store.Options{ReadOnly: true})
		if err != nil {
			return nil, err
		}
		s.held, err = st.Prefixes()
		st.Close()
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
})

// mutationDir is the directory of mutationStores, once made.
var mutationDir atomic.Pointer[string]

func TestMain(m *testing.M) {
	code := m.Run()
	if dir := mutationDir.Load(); dir != nil {
		os.RemoveAll(*dir)
	}
	os.Exit(code)
}

// mergeDiff merges s's stores with o and returns how the merged store
// differs from one build: the kinds whose digests differ, the merge's or
// the digest's error; "" when it does not.
func mergeDiff(t *testing.T, s *mutationScenario, o merge.Options) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "merged")
	if _, err := merge.Run(context.Background(), out, s.parts, o); err != nil {
		return "the merge fails: " + err.Error()
	}
	got, err := storetest.DigestKinds(out)
	if err != nil {
		return "the digest fails: " + err.Error()
	}
	var diff []string
	for _, p := range storetest.DiffKinds(got, s.kinds) {
		diff = append(diff, p.String())
	}
	if len(diff) == 0 {
		return ""
	}
	return "digest differs in: " + strings.Join(diff, ", ")
}

// TestMergeMutations: see above.
func TestMergeMutations(t *testing.T) {
	scenarios, err := mutationStores()
	if err != nil {
		t.Fatal(err)
	}
	dropped := map[store.Prefix]bool{} // the kinds whose drop a scenario saw
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			if diff := mergeDiff(t, s, merge.Options{}); diff != "" {
				t.Fatalf("the merge, unmutated: %s", diff)
			}
			for _, k := range store.Kinds() {
				if !slices.Contains(s.held, k.Prefix) {
					t.Logf("%q %-17s no records in these stores", byte(k.Prefix), k.Name)
					continue
				}
				for _, how := range merge.Mutations(k) {
					var hits atomic.Int64
					diff := mergeDiff(t, s, merge.Mutate(merge.Options{}, k.Prefix, how, &hits))
					switch {
					case how != merge.DropMutation && hits.Load() == 0:
						t.Logf("%q %-17s %-17s -> not exercised by these inputs (%s)", byte(k.Prefix), k.Name, how, orEqual(diff))
					case diff == "":
						t.Errorf("%q %-17s %-17s -> the merged store's digest equals one build's", byte(k.Prefix), k.Name, how)
					default:
						t.Logf("%q %-17s %-17s -> %s", byte(k.Prefix), k.Name, how, diff)
						if how == merge.DropMutation {
							dropped[k.Prefix] = true
						}
					}
				}
			}
		})
	}
	if t.Failed() {
		return
	}
	for _, k := range store.Kinds() {
		if !dropped[k.Prefix] {
			t.Errorf("kind %q (%s): no scenario holds its records and saw them dropped", byte(k.Prefix), k.Name)
		}
	}
}

func orEqual(diff string) string {
	if diff == "" {
		return "digest equal"
	}
	return diff
}

// TestMergeKnowsEveryKind: merge copies every kind of the registry, and
// refuses a store holding records of a kind it does not know.
func TestMergeKnowsEveryKind(t *testing.T) {
	var prefixes []store.Prefix
	for _, k := range store.Kinds() {
		if !merge.Copies(k.Prefix) {
			t.Errorf("merge does not copy %s records (%q)", k.Name, byte(k.Prefix))
		}
		prefixes = append(prefixes, k.Prefix)
	}
	if err := merge.CheckKinds("a", prefixes); err != nil {
		t.Error(err)
	}
	err := merge.CheckKinds("a", append(prefixes, 's'))
	if err == nil || !strings.Contains(err.Error(), "'s'") {
		t.Errorf("a store with 's' records: %v, want an error naming the kind", err)
	}
	t.Log(err)
}
