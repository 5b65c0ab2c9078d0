//go:build !oracle

package savings

import "testing"

// sharedSmall returns the files of shared/data/small: none without -tags
// oracle (see docs/testing.md).
func sharedSmall(testing.TB) []string { return nil }
