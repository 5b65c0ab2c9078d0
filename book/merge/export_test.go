package merge

import (
	"sync/atomic"

	"github.com/chessbook/chessbook/store"
)

// Mutate returns o set to make Run drop or miscopy the records of kind
// (a test hook: the tests show that they see it): how is one of
// Mutations' answers. hits counts the records the mutation changed (a
// mutation the inputs do not exercise changes none).
func Mutate(o Options, kind store.Prefix, how string, hits *atomic.Int64) Options {
	o.mutation = mutation{kind: kind, how: how, hits: hits}
	return o
}

// Mutations returns the mutations of kind k's records that mean
// something, as the registry says what k holds and how a merge copies
// it: dropped; game numbers not moved past the earlier stores'; first-seen
// stamps not moved; the records of a key in several stores not merged
// (the first store's kept).
func Mutations(k store.Kind) []string {
	out := []string{dropMutation}
	if k.Copy == store.CopyRebuilt {
		return out
	}
	if k.Has(store.HoldsGameNumbers) {
		out = append(out, numbersMutation)
	}
	if k.Has(store.HoldsStamps) {
		out = append(out, stampsMutation)
	}
	if k.Copy == store.CopyAdd {
		out = append(out, unmergedMutation)
	}
	return out
}

// DropMutation is the mutation that drops a kind.
const DropMutation = dropMutation

// Copies reports whether merge knows how to copy kind p.
func Copies(p store.Prefix) bool { return copyOf(p) != nil }

// CheckKinds is checkKinds.
var CheckKinds = checkKinds
