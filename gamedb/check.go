package gamedb

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/chessbook/chessbook/gamecode"
	"github.com/chessbook/chessbook/pgn"
	"github.com/chessbook/chessbook/store"
)

// CheckRecord decodes game index record k -> v (k without the store's
// 'x') and names its kind, for store.CheckOptions.Index.
func CheckRecord(k, v []byte) (string, error) {
	if len(k) == 0 {
		return "index", fmt.Errorf("empty index key")
	}
	switch k[0] {
	case kindSummary:
		if len(k) != 9 {
			return "game summary", fmt.Errorf("bad summary key")
		}
		var s Summary
		return "game summary", DecodeSummary(&s, v)
	case kindPlayerPost:
		_, _, first, err := parseListKey(k[1:], true)
		if err == nil {
			_, err = decodePlayerList(nil, first, v)
		}
		return "player postings", err
	case kindEventPost, kindSitePost:
		what := "event postings"
		if k[0] == kindSitePost {
			what = "site postings"
		}
		_, _, first, err := parseListKey(k[1:], false)
		if err == nil {
			_, err = decodeTermList(nil, first, v)
		}
		return what, err
	case kindPlayerDict, kindEventDict, kindSiteDict:
		what, ops := "player names", playerOps
		switch k[0] {
		case kindEventDict:
			what, ops = "event names", termOps
		case kindSiteDict:
			what, ops = "site names", termOps
		}
		if _, _, err := splitDict(k[1:]); err != nil {
			return what, err
		}
		_, err := store.DecodeTally(nil, v, ops)
		return what, err
	}
	return "index", fmt.Errorf("unknown kind of index record %q", k[0])
}

// CheckReport is what Check found.
type CheckReport struct {
	Games     int `json:"games"`     // numbered games
	Summaries int `json:"summaries"` // summaries read
	Postings  int `json:"postings"`  // postings read (players, events, sites)
	Names     int `json:"names"`     // dictionary records read
	// Compared counts the summaries compared with their game records
	// (CheckOptions.Facts).
	Compared int `json:"compared"`
	// Problems counts the mismatches found; Check reports each to its
	// report function.
	Problems int `json:"problems"`
}

// Check verifies that the index covers the store's games and agrees with
// itself: every numbered game has a summary, and the postings its summary
// says it has (one per player, and its event and site), each once; every
// summary and posting is a numbered game's; each name's dictionary counts
// (games with each color, or games) equal its postings. It calls report
// with each problem (at most a few per kind are described in detail; all
// are counted). A store whose Meta does not say it is indexed is not
// checked (Open says why).
func Check(ctx context.Context, st *store.Store, report func(problem string)) (*CheckReport, error) {
	return CheckWith(ctx, st, CheckOptions{Report: report})
}

// CheckOptions configure CheckWith.
type CheckOptions struct {
	// Facts, if not nil, reads from a game's tags what the builder does
	// for its statistics (counting.GameFacts): each summary is then compared
	// with the summary its game record gives, and a mismatch is a
	// problem (a game a search by result, date, rating, ECO, length or
	// position would miss or find wrongly).
	Facts func(g *pgn.Game) Facts
	// Report, if not nil, is called with each problem.
	Report func(problem string)
	// Progress, if not nil, is called every 4096 index records read and
	// at the end, with the summaries read so far and the games numbered.
	Progress func(summaries, games int)
}

// CheckWith is Check with options: with o.Facts, it also compares every
// summary with the game record it summarizes.
func CheckWith(ctx context.Context, st *store.Store, o CheckOptions) (*CheckReport, error) {
	rep := &CheckReport{}
	report := o.Report
	problem := func(format string, args ...any) {
		rep.Problems++
		if report != nil {
			report(fmt.Sprintf(format, args...))
		}
	}
	m := st.Meta()
	// Per game number: 1 bit numbered, then what was seen.
	const (
		seenNumber = 1 << iota
		seenSummary
		seenWhite
		seenBlack
		seenEvent
		seenSite
	)
	seen := map[uint64]uint8{}
	expect := map[uint64]uint8{} // the postings each summary promises
	var ids map[uint64]store.GameID
	if o.Facts != nil {
		ids = map[uint64]store.GameID{}
	}
	err := st.GameNumbers(0, max(m.NextGame, 1), func(num uint64, id store.GameID, _ uint64) (bool, error) {
		seen[num] = seenNumber
		if ids != nil {
			ids[num] = id
		}
		rep.Games++
		return rep.Games%4096 != 0 || ctx.Err() == nil, ctx.Err()
	})
	if err != nil {
		return rep, err
	}
	it, err := st.NewIndexIter(nil, nil)
	if err != nil {
		return rep, err
	}
	defer it.Close()
	// Dictionary counts by normalized name, and posting counts by
	// normalized name: compared at the end.
	type counts struct{ dict, post [2]uint64 }
	byName := map[string]*counts{}
	count := func(kind byte, norm []byte) *counts {
		key := string(append([]byte{kind}, norm...))
		c := byName[key]
		if c == nil {
			c = &counts{}
			byName[key] = c
		}
		return c
	}
	posted := func(num uint64, bit uint8, what string, k []byte) {
		f, ok := seen[num]
		switch {
		case !ok:
			problem("%s %q: game number %d is not a stored game", what, k, num)
		case f&bit != 0:
			problem("%s %q: game number %d listed twice", what, k, num)
		default:
			seen[num] = f | bit
		}
	}
	var t []uint64
	var ps []Posting
	var nums []uint64
	var sc summaryComparer
	n := 0
	for ok := it.First(); ok; ok = it.Next() {
		if n++; n%4096 == 0 {
			if ctx.Err() != nil {
				return rep, ctx.Err()
			}
			if o.Progress != nil {
				o.Progress(rep.Summaries, rep.Games)
			}
		}
		k := it.Key()
		v, err := it.Value()
		if err != nil {
			return rep, err
		}
		if _, err := CheckRecord(k, v); err != nil {
			problem("index record %q: %v", k, err)
			continue
		}
		switch k[0] {
		case kindSummary:
			rep.Summaries++
			num := beUint64(k[1:])
			var s Summary
			_ = DecodeSummary(&s, v)
			posted(num, seenSummary, "summary", k)
			if id, ok := ids[num]; ok {
				rep.Compared++
				if err := sc.compare(st, id, v, o.Facts); err != nil {
					if store.IsDamage(err) {
						return rep, err
					}
					problem("game %s (number %d): %v", id, num, err)
				}
			}
			var want uint8
			for i, bit := range [...]uint8{seenWhite, seenBlack, seenEvent, seenSite} {
				if s.Posted&(1<<i) != 0 {
					want |= bit
				}
			}
			expect[num] = want
		case kindPlayerPost:
			norm, color, first, _ := parseListKey(k[1:], true)
			ps, _ = decodePlayerList(ps[:0], first, v)
			bit := uint8(seenWhite)
			if color == Black {
				bit = seenBlack
			}
			for _, p := range ps {
				rep.Postings++
				posted(p.Num, bit, "player postings", k)
			}
			count(kindPlayerDict, norm).post[color] += uint64(len(ps))
		case kindEventPost, kindSitePost:
			norm, _, first, _ := parseListKey(k[1:], false)
			nums, _ = decodeTermList(nums[:0], first, v)
			bit, dict := uint8(seenEvent), byte(kindEventDict)
			if k[0] == kindSitePost {
				bit, dict = seenSite, kindSiteDict
			}
			for _, num := range nums {
				rep.Postings++
				posted(num, bit, "postings", k)
			}
			count(dict, norm).post[0] += uint64(len(nums))
		case kindPlayerDict, kindEventDict, kindSiteDict:
			rep.Names++
			norm, _, _ := splitDict(k[1:])
			t, _ = store.DecodeTally(t, v, nil)
			c := count(k[0], norm)
			if k[0] == kindPlayerDict {
				c.dict[0] += t[ptWhite]
				c.dict[1] += t[ptBlack]
			} else {
				c.dict[0] += t[ttGames]
			}
		}
	}
	if err := it.Error(); err != nil {
		return rep, err
	}
	if o.Progress != nil {
		o.Progress(rep.Summaries, rep.Games)
	}
	names := [...]string{seenWhite: "White's posting", seenBlack: "Black's posting", seenEvent: "event posting", seenSite: "site posting"}
	for _, num := range sortedNums(seen) {
		f := seen[num]
		if f&seenSummary == 0 {
			problem("game number %d has no summary", num)
			continue
		}
		want := expect[num]
		for _, bit := range [...]uint8{seenWhite, seenBlack, seenEvent, seenSite} {
			switch {
			case want&bit != 0 && f&bit == 0:
				problem("game number %d has no %s", num, names[bit])
			case want&bit == 0 && f&bit != 0:
				problem("game number %d has a %s its summary does not announce", num, names[bit])
			}
		}
	}
	for _, key := range sortedKeys(byName) {
		if c := byName[key]; c.dict != c.post {
			what := map[byte]string{kindPlayerDict: "player", kindEventDict: "event", kindSiteDict: "site"}[key[0]]
			problem("%s %q: the names count %d+%d games, the postings %d+%d", what, key[1:], c.dict[0], c.dict[1], c.post[0], c.post[1])
		}
	}
	return rep, nil
}

// summaryComparer compares stored summaries with their game records; its
// fields are scratch space.
type summaryComparer struct {
	ix        gamecode.MoveIndexer
	ent       []byte
	e         entry
	got, twin Summary
}

// compare returns an error saying how the stored summary stored differs
// from the summary of game id's record, nil when they are the same; a
// store error (damage) as it is.
func (c *summaryComparer) compare(st *store.Store, id store.GameID, stored []byte, facts func(*pgn.Game) Facts) error {
	rec, err := st.Game(id)
	if errors.Is(err, store.ErrGameNotFound) {
		return errors.New("it has a summary and no game record")
	}
	if err != nil {
		return err
	}
	g, err := gamecode.DecodeGame(rec)
	if err != nil {
		return nil // the store's check reports the record
	}
	c.ent = AppendEntry(c.ent[:0], &g, facts(&g), &c.ix)
	if err := decodeEntry(&c.e, c.ent); err != nil {
		return err
	}
	if bytes.Equal(c.e.summary, stored) {
		return nil
	}
	_ = DecodeSummary(&c.twin, c.e.summary)
	if err := DecodeSummary(&c.got, stored); err != nil {
		return err // CheckRecord reported it
	}
	return fmt.Errorf("its summary in the game index does not match its game record: %s", summaryDiff(&c.got, &c.twin))
}

// summaryDiff says how summary got (stored) differs from want (the game
// record's): "result 0-1 in the index, 1-0 in the game".
func summaryDiff(got, want *Summary) string {
	var d []string
	field := func(name string, g, w any) {
		if g != w {
			d = append(d, fmt.Sprintf("%s %v in the index, %v in the game", name, g, w))
		}
	}
	field("result", got.Result.String(), want.Result.String())
	field("casual", got.Casual, want.Casual)
	field("from a FEN", got.FromFEN, want.FromFEN)
	field("names posted", got.Posted, want.Posted)
	field("speed and band", got.Cell, want.Cell)
	field("date", got.Date, want.Date)
	field("White's rating", got.WhiteElo, want.WhiteElo)
	field("Black's rating", got.BlackElo, want.BlackElo)
	field("plies", got.Plies, want.Plies)
	field("ECO", ECOString(got.ECO), ECOString(want.ECO))
	field("plies coded", got.Coded, want.Coded)
	if len(d) == 0 {
		d = append(d, "its first moves differ")
	}
	return strings.Join(d, ", ")
}

func sortedNums[V any](m map[uint64]V) []uint64 {
	ks := make([]uint64, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// Dump calls fn with every index record of st as a line of text that
// names games by id, not number, so that two stores holding the same
// games (numbered apart: killed and re-run builds, a reindexed store)
// dump the same lines, in some order: "summary ID HEX", "player NORM
// COLOR ID DATE", "event NORM ID", "site NORM ID", "names KIND NORM RAW
// VALUES" (the tally's values, merged).
func Dump(ctx context.Context, st *store.Store, fn func(line string) error) error {
	ids := map[uint64]store.GameID{}
	m := st.Meta()
	if err := st.GameNumbers(0, max(m.NextGame, 1), func(num uint64, id store.GameID, _ uint64) (bool, error) {
		ids[num] = id
		return true, nil
	}); err != nil {
		return err
	}
	id := func(num uint64) string {
		if x, ok := ids[num]; ok {
			return x.String()
		}
		return fmt.Sprintf("number-%d", num)
	}
	it, err := st.NewIndexIter(nil, nil)
	if err != nil {
		return err
	}
	defer it.Close()
	var ps []Posting
	var nums []uint64
	var t []uint64
	n := 0
	for ok := it.First(); ok; ok = it.Next() {
		if n++; n%4096 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		k := it.Key()
		v, err := it.Value()
		if err != nil {
			return err
		}
		if _, err := CheckRecord(k, v); err != nil {
			return fmt.Errorf("index record %q: %w", k, err)
		}
		var lines []string
		switch k[0] {
		case kindSummary:
			lines = append(lines, fmt.Sprintf("summary %s %x", id(beUint64(k[1:])), v))
		case kindPlayerPost:
			norm, color, first, _ := parseListKey(k[1:], true)
			ps, _ = decodePlayerList(ps[:0], first, v)
			for _, p := range ps {
				lines = append(lines, fmt.Sprintf("player %s %d %s %d", norm, color, id(p.Num), p.Date))
			}
		case kindEventPost, kindSitePost:
			what := map[byte]string{kindEventPost: "event", kindSitePost: "site"}[k[0]]
			norm, _, first, _ := parseListKey(k[1:], false)
			nums, _ = decodeTermList(nums[:0], first, v)
			for _, num := range nums {
				lines = append(lines, fmt.Sprintf("%s %s %s", what, norm, id(num)))
			}
		default:
			norm, raw, _ := splitDict(k[1:])
			t, _ = store.DecodeTally(t, v, nil)
			lines = append(lines, fmt.Sprintf("names %c %s %q %v", k[0], norm, raw, t))
		}
		for _, l := range lines {
			if err := fn(l); err != nil {
				return err
			}
		}
	}
	return it.Error()
}
