package book

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/keys"
	"github.com/chessbook/chessbook/polyglot"
	"github.com/chessbook/chessbook/stats"
	"github.com/chessbook/chessbook/store"
)

// Weighting is how an exported Polyglot book weighs a move.
type Weighting string

// The weightings.
const (
	// WeightScore is PolyGlot make-book's weight: 2 per win and 1 per draw
	// (or unknown result) for the side that played the move.
	WeightScore Weighting = "score"
	// WeightGames is the number of games that played the move
	// (popularity).
	WeightGames Weighting = "games"
	// WeightUniform gives every kept move weight 1 (make-book -uniform).
	WeightUniform Weighting = "uniform"
)

// ExportOptions select and weigh the entries of an exported Polyglot book,
// with make-book's meaning.
type ExportOptions struct {
	// MaxPly keeps moves played before this ply (counted from the game's
	// start, 0 for White's first move) in at least one game; 0 keeps all.
	// The store only knows each move's lowest ply, so a move counts with
	// all its games once it was played early enough in one of them; build
	// the store with -max-ply for make-book's exact counts.
	MaxPly int
	// MinGame keeps moves played at least this often (make-book's default
	// is 3).
	MinGame uint64
	// MinScore keeps moves whose score for the mover, (2W+D)/(2N), is at
	// least MinScore percent.
	MinScore float64
	// OnlyWhite and OnlyBlack keep only the positions where White,
	// respectively Black, is to move.
	OnlyWhite, OnlyBlack bool
	// Weighting is the weight of each move; "" means WeightScore.
	Weighting Weighting
}

// halvingLimit is the count at which PolyGlot halves every move of a
// position (see shared/spec/polyglot.md).
const halvingLimit = 16384

// halve emulates PolyGlot's halving on a position whose most played move
// was played maxN >= halvingLimit times. PolyGlot halves every move of the
// position each time one reaches halvingLimit: first when the most played
// move reaches it, then after each further halvingLimit/2 of its games. The
// store has the totals only, so the other moves are assumed to have been
// played evenly along the way; the most played move's count comes out
// exact, the others close.
func halve(cands []cand, maxN uint64) {
	var times []float64 // when each halving came, as a share of the games
	for t := uint64(halvingLimit); t <= maxN; t += halvingLimit / 2 {
		times = append(times, float64(t)/float64(maxN))
	}
	emulate := func(total uint64) uint64 {
		v, prev := 0.0, 0.0
		for _, f := range times {
			v = math.Floor(v + float64(total)*(f-prev) + 0.5)
			v = math.Floor((v + 1) / 2)
			prev = f
		}
		return uint64(math.Floor(v + float64(total)*(1-prev) + 0.5))
	}
	for i := range cands {
		cands[i].n, cands[i].sum = emulate(cands[i].n), emulate(cands[i].sum)
	}
}

// cand is a move of a position being exported, with its count and score.
type cand struct {
	me     *stats.MoveEntry
	n, sum uint64
}

// ExportStats are counters of an export.
type ExportStats struct {
	Positions int // positions read
	Entries   int // entries written
	Halved    int // positions whose counts were halved to fit
	// HalvedKeys are the Polyglot keys of the halved positions.
	HalvedKeys []uint64
}

// Export returns the store's moves as Polyglot entries, in book order:
// by key, then weight descending, then in the order the moves were first
// seen in the input (recorded by -count occurrence builds, as make-book's
// order is), else by move.
//
// Counts reaching 16384 are halved as PolyGlot halves them (see halve);
// PolyGlot does so as the games come, so at those few positions its counts,
// and the order of moves of close weight, depend on the order of the games.
func Export(ctx context.Context, st *store.Store, o ExportOptions) ([]polyglot.Entry, ExportStats, error) {
	if o.Weighting == "" {
		o.Weighting = WeightScore
	}
	var es ExportStats
	it, err := st.NewIter()
	if err != nil {
		return nil, es, err
	}
	defer it.Close()
	type ranked struct {
		polyglot.Entry
		seen uint64
		move board.Move
	}
	var out []ranked
	var entry stats.Entry
	var cands []cand
	for ok := it.First(); ok; ok = it.Next() {
		es.Positions++
		if es.Positions&0xffff == 0 {
			if err := ctx.Err(); err != nil {
				return nil, es, err
			}
		}
		if err := it.EntryInto(&entry); err != nil {
			return nil, es, err
		}
		// Filter on the counts before decoding the key: most positions
		// of a big store are seen once.
		cands = cands[:0]
		var maxN uint64
		for i := range entry.Moves {
			me := &entry.Moves[i]
			if o.MaxPly > 0 {
				if ply, known := me.MinPly(); known && ply >= o.MaxPly {
					continue
				}
			}
			n := me.Games()
			cands = append(cands, cand{me: me, n: n})
			maxN = max(maxN, n)
		}
		if len(cands) == 0 || maxN < o.MinGame {
			continue
		}
		p, err := keys.Decode(it.Key())
		if err != nil {
			return nil, es, fmt.Errorf("position key %x: %w (corrupt store?)", it.Key(), err)
		}
		white := p.SideToMove() == board.White
		if (o.OnlyWhite && !white) || (o.OnlyBlack && white) {
			continue
		}
		for i := range cands {
			cands[i].sum = cands[i].me.Score(white)
		}
		halved := maxN >= halvingLimit
		if halved {
			es.Halved++
			halve(cands, maxN)
		}
		key := polyglot.Key(&p)
		if halved {
			es.HalvedKeys = append(es.HalvedKeys, key)
		}
		for _, c := range cands {
			if c.n < o.MinGame || c.sum == 0 || c.n == 0 {
				continue
			}
			if o.MinScore > 0 && float64(c.sum)/float64(2*c.n) < o.MinScore/100 {
				continue
			}
			var w uint64
			switch o.Weighting {
			case WeightGames:
				w = c.n
			case WeightUniform:
				w = 1
			default:
				w = c.sum
			}
			out = append(out, ranked{
				Entry: polyglot.Entry{Key: key, Move: polyglot.EncodeMove(&p, c.me.Move), Weight: uint16(min(w, 65535))},
				seen:  c.me.FirstSeen, move: c.me.Move,
			})
		}
	}
	slices.SortFunc(out, func(a, b ranked) int {
		if c := polyglot.CompareEntries(a.Entry, b.Entry); c != 0 {
			return c
		}
		// Unknown first-seen stamps (0) go last.
		if a.seen != b.seen {
			switch {
			case a.seen == 0:
				return 1
			case b.seen == 0:
				return -1
			}
			return cmp.Compare(a.seen, b.seen)
		}
		return cmp.Compare(a.move, b.move)
	})
	entries := make([]polyglot.Entry, len(out))
	for i := range out {
		entries[i] = out[i].Entry
	}
	es.Entries = len(entries)
	return entries, es, nil
}
