package build

import (
	"math"
	"math/bits"
)

// hllP is the precision of distinctCounter: 2^14 registers, a standard
// error of 1.04/sqrt(2^14), about 0.8%.
const hllP = 14

// distinctCounter estimates how many distinct positions it was shown
// (HyperLogLog). Counting a build's distinct positions exactly would take a
// pass over the whole store; this takes 16 KiB and a hash per position
// flushed (store.SingleHash, which the builder computes for single
// references anyway: 14 bits pick a register, 18 the rank, enough for
// billions). Counters merge.
type distinctCounter struct {
	reg [1 << hllP]uint8
}

func newDistinctCounter() *distinctCounter { return &distinctCounter{} }

// addHash records one position by its store.SingleHash.
func (c *distinctCounter) addHash(h uint32) {
	j := h >> (32 - hllP)
	rank := uint8(bits.LeadingZeros32(h<<hllP|1<<(hllP-1)) + 1)
	if rank > c.reg[j] {
		c.reg[j] = rank
	}
}

// merge adds what o has seen.
func (c *distinctCounter) merge(o *distinctCounter) {
	for j, r := range o.reg {
		if r > c.reg[j] {
			c.reg[j] = r
		}
	}
}

// estimate returns the estimated number of distinct strings.
func (c *distinctCounter) estimate() int64 {
	const m = float64(1 << hllP)
	sum, zeros := 0.0, 0
	for _, r := range c.reg {
		sum += math.Ldexp(1, -int(r))
		if r == 0 {
			zeros++
		}
	}
	e := 0.7213 / (1 + 1.079/m) * m * m / sum
	if e <= 2.5*m && zeros > 0 {
		e = m * math.Log(m/float64(zeros)) // small-range correction
	}
	return int64(e + 0.5)
}
