package store

import (
	"fmt"

	"github.com/chessbook/chessbook/stats"
)

// historyKey appends the store key of the history of position pos to dst.
func historyKey(dst, pos []byte) []byte {
	dst = append(dst, prefixHistory)
	return append(dst, pos...)
}

// MergeHistory adds the encoded stats.History hist to the history of
// position pos: its games by month, move and cell (speed and rating
// band), for query-time filters. Positions kept as single references have
// none (their one game says it all). Histories go to the sstable that
// holds the games, after them, in increasing position order.
func (w *SSTWriter) MergeHistory(pos, hist []byte) error {
	if w.done {
		return errSSTDone
	}
	if len(pos) == 0 {
		return fmt.Errorf("store: sstable history: empty position key")
	}
	w.key = historyKey(w.key[:0], pos)
	if err := w.put(w.key, hist, true); err != nil {
		return fmt.Errorf("store: sstable history %x: %w", pos, err)
	}
	return nil
}

// HistoryInto appends the history of the position with key pos (see
// [SSTWriter.MergeHistory]) to h; found is false when it has none.
func (s *Store) HistoryInto(h stats.History, pos []byte) (stats.History, bool, error) {
	v, closer, err := s.get("history", historyKey(make([]byte, 0, 1+len(pos)), pos))
	if err != nil || closer == nil {
		return h, false, err
	}
	defer closer.Close()
	h, err = stats.DecodeHistory(h, v)
	if err != nil {
		return h, false, fmt.Errorf("history of position %x: %w", pos, err)
	}
	return h, true, nil
}
