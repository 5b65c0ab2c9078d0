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

// The counting rule: what one game adds to the positions it counts. The
// builder counts with it as it adds a game to its table, and the readers
// that rebuild a single reference's statistics (Entry, Selected,
// Positions) count with it as they replay the game from its record: a
// store keeps most positions as single references (see singles.go), so
// readers and builder must count alike, and they do by sharing this file:
//
//   - the game's part (gameCount): its result, date, cell, stored id and
//     the mean rating its references rank by, read from its tags by
//     tagsOf, the same at every position it counts;
//   - the position's part (gameCount.at): the ply the move was played at
//     (plyOf: by move numbers, for the lowest-ply statistic), the mover's
//     rating, and the first-seen stamp with the ply from the game's start;
//   - which plies count (plyCounter): those before Options.MaxPly, from
//     the game's start; with store.CountGame only the first visit of each
//     position (visits), under the move played then, with
//     store.CountOccurrence every visit (a reader that looks for one
//     position, visitor.visit, stops at its first visit, which either
//     mode counts);
//   - countedPositions walks a game's moves under that rule, one counted
//     position at a time (allocation-free once its buffers have grown).

// gameTags is what the counting rule reads from a game's tags: the
// players' ratings (0: unknown), its date and its cell (speed and rating
// band).
type gameTags struct {
	white, black int
	date         stats.Date
	cell         stats.Cell
}

// tagsOf reads g's WhiteElo, BlackElo, Date and TimeControl tags.
func tagsOf(g *pgn.Game) gameTags {
	t := gameTags{white: rating(g.Tag("WhiteElo")), black: rating(g.Tag("BlackElo")), date: stats.ParseDate(string(g.Tag("Date")))}
	t.cell = gameCell(g, t.white, t.black)
	return t
}

// gameCount is what one game adds to each position it counts: occ holds
// the game's part, and at completes it for one position.
type gameCount struct {
	occ          stats.Occurrence
	white, black int    // the players' ratings, for the mover's
	stamp        uint64 // the game's first-seen stamp without its ply (see worker.seenStamp); 0: none
}

// newGameCount returns what a game of result r and tags t, stored as id
// with first-seen stamp stamp (0: none), adds to each position it counts.
func newGameCount(r pgn.Result, t gameTags, id store.GameID, stamp uint64) gameCount {
	return gameCount{
		occ: stats.Occurrence{Result: r, Date: t.date, Cell: t.cell,
			Game: stats.GameRef{ID: uint64(id), Rating: averageRating(t.white, t.black), Date: t.date}},
		white: t.white, black: t.black, stamp: stamp,
	}
}

// gameCountOf is newGameCount for the decoded game g.
func gameCountOf(g *pgn.Game, id store.GameID, stamp uint64) gameCount {
	return newGameCount(g.Result, tagsOf(g), id, stamp)
}

// at returns what the game adds for the move played at ply n of the game
// (from its start, 0 for its first move) by side, from a position at ply
// absPly (see plyOf): the lowest-ply statistic takes absPly, the
// first-seen stamp the game's stamp with n; the mover's rating is side's.
// The occurrence is c's own, valid until the next call.
func (c *gameCount) at(n, absPly int, side board.Color) *stats.Occurrence {
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

// plyCounter tells which plies of a game count, one ply at a time, in
// order: those before maxPly (0: all), and with perGame only the first
// visit of each position. It also hashes the positions (keys.Hash),
// incrementally. A caller that has the game's moves uses
// countedPositions; one that decodes a record uses it from the decoder's
// callback (see gamecode.DecodeGameUntil).
type plyCounter struct {
	maxPly  int
	perGame bool
	visits  visits
	zobrist keys.Hasher
	// hash is the keys.Hash of the position of the last ply taken.
	hash uint64
}

// setRule sets the counter to the rule of a store built with max-ply
// maxPly and count mode mode.
func (c *plyCounter) setRule(maxPly int, mode store.CountMode) {
	c.maxPly, c.perGame = maxPly, mode != store.CountOccurrence
}

// start starts a game at position p.
func (c *plyCounter) start(p *board.Position) {
	c.visits.reset()
	c.zobrist.Reset(p)
}

// within reports whether the game counts anything at ply n (from its
// start): whether n is before the max-ply.
func (c *plyCounter) within(n int) bool { return c.maxPly == 0 || n < c.maxPly }

// counts reports whether the game counts the move it plays from pos, whose
// keys.Hash is h, a ply within the max-ply: always, or with perGame only at
// pos's first visit (which it records). Call it once per ply, in order.
func (c *plyCounter) counts(pos *board.Position, h uint64) bool {
	return !c.perGame || c.visits.first(pos, h)
}

// take takes ply n of the game, move m played from pos, before pos plays
// it: counted reports whether the game counts m at pos, over that the
// game counts nothing from this ply on (the max-ply); then c.hash is
// pos's keys.Hash (unless over).
func (c *plyCounter) take(n int, pos *board.Position, m board.Move) (counted, over bool) {
	if !c.within(n) {
		return false, true
	}
	c.hash = c.zobrist.Hash(pos)
	counted = c.counts(pos, c.hash)
	c.zobrist.Play(pos, m)
	return counted, false
}

// countedPositions iterates over the positions a game counts, with the
// moves played there and what the game adds:
//
//	it.reset(start, moves, count)
//	for it.next() {
//		// it.pos, it.move, it.ply, it.hash, it.occurrence()
//	}
type countedPositions struct {
	plyCounter
	count gameCount
	moves []board.Move
	// pos is the position of the current counted ply, before its move;
	// move is that move and ply its ply from the game's start.
	pos  board.Position
	move board.Move
	ply  int
	// played is true after next found a position: pos has yet to play
	// move.
	played bool
}

// reset starts the iteration over the positions counted of the game
// that starts at start and plays moves, which adds count; plyCounter's
// rule must be set.
func (it *countedPositions) reset(start *board.Position, moves []board.Move, count gameCount) {
	it.start(start)
	it.count = count
	it.moves = moves
	it.pos = *start
	it.ply = 0
	it.played = false
}

// next moves to the next counted position and reports whether there was
// one.
func (it *countedPositions) next() bool {
	// take's steps, written out: this is the builder's hot path.
	if it.played {
		it.zobrist.Play(&it.pos, it.move)
		it.pos.Play(it.move)
		it.ply++
	}
	for ; it.ply < len(it.moves) && it.within(it.ply); it.ply++ {
		it.move = it.moves[it.ply]
		it.hash = it.zobrist.Hash(&it.pos)
		if it.counts(&it.pos, it.hash) {
			it.played = true
			return true
		}
		it.zobrist.Play(&it.pos, it.move)
		it.pos.Play(it.move)
	}
	it.played = false
	return false
}

// occurrence returns what the game adds at the current position, valid
// until the next call.
func (it *countedPositions) occurrence() *stats.Occurrence {
	return it.count.at(it.ply, plyOf(&it.pos), it.pos.SideToMove())
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

// CountRule walks the plies of a game that count under a store's rule
// (its max-ply and count mode: the builder's rule, plyCounter), for the
// readers that measure what a game adds without building (the savings
// report's sample). Make it with NewCountRule; it is reused from game to
// game, one at a time.
type CountRule struct{ c plyCounter }

// NewCountRule returns the rule of a store built with max-ply maxPly and
// count mode mode.
func NewCountRule(maxPly int, mode store.CountMode) *CountRule {
	r := &CountRule{}
	r.c.setRule(maxPly, mode)
	return r
}

// Each calls fn for each ply of the game from start playing moves that
// the game counts, in order: the position before the move (valid during
// the call only), the move, and the position's keys.Hash. An error from
// fn stops the walk and is returned.
func (r *CountRule) Each(start *board.Position, moves []board.Move, fn func(pos *board.Position, m board.Move, hash uint64) error) error {
	pos := *start
	r.c.start(&pos)
	for n, m := range moves {
		counted, over := r.c.take(n, &pos, m)
		if over {
			return nil
		}
		if counted {
			if err := fn(&pos, m, r.c.hash); err != nil {
				return err
			}
		}
		pos.Play(m)
	}
	return nil
}
