package book

import (
	"context"

	"github.com/chessbook/chessbook/gamecode"
	"github.com/chessbook/chessbook/gamedb"
	"github.com/chessbook/chessbook/pgn"
	"github.com/chessbook/chessbook/store"
)

// gameFacts returns what the game index records of g's tags, read as the
// builder reads them for its statistics.
func gameFacts(g *pgn.Game) gamedb.Facts { return tagsOf(g).facts(nil) }

// facts returns what the game index records of a game of tags t whose
// first moves are numbered nums (see gamedb.Facts; nil: not known).
func (t gameTags) facts(nums []gamecode.MoveNumber) gamedb.Facts {
	return gamedb.Facts{WhiteElo: t.white, BlackElo: t.black, Date: t.date, Cell: t.cell, Moves: nums}
}

// Reindex writes the game index (package gamedb) of every game st holds,
// replacing what index records it has, in one atomic ingestion: for a
// store written before the index existed (format version 8 or less).
// Build does it before adding games to such a store. progress, if not
// nil, is called with the games indexed so far and the store's games.
func Reindex(ctx context.Context, st *store.Store, progress func(done, total uint64)) error {
	return gamedb.Reindex(ctx, st, gamedb.ReindexOptions{Facts: gameFacts, Progress: progress})
}

// needsReindex reports whether st holds games that its game index does
// not cover.
func needsReindex(st *store.Store) bool {
	m := st.Meta()
	return m.GameIndex != gamedb.Version && m.Games > 0
}
