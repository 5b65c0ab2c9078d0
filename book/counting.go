package book

import (
	"bytes"
	"strconv"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/keys"
	"github.com/chessbook/chessbook/pgn"
	"github.com/chessbook/chessbook/stats"
	"github.com/chessbook/chessbook/store"
)

// The counting rule: what one game adds to each position it counts.

// newOccurrence returns what game g, stored as id, adds to each position
// it counts, but for the ply and the mover's rating: white and black are
// the players' ratings and date the game's date.
func newOccurrence(g *pgn.Game, id store.GameID, white, black int, date stats.Date) stats.Occurrence {
	return occurrenceOf(g.Result, gameCell(g, white, black), id, white, black, date)
}

// occurrenceOf is newOccurrence for a game whose result and cell (see
// gameCell) are known.
func occurrenceOf(r pgn.Result, cell stats.Cell, id store.GameID, white, black int, date stats.Date) stats.Occurrence {
	return stats.Occurrence{Result: r, Date: date, Cell: cell,
		Game: stats.GameRef{ID: uint64(id), Rating: averageRating(white, black), Date: date}}
}

// setPly completes occ, what a game adds to the positions it counts, for
// the move played at ply ply of the game (from 0) by side, from a
// position at ply absPly of the whole game (see plyOf): the lowest-ply
// statistic takes absPly, the first-seen stamp from the game's stamp (0:
// none) takes ply; and the mover's rating (white and black are the
// players').
func setPly(occ *stats.Occurrence, ply, absPly int, side board.Color, white, black int, stamp uint64) {
	occ.Ply = absPly
	occ.MoverRating = white
	if side == board.Black {
		occ.MoverRating = black
	}
	if stamp != 0 {
		occ.Seen = stamp | uint64(min(ply, 1<<12-1))
	}
}

// plyOf returns the ply of position p in its game, counted from White's
// first move (ply 0) by p's move number and side to move: a game set up
// from a FEN at move 20 with White to move starts at ply 38, as a game
// from the start position reaches that move at ply 38.
func plyOf(p *board.Position) int {
	ply := 2 * (p.FullMoveNumber() - 1)
	if p.SideToMove() == board.Black {
		ply++
	}
	return ply
}

// gameRatings returns the players' ratings and the date of g, as the
// builder reads them.
func gameRatings(g *pgn.Game) (white, black int, date stats.Date) {
	return rating(g.Tag("WhiteElo")), rating(g.Tag("BlackElo")), stats.ParseDate(string(g.Tag("Date")))
}

// averageRating returns what ranks a game among a position's top games:
// the mean of both players' ratings when both are rated, else 0, so that
// games with an unrated player rank after every game of a rated pair (the
// lichess explorer takes its top games from rated pairs only).
func averageRating(white, black int) uint16 {
	if white <= 0 || black <= 0 {
		return 0
	}
	return uint16(min((white+black)/2, 65535))
}

// rating parses an Elo tag; 0 when missing or not a positive number.
func rating(v []byte) int {
	n, err := strconv.Atoi(string(bytes.TrimSpace(v)))
	if err != nil || n <= 0 {
		return 0
	}
	return n
}

// visits holds the positions a game reached since its last irreversible
// move (capture, pawn move), with their keys.Hash, to tell a first visit
// from a repetition: a position can only recur while no irreversible move
// is played, and a position whose hash matches is compared whole
// (keys.Equal), so this is exact. (Castling moves and moves that lose a
// castling right are irreversible too, but they do not reset the clock:
// the positions before them are kept for nothing, never matched.) The
// builder and the readers that replay games count with it.
type visits struct {
	hashes    []uint64
	positions []board.Position
}

// reset starts a new game.
func (v *visits) reset() { v.hashes, v.positions = v.hashes[:0], v.positions[:0] }

// first reports whether pos, whose keys.Hash is h, is reached for the
// first time in the game, and records it.
func (v *visits) first(pos *board.Position, h uint64) bool {
	if pos.HalfMoveClock() == 0 {
		v.reset()
	}
	for i, x := range v.hashes {
		if x == h && keys.Equal(&v.positions[i], pos) {
			return false
		}
	}
	v.hashes = append(v.hashes, h)
	v.positions = append(v.positions, *pos)
	return true
}
