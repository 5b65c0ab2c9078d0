// Package merge makes one store of stores built separately (Run), and
// rebuilds a store's game index (Reindex).
//
// # Merging stores
//
// Run (merge.go) makes one store of stores built separately, equal to
// one build of all their inputs in the order of the stores: what the
// positions dump, the game records, the game index and the export say
// (the game numbers differ, as they do between two builds). Records of
// stores that share no game add up at the record level, as the runs of
// one build do: statistics, histories and tallies through the store's
// merge operators, single references and the game index with their game
// numbers moved past the stores before, and in -count occurrence stores
// the first-seen stamps past the earlier stores' inputs
// (Options.KeepStamps keeps them, for shards of one build that were
// given its whole input list). A store that shares games with an earlier
// one cannot be added that way (what a game added is not subtractable:
// lowest plies, first-seen stamps, top games), so it is first rebuilt
// from its game records into a scratch store, each record decoded and fed
// to a build.Builder's workers as if parsed (build.Replayer), with its stored stamp, the games
// an earlier store holds left out (with KeepDuplicates: each copy renamed
// to its copy number after the earlier stores' copies). Everything is
// written in one atomic ingestion.
//
// # Reindex
//
// Reindex writes the game index (package gamedb) of every game a store
// holds, for a store written before the index existed; build.Run does it
// before adding games to such a store.
package merge
