package gamedb

import (
	"encoding/binary"
	"errors"

	"github.com/chessbook/chessbook/stats"
)

// Postings. A player's games with one color, an event's or a site's games,
// are kept as posting lists: records whose key is the name's prefix and
// the number of the list's first game, each holding a batch's games in
// number order. A writer's batch (a commit of the builder) adds one list
// per name, so a name has a list per commit that had its games; their
// first numbers keep them apart. Player postings carry the game's date,
// so that a player's games by date, or in a date range, need no summary.

// Posting is a game in a player's posting list: its number and date.
type Posting struct {
	Num  uint64
	Date stats.Date
}

var errBadPostings = errors.New("bad posting list")

// dateCode packs a date into a small increasing number: y*512 + m*32 + d.
func dateCode(d stats.Date) uint64 {
	return uint64(d.Year())*512 + uint64(d/100%100)*32 + uint64(d%100)
}

// codeDate is dateCode's inverse.
func codeDate(c uint64) stats.Date {
	return stats.Date(c/512*10000 + c/32%16*100 + c%32)
}

// appendPlayerList appends the posting list of ps, sorted by number,
// whose first number is the key's, to dst: per posting the difference of
// its number from the previous one's (the first's from the key's: 0),
// as a uvarint, then the difference of its date code (dateCode) from the
// previous one's (the first's from 0), zig-zag coded as a varint.
func appendPlayerList(dst []byte, ps []Posting) []byte {
	prev, prevDate := ps[0].Num, int64(0)
	for _, p := range ps {
		dst = binary.AppendUvarint(dst, p.Num-prev)
		c := int64(dateCode(p.Date))
		dst = binary.AppendVarint(dst, c-prevDate)
		prev, prevDate = p.Num, c
	}
	return dst
}

// decodePlayerList appends the postings of list v, whose first number is
// first, to ps.
func decodePlayerList(ps []Posting, first uint64, v []byte) ([]Posting, error) {
	num, date := first, int64(0)
	for i := 0; len(v) > 0; i++ {
		d, n := binary.Uvarint(v)
		if n <= 0 || (i == 0) != (d == 0) {
			return ps, errBadPostings
		}
		v = v[n:]
		dd, n := binary.Varint(v)
		if n <= 0 {
			return ps, errBadPostings
		}
		v = v[n:]
		num += d
		date += dd
		if date < 0 || date > 9999*512+12*32+31 {
			return ps, errBadPostings
		}
		ps = append(ps, Posting{Num: num, Date: codeDate(uint64(date))})
	}
	return ps, nil
}

// appendTermList appends the posting list of nums, sorted, whose first
// number is the key's, to dst: per game the difference of its number
// from the previous one's (the first's from the key's: 0), as a uvarint.
func appendTermList(dst []byte, nums []uint64) []byte {
	prev := nums[0]
	for _, n := range nums {
		dst = binary.AppendUvarint(dst, n-prev)
		prev = n
	}
	return dst
}

// decodeTermList appends the numbers of list v, whose first number is
// first, to nums.
func decodeTermList(nums []uint64, first uint64, v []byte) ([]uint64, error) {
	num := first
	for i := 0; len(v) > 0; i++ {
		d, n := binary.Uvarint(v)
		if n <= 0 || (i == 0) != (d == 0) {
			return nums, errBadPostings
		}
		v = v[n:]
		num += d
		nums = append(nums, num)
	}
	return nums, nil
}
