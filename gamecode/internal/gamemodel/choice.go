package gamemodel

import "math"

// ScoreScale is the number of score units per nat: a move whose score is
// ScoreScale higher than another's is e times likelier.
const ScoreScale = 64

// freqOne is the frequency of the best move of a ply.
const freqOne = 1 << 12

// expTab[d] is the frequency of a move whose score is d below the best
// move's: round(freqOne * exp(-d/ScoreScale)), at least 1; moves further
// behind get 1.
var expTab = func() (t [8 * ScoreScale]uint32) {
	for d := range t {
		t[d] = uint32(max(1, math.Round(freqOne*math.Exp(-float64(d)/ScoreScale))))
	}
	return t
}()

// MaxTotal bounds the total frequency of a ply (the range coder needs
// totals below 2^16).
const MaxTotal = 1 << 16

// ChoiceFreq returns the frequency of a choice whose score is behind
// (>= 0) below the best choice's, before the scaling of Freqs: between 1
// and 4096.
func ChoiceFreq(behind int32) uint32 {
	return expTab[min(uint32(behind), uint32(len(expTab)-1))]
}

// Freqs turns the scores of n choices into frequencies (in freq) and
// returns their total, below MaxTotal: the frequencies depend only on how
// far each score is behind best, the best score.
func Freqs(scores []int32, best int32, freq []uint32) uint32 {
	n := len(scores)
	freq = freq[:n]
	var total uint32
	for i, v := range scores {
		f := ChoiceFreq(best - v)
		freq[i] = f
		total += f
	}
	if total >= MaxTotal {
		// Many choices close to the best one: halve all frequencies
		// (keeping them at least 1) as often as needed.
		k := uint(0)
		for total>>k+uint32(n) >= MaxTotal {
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
