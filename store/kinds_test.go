package store

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/chessbook/chessbook/stats"
)

// TestKindsRegistry checks the registry's entries against each other:
// one kind a prefix, none reserved, an operator exactly for the kinds
// with MERGE records, a check and a merge copy for each, and an
// SSTWriter's tables each holding a range of prefixes no other table's
// kind falls in (the tables of one ingestion must not overlap).
func TestKindsRegistry(t *testing.T) {
	seen := map[Prefix]bool{}
	ranges := map[Table][2]Prefix{}
	for i, k := range Kinds() {
		if seen[k.Prefix] {
			t.Errorf("prefix %q registered twice", byte(k.Prefix))
		}
		seen[k.Prefix] = true
		if i > 0 && k.Prefix <= kinds[i-1].Prefix {
			t.Errorf("kind %q after %q: the registry is in prefix order", byte(k.Prefix), byte(kinds[i-1].Prefix))
		}
		if _, ok := reserved[k.Prefix]; ok {
			t.Errorf("prefix %q is registered and reserved", byte(k.Prefix))
		}
		if k.Name == "" || k.Key == "" || k.Value == "" || k.Check == "" || k.MergeNote == "" || k.check == nil {
			t.Errorf("kind %q: name, layout, check or merge note missing: %+v", byte(k.Prefix), k)
		}
		if (k.Write == Set) != (k.Operator == NoOperator) || k.Write == 0 {
			t.Errorf("kind %q: written %d with operator %d", byte(k.Prefix), k.Write, k.Operator)
		}
		if k.Copy == 0 || k.Table == 0 {
			t.Errorf("kind %q: no merge copy or table", byte(k.Prefix))
		}
		if k.Copy == CopyAdd && k.Operator == NoOperator {
			t.Errorf("kind %q: added up by a merge without an operator", byte(k.Prefix))
		}
		if got, ok := k.Prefix.Kind(); !ok || got.Name != k.Name || k.Prefix.String() != k.Name {
			t.Errorf("kind %q: Prefix.Kind %v %v", byte(k.Prefix), got, ok)
		}
		r, ok := ranges[k.Table]
		if !ok {
			r = [2]Prefix{k.Prefix, k.Prefix}
		}
		ranges[k.Table] = [2]Prefix{min(r[0], k.Prefix), max(r[1], k.Prefix)}
	}
	for _, k := range kinds {
		for tab, r := range ranges {
			if tab != k.Table && k.Prefix >= r[0] && k.Prefix <= r[1] {
				t.Errorf("kind %q (table %d) falls in the prefix range %q..%q of table %d", byte(k.Prefix), k.Table, byte(r[0]), byte(r[1]), tab)
			}
		}
	}
	if _, ok := Prefix('s').Kind(); ok || !strings.Contains(Prefix('s').String(), "unknown") {
		t.Errorf("'s' names a kind")
	}
}

// TestDocListsKinds checks that the key schema of the package
// documentation (doc.go) lists every kind of the registry, and no other.
func TestDocListsKinds(t *testing.T) {
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	schema := string(doc)
	start := strings.Index(schema, "// # Key schema")
	end := strings.Index(schema, "// Position keys are")
	if start < 0 || end < start {
		t.Fatal("doc.go: no key schema section")
	}
	var listed []Prefix
	for _, m := range regexp.MustCompile(`(?m)^//\t'(.)' `).FindAllStringSubmatch(schema[start:end], -1) {
		listed = append(listed, Prefix(m[1][0]))
	}
	var want []Prefix
	for _, k := range Kinds() {
		want = append(want, k.Prefix)
	}
	if !slices.Equal(listed, want) {
		t.Errorf("doc.go's key schema lists %q, the registry %q", listed, want)
	}
	for p := range Reserved() {
		if !strings.Contains(schema, "'"+string(rune(p))+"' (") {
			t.Errorf("doc.go does not say that %q is reserved", byte(p))
		}
	}
}

// TestMergeOperatorKinds checks the merge operator's dispatch: a MERGE
// operand of each kind with an operator is taken (a valid one) and
// validated (a bad one), of a SET kind or no kind refused.
func TestMergeOperatorKinds(t *testing.T) {
	merger := newMerger()
	var e stats.Entry
	valid := map[Operator][]byte{
		EntryOperator:   e.AppendEncode(nil),
		HistoryOperator: {stats.HistoryVersion},
		SinglesOperator: appendSingles(nil, []SingleRef{{Hash: 5, Game: 1}}),
		TallyOperator:   AppendTally(nil, []TallyOp{TallySum}, []uint64{1}),
	}
	bad := []byte{0xff, 0xff, 0xff}
	for _, k := range Kinds() {
		key := []byte{byte(k.Prefix), 0, 0, 0}
		if k.Operator == NoOperator {
			if _, err := merger.Merge(key, bad); err == nil || !strings.Contains(err.Error(), "no merge operator") {
				t.Errorf("kind %q: a MERGE operand: %v, want no merge operator", byte(k.Prefix), err)
			}
			continue
		}
		m, err := merger.Merge(key, valid[k.Operator])
		if err != nil {
			t.Errorf("kind %q: a valid operand: %v", byte(k.Prefix), err)
		} else if _, c, err := m.Finish(true); err != nil {
			t.Errorf("kind %q: %v", byte(k.Prefix), err)
		} else {
			c.Close()
		}
		if _, err := merger.Merge(key, bad); err == nil {
			t.Errorf("kind %q: a bad operand taken", byte(k.Prefix))
		}
	}
	if _, err := merger.Merge([]byte{'s', 1}, valid[EntryOperator]); err == nil {
		t.Errorf("an operand of no kind taken")
	}
}

// TestPrefixes checks Store.Prefixes: the kinds of records a store holds.
func TestPrefixes(t *testing.T) {
	s := mustOpen(t, t.TempDir(), buildOpts())
	defer s.Close()
	fillStore(t, s, 1, 3, []string{"a", "b"}, 1)
	got, err := s.Prefixes()
	if err != nil {
		t.Fatal(err)
	}
	if want := []Prefix{KindGame, KindMeta, KindGameNumber, KindPosition}; !slices.Equal(got, want) {
		t.Errorf("Prefixes: %q, want %q", got, want)
	}
}
