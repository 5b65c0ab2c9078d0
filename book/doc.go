// Package book reads the opening book back: the read side of a store
// (package store) written by package book/build. Its readers rebuild the
// statistics of the positions the store keeps as single references, under
// the counting rule of package book/counting, and scan the stored games.
// The build is package book/build, merging stores package book/merge, the
// Polyglot export and the dump of every position package book/export.
//
// # The read side: single references rebuilt at read time
//
// A position one game counted once in a flush is written as a single
// reference to that game (see package store) instead of a statistics
// record: most positions of a big book are. Its statistics are what that
// game adds to it, which the readers rebuild by replaying the game under
// the counting rule. Every reader of a position's statistics goes through
// them: Lookup (singles.go) for one position, its statistics record merged
// with what each game referenced under its hash adds to it (the games are
// decoded only as far as the position); Select (selection.go) for the
// games a query-time Selection keeps (speed, rating band, month), from the
// position's history and its single references' tags; Positions
// (positions.go, positions_all.go) for every position of the store: the
// records' hashes merge-joined with the references read in hash order,
// the games referenced under a record's hash or under a hash of several
// games replayed once each (a range of game numbers at a time, on two
// goroutines, each only until it reached those hashes), what they add
// tallied, spilled to sorted runs and merged with the records in key
// order; and the positions only single references reach found by
// replaying every referenced game once.
// TestSinglesOracle and TestSinglesOracleTestdata (package book/build)
// build the same inputs
// with and without single references and compare every position.
//
// GamesThrough (through.go) is the one reader that does not count: it
// scans the stored game records for every game through a position (the
// statistics keep only a few references per move), replaying each only
// until it reaches the position or can no longer reach it.
//
// The reachability rule GamesThrough stops a game with, board.Reach, is
// shared with the export and the game database (package gamedb).
//
// dates.go parses the date bounds of the commands' -since and -until.
//
// # Words
//
// To "replay" a game is to play its moves again from its start, position
// by position: the pipeline replays the PGN games, the readers the stored
// ones. A "selection" keeps games in a query (Selection, Select); a
// "filter" leaves games out of a build (build.Filter, build.Options).
package book
