//go:build !oracle

package polyglot

import "testing"

// withOracles is true in the oracle tests (-tags oracle, see
// docs/testing.md), which read the books of ../shared/data too.
const withOracles = false

// realBooks are the books the tests read: the repository's reference books
// (with -tags oracle, those of shared/data too).
func realBooks() []realBook { return repoBooks }

// makeBookCases are the reference books TestWriteBookReproducesMakeBook
// rebuilds: the repository's (with -tags oracle, those of shared/data too).
func makeBookCases() []makeBookCase { return repoMakeBookCases }

// sharedBookSeeds returns the fuzz seeds of ../shared/data: none without
// -tags oracle.
func sharedBookSeeds(testing.TB) [][]byte { return nil }

// checkSharedBooksListed checks the list of shared/data's books: only with
// -tags oracle.
func checkSharedBooksListed(*testing.T) {}
