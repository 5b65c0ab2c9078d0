// Package kway merges sorted sources: the k-way merge of the build's
// sorted runs (package internal/runfiles, for book/build's commits), of
// the stores a merge combines (book/merge) and of the spilled runs of an
// export's entry sort (book/export).
//
// A Merger reads one item ahead from each Source and keeps the sources in
// a tournament tree ordered by their current items, ties going to the
// earlier source: taking the smallest item and reading its source's next
// costs one comparison per level of the tree (log2 of the sources), where
// a binary heap makes two. Nothing is allocated per item: the tree and
// the current items are allocated once, and a source hands out its items
// by value (slices in them may point into the source's own buffers, which
// it may reuse once it is asked for its next item).
//
// An item taken from the merger stays valid until the next call, because
// its source is only asked for its next item then. NextGroup takes every
// item equal to the smallest at once, in source order, for callers that
// combine the values of one key: a store iterator's value is read while
// the iterator is still at its record, without a copy. Each and Groups
// wrap the two with a context checked every 4096 items, the cancellation
// the callers had.
//
// The build's merges of its runs see every record of a build, and a
// Merger's comparison is an indirect call through a function value: there
// the same tournament tree comes specialised, keeping the losers of its
// matches (an update replays the winner's path only) and comparing keys
// directly. TreeBytes orders byte-string keys (the runs' sections, equal
// keys grouped by the caller), Tree64 distinct uint64 keys (the single
// references, the most records). Their caller owns the keys and reads the
// sources itself.
package kway
