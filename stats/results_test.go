package stats

import "github.com/chessbook/chessbook/pgn"

// resultOf maps 0-3 to the four result counters, in a fixed order.
var resultOf = [4]pgn.Result{pgn.Unknown, pgn.WhiteWins, pgn.Draw, pgn.BlackWins}
