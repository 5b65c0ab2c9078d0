package gamedb

import (
	"cmp"
	"context"
	"fmt"
	"slices"

	"github.com/chessbook/chessbook/store"
)

// Ties. Games that a search's (or a tree's recent games') sort key does
// not tell apart are ordered by their game ids, lowest first: an id is the
// game's content hash (the builder's), which every store holding the game
// gives it, whatever the flushes, workers, merges or pipeline that wrote
// the store; game numbers are not (they follow commits). Only the ties
// that reach into the page asked for have their ids looked up.

// scanSpan is how many game number records idsOf scans rather than look
// up one: a lookup costs about as much as reading that many records in a
// scan.
const scanSpan = 8

// settleTies orders s[lo:hi] (s sorted by key already) as the whole of s
// sorted by key, then game id, would have it: the runs of games equal
// by key that overlap [lo, hi) are sorted by id. num gives a game's
// number.
func settleTies[T any](ctx context.Context, db *DB, s []T, lo, hi int, key func(a, b *T) int, num func(*T) uint64) error {
	lo, hi = max(lo, 0), min(hi, len(s))
	if lo >= hi {
		return nil
	}
	for lo > 0 && key(&s[lo-1], &s[lo]) == 0 {
		lo--
	}
	for hi < len(s) && key(&s[hi-1], &s[hi]) == 0 {
		hi++
	}
	run := s[lo:hi]
	if len(run) < 2 {
		return nil
	}
	nums := make([]uint64, len(run))
	for i := range run {
		nums[i] = num(&run[i])
	}
	ids, err := db.idsOf(ctx, nums)
	if err != nil {
		return err
	}
	type item struct {
		g  T
		id store.GameID
	}
	items := make([]item, len(run))
	for i := range run {
		items[i] = item{run[i], ids[i]}
	}
	slices.SortFunc(items, func(a, b item) int {
		if c := key(&a.g, &b.g); c != 0 {
			return c
		}
		return cmp.Compare(a.id, b.id)
	})
	for i := range items {
		run[i] = items[i].g
	}
	return nil
}

// idsOf returns the game ids of the game numbers nums (in their order):
// each looked up, or, when they are dense among the store's numbers, read
// by a scan of the game number records from the least to the greatest.
func (db *DB) idsOf(ctx context.Context, nums []uint64) ([]store.GameID, error) {
	ids := make([]store.GameID, len(nums))
	lo, hi := slices.Min(nums), slices.Max(nums)
	if hi-lo >= uint64(len(nums))*scanSpan {
		for i, n := range nums {
			id, _, err := db.st.GameByNumber(n)
			if err != nil {
				return nil, err
			}
			ids[i] = id
		}
		return ids, nil
	}
	order := make([]int, len(nums))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return cmp.Compare(nums[a], nums[b]) })
	k, seen := 0, 0
	err := db.st.GameNumbers(lo, hi+1, func(num uint64, id store.GameID, _ uint64) (bool, error) {
		if seen++; seen%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return false, err
			}
		}
		for k < len(order) && nums[order[k]] < num {
			k++
		}
		for k < len(order) && nums[order[k]] == num {
			ids[order[k]] = id
			k++
		}
		return k < len(order), nil
	})
	if err != nil {
		return nil, err
	}
	for i, id := range ids {
		if id == 0 {
			return nil, fmt.Errorf("game number %d: %w", nums[i], store.ErrGameNotFound)
		}
	}
	return ids, nil
}
