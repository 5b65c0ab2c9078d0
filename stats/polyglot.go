package stats

// PolyglotWeights appends to dst the PolyGlot book weight of each move of e,
// in the order of e.Moves, and returns the extended slice. whiteToMove is
// true when the position has White to move (the moves are White's).
//
// The weight is the mover's [MoveStats.Score]. When the largest score does
// not fit in the 16-bit weight field, all the scores of the position are
// halved, rounding up as PolyGlot's make-book does, until it fits: the
// proportions between the moves are kept and no played move drops to zero.
func (e Entry) PolyglotWeights(whiteToMove bool, dst []uint16) []uint16 {
	var top uint64
	for _, m := range e.Moves {
		top = max(top, m.Score(whiteToMove))
	}
	shift := 0
	for top > 0xFFFF {
		top = halveUp(top)
		shift++
	}
	for _, m := range e.Moves {
		w := m.Score(whiteToMove)
		for i := 0; i < shift; i++ {
			w = halveUp(w)
		}
		dst = append(dst, uint16(w))
	}
	return dst
}

// halveUp returns x/2 rounded up, the way PolyGlot halves its counters.
func halveUp(x uint64) uint64 { return x/2 + x&1 }
