// Package train measures and trains gamecode's model (package gamemodel):
// Stats counts the symbols of games and the code lengths of their moves,
// Trainer fits the move weights, Stats.WriteTables writes the frozen
// tables. The measuring tool (internal/measure) is its one user; the
// record format never depends on it.
package train

import (
	"cmp"
	"math"
	"slices"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/gamecode/internal/gamemodel"
	"github.com/chessbook/chessbook/pgn"
)

// Trainer fits the weights of the move model to games by maximum
// likelihood: the piece that moves and its destination are each chosen
// with a probability proportional to the exponential of the choice's
// score, the sum of its features' weights. It is the training tool behind
// the frozen weights; the format never depends on it.
type Trainer struct {
	games       []trainGame
	piece, dest softmax
	sc          gamemodel.Scorer
	pos         board.Position
}

type trainGame struct {
	file  string
	line  int
	start board.Position
	moves []board.Move
}

// softmax is a log-linear model over choices with sparse binary features,
// trained by AdaGrad.
type softmax struct {
	w, g2, grad []float64
	touch       []int
	prob        []float64
}

func newSoftmax(n int) softmax {
	return softmax{w: make([]float64, n), g2: make([]float64, n), grad: make([]float64, n)}
}

// step makes one AdaGrad step (none for rate 0) for a choice among the
// feature lists of feats (one per option) of option idx, and returns its
// loss in bits.
func (m *softmax) step(feats [][]uint16, idx int, rate float64) float64 {
	n := len(feats)
	if n <= 1 {
		return 0
	}
	m.prob = slices.Grow(m.prob[:0], n)[:n]
	best := math.Inf(-1)
	for i, f := range feats {
		var s float64
		for _, j := range f {
			s += m.w[j]
		}
		m.prob[i] = s
		best = max(best, s)
	}
	var z float64
	for i := range m.prob {
		m.prob[i] = math.Exp(m.prob[i] - best)
		z += m.prob[i]
	}
	loss := -math.Log2(m.prob[idx] / z)
	if rate == 0 {
		return loss
	}
	m.touch = m.touch[:0]
	for i, f := range feats {
		p := m.prob[i] / z
		if i == idx {
			p--
		}
		for _, j := range f {
			if m.grad[j] == 0 {
				m.touch = append(m.touch, int(j))
			}
			m.grad[j] += p
			if m.grad[j] == 0 {
				m.grad[j] = 1e-300 // keep it listed once
			}
		}
	}
	for _, j := range m.touch {
		g := m.grad[j]
		m.grad[j] = 0
		m.g2[j] += g * g
		m.w[j] -= rate * g / math.Sqrt(m.g2[j]+1e-8)
	}
	return loss
}

// weights returns the weights as the integers of a frozen table.
func (m *softmax) weights() []int32 {
	w := make([]int32, len(m.w))
	for i, v := range m.w {
		w[i] = int32(math.Round(v * gamemodel.ScoreScale))
	}
	return w
}

// NewTrainer returns a Trainer with all weights zero.
func NewTrainer() *Trainer {
	return &Trainer{piece: newSoftmax(gamemodel.NumPieceWeights), dest: newSoftmax(gamemodel.NumDestWeights)}
}

// Add keeps a copy of the start and moves of g for training.
func (t *Trainer) Add(g *pgn.Game) {
	t.games = append(t.games, trainGame{g.File, g.Line, g.Start, slices.Clone(g.Moves)})
}

// Merge moves o's games into t.
func (t *Trainer) Merge(o *Trainer) {
	t.games = append(t.games, o.games...)
	o.games = nil
}

// Games returns the number of games kept.
func (t *Trainer) Games() int { return len(t.games) }

// sortGames puts the games in a deterministic order.
func (t *Trainer) sortGames() {
	slices.SortStableFunc(t.games, func(a, b trainGame) int {
		return cmp.Or(cmp.Compare(a.file, b.file), cmp.Compare(a.line, b.line))
	})
}

// Epoch makes one pass of AdaGrad over the games (in file and line order)
// with the given learning rate and returns the mean loss in bits per ply
// of the piece and of the destination choices (forced choices count as
// zero) measured along the way.
func (t *Trainer) Epoch(rate float64) (piece, dest float64) {
	t.sortGames()
	var plies int64
	var pf, df [][]uint16
	sc := &t.sc
	for gi := range t.games {
		g := &t.games[gi]
		t.pos = g.start
		pos := &t.pos
		var h gamemodel.History
		for _, m := range g.moves {
			np := sc.Score(pos, &h)
			k := sc.PieceOf(np, m)
			pf = pf[:0]
			for i := range sc.Pieces[:np] {
				f := sc.PieceFeatures(&sc.Pieces[i])
				pf = append(pf, f[:])
			}
			if k < 0 {
				break // illegal move: skip the rest of the game
			}
			nd := sc.Dests(&sc.Pieces[k])
			j := -1
			df = df[:0]
			for i, dm := range sc.Moves[:nd] {
				if dm == m {
					j = i
				}
				f := sc.DestFeatures(&sc.Pieces[k], dm)
				df = append(df, f[:])
			}
			if j < 0 {
				break
			}
			plies++
			piece += t.piece.step(pf, k, rate)
			dest += t.dest.step(df, j, rate)
			h.Play(pos, m)
		}
	}
	if plies == 0 {
		return 0, 0
	}
	return piece / float64(plies), dest / float64(plies)
}

// PieceWeights returns the piece weights as the integers of the frozen
// table.
func (t *Trainer) PieceWeights() []int32 { return t.piece.weights() }

// DestWeights returns the destination weights (see PieceWeights).
func (t *Trainer) DestWeights() []int32 { return t.dest.weights() }
