package main

import (
	"encoding/binary"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/chessbook/chessbook/pgn"
	"github.com/chessbook/chessbook/store"
)

// TestCheckSummaryMismatch changes the result in one game's summary (the
// game index's record of it, 'g' and its number) from 1-0 to 0-1, as a
// damaged copy could hold it: search -result 1-0 then misses the game,
// and check says the summary does not match the game record, suggests
// -reindex, and exits 1.
func TestCheckSummaryMismatch(t *testing.T) {
	db := championsBook(t)
	wins := func() string {
		out, errOut, code := runCmd(t, "-db", db, "search", "-result", "1-0", "-per-page", "1")
		if code != 0 {
			t.Fatalf("search -result 1-0: exit status %d: %s", code, errOut)
		}
		return regexp.MustCompile(`^\d+ games found`).FindString(out)
	}
	before := wins()

	st, err := store.Open(db, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	it, err := st.NewIndexIter([]byte{'g'}, []byte{'h'})
	if err != nil {
		t.Fatal(err)
	}
	var key, val []byte
	for ok := it.First(); ok; ok = it.Next() {
		v, err := it.Value()
		if err != nil {
			t.Fatal(err)
		}
		if pgn.Result(v[0]&7) == pgn.WhiteWins {
			key, val = append([]byte(nil), it.Key()...), append([]byte(nil), v...)
			break
		}
	}
	if err := it.Close(); err != nil || key == nil {
		t.Fatalf("no summary of a game White won (%v)", err)
	}
	num := binary.BigEndian.Uint64(key[1:])
	val[0] = val[0]&^7 | byte(pgn.BlackWins)
	w, err := st.NewSSTWriter()
	if err != nil {
		t.Fatal(err)
	}
	if err := w.SetIndex(key, val); err != nil {
		t.Fatal(err)
	}
	if err := w.IngestWith(); err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	if after := wins(); after == before {
		t.Fatalf("search -result 1-0: %q before and after the change: the test changed nothing", after)
	}

	out, errOut, code := runCmd(t, "-db", db, "check")
	want := regexp.MustCompile(fmt.Sprintf(`(?m)^damaged: game index: game [0-9a-f]{16} \(number %d\): `+
		`its summary in the game index does not match its game record: result 0-1 in the index, 1-0 in the game$`, num))
	if code != 1 || !want.MatchString(out) || !strings.Contains(out, "-reindex") || !strings.Contains(out, "1 problem found") {
		t.Errorf("check with a summary's result changed: exit status %d, want 1 and %s, a -reindex hint\n%s%s", code, want, out, errOut)
	}
}
