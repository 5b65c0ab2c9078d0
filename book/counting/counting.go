package counting

import (
	"bytes"
	"strconv"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/keys"
	"github.com/chessbook/chessbook/pgn"
	"github.com/chessbook/chessbook/stats"
	"github.com/chessbook/chessbook/store"
)

// The counting rule: what one game adds to the positions it counts. The
// builder counts with it as it adds a game to its table, and the readers
// that rebuild a single reference's statistics (book.Lookup, book.Select,
// book.Positions) count with it as they replay the game from its record: a
// store keeps most positions as single references (see package book), so
// readers and builder must count alike, and they do by sharing this file:
//
//   - the game's part (Count): its result, date, cell, stored id and
//     the mean rating its references rank by, read from its tags by
//     TagsOf, the same at every position it counts;
//   - the position's part (Count.At): the ply the move was played at
//     (PlyOf: by move numbers, for the lowest-ply statistic), the mover's
//     rating, and the first-seen stamp with the ply from the game's start;
//   - which plies count (Counter): those before build.Options.MaxPly, from
//     the game's start; with store.CountGame only the first visit of each
//     position (visits), under the move played then, with
//     store.CountOccurrence every visit (a reader that looks for one
//     position, book's visitor.visit, stops at its first visit, which either
//     mode counts);
//   - Walker walks a game's moves under that rule, one counted
//     position at a time (allocation-free once its buffers have grown).

// Tags is what the counting rule reads from a game's tags: the
// players' ratings (0: unknown), its date and its cell (speed and rating
// band).
type Tags struct {
	White, Black int
	Date         stats.Date
	Cell         stats.Cell
}

// TagsOf reads g's WhiteElo, BlackElo, Date and TimeControl tags.
func TagsOf(g *pgn.Game) Tags {
	t := Tags{White: rating(g.Tag("WhiteElo")), Black: rating(g.Tag("BlackElo")), Date: stats.ParseDate(string(g.Tag("Date")))}
	t.Cell = CellOf(g, t.White, t.Black)
	return t
}

// CellOf returns the cell of game g, whose players are rated white and
// black: its speed (from TimeControl) and rating band (see stats.CellOf).
func CellOf(g *pgn.Game, white, black int) stats.Cell {
	return stats.CellOf(g.Tag("TimeControl"), white, black)
}

// Count is what one game adds to each position it counts: occ holds
// the game's part, and At completes it for one position.
type Count struct {
	occ          stats.Occurrence
	white, black int    // the players' ratings, for the mover's
	stamp        uint64 // the game's first-seen stamp without its ply (see build's worker.seenStamp); 0: none
}

// NewCount returns what a game of result r and tags t, stored as id
// with first-seen stamp stamp (0: none), adds to each position it counts.
func NewCount(r pgn.Result, t Tags, id store.GameID, stamp uint64) Count {
	return Count{
		occ: stats.Occurrence{Result: r, Date: t.Date, Cell: t.Cell,
			Game: stats.GameRef{ID: uint64(id), Rating: averageRating(t.White, t.Black), Date: t.Date}},
		white: t.White, black: t.Black, stamp: stamp,
	}
}

// CountOf is NewCount for the decoded game g.
func CountOf(g *pgn.Game, id store.GameID, stamp uint64) Count {
	return NewCount(g.Result, TagsOf(g), id, stamp)
}

// At returns what the game adds for the move played at ply n of the game
// (from its start, 0 for its first move) by side, from a position at ply
// absPly (see PlyOf): the lowest-ply statistic takes absPly, the
// first-seen stamp the game's stamp with n; the mover's rating is side's.
// The occurrence is c's own, valid until the next call.
func (c *Count) At(n, absPly int, side board.Color) *stats.Occurrence {
	o := &c.occ
	o.Ply = absPly
	o.MoverRating = c.white
	if side == board.Black {
		o.MoverRating = c.black
	}
	if c.stamp != 0 {
		o.Seen = c.stamp | uint64(min(n, 1<<12-1))
	}
	return o
}

// PlyOf returns the ply of position p in its game, counted from White's
// first move (ply 0) by p's move number and side to move: a game set up
// from a FEN at move 20 with White to move starts at ply 38, as a game
// from the start position reaches that move at ply 38.
func PlyOf(p *board.Position) int {
	ply := 2 * (p.FullMoveNumber() - 1)
	if p.SideToMove() == board.Black {
		ply++
	}
	return ply
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

// Counter tells which plies of a game count, one ply at a time, in
// order: those before maxPly (0: all), and with perGame only the first
// visit of each position. It also hashes the positions (keys.Hash),
// incrementally. A caller that has the game's moves uses
// Walker; one that decodes a record uses it from the decoder's
// callback (see gamecode.DecodeGameUntil).
type Counter struct {
	maxPly  int
	perGame bool
	visits  visits
	zobrist keys.Hasher
	// Hash is the keys.Hash of the position of the last ply taken.
	Hash uint64
}

// SetRule sets the counter to the rule of a store built with max-ply
// maxPly and count mode mode.
func (c *Counter) SetRule(maxPly int, mode store.CountMode) {
	c.maxPly, c.perGame = maxPly, mode != store.CountOccurrence
}

// Start starts a game at position p.
func (c *Counter) Start(p *board.Position) {
	c.visits.reset()
	c.zobrist.Reset(p)
}

// Within reports whether the game counts anything at ply n (from its
// start): whether n is before the max-ply.
func (c *Counter) Within(n int) bool { return c.maxPly == 0 || n < c.maxPly }

// Counts reports whether the game counts the move it plays from pos, whose
// keys.Hash is h, a ply within the max-ply: always, or with perGame only at
// pos's first visit (which it records). Call it once per ply, in order.
func (c *Counter) Counts(pos *board.Position, h uint64) bool {
	return !c.perGame || c.visits.first(pos, h)
}

// Take takes ply n of the game, move m played from pos, before pos plays
// it: counted reports whether the game counts m at pos, over that the
// game counts nothing from this ply on (the max-ply); then c.Hash is
// pos's keys.Hash (unless over).
func (c *Counter) Take(n int, pos *board.Position, m board.Move) (counted, over bool) {
	if !c.Within(n) {
		return false, true
	}
	c.Hash = c.zobrist.Hash(pos)
	counted = c.Counts(pos, c.Hash)
	c.zobrist.Play(pos, m)
	return counted, false
}

// Walker iterates over the positions a game counts, with the
// moves played there and what the game adds:
//
//	it.Reset(start, moves, count)
//	for it.Next() {
//		// it.Pos, it.Move, it.Ply, it.Hash, it.Occurrence()
//	}
type Walker struct {
	Counter
	count Count
	moves []board.Move
	// Pos is the position of the current counted ply, before its move;
	// Move is that move and Ply its ply from the game's start.
	Pos  board.Position
	Move board.Move
	Ply  int
	// played is true after next found a position: Pos has yet to play
	// Move.
	played bool
}

// Reset starts the iteration over the positions counted of the game
// that starts at start and plays moves, which adds count; Counter's
// rule must be set.
func (it *Walker) Reset(start *board.Position, moves []board.Move, count Count) {
	it.Start(start)
	it.count = count
	it.moves = moves
	it.Pos = *start
	it.Ply = 0
	it.played = false
}

// Next moves to the next counted position and reports whether there was
// one.
func (it *Walker) Next() bool {
	// take's steps, written out: this is the builder's hot path.
	if it.played {
		it.zobrist.Play(&it.Pos, it.Move)
		it.Pos.Play(it.Move)
		it.Ply++
	}
	for ; it.Ply < len(it.moves) && it.Within(it.Ply); it.Ply++ {
		it.Move = it.moves[it.Ply]
		it.Hash = it.zobrist.Hash(&it.Pos)
		if it.Counts(&it.Pos, it.Hash) {
			it.played = true
			return true
		}
		it.zobrist.Play(&it.Pos, it.Move)
		it.Pos.Play(it.Move)
	}
	it.played = false
	return false
}

// Occurrence returns what the game adds at the current position, valid
// until the next call.
func (it *Walker) Occurrence() *stats.Occurrence {
	return it.count.At(it.Ply, PlyOf(&it.Pos), it.Pos.SideToMove())
}

// visits holds the positions a game reached since its last irreversible
// move (capture, pawn move), with their keys.Hash, to tell a first visit
// from a repetition: a position can only recur while no irreversible move
// is played, and a position whose hash matches is compared whole
// (keys.Equal), so this is exact. (Castling moves and moves that lose a
// castling right are irreversible too, but they do not reset the clock:
// the positions before them are kept for nothing, never matched.)
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

// Rule walks the plies of a game that count under a store's rule
// (its max-ply and count mode: the builder's rule, Counter), for the
// readers that measure what a game adds without building (the savings
// report's sample). Make it with NewRule; it is reused from game to
// game, one at a time.
type Rule struct{ c Counter }

// NewRule returns the rule of a store built with max-ply maxPly and
// count mode mode.
func NewRule(maxPly int, mode store.CountMode) *Rule {
	r := &Rule{}
	r.c.SetRule(maxPly, mode)
	return r
}

// Each calls fn for each ply of the game from start playing moves that
// the game counts, in order: the position before the move (valid during
// the call only), the move, and the position's keys.Hash. An error from
// fn stops the walk and is returned.
func (r *Rule) Each(start *board.Position, moves []board.Move, fn func(pos *board.Position, m board.Move, hash uint64) error) error {
	pos := *start
	r.c.Start(&pos)
	for n, m := range moves {
		counted, over := r.c.Take(n, &pos, m)
		if over {
			return nil
		}
		if counted {
			if err := fn(&pos, m, r.c.Hash); err != nil {
				return err
			}
		}
		pos.Play(m)
	}
	return nil
}
