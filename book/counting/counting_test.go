package counting_test

import (
	"testing"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/book/counting"
	"github.com/chessbook/chessbook/store"
)

// TestCountRule: a game that goes back and forth (the start position is
// reached three times, after 1.Nf3 Nf6 2.Ng1 Ng8 twice) counts its plies
// under the store's rule: with store.CountGame only the first visit of a
// position, under the move played then; with store.CountOccurrence every
// visit; and under a max-ply only the plies before it.
func TestCountRule(t *testing.T) {
	start := board.StartPosition()
	pos := start
	var moves []board.Move
	var before []board.Position // the position before each ply
	for _, uci := range []string{"g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8", "e2e4"} {
		m, err := pos.ParseUCI(uci)
		if err != nil {
			t.Fatal(err)
		}
		moves = append(moves, m)
		before = append(before, pos)
		pos.Play(m)
	}
	for _, c := range []struct {
		mode   store.CountMode
		maxPly int
		want   []int // the plies counted
	}{
		{store.CountGame, 0, []int{0, 1, 2, 3}}, // plies 4-8 revisit the positions of plies 0-3 (8: e4 from the start)
		{store.CountOccurrence, 0, []int{0, 1, 2, 3, 4, 5, 6, 7, 8}},
		{store.CountGame, 3, []int{0, 1, 2}},
		{store.CountOccurrence, 6, []int{0, 1, 2, 3, 4, 5}},
	} {
		r := counting.NewRule(c.maxPly, c.mode)
		var got []int
		var hashes []uint64
		n := 0 // the next ply that may be counted
		err := r.Each(&start, moves, func(q *board.Position, m board.Move, h uint64) error {
			for n < len(moves) && (moves[n] != m || before[n] != *q) {
				n++
			}
			got = append(got, n)
			n++
			hashes = append(hashes, h)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(c.want) {
			t.Errorf("%s, max-ply %d: plies %v counted, want %v", c.mode, c.maxPly, got, c.want)
			continue
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Errorf("%s, max-ply %d: plies %v counted, want %v", c.mode, c.maxPly, got, c.want)
				break
			}
		}
		if c.mode == store.CountOccurrence && c.maxPly == 0 && (hashes[0] != hashes[4] || hashes[0] != hashes[8] || hashes[0] == hashes[1]) {
			t.Errorf("the hashes of the start position's visits differ, or equal another position's: %x", hashes)
		}
	}
}
