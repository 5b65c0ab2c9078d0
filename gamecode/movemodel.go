package gamecode

import "math"

// scoreScale is the number of score units per nat: a move whose score is
// scoreScale higher than another's is e times likelier.
const scoreScale = 64

// freqOne is the frequency of the best move of a ply.
const freqOne = 1 << 12

// expTab[d] is the frequency of a move whose score is d below the best
// move's: round(freqOne * exp(-d/scoreScale)), at least 1; moves further
// behind get 1.
var expTab = func() (t [8 * scoreScale]uint32) {
	for d := range t {
		t[d] = uint32(max(1, math.Round(freqOne*math.Exp(-float64(d)/scoreScale))))
	}
	return t
}()

// maxTotal bounds the total frequency of a ply (the range coder needs
// totals below 2^16).
const maxTotal = 1 << 16

// freqs turns the scores of n choices into frequencies (in freq) and
// returns their total, below maxTotal: the frequencies depend only on how
// far each score is behind best, the best score.
func freqs(scores []int32, best int32, freq []uint32) uint32 {
	n := len(scores)
	freq = freq[:n]
	var total uint32
	for i, v := range scores {
		f := expTab[min(uint32(best-v), uint32(len(expTab)-1))]
		freq[i] = f
		total += f
	}
	if total >= maxTotal {
		// Many choices close to the best one: halve all frequencies
		// (keeping them at least 1) as often as needed.
		k := uint(0)
		for total>>k+uint32(n) >= maxTotal {
			k++
		}
		total = 0
		for i, f := range freq {
			f = max(1, f>>k)
			freq[i] = f
			total += f
		}
	}
	return total
}

// encodeChoice codes choice idx of the scored choices (freq is scratch
// space).
func encodeChoice(e *rcEncoder, scores []int32, best int32, freq []uint32, idx int) {
	// One pass for the total and the choices before idx, as in freqs.
	var total, cum, fi uint32
	for i, v := range scores {
		f := expTab[min(uint32(best-v), uint32(len(expTab)-1))]
		if i == idx {
			cum, fi = total, f
		}
		total += f
	}
	if total >= maxTotal {
		total = freqs(scores, best, freq)
		cum = 0
		for _, f := range freq[:idx] {
			cum += f
		}
		fi = freq[idx]
	}
	e.encode(cum, fi, total)
}

// decodeChoice decodes a choice among the scored choices.
func decodeChoice(d *rcDecoder, scores []int32, best int32, freq []uint32) (int, error) {
	total := freqs(scores, best, freq)
	v, r, err := d.targetR(total)
	if err != nil {
		return 0, err
	}
	i, cum := 0, uint32(0)
	for ; i < len(scores)-1 && cum+freq[i] <= v; i++ {
		cum += freq[i]
	}
	d.consumeR(cum, freq[i], r)
	return i, nil
}
