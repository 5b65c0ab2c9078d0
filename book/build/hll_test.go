package build

import (
	"encoding/binary"
	"math"
	"testing"

	"github.com/cespare/xxhash/v2"
)

// add records one byte string by a 32-bit hash of it, as the builder
// records positions by their store.SingleHash.
func (c *distinctCounter) add(b []byte) { c.addHash(uint32(xxhash.Sum64(b) >> 32)) }

func TestDistinctCounter(t *testing.T) {
	for _, n := range []int{0, 1, 100, 10000, 1000000} {
		a, b := newDistinctCounter(), newDistinctCounter()
		var buf [8]byte
		for i := range n {
			binary.LittleEndian.PutUint64(buf[:], uint64(i))
			a.add(buf[:])
			a.add(buf[:]) // repeats do not count
			if i%2 == 0 {
				b.add(buf[:]) // a subset: merging it changes nothing
			}
		}
		a.merge(b)
		got := a.estimate()
		if err := math.Abs(float64(got)-float64(n)) / math.Max(float64(n), 1); err > 0.03 {
			t.Errorf("n=%d: estimate %d, error %.1f%% > 3%%", n, got, 100*err)
		}
	}
}
