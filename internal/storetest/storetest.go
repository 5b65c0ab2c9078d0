// Package storetest holds the checks the tests of several packages make on
// a book store: a digest of everything it holds, and that it opens and
// answers.
package storetest

import (
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"maps"
	"slices"
	"testing"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/book"
	"github.com/chessbook/chessbook/gamedb"
	"github.com/chessbook/chessbook/keys"
	"github.com/chessbook/chessbook/stats"
	"github.com/chessbook/chessbook/store"
)

// Digest opens the store at dir read-only and returns a digest of
// everything it holds (every position's merged entry, every game record,
// the en-passant side records, the game order index and the games
// counter), with the number of positions and game records.
func Digest(tb testing.TB, dir string) (digest string, positions, games int) {
	tb.Helper()
	st, err := store.Open(dir, store.Options{ReadOnly: true})
	if err != nil {
		tb.Fatal(err)
	}
	defer st.Close()
	h := sha256.New()
	// Which positions are statistics records and which single references
	// depends on how the build split its input: the digest is of what
	// the store answers, every position once, in key order.
	all := map[string][]byte{}
	if err := book.Positions(context.Background(), st, 0, func(pos []byte, e *stats.Entry) error {
		all[string(pos)] = e.AppendEncode(nil)
		return nil
	}); err != nil {
		tb.Fatal(err)
	}
	for _, k := range slices.Sorted(maps.Keys(all)) {
		fmt.Fprintf(h, "p %x %x\n", k, all[k])
	}
	positions = len(all)
	if err := st.Games(func(id store.GameID, rec []byte) (bool, error) {
		fmt.Fprintf(h, "g %s %x\n", id, rec)
		games++
		return true, nil
	}); err != nil {
		tb.Fatal(err)
	}
	if err := st.EPRecords(func(file int, pos []byte, e *stats.Entry) error {
		fmt.Fprintf(h, "e %d %x %x\n", file, pos, e.AppendEncode(nil))
		return nil
	}); err != nil {
		tb.Fatal(err)
	}
	if err := st.GameOrder(func(stamp uint64, id store.GameID) (bool, error) {
		fmt.Fprintf(h, "o %x %s\n", stamp, id)
		return true, nil
	}); err != nil {
		tb.Fatal(err)
	}
	fmt.Fprintf(h, "games %d\n", st.Meta().Games)
	return fmt.Sprintf("%x", h.Sum(nil)), positions, games
}

// CheckAnswers opens the store at dir read-only, checks that it holds
// games games (and that many game records; games < 0 skips that check),
// reads the start position and every position; it returns the start
// position's number of games.
func CheckAnswers(tb testing.TB, dir string, games int64) uint64 {
	tb.Helper()
	st, err := store.Open(dir, store.Options{ReadOnly: true})
	if err != nil {
		tb.Fatalf("the store does not open read-only: %v", err)
	}
	defer st.Close()
	if games >= 0 && st.Meta().Games != uint64(games) {
		tb.Errorf("store meta counts %d games, want %d", st.Meta().Games, games)
	}
	start := board.StartPosition()
	e, _, err := book.Lookup(st, keys.Encode(&start))
	if err != nil {
		tb.Fatalf("Get(start position): %v", err)
	}
	var records uint64
	if err := st.Games(func(store.GameID, []byte) (bool, error) { records++; return true, nil }); err != nil {
		tb.Fatalf("listing games: %v", err)
	}
	if records != st.Meta().Games {
		tb.Errorf("store holds %d game records, its meta counts %d", records, st.Meta().Games)
	}
	if e.Games() > st.Meta().Games {
		tb.Errorf("start position: %d games, more than the store's %d", e.Games(), st.Meta().Games)
	}
	if err := book.Positions(context.Background(), st, 0, func(pos []byte, e *stats.Entry) error {
		if _, err := keys.Decode(pos); err != nil {
			return fmt.Errorf("position %x: %w", pos, err)
		}
		return e.Validate()
	}); err != nil {
		tb.Fatalf("reading every position: %v", err)
	}
	return e.Games()
}

// IndexDigest opens the store at dir read-only, checks its game index
// (gamedb.Check: no problem) and returns a digest of its records that
// names games by id (gamedb.Dump), so that stores holding the same games,
// numbered apart, have the same digest.
func IndexDigest(tb testing.TB, dir string) string {
	tb.Helper()
	st, err := store.Open(dir, store.Options{ReadOnly: true})
	if err != nil {
		tb.Fatalf("the store does not open read-only: %v", err)
	}
	defer st.Close()
	if _, err := gamedb.Open(st); err != nil {
		tb.Fatal(err)
	}
	rep, err := gamedb.Check(context.Background(), st, func(p string) { tb.Errorf("game index: %s", p) })
	if err != nil {
		tb.Fatalf("checking the game index: %v", err)
	}
	if rep.Summaries != int(st.Meta().Games) {
		tb.Errorf("game index: %d summaries, %d games", rep.Summaries, st.Meta().Games)
	}
	var lines []string
	if err := gamedb.Dump(context.Background(), st, func(l string) error {
		lines = append(lines, l)
		return nil
	}); err != nil {
		tb.Fatalf("dumping the game index: %v", err)
	}
	slices.Sort(lines)
	h := sha256.New()
	for _, l := range lines {
		fmt.Fprintln(h, l)
	}
	return fmt.Sprintf("%x", h.Sum(nil))
}

// Selections returns what the query-time filters answer from st's
// histories and its single references' tags (book.Select) at every
// position of 20 games or more, in key order: the games by month (every
// game), and the moves of the games since the median month of the start
// position's history. Which positions are statistics records (with a
// history) depends on a build's flushes; the answers do not: two stores
// of the same games answer the same, and a store that lost its histories
// (a merge that drops them) does not.
func Selections(t testing.TB, st *store.Store) []string {
	t.Helper()
	var posKeys [][]byte
	// Positions lists a few positions of fewer games too, some with part
	// of their statistics: they are filtered out.
	if err := book.Positions(context.Background(), st, 20, func(pos []byte, e *stats.Entry) error {
		if e.Games() >= 20 {
			posKeys = append(posKeys, bytes.Clone(pos))
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	slices.SortFunc(posKeys, bytes.Compare)
	start := board.StartPosition()
	all, err := book.Select(st, keys.Append(nil, &start), book.Selection{})
	if err != nil {
		t.Fatal(err)
	}
	var since stats.Period
	if n := len(all.Months); n > 0 {
		since = all.Months[n/2].Period
	}
	out := make([]string, 0, 2*len(posKeys))
	for _, k := range posKeys {
		every, err := book.Select(st, k, book.Selection{})
		if err != nil {
			t.Fatal(err)
		}
		recent, err := book.Select(st, k, book.Selection{Since: since})
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, fmt.Sprintf("%x months %v", k, every.Months), fmt.Sprintf("%x since %v: %v", k, since, recent.Moves))
	}
	return out
}
