// Package gamemodel is gamecode's frozen model, shared by the codec
// (package gamecode) and the tool that measures and trains it
// (internal/measure, with internal/train): the move model (scorer.go: the
// legal moves of a position piece by piece from board.MoveSets, in the
// order the format lists them, the features of each choice and their
// scores; choice.go: the frequencies the scores give), the tag models
// (tags.go) and the tables frozen from training (tables_gen.go). The
// record format depends on every detail here: see gamecode's doc.go.
package gamemodel

// The frozen tables are made by the measuring tool (it trains the move
// weights and counts the tag symbols) on the shared data beside the module
// root; any change to them needs a new gamecode.VersionRanked.
//go:generate go run ../measure -quick -gen tables_gen.go ../../../../shared/data/medium/*.pgn.zst ../../../../shared/data/small/*.pgn ../../../../shared/data/small/*.PGN ../../../../shared/data/small/*.bz2
