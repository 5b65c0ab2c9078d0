// Package counting is the counting rule: what one game adds to the
// positions it counts, shared by the build (package book/build), the read
// side (package book), merge (package book/merge, through the build) and
// the savings report (internal/savings).
//
// What a game adds to a position is written once, here, and the
// builder and every reader count with it: the game's part (its result,
// date, cell, reference and the mean rating the references rank by, read
// from its tags by TagsOf), the position's part (the lowest ply, by move
// numbers; the mover's rating; the first-seen stamp with the ply from the
// game's start), and which plies count (Counter: those before
// build.Options.MaxPly from the game's start; with store.CountGame only the
// first visit of each position, under the move played then, with
// store.CountOccurrence every visit). Walker walks a game's
// counted positions; the builder walks the moves it parsed, the readers
// the moves they decode, under the max-ply and count mode the store
// records.
//
// Rule is the rule for a reader that measures what a game adds without
// building (the savings report); GameFacts is what the game index records
// of a game's tags, read as the builder reads them.
package counting
