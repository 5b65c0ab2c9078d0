package book

import (
	"github.com/chessbook/chessbook/gamedb"
	"github.com/chessbook/chessbook/pgn"
)

// GameFacts returns what the game index records of game g's tags (its
// ratings, date, speed and rating band), read as the builder reads them
// for its statistics: with it, gamedb.CheckWith compares each game's
// summary with its game record.
func GameFacts(g *pgn.Game) gamedb.Facts { return gameFacts(g) }
