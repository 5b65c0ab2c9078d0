package filter

import "testing"

// TestReasonNames: the reasons' names are the words of bookbuild's and
// bookbeam's summaries and the keys of bookbuild's -json FilteredBy.
func TestReasonNames(t *testing.T) {
	want := map[Reason]string{ByStart: "starts from a FEN", ByRating: "rating", ByDate: "date", BySpeed: "speed",
		ByMode: "mode", ByLength: "length", ByLength + 1: "unknown"}
	for r, name := range want {
		if got := r.String(); got != name {
			t.Errorf("Reason(%d).String() = %q, want %q", r, got, name)
		}
	}
}
