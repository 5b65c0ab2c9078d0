// Package storetest holds the checks the tests of several packages make on
// a book store: a digest of everything it holds, and that it opens and
// answers.
package storetest

import (
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"io"
	"maps"
	"math"
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
// everything it holds, kind by kind from the store's registry
// (store.Kinds; see KindDigests), with the number of positions it
// answers and of its game records. Two stores of the same games, built
// in one run or several and merged, have the same digest: the kinds that
// hold game numbers, and those whose records depend on how a build split
// its input, are digested by what they answer.
func Digest(tb testing.TB, dir string) (digest string, positions, games int) {
	tb.Helper()
	kinds, positions, games := KindDigests(tb, dir)
	h := sha256.New()
	for _, k := range store.Kinds() {
		if d, ok := kinds[k.Prefix]; ok {
			fmt.Fprintf(h, "%c %s\n", byte(k.Prefix), d)
		}
	}
	return fmt.Sprintf("%x", h.Sum(nil)), positions, games
}

// KindDigests opens the store at dir read-only and returns a digest of
// each kind of record of the store's registry (store.Kinds) but those the
// registry says the digest cannot compare (Kind.NoDigest), with the
// number of positions it answers and of its game records. It fails the
// test on a kind with neither a digest here nor a reason there. What each
// kind's digest holds:
//
//   - statistics records ('p') and single references ('q'): one digest,
//     of every position the store answers (book.Positions: the records
//     joined with what the games referenced add) with its statistics, in
//     key order. Which positions are records and which references, and
//     the references' game numbers, depend on how the build split its
//     input, not the answers;
//   - histories ('h'): what the query-time filters answer from them
//     (book.Select with no filter: by move and by month, the history rows
//     joined with the tags of the games referenced) at every position of
//     2 games or more (a position of one game is a single reference:
//     its answer is its game's, digested with the games);
//   - game records ('g'), en-passant side records ('e'), the game order
//     index ('o'): as they are (ids, stamps, entries);
//   - game numbers ('n'): each game's id and first-seen stamp, sorted by
//     id, numbers left out (a merge gives them out anew);
//   - the game index ('x'): gamedb.Dump, which names games by id, sorted;
//   - the Meta ('m'): the format, the build options and the games
//     counted, not NextGame (game numbers), the times nor Runs.
func KindDigests(tb testing.TB, dir string) (kinds map[store.Prefix]string, positions, games int) {
	tb.Helper()
	kinds, positions, games, err := kindDigests(dir)
	if err != nil {
		tb.Fatal(err)
	}
	return kinds, positions, games
}

// DigestKinds is KindDigests without a test: an error where KindDigests
// fails the test (a store that does not answer, a kind with no digest).
func DigestKinds(dir string) (map[store.Prefix]string, error) {
	kinds, _, _, err := kindDigests(dir)
	return kinds, err
}

func kindDigests(dir string) (kinds map[store.Prefix]string, positions, games int, err error) {
	if u := Uncovered(store.Kinds()); len(u) > 0 {
		k := u[0]
		return nil, 0, 0, fmt.Errorf("storetest: the store's record kind %q (%s) has no digest, and the registry gives no reason (Kind.NoDigest)", byte(k.Prefix), k.Name)
	}
	st, err := store.Open(dir, store.Options{ReadOnly: true})
	if err != nil {
		return nil, 0, 0, err
	}
	defer st.Close()
	d := &digester{st: st, done: map[string]string{}}
	kinds = map[store.Prefix]string{}
	for _, k := range store.Kinds() {
		section, fn := digestOf(k.Prefix)
		if fn == nil {
			continue
		}
		if kinds[k.Prefix], err = d.run(section, fn); err != nil {
			return nil, 0, 0, fmt.Errorf("digest of the %s of %s: %w", section, dir, err)
		}
	}
	return kinds, d.positions, d.games, nil
}

// run returns the digest of section, which fn writes: computed once.
func (d *digester) run(section string, fn func(d *digester, w io.Writer) error) (string, error) {
	if s, ok := d.done[section]; ok {
		return s, nil
	}
	h := sha256.New()
	if err := fn(d, h); err != nil {
		return "", err
	}
	d.done[section] = fmt.Sprintf("%x", h.Sum(nil))
	return d.done[section], nil
}

// DifferentKinds returns the kinds of records whose digests (KindDigests)
// differ between the stores at a and b, in the registry's order: none
// when the stores hold the same (Digest equal).
func DifferentKinds(tb testing.TB, a, b string) []store.Prefix {
	tb.Helper()
	da, _, _ := KindDigests(tb, a)
	db, _, _ := KindDigests(tb, b)
	return DiffKinds(da, db)
}

// DiffKinds returns the kinds whose digests differ between a and b (two
// answers of KindDigests), in the registry's order.
func DiffKinds(a, b map[store.Prefix]string) []store.Prefix {
	var out []store.Prefix
	for _, k := range store.Kinds() {
		if a[k.Prefix] != b[k.Prefix] {
			out = append(out, k.Prefix)
		}
	}
	return out
}

// Uncovered returns the kinds of ks that have neither a digest
// (KindDigests) nor a reason not to (Kind.NoDigest).
func Uncovered(ks []store.Kind) []store.Kind {
	var out []store.Kind
	for _, k := range ks {
		if _, fn := digestOf(k.Prefix); fn == nil && k.NoDigest == "" {
			out = append(out, k)
		}
	}
	return out
}

// digester is the state of one store's KindDigests.
type digester struct {
	st *store.Store
	// done holds the digest of each section computed, by name.
	done map[string]string
	// answered holds every position the store answers, with its
	// statistics' games (the positions section).
	answered         map[string]uint64
	positions, games int
}

// digestOf returns the digest of kind p: its section's name (kinds
// digested together share one) and the function writing it; nil when
// there is none.
func digestOf(p store.Prefix) (string, func(d *digester, w io.Writer) error) {
	switch p {
	case store.KindPosition, store.KindSingles:
		return "positions", (*digester).positionsSection
	case store.KindHistory:
		return "histories", (*digester).historiesSection
	case store.KindGame:
		return "games", (*digester).gamesSection
	case store.KindEnPassant:
		return "en-passant records", func(d *digester, w io.Writer) error {
			return d.st.EPRecords(func(file int, pos []byte, e *stats.Entry) error {
				fmt.Fprintf(w, "e %d %x %x\n", file, pos, e.AppendEncode(nil))
				return nil
			})
		}
	case store.KindGameOrder:
		return "game order", func(d *digester, w io.Writer) error {
			return d.st.GameOrder(func(stamp uint64, id store.GameID) (bool, error) {
				fmt.Fprintf(w, "o %x %s\n", stamp, id)
				return true, nil
			})
		}
	case store.KindGameNumber:
		return "game numbers", (*digester).numbersSection
	case store.KindIndex:
		return "game index", (*digester).indexSection
	case store.KindMeta:
		return "meta", func(d *digester, w io.Writer) error {
			m := d.st.Meta()
			fmt.Fprintf(w, "format %d max-ply %d count %s keep-duplicates %t games %d index %d\n",
				m.FormatVersion, m.MaxPly, m.CountMode, m.KeepDuplicates, m.Games, m.GameIndex)
			return nil
		}
	}
	return "", nil
}

// positionsSection digests every position the store answers.
func (d *digester) positionsSection(w io.Writer) error {
	all := map[string][]byte{}
	d.answered = map[string]uint64{}
	if err := book.Positions(context.Background(), d.st, 0, func(pos []byte, e *stats.Entry) error {
		all[string(pos)] = e.AppendEncode(nil)
		d.answered[string(pos)] = e.Games()
		return nil
	}); err != nil {
		return err
	}
	for _, k := range slices.Sorted(maps.Keys(all)) {
		fmt.Fprintf(w, "p %x %x\n", k, all[k])
	}
	d.positions = len(all)
	return nil
}

// historiesSection digests what the histories answer at every position
// of 2 games or more.
func (d *digester) historiesSection(w io.Writer) error {
	if _, err := d.run(digestOf(store.KindPosition)); err != nil {
		return err
	}
	for _, k := range slices.Sorted(maps.Keys(d.answered)) {
		if d.answered[k] < 2 {
			continue
		}
		s, err := book.Select(d.st, []byte(k), book.Selection{})
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "h %x %t %v %v\n", k, s.Found, s.Moves, s.Months)
	}
	return nil
}

// gamesSection digests every game record.
func (d *digester) gamesSection(w io.Writer) error {
	d.games = 0
	return d.st.Games(func(id store.GameID, rec []byte) (bool, error) {
		fmt.Fprintf(w, "g %s %x\n", id, rec)
		d.games++
		return true, nil
	})
}

// numbersSection digests the games numbered: each one's id and stamp,
// by id (a game numbered twice twice).
func (d *digester) numbersSection(w io.Writer) error {
	var lines []string
	err := d.st.GameNumbers(0, math.MaxUint64, func(_ uint64, id store.GameID, stamp uint64) (bool, error) {
		lines = append(lines, fmt.Sprintf("n %s %x", id, stamp))
		return true, nil
	})
	if err != nil {
		return err
	}
	slices.Sort(lines)
	for _, l := range lines {
		fmt.Fprintln(w, l)
	}
	return nil
}

// indexSection digests the game index's records, games named by id.
func (d *digester) indexSection(w io.Writer) error {
	if d.st.Meta().GameIndex == 0 {
		fmt.Fprintln(w, "x none")
		return nil
	}
	var lines []string
	if err := gamedb.Dump(context.Background(), d.st, func(l string) error {
		lines = append(lines, l)
		return nil
	}); err != nil {
		return err
	}
	slices.Sort(lines)
	for _, l := range lines {
		fmt.Fprintln(w, l)
	}
	return nil
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
		recent, err := book.Select(st, k, book.Selection{Since: stats.NewDate(since.Year(), since.Month(), 0)})
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, fmt.Sprintf("%x months %v", k, every.Months), fmt.Sprintf("%x since %v: %v", k, since, recent.Moves))
	}
	return out
}

// PositionsMap lists the store at dir through book.PositionsWith with o,
// as position key -> encoded entry, failing t on a position listed twice.
func PositionsMap(t testing.TB, dir string, o book.PositionsOptions) map[string]string {
	t.Helper()
	st, err := store.Open(dir, store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	all := map[string]string{}
	err = book.PositionsWith(context.Background(), st, o, func(pos []byte, e *stats.Entry) error {
		if _, dup := all[string(pos)]; dup {
			return fmt.Errorf("position %x listed twice", pos)
		}
		all[string(pos)] = string(e.AppendEncode(nil))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return all
}
