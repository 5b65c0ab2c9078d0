package storetest

import (
	"testing"

	"github.com/chessbook/chessbook/store"
)

// TestDigestCoversKinds checks that every kind of the store's registry
// has a digest or a reason not to, and that a kind with neither is told.
func TestDigestCoversKinds(t *testing.T) {
	if u := Uncovered(store.Kinds()); len(u) != 0 {
		t.Errorf("kinds with no digest and no reason: %+v", u)
	}
	newKind := store.Kind{Prefix: 's', Name: "sources"}
	if u := Uncovered(append(store.Kinds(), newKind)); len(u) != 1 || u[0].Prefix != 's' {
		t.Errorf("a new kind without a digest: Uncovered %+v, want it", u)
	}
	newKind.NoDigest = "a reason"
	if u := Uncovered([]store.Kind{newKind}); len(u) != 0 {
		t.Errorf("a new kind with a reason: Uncovered %+v, want none", u)
	}
}
