// Package merge makes one store of stores built separately (Run), and
// rebuilds a store's game index (Reindex).
//
// # Merging stores
//
// Run (run.go) makes one store of stores built separately, equal to
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
// Run walks the store's registry of record kinds (store.Kinds): each kind
// has its copy (copyOf: the SSTWriter it is written to, and how, as the
// registry's Kind.Holds and Kind.Copy say: added up through the store's
// operator, united, game numbers and stamps moved, or written anew like
// the Meta), and a kind of the registry without one, or a source holding
// records of a kind the registry does not have (a store of a newer
// program), fails the merge instead of losing its records. The mutation
// test (mutation_test.go) makes the merge drop or miscopy each kind in
// turn, through a test hook, and checks that the merged store's digest
// (internal/storetest, which covers every kind of the registry) then
// differs from one build's, and equals it without the mutation.
//
// # Files
//
//   - run.go: Run, Options, Stats, the errors, the checks of the
//     destination and of the sources' build options, and the order of
//     the work (merge).
//   - sources.go: a source (mergeSource: the store given, the scratch
//     store it is rebuilt into, its stamp shift and game number offset),
//     closing it, and naming a damaged source in an error.
//   - stamps.go: first-seen stamps: each source's input count and shift
//     (shiftStamps, lastStamp), and merging statistics records with their
//     stamps moved (entryMerger).
//   - overlaps.go: finding the sources that share games with an earlier
//     one (findOverlaps), and rebuilding such a source from its game
//     records (replaySource).
//   - records.go: reading one kind of record of every source in one
//     merged pass by key (mergeRecords, over internal/kway).
//   - copy.go: the copy of every kind of the store's registry (copyOf,
//     checkKinds, copyRecords), one function per kind, and the tests'
//     mutation hook.
//   - reindex.go: Reindex.
//
// # Reindex
//
// Reindex writes the game index (package gamedb) of every game a store
// holds, for a store written before the index existed; build.Run does it
// before adding games to such a store.
package merge
