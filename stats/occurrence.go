package stats

import "github.com/chessbook/chessbook/pgn"

// Occurrence is one game's contribution to a (position, move) record:
// what the builder's counting rule (package book) says a game adds to a
// position it counts, which [MoveStats.AddOccurrence] adds up.
type Occurrence struct {
	Result      pgn.Result
	MoverRating int     // the mover's rating; 0 or less: unknown
	Date        Date    // the game's date; 0: unknown
	Ply         int     // the ply the move was played at, from 0; negative: not recorded
	Seen        uint64  // first-seen stamp (see MoveStats.FirstSeen); 0: none
	Game        GameRef // the game; ID 0: not recorded
	// Local is the caller's own number for the game (its index in a
	// batch, say), which the builder's table hands back for positions
	// reached by this game only.
	Local uint32
	// Hash is the caller's hash of the position, which the builder's
	// table groups occurrences by and hands back with the position (the
	// first occurrence's). Occurrences of one position must have equal
	// hashes: the high 32 bits of its keys.Hash.
	Hash uint32
	// Cell is the game's speed and rating band, for the position's
	// History.
	Cell Cell
}
