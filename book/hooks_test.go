package book

// WithoutSingles returns o set to write every position as a statistics
// record, even in count modes whose stores keep single references: the
// oracle of the single reference tests.
func WithoutSingles(o Options) Options {
	o.noSingles = true
	return o
}
