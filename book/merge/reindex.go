package merge

import (
	"context"

	"github.com/chessbook/chessbook/book/counting"
	"github.com/chessbook/chessbook/gamedb"
	"github.com/chessbook/chessbook/store"
)

// Reindex writes the game index (package gamedb) of every game st holds,
// replacing what index records it has, in one atomic ingestion: for a
// store written before the index existed (format version 8 or less).
// build.Run does it before adding games to such a store. progress, if not
// nil, is called with the games indexed so far and the store's games.
func Reindex(ctx context.Context, st *store.Store, progress func(done, total uint64)) error {
	return gamedb.Reindex(ctx, st, gamedb.ReindexOptions{Facts: counting.GameFacts, Progress: progress})
}
