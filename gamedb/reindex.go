package gamedb

import (
	"context"
	"fmt"

	"github.com/chessbook/chessbook/gamecode"
	"github.com/chessbook/chessbook/pgn"
	"github.com/chessbook/chessbook/store"
)

// ReindexOptions are the options of Reindex.
type ReindexOptions struct {
	// Facts returns what the builder reads from a game's tags for its
	// statistics (package book knows how: ratings, date, speed and band).
	Facts func(g *pgn.Game) Facts
	// Progress, if not nil, is called every 4096 games and at the end
	// with the games indexed so far and the games the store holds.
	Progress func(done, total uint64)
}

// Reindex writes the game index of every game st holds (a store written
// before the index existed, format version 8 or less, or whose index a
// writer did not keep) and marks the store indexed ([store.Meta].GameIndex).
// It decodes every game, then replaces whatever index records the store
// holds with all the games' records in one atomic ingestion
// (store.SSTWriter.ReplaceIndex): readers keep the old index, if any,
// until they see the new one whole; killed part way, the store is as
// before, and running it again does the whole work. When it replaced an
// index, it compacts the index's key range, so that the old records leave
// the disk. It holds the records in memory (about 150 bytes per game)
// until the ingestion. st must be open for writing.
func Reindex(ctx context.Context, st *store.Store, o ReindexOptions) error {
	if o.Facts == nil {
		return fmt.Errorf("gamedb: reindex: no Facts function")
	}
	cleared, err := hasIndexRecords(st)
	if err != nil {
		return fmt.Errorf("reindexing: %w", err)
	}
	m := st.Meta()
	// Games are read in id order (a scan), and know their numbers from
	// the game number records.
	numbers := make(map[store.GameID]uint64, m.Games)
	err = st.GameNumbers(0, max(m.NextGame, 1), func(num uint64, id store.GameID, _ uint64) (bool, error) {
		numbers[id] = num
		return true, nil
	})
	if err != nil {
		return fmt.Errorf("reindexing: %w", err)
	}
	var b Batch
	var ix gamecode.MoveIndexer
	var ent []byte
	var done uint64
	err = st.Games(func(id store.GameID, rec []byte) (bool, error) {
		if done%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return false, err
			}
			if o.Progress != nil {
				o.Progress(done, m.Games)
			}
		}
		num, ok := numbers[id]
		if !ok {
			return false, fmt.Errorf("game %s has no game number (a store older than format version 4?): rebuild the store", id)
		}
		g, err := gamecode.DecodeGame(rec)
		if err != nil {
			return false, fmt.Errorf("game %s: %w", id, err)
		}
		ent = AppendEntry(ent[:0], &g, o.Facts(&g), &ix)
		if err := b.Add(num, ent); err != nil {
			return false, fmt.Errorf("game %s: %w", id, err)
		}
		done++
		return true, nil
	})
	if err != nil {
		return fmt.Errorf("reindexing: %w", err)
	}
	if o.Progress != nil {
		o.Progress(done, m.Games)
	}
	w, err := st.NewSSTWriter()
	if err != nil {
		return fmt.Errorf("reindexing: %w", err)
	}
	if err := b.Records(func(k, v []byte) error { return Put(w, k, v) }); err != nil {
		_ = w.Close()
		return fmt.Errorf("reindexing: %w", err)
	}
	if err := ctx.Err(); err != nil {
		_ = w.Close()
		return err
	}
	w.ReplaceIndex()
	w.SetGameIndex(Version)
	if err := w.IngestWith(); err != nil {
		return fmt.Errorf("reindexing: %w", err)
	}
	if cleared {
		// The index records deleted are still on disk, under the
		// range deletion: drop them.
		if err := st.CompactIndex(ctx); err != nil && ctx.Err() == nil {
			return fmt.Errorf("reindexing: %w", err)
		}
	}
	return nil
}

// hasIndexRecords reports whether st holds any index record.
func hasIndexRecords(st *store.Store) (bool, error) {
	it, err := st.NewIndexIter(nil, nil)
	if err != nil {
		return false, err
	}
	found := it.First()
	if err := it.Close(); err != nil {
		return false, err
	}
	return found, nil
}
