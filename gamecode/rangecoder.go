package gamecode

import (
	"errors"
	"math/bits"
)

// errCorrupt is returned (wrapped) for every record that cannot be decoded.
var errCorrupt = errors.New("gamecode: corrupt record")

// rcTop is the normalisation bound of the range coder: the range is kept
// at or above 2^24, so that a total frequency below 2^16 always leaves at
// least 2^8 for the scaled range.
const rcTop = 1 << 24

// rcEncoder is an LZMA-style range coder (carry propagation through a
// cached byte) coding symbols with static cumulative frequencies.
type rcEncoder struct {
	low       uint64
	rng       uint32
	cache     byte
	cacheSize int
	first     bool // the very first output byte is always 0 and dropped
	out       []byte
}

func newEncoder(dst []byte) rcEncoder {
	return rcEncoder{rng: 0xFFFFFFFF, cacheSize: 1, first: true, out: dst}
}

func (e *rcEncoder) shiftLow() {
	if uint32(e.low) < 0xFF000000 || e.low>>32 != 0 {
		carry := byte(e.low >> 32)
		temp := e.cache
		for {
			if e.first {
				e.first = false
			} else {
				e.out = append(e.out, temp+carry)
			}
			temp = 0xFF
			e.cacheSize--
			if e.cacheSize == 0 {
				break
			}
		}
		e.cache = byte(e.low >> 24)
	}
	e.cacheSize++
	e.low = (e.low & 0x00FFFFFF) << 8
}

// encode codes the symbol occupying [cum, cum+freq) of total (< 2^16).
func (e *rcEncoder) encode(cum, freq, total uint32) {
	r := e.rng / total
	e.low += uint64(r) * uint64(cum)
	e.rng = r * freq
	for e.rng < rcTop {
		e.rng <<= 8
		e.shiftLow()
	}
}

// encodeRecip is encode for a total whose reciprocal (see reciprocal) is
// recip.
func (e *rcEncoder) encodeRecip(cum, freq uint32, recip uint64) {
	r, _ := bits.Mul64(recip, uint64(e.rng))
	e.low += r * uint64(cum)
	e.rng = uint32(r) * freq
	for e.rng < rcTop {
		e.rng <<= 8
		e.shiftLow()
	}
}

// encodeBits codes n (<= 16) raw bits.
func (e *rcEncoder) encodeBits(v uint32, n uint) {
	e.encode(v, 1, 1<<n)
}

// finish flushes the coder and returns the output with trailing zero
// bytes cut (the decoder reads zeros past the end).
func (e *rcEncoder) finish() []byte {
	// Any value in [low, low+rng) decodes the same: take the one with the
	// most trailing zero bits, which then need not be stored.
	for mask := uint64(0xFFFFFFFF); mask != 0; mask >>= 8 {
		v := (e.low + mask) &^ mask
		if v < e.low+uint64(e.rng) {
			e.low = v
			break
		}
	}
	for i := 0; i < 5; i++ {
		e.shiftLow()
	}
	return e.out
}

// rcDecoder decodes what rcEncoder coded. Bytes past the end of its input
// read as zero; reading more than a few of them means the input is corrupt.
type rcDecoder struct {
	code uint32
	rng  uint32
	in   []byte
	pos  int
	over int
}

func newDecoder(in []byte) rcDecoder {
	d := rcDecoder{rng: 0xFFFFFFFF, in: in}
	for i := 0; i < 4; i++ {
		d.code = d.code<<8 | uint32(d.next())
	}
	return d
}

func (d *rcDecoder) next() byte {
	if d.pos < len(d.in) {
		b := d.in[d.pos]
		d.pos++
		return b
	}
	d.over++
	return 0
}

// target returns the scaled value in [0, total) that the next symbol's
// interval contains, or an error for corrupt input.
func (d *rcDecoder) target(total uint32) (uint32, error) {
	v, _, err := d.targetR(total)
	return v, err
}

// targetR is target that also returns d.rng / total (see consumeR).
func (d *rcDecoder) targetR(total uint32) (v, r uint32, err error) {
	r = d.rng / total
	v = d.code / r
	if v >= total || d.over > 8 {
		return 0, 0, errCorrupt
	}
	return v, r, nil
}

// consume removes the symbol [cum, cum+freq) found with target.
func (d *rcDecoder) consume(cum, freq, total uint32) {
	d.consumeR(cum, freq, d.rng/total)
}

// consumeR is consume with r = d.rng / total already known.
func (d *rcDecoder) consumeR(cum, freq, r uint32) {
	d.code -= r * cum
	d.rng = r * freq
	for d.rng < rcTop {
		d.rng <<= 8
		d.code = d.code<<8 | uint32(d.next())
	}
}

func (d *rcDecoder) decodeBits(n uint) (uint32, error) {
	v, err := d.target(1 << n)
	if err != nil {
		return 0, err
	}
	d.consume(v, 1, 1<<n)
	return v, nil
}

// model is a static frequency table: cum[i] is the sum of the frequencies
// of the symbols below i, cum[len-1] the total (< 2^16).
type model struct {
	cum   []uint32
	recip uint64 // ceil(2^64 / total of all symbols): divides by a multiplication
}

func newModel(freq []uint16) model {
	cum := make([]uint32, len(freq)+1)
	for i, f := range freq {
		if f == 0 {
			f = 1
		}
		cum[i+1] = cum[i] + uint32(f)
	}
	return model{cum: cum, recip: reciprocal(cum[len(freq)])}
}

// reciprocal returns ceil(2^64/d) for 2 <= d < 2^32: then
// hi64(reciprocal(d) * n) == n / d for every n < 2^32.
func reciprocal(d uint32) uint64 { return ^uint64(0)/uint64(d) + 1 }

// encode codes symbol s among the first n symbols of the model (the others
// are excluded: they cannot occur here).
func (m *model) encode(e *rcEncoder, s, n int) {
	if n == len(m.cum)-1 {
		e.encodeRecip(m.cum[s], m.cum[s+1]-m.cum[s], m.recip)
		return
	}
	e.encode(m.cum[s], m.cum[s+1]-m.cum[s], m.cum[n])
}

// decode decodes a symbol among the first n of the model.
func (m *model) decode(d *rcDecoder, n int) (int, error) {
	total := m.cum[n]
	var r uint32
	if n == len(m.cum)-1 {
		q, _ := bits.Mul64(m.recip, uint64(d.rng))
		r = uint32(q)
	} else {
		r = d.rng / total
	}
	v := d.code / r
	if v >= total || d.over > 8 {
		return 0, errCorrupt
	}
	// Binary search for the symbol s with cum[s] <= v < cum[s+1].
	lo, hi := 0, n
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		if m.cum[mid] <= v {
			lo = mid
		} else {
			hi = mid
		}
	}
	d.consumeR(m.cum[lo], m.cum[lo+1]-m.cum[lo], r)
	return lo, nil
}
