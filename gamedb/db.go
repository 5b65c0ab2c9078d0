package gamedb

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/chessbook/chessbook/stats"
	"github.com/chessbook/chessbook/store"
)

// ErrNoIndex is returned (wrapped, with the fix) by Open for a store whose
// game index does not cover every game: one written before format version
// 9 (bookbuild -reindex DIR, or the next build into it, indexes it).
var ErrNoIndex = errors.New("the store has no game index")

// DB reads the game index of a store. Its methods are safe for concurrent
// use; each reads the store as it is when the method starts.
type DB struct {
	st *store.Store
}

// Open returns the game index of st, or an error wrapping ErrNoIndex.
func Open(st *store.Store) (*DB, error) {
	m := st.Meta()
	if m.GameIndex != Version && m.Games > 0 {
		what := "it was written before the index existed"
		if m.GameIndex != 0 {
			what = fmt.Sprintf("its index has version %d, this program reads version %d", m.GameIndex, Version)
		}
		return nil, fmt.Errorf("%w (%s): index its %d games with 'bookbuild -db %s -reindex' (the next build into it does so too)",
			ErrNoIndex, what, m.Games, st.Dir())
	}
	return &DB{st: st}, nil
}

// Store returns the store.
func (db *DB) Store() *store.Store { return db.st }

// Name is one spelling of a player, an event or a site, with what the
// index knows of its games. For events and sites White counts the games
// and Black, MinRating and MaxRating are 0.
type Name struct {
	Name   string `json:"name"`   // as the games spell it (a site URL's host)
	Normal string `json:"normal"` // its normalized form (Normalize)
	// White and Black count the player's games with each color.
	White int `json:"white"`
	Black int `json:"black"`
	// MinRating and MaxRating are the least and greatest rating the
	// games give the player (0: none).
	MinRating int `json:"min_rating"`
	MaxRating int `json:"max_rating"`
	// First and Last are the dates of the first and last game (0:
	// none dated).
	First stats.Date `json:"first"`
	Last  stats.Date `json:"last"`
}

// Games returns the spelling's games.
func (n *Name) Games() int { return n.White + n.Black }

// NameKind is a kind of names: Players, Events or Sites.
type NameKind byte

// The kinds of names.
const (
	Players NameKind = kindPlayerDict
	Events  NameKind = kindEventDict
	Sites   NameKind = kindSiteDict
)

// Names returns every spelling of a player (kind Players), event (Events)
// or site (Sites) whose normalized form contains the normalized text
// (every one for a text with no letter or digit), the most games first,
// then by name; at most limit (0: all).
func (db *DB) Names(ctx context.Context, kind NameKind, text string, limit int) ([]Name, error) {
	want := []byte(Normalize(text))
	out := &topK[Name]{k: limit, cmp: compareNames}
	err := db.eachName(ctx, kind, func(norm []byte) bool { return bytes.Contains(norm, want) }, func(norm, raw []byte, t []uint64) error {
		out.push(makeName(kind, norm, raw, t))
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out.sorted(), nil
}

// Suggest returns the spellings of kind whose normalized forms come
// closest to containing the normalized text (MatchDistance, then the
// most games), at most n: what to propose for a text no name contains.
func (db *DB) Suggest(ctx context.Context, kind NameKind, text string, n int) ([]Name, error) {
	want := Normalize(text)
	type scored struct {
		Name
		d int
	}
	best := &topK[scored]{k: max(n, 0), cmp: func(a, b scored) int {
		if c := cmp.Compare(a.d, b.d); c != 0 {
			return c
		}
		return compareNames(a.Name, b.Name)
	}}
	if n <= 0 {
		return []Name{}, nil
	}
	err := db.eachName(ctx, kind, nil, func(norm, raw []byte, t []uint64) error {
		best.push(scored{makeName(kind, norm, raw, t), MatchDistance(want, string(norm))})
		return nil
	})
	if err != nil {
		return nil, err
	}
	out := make([]Name, 0, n)
	for _, s := range best.sorted() {
		out = append(out, s.Name)
	}
	return out, nil
}

func makeName(kind NameKind, norm, raw []byte, t []uint64) Name {
	n := Name{Name: string(raw), Normal: string(norm)}
	if kind == kindPlayerDict {
		n.White, n.Black = int(t[ptWhite]), int(t[ptBlack])
		n.MinRating, n.MaxRating = int(t[ptMinRating]), int(t[ptMaxRating])
		n.First, n.Last = stats.Date(t[ptFirst]), stats.Date(t[ptLast])
	} else {
		n.White = int(t[ttGames])
		n.First, n.Last = stats.Date(t[ttFirst]), stats.Date(t[ttLast])
	}
	return n
}

// compareNames orders names the most games first, then by name.
func compareNames(a, b Name) int {
	if c := cmp.Compare(b.Games(), a.Games()); c != 0 {
		return c
	}
	return strings.Compare(a.Name, b.Name)
}

// eachName calls fn with every dictionary record of kind whose
// normalized name keep (nil: all) keeps: normalized name, raw spelling
// and tally values (nil when fn is nil: only keep is called), valid
// during the call only.
func (db *DB) eachName(ctx context.Context, kind NameKind, keep func(norm []byte) bool, fn func(norm, raw []byte, t []uint64) error) error {
	if kind != kindPlayerDict && kind != kindEventDict && kind != kindSiteDict {
		return fmt.Errorf("gamedb: unknown kind of names %q", kind)
	}
	ops := termOps
	if kind == kindPlayerDict {
		ops = playerOps
	}
	it, err := db.st.NewIndexIter([]byte{byte(kind)}, []byte{byte(kind) + 1})
	if err != nil {
		return err
	}
	defer it.Close()
	var t []uint64
	n := 0
	for ok := it.First(); ok; ok = it.Next() {
		if n++; n%4096 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		norm, raw, err := splitDict(it.Key()[1:])
		if err != nil {
			return err
		}
		if keep != nil && !keep(norm) || fn == nil {
			continue
		}
		v, err := it.Value()
		if err != nil {
			return err
		}
		if t, err = store.DecodeTally(t, v, ops); err != nil {
			return fmt.Errorf("index record %q: %w", it.Key(), err)
		}
		if err := fn(norm, raw, t); err != nil {
			return err
		}
	}
	return it.Error()
}

// PlayerPostings returns the postings of the player whose normalized name
// is norm with color (White or Black), by number, with dates in [since,
// until] (0: no bound; with a bound, undated games are left out).
func (db *DB) PlayerPostings(norm string, color int, since, until stats.Date) ([]Posting, error) {
	p := playerPrefix(nil, []byte(norm), color)
	it, err := db.st.NewIndexIter(p, prefixEnd(p))
	if err != nil {
		return nil, err
	}
	defer it.Close()
	var ps []Posting
	for ok := it.First(); ok; ok = it.Next() {
		_, _, first, err := parseListKey(it.Key()[1:], true)
		if err != nil {
			return nil, err
		}
		v, err := it.Value()
		if err != nil {
			return nil, err
		}
		n := len(ps)
		if ps, err = decodePlayerList(ps, first, v); err != nil {
			return nil, fmt.Errorf("index record %q: %w", it.Key(), err)
		}
		if since != 0 || until != 0 {
			kept := ps[:n]
			for _, x := range ps[n:] {
				if x.Date != 0 && (since == 0 || x.Date >= since) && (until == 0 || x.Date <= until) {
					kept = append(kept, x)
				}
			}
			ps = kept
		}
	}
	if err := it.Error(); err != nil {
		return nil, err
	}
	slices.SortFunc(ps, func(a, b Posting) int { return cmp.Compare(a.Num, b.Num) })
	return ps, nil
}

// summaries reads the summaries of games nums (sorted), calling fn with
// each (s valid during the call only); a number without a summary is an
// error (the index is damaged).
func (db *DB) summaries(ctx context.Context, nums []uint64, fn func(num uint64, s *Summary) error) error {
	return db.summariesOf(ctx, func(yield func(num uint64) error) error {
		for _, num := range nums {
			if err := yield(num); err != nil {
				return err
			}
		}
		return nil
	}, fn)
}

// summariesOf reads the summaries of the games that each gives (in
// increasing order), calling fn with each as summaries does.
func (db *DB) summariesOf(ctx context.Context, each func(yield func(num uint64) error) error, fn func(num uint64, s *Summary) error) error {
	it, err := db.st.NewIndexIter([]byte{kindSummary}, []byte{kindSummary + 1})
	if err != nil {
		return err
	}
	defer it.Close()
	var s Summary
	var k []byte
	i := 0
	return each(func(num uint64) error {
		if i++; i%4096 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		k = summaryKey(k[:0], num)
		if !it.SeekGE(k) || !bytes.Equal(it.Key(), k) {
			if err := it.Error(); err != nil {
				return err
			}
			return fmt.Errorf("game number %d has no summary in the game index (check the store)", num)
		}
		v, err := it.Value()
		if err != nil {
			return err
		}
		if err := DecodeSummary(&s, v); err != nil {
			return fmt.Errorf("game number %d: %w", num, err)
		}
		return fn(num, &s)
	})
}

// allSummaries calls fn with every summary, by number.
func (db *DB) allSummaries(ctx context.Context, fn func(num uint64, s *Summary) error) error {
	it, err := db.st.NewIndexIter([]byte{kindSummary}, []byte{kindSummary + 1})
	if err != nil {
		return err
	}
	defer it.Close()
	var s Summary
	n := 0
	for ok := it.First(); ok; ok = it.Next() {
		if n++; n%4096 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		k := it.Key()
		if len(k) != 9 {
			return fmt.Errorf("bad summary key %q", k)
		}
		v, err := it.Value()
		if err != nil {
			return err
		}
		num := beUint64(k[1:])
		if err := DecodeSummary(&s, v); err != nil {
			return fmt.Errorf("game number %d: %w", num, err)
		}
		if err := fn(num, &s); err != nil {
			return err
		}
	}
	return it.Error()
}

// eachNamePosting calls fn with the postings of every name of kind dict
// whose normalized form contains the normalized text: for players those
// of colors, with dates in [since, until] as PlayerPostings keeps them;
// for events and sites their game numbers (dates 0). It streams them, a
// posting list at a time, name by name (a game of several such names
// comes once for each), and returns how many names matched (fn nil: only
// counts them).
func (db *DB) eachNamePosting(ctx context.Context, dict NameKind, text string, colors []int, since, until stats.Date,
	fn func(p Posting) error) (names int, err error) {
	post := byte(kindEventPost)
	switch dict {
	case Players:
		post = kindPlayerPost
	case Sites:
		post = kindSitePost
	}
	want := []byte(Normalize(text))
	dit, err := db.st.NewIndexIter([]byte{byte(dict)}, []byte{byte(dict) + 1})
	if err != nil {
		return 0, err
	}
	defer dit.Close()
	pit, err := db.st.NewIndexIter([]byte{post}, []byte{post + 1})
	if err != nil {
		return 0, err
	}
	defer pit.Close()
	var prev, prefix []byte
	var ps []Posting
	var nums []uint64
	list := func(prefix []byte) error {
		for ok := pit.SeekGE(prefix); ok && bytes.HasPrefix(pit.Key(), prefix); ok = pit.Next() {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			_, _, first, err := parseListKey(pit.Key()[1:], dict == Players)
			if err != nil {
				return err
			}
			v, err := pit.Value()
			if err != nil {
				return err
			}
			if dict == Players {
				if ps, err = decodePlayerList(ps[:0], first, v); err != nil {
					return fmt.Errorf("index record %q: %w", pit.Key(), err)
				}
				for _, p := range ps {
					if (since != 0 || until != 0) && (p.Date == 0 || (since != 0 && p.Date < since) || (until != 0 && p.Date > until)) {
						continue
					}
					if err := fn(p); err != nil {
						return err
					}
				}
				continue
			}
			if nums, err = decodeTermList(nums[:0], first, v); err != nil {
				return fmt.Errorf("index record %q: %w", pit.Key(), err)
			}
			for _, n := range nums {
				if err := fn(Posting{Num: n}); err != nil {
					return err
				}
			}
		}
		return pit.Error()
	}
	n := 0
	for ok := dit.First(); ok; ok = dit.Next() {
		if n++; n%4096 == 0 && ctx.Err() != nil {
			return names, ctx.Err()
		}
		norm, _, err := splitDict(dit.Key()[1:])
		if err != nil {
			return names, err
		}
		if !bytes.Contains(norm, want) || (names > 0 && bytes.Equal(norm, prev)) {
			continue
		}
		names++
		prev = append(prev[:0], norm...)
		if fn == nil {
			continue
		}
		if dict != Players {
			prefix = termPrefix(prefix[:0], post, prev)
			if err := list(prefix); err != nil {
				return names, err
			}
			continue
		}
		for _, c := range colors {
			prefix = playerPrefix(prefix[:0], prev, c)
			if err := list(prefix); err != nil {
				return names, err
			}
		}
	}
	return names, dit.Error()
}
