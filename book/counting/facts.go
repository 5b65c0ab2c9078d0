package counting

import (
	"github.com/chessbook/chessbook/gamecode"
	"github.com/chessbook/chessbook/gamedb"
	"github.com/chessbook/chessbook/pgn"
)

// GameFacts returns what the game index records of game g's tags (its
// ratings, date, speed and rating band), read as the builder reads them
// for its statistics: with it, gamedb.CheckWith compares each game's
// summary with its game record, and gamedb.Reindex indexes a store's
// games.
func GameFacts(g *pgn.Game) gamedb.Facts { return TagsOf(g).Facts(nil) }

// Facts returns what the game index records of a game of tags t whose
// first moves are numbered nums (see gamedb.Facts; nil: not known).
func (t Tags) Facts(nums []gamecode.MoveNumber) gamedb.Facts {
	return gamedb.Facts{WhiteElo: t.White, BlackElo: t.Black, Date: t.Date, Cell: t.Cell, Moves: nums}
}
