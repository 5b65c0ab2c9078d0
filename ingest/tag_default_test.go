//go:build !oracle

package ingest_test

// withOracles is true in the oracle tests (-tags oracle, see
// docs/testing.md): TestDifferentialNotnil then reads shared/data.
const withOracles = false
