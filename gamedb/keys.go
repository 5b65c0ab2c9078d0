package gamedb

import (
	"bytes"
	"encoding/binary"
	"fmt"

	"github.com/chessbook/chessbook/store"
)

// The kinds of index records: the first byte of an index key (after the
// store's 'x'); see the package documentation.
const (
	kindEventPost  = 'E'
	kindSitePost   = 'S'
	kindEventDict  = 'e'
	kindSummary    = 'g'
	kindPlayerDict = 'n'
	kindPlayerPost = 'p'
	kindSiteDict   = 's'
)

// Colors of a player posting.
const (
	White = 0
	Black = 1
)

// The fields of the tallies (store.AppendTally) of the dictionaries.
var (
	playerOps = []store.TallyOp{store.TallySum, store.TallySum, store.TallyMin, store.TallyMax, store.TallyMin, store.TallyMax}
	termOps   = []store.TallyOp{store.TallySum, store.TallyMin, store.TallyMax}
)

// Field numbers of the player tally.
const (
	ptWhite = iota
	ptBlack
	ptMinRating
	ptMaxRating
	ptFirst
	ptLast
)

// Field numbers of the event and site tally.
const (
	ttGames = iota
	ttFirst
	ttLast
)

// summaryKey appends the key of game num's summary to dst.
func summaryKey(dst []byte, num uint64) []byte {
	return binary.BigEndian.AppendUint64(append(dst, kindSummary), num)
}

// dictKey appends the key of a dictionary record (kind kindPlayerDict,
// kindEventDict or kindSiteDict) to dst.
func dictKey(dst []byte, kind byte, norm, raw []byte) []byte {
	dst = append(dst, kind)
	dst = append(dst, norm...)
	dst = append(dst, 0)
	return append(dst, raw...)
}

// playerPrefix appends the prefix of the posting lists of a player (by
// normalized name) with color (White or Black) to dst.
func playerPrefix(dst []byte, norm []byte, color int) []byte {
	dst = append(dst, kindPlayerPost)
	dst = append(dst, norm...)
	return append(dst, 0, byte(color))
}

// termPrefix appends the prefix of the posting lists of an event or a
// site (kind kindEventPost or kindSitePost) to dst.
func termPrefix(dst []byte, kind byte, norm []byte) []byte {
	dst = append(dst, kind)
	dst = append(dst, norm...)
	return append(dst, 0)
}

// splitDict splits a dictionary key (without its kind) into the
// normalized name and the raw spelling.
func splitDict(k []byte) (norm, raw []byte, err error) {
	i := bytes.IndexByte(k, 0)
	if i <= 0 {
		return nil, nil, fmt.Errorf("bad dictionary key %q", k)
	}
	return k[:i], k[i+1:], nil
}

// parseListKey parses a posting list key (without its kind): the
// normalized name, for a player list the color (-1 for events and
// sites), and the list's first game number.
func parseListKey(k []byte, player bool) (norm []byte, color int, first uint64, err error) {
	i := bytes.IndexByte(k, 0)
	n := i + 1 + 8
	if player {
		n++
	}
	if i <= 0 || len(k) != n || (player && k[i+1] > Black) {
		return nil, 0, 0, fmt.Errorf("bad posting list key %q", k)
	}
	color = -1
	if player {
		color = int(k[i+1])
	}
	return k[:i], color, binary.BigEndian.Uint64(k[len(k)-8:]), nil
}

// prefixEnd returns the least key greater than every key starting with
// p (nil: none).
func prefixEnd(p []byte) []byte {
	end := bytes.Clone(p)
	for i := len(end) - 1; i >= 0; i-- {
		if end[i] != 0xff {
			end[i]++
			return end[:i+1]
		}
	}
	return nil
}

func beUint64(b []byte) uint64 { return binary.BigEndian.Uint64(b) }
