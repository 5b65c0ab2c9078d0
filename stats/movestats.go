package stats

import (
	"math"

	"github.com/chessbook/chessbook/pgn"
)

// CellStats are the results of some games and the ratings of the player
// who made the move in them: a move's totals (the first fields of
// [MoveStats]), or the games of one (period, move, cell) of a [History].
type CellStats struct {
	WhiteWins uint64 // games won by White ("1-0")
	Draws     uint64 // games drawn ("1/2-1/2")
	BlackWins uint64 // games won by Black ("0-1")
	Unknown   uint64 // games with an unknown result ("*")

	// RatingSum is the sum of the mover's rating over the RatingCount games
	// where it was known.
	RatingSum   uint64
	RatingCount uint64
}

// Add adds one game: its result (pgn.Unknown and pgn.NoResult count as
// Unknown) and the mover's rating (0 or less: unknown).
func (s *CellStats) Add(r pgn.Result, moverRating int) {
	c := &s.Unknown
	switch r {
	case pgn.WhiteWins:
		c = &s.WhiteWins
	case pgn.Draw:
		c = &s.Draws
	case pgn.BlackWins:
		c = &s.BlackWins
	}
	*c = addSat(*c, 1)
	if moverRating > 0 {
		s.RatingSum = addSat(s.RatingSum, uint64(moverRating))
		s.RatingCount = addSat(s.RatingCount, 1)
	}
}

// Merge adds o to s.
func (s *CellStats) Merge(o CellStats) {
	s.WhiteWins = addSat(s.WhiteWins, o.WhiteWins)
	s.Draws = addSat(s.Draws, o.Draws)
	s.BlackWins = addSat(s.BlackWins, o.BlackWins)
	s.Unknown = addSat(s.Unknown, o.Unknown)
	s.RatingSum = addSat(s.RatingSum, o.RatingSum)
	s.RatingCount = addSat(s.RatingCount, o.RatingCount)
}

// Games returns the number of games counted: the sum of the four result
// counters. For a move of a store built with -count game it is the number
// of games that played the move at their first visit of the position;
// with -count occurrence, the number of times the move was played from
// it.
func (s CellStats) Games() uint64 {
	return addSat(addSat(s.WhiteWins, s.Draws), addSat(s.BlackWins, s.Unknown))
}

// MoveStats is what is known about one move played from one position: the
// results of the games it was played in, by colour, the mover's rating and
// the dates it was played.
//
// The zero MoveStats is an empty record. Records only grow, through
// [MoveStats.Add] and [MoveStats.Merge].
type MoveStats struct {
	// CellStats are the results of the games and the movers' ratings.
	CellStats

	// FirstDate and LastDate are the earliest and latest known dates the
	// move was played on; zero when no date was known.
	FirstDate Date
	LastDate  Date

	// LowPly is one more than the lowest ply the move was played at (0 for
	// White's first move of a game from the standard position gives 1);
	// 0 when not recorded.
	LowPly uint32

	// FirstSeen orders the moves by their first occurrence in the input:
	// the lowest stamp of a game that played it (see the builder); 0 when
	// not recorded. PolyGlot breaks weight ties in first-seen order.
	FirstSeen uint64

	// Refs are the move's best-rated and most recent games.
	Refs Refs
}

// Add adds one game's contribution: its result (pgn.Unknown and
// pgn.NoResult count as Unknown), the rating of the player making the move (0 or less: unknown) and the date of the game (the zero
// Date: unknown; unknown dates leave FirstDate and LastDate alone).
func (s *MoveStats) Add(r pgn.Result, moverRating int, d Date) {
	s.CellStats.Add(r, moverRating)
	if d != 0 {
		s.FirstDate = earlier(s.FirstDate, d)
		s.LastDate = later(s.LastDate, d)
	}
}

// AddOccurrence adds one game's contribution o, as the builder's table does: its
// result, mover's rating and date (see [MoveStats.Add]), its ply and
// first-seen stamp when recorded, and the game to the references.
func (s *MoveStats) AddOccurrence(o *Occurrence) {
	s.Add(o.Result, o.MoverRating, o.Date)
	if o.Ply >= 0 && o.Ply < 1<<31 {
		s.LowPly = lowerKnown32(s.LowPly, uint32(o.Ply)+1)
	}
	s.FirstSeen = lowerKnown64(s.FirstSeen, o.Seen)
	if o.Game.ID != 0 {
		s.Refs.Add(o.Game)
	}
}

// Merge adds o to s: counters add up, FirstDate becomes the earlier known
// date and LastDate the later one. Merge is associative and commutative.
func (s *MoveStats) Merge(o MoveStats) {
	s.CellStats.Merge(o.CellStats)
	s.FirstDate = earlier(s.FirstDate, o.FirstDate)
	s.LastDate = later(s.LastDate, o.LastDate)
	s.LowPly = lowerKnown32(s.LowPly, o.LowPly)
	s.FirstSeen = lowerKnown64(s.FirstSeen, o.FirstSeen)
	s.Refs.Merge(&o.Refs)
}

// MinPly returns the lowest ply the move was played at, and false if
// that was not recorded.
func (s MoveStats) MinPly() (int, bool) { return int(s.LowPly) - 1, s.LowPly != 0 }

// lowerKnown32 returns the lower of a and b, where 0 means unknown.
func lowerKnown32(a, b uint32) uint32 {
	if a == 0 || (b != 0 && b < a) {
		return b
	}
	return a
}

// lowerKnown64 returns the lower of a and b, where 0 means unknown.
func lowerKnown64(a, b uint64) uint64 {
	if a == 0 || (b != 0 && b < a) {
		return b
	}
	return a
}

// AverageRating returns the mover's mean rating over the games where it was
// known, and false if it never was.
func (s CellStats) AverageRating() (float64, bool) {
	if s.RatingCount == 0 {
		return 0, false
	}
	return float64(s.RatingSum) / float64(s.RatingCount), true
}

// Wins returns the games won by the mover. Results are stored by colour, so
// the caller says who moves: whiteToMove is true when the move is White's.
func (s CellStats) Wins(whiteToMove bool) uint64 {
	if whiteToMove {
		return s.WhiteWins
	}
	return s.BlackWins
}

// Losses returns the games lost by the mover (see [CellStats.Wins]).
func (s CellStats) Losses(whiteToMove bool) uint64 {
	return s.Wins(!whiteToMove)
}

// Score returns the mover's score in PolyGlot's make-book units: 2 per win,
// 1 per draw and, as PolyGlot does, 1 per game with an unknown result ("*").
// whiteToMove is true when the move is White's. Score/(2*Games) is the
// mover's expected score; PolyGlot writes Score as the book weight.
func (s CellStats) Score(whiteToMove bool) uint64 {
	return addSat(addSat(s.Wins(whiteToMove), s.Wins(whiteToMove)), addSat(s.Draws, s.Unknown))
}

// addSat returns a+b, or math.MaxUint64 if the sum overflows.
func addSat(a, b uint64) uint64 {
	if c := a + b; c >= a {
		return c
	}
	return math.MaxUint64
}
