package gamecode

import "github.com/chessbook/chessbook/gamecode/internal/gamemodel"

// The two choices of a move (which piece, which of its moves) are coded
// with the frequencies of the frozen move model (gamemodel.Freqs).

// encodeChoice codes choice idx of the scored choices (freq is scratch
// space).
func encodeChoice(e *rcEncoder, scores []int32, best int32, freq []uint32, idx int) {
	// One pass for the total and the choices before idx, as in gamemodel.Freqs.
	var total, cum, fi uint32
	for i, v := range scores {
		f := gamemodel.ChoiceFreq(best - v)
		if i == idx {
			cum, fi = total, f
		}
		total += f
	}
	if total >= gamemodel.MaxTotal {
		total = gamemodel.Freqs(scores, best, freq)
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
	total := gamemodel.Freqs(scores, best, freq)
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
