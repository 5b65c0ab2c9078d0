package book

// PositionsLimits are the memory limits of PositionsWith without a ply
// limit, and what they made it do.
type PositionsLimits = positionsLimits

// WithPositionsLimits returns o set to hold at most want single
// references to replay at once and to spill every spill occurrences each
// replay worker tallies; l then counts the chunks and the runs.
func WithPositionsLimits(o PositionsOptions, want, spill int) (PositionsOptions, *PositionsLimits) {
	l := &positionsLimits{wantChunk: want, spillOccurrences: spill}
	o.limits = l
	return o, l
}

// Chunks and Runs report what PositionsWith did under the limits.
func (l *positionsLimits) Chunks() int { return l.chunks }
func (l *positionsLimits) Runs() int   { return l.runs }
