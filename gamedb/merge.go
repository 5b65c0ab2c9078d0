package gamedb

import (
	"encoding/binary"
	"fmt"
)

// RenumberKey appends to dst the index key k (without the store's 'x')
// of a store whose games are renumbered by adding off to each number
// (merge.Run does, to put a store's games after another's): a summary's
// and a posting list's key end with a game number, which grows by off;
// the dictionaries' keys (tallies, which merge) stay as they are. A
// posting list's values hold differences between numbers, which do not
// change. It reports whether k is a tally's key: records whose keys two
// stores share are merged by adding up their tallies (store.MergeTally);
// the others, one per game or per batch of games, never meet.
func RenumberKey(dst, k []byte, off uint64) ([]byte, bool, error) {
	if len(k) == 0 {
		return dst, false, fmt.Errorf("gamedb: empty index key")
	}
	switch k[0] {
	case kindPlayerDict, kindEventDict, kindSiteDict:
		return append(dst, k...), true, nil
	case kindSummary, kindPlayerPost, kindEventPost, kindSitePost:
		if len(k) < 9 {
			return dst, false, fmt.Errorf("gamedb: bad index key %x", k)
		}
		n := len(k) - 8
		dst = append(dst, k[:n]...)
		return binary.BigEndian.AppendUint64(dst, binary.BigEndian.Uint64(k[n:])+off), false, nil
	}
	return dst, false, fmt.Errorf("gamedb: unknown index key %x", k)
}
