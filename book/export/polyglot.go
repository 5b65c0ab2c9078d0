// Package export writes a store's book out: as a Polyglot opening book
// (Polyglot; WritePolyglot streams it to a file in bounded memory),
// counted as PolyGlot's make-book counts when the store was built as
// make-book builds (Options.Check and DiffersFromMakeBook say when it was
// not), and as a dump of every position with its statistics, in NDJSON or
// CSV (Positions).
package export

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"slices"
	"strings"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/book"
	"github.com/chessbook/chessbook/internal/scratch"
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

// Options select and weigh the entries of an exported Polyglot book,
// with make-book's meaning.
type Options struct {
	// MaxPly keeps moves played before this ply (counted from White's
	// first move by the games' move numbers: a game set up from a FEN at
	// move 20 starts at ply 38) in at least one game; 0 keeps all. On a
	// -count occurrence store it must be at least the build's max-ply
	// (see Check) and keeps every move: the build's limit,
	// counted from each game's start as make-book counts, applies.
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
	// Progress, when not nil, is called now and then with what is being
	// read, how many so far and how many in all (see
	// book.PositionsOptions).
	Progress func(what string, done, total int64)
	// limits, when not nil, replace the sort's chunk size and count its
	// runs (tests: see entrySorter).
	limits *sortLimits
}

// Check reports what is wrong with o, for a store of metadata m, in the
// terms of bookquery export's flags: -only-white with -only-black, a
// negative -max-ply, a -min-score that is no percentage, and a -max-ply
// below the build's on a -count occurrence store, which counts every
// occurrence of a position in the build's plies of each game: Polyglot
// could not drop the occurrences past o.MaxPly of a position first
// reached before it, as make-book -max-ply does. With the zero Meta it
// checks the options alone. Polyglot itself assumes o is sound.
func (o *Options) Check(m store.Meta) error {
	switch {
	case o.OnlyWhite && o.OnlyBlack:
		return errors.New("-only-white and -only-black exclude each other")
	case o.MaxPly < 0:
		return fmt.Errorf("-max-ply %d: must be 0 (all) or more", o.MaxPly)
	case o.MinScore < 0 || o.MinScore > 100:
		return fmt.Errorf("-min-score %g: want a percentage, 0 to 100", o.MinScore)
	}
	if o.MaxPly > 0 && m.CountMode == store.CountOccurrence && (m.MaxPly == 0 || o.MaxPly < m.MaxPly) {
		built := "all plies"
		if m.MaxPly > 0 {
			built = fmt.Sprintf("the first %d plies", m.MaxPly)
		}
		return fmt.Errorf("-max-ply %d: this store counts every occurrence of a position in %s of each game, and export cannot drop the occurrences past ply %d of a position first reached before it, as make-book -max-ply %d does; build a store with 'bookbuild -max-ply %d -count occurrence -keep-duplicates' and export it without -max-ply",
			o.MaxPly, built, o.MaxPly, o.MaxPly, o.MaxPly)
	}
	return nil
}

// DiffersFromMakeBook says how a book exported from a store of metadata m
// differs from make-book's book of the same games, "" when the store
// counts as make-book does (-count occurrence -keep-duplicates).
func DiffersFromMakeBook(m store.Meta) string {
	var how []string
	if m.CountMode != store.CountOccurrence {
		how = append(how, "counts a game once per position (-count game), where make-book counts every visit")
	}
	if !m.KeepDuplicates {
		how = append(how, "counts the copies of a game once (duplicates dropped), where make-book counts every copy")
	}
	if len(how) == 0 {
		return ""
	}
	return fmt.Sprintf("this store %s: its book weighs moves by those counts and may keep or drop other moves than make-book's; "+
		"for make-book's book, build the store with 'bookbuild -count occurrence -keep-duplicates'", strings.Join(how, ", and "))
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

// cand is a move of a position being exported, with its count, score and
// first-seen stamp.
type cand struct {
	move   board.Move
	n, sum uint64
	seen   uint64
}

// Stats are counters of an export.
type Stats struct {
	Positions int // positions read: those that may have -min-game games (see book.Positions)
	Entries   int // entries written
	Halved    int // Polyglot positions whose counts were halved to fit
	// HalvedKeys are the Polyglot keys of the halved positions.
	HalvedKeys []uint64
	// EPSplit counts the Polyglot positions written under an en-passant
	// file that the store's canonical key drops (see Polyglot).
	EPSplit int
	// Replayed counts the stored positions whose counts were taken from
	// a replay of the games in input order (see Polyglot).
	Replayed int
	// Estimated counts the stored positions that needed that replay but
	// could not have it (a store without a complete game order index:
	// built with -count game or by an older version); their counts were
	// estimated, and may differ from make-book's. Warning then says so.
	Estimated int
	Warning   string
}

// epRec is an en-passant side record: the occurrences of a position that
// PolyGlot files under the key with en-passant file file.
type epRec struct {
	file  int
	entry stats.Entry
}

// Polyglot returns the store's moves as Polyglot entries, in book order:
// by key, then weight descending, then in the order the moves were first
// seen in the input (recorded by -count occurrence builds, as make-book's
// order is), else by move.
//
// A position whose en-passant side records (see package store) say that
// PolyGlot filed some of its occurrences under a key with an en-passant
// file is written under each of those keys with the side record's counts,
// and under its own key with the rest.
//
// PolyGlot halves the counts of a position each time one of its moves
// reaches 16384, as the games come, so its counts there depend on the
// order of the games. At those positions (and at en-passant splits whose
// weight ties depend on which occurrence came first) Polyglot replays the
// stored games in input order, from the game order index that -count
// occurrence builds write, and counts exactly as make-book does; each
// game is replayed, on two goroutines, only while it can still reach one
// of those positions (see board.Reach). Without the index the
// halving is estimated (see halve) and ExportStats.Warning says so.
//
// Polyglot holds the whole book in memory; PolyglotTo and WritePolyglot
// stream it.
func Polyglot(ctx context.Context, st *store.Store, o Options) ([]polyglot.Entry, Stats, error) {
	entries := []polyglot.Entry{}
	es, err := PolyglotTo(ctx, st, o, func(e polyglot.Entry) error {
		entries = append(entries, e)
		return nil
	})
	if err != nil {
		return nil, es, err
	}
	return entries, es, nil
}

// WritePolyglot writes the store's book (see Polyglot) at path, as
// WriteBook does, atomically, streaming the entries: its memory does not
// grow with the book.
func WritePolyglot(ctx context.Context, st *store.Store, o Options, path string) (Stats, error) {
	var es Stats
	err := WriteBookFunc(path, func(add func(polyglot.Entry) error) error {
		var err error
		es, err = PolyglotTo(ctx, st, o, add)
		return err
	})
	return es, err
}

// PolyglotTo calls fn with the store's book entries in book order (see
// Polyglot), and returns the export's counters once fn has had them all.
// The entries are sorted in bounded memory: past a few million they are
// sorted in runs spilled to temporary files, then merged. The runs that
// killed exports left in the temporary directory are removed first.
func PolyglotTo(ctx context.Context, st *store.Store, o Options, fn func(polyglot.Entry) error) (Stats, error) {
	if o.Weighting == "" {
		o.Weighting = WeightScore
	}
	var es Stats
	eps := map[string][]epRec{}
	err := st.EPRecords(func(file int, pos []byte, e *stats.Entry) error {
		eps[string(pos)] = append(eps[string(pos)], epRec{file: file, entry: e.Clone()})
		return nil
	})
	if err != nil {
		return es, err
	}
	// The spilled runs that killed exports left.
	scratch.RemoveStale(os.TempDir(), spillPattern)
	x := exporter{o: o, sort: entrySorter{limits: o.limits}}
	defer x.sort.close()
	if m := st.Meta(); m.CountMode == store.CountOccurrence && m.MaxPly > 0 && o.MaxPly >= m.MaxPly {
		// Every move recorded was played before the build's max-ply
		// from its game's start, as make-book counts: the lowest plies,
		// counted by move numbers, must not drop a set-up game's moves.
		x.o.MaxPly = 0
	}
	// The replay needs the game order index; it is read only if needed.
	var (
		canReplay bool
		checked   bool
		deferred  [][]byte
	)
	var cands []cand
	err = book.PositionsWith(ctx, st, book.PositionsOptions{MinGames: o.MinGame, PerMove: true, Progress: o.Progress}, func(key []byte, entry *stats.Entry) error {
		es.Positions++
		// Filter on the counts before decoding the key: most positions
		// of a big store are seen once.
		var maxN uint64
		for i := range entry.Moves {
			maxN = max(maxN, entry.Moves[i].Games())
		}
		if maxN < o.MinGame {
			return nil
		}
		sides := eps[string(key)]
		halving := maxN >= halvingLimit
		if halving || (len(sides) > 0 && epTieUnknown(entry, sides)) {
			if !checked {
				checked = true
				if st.Meta().CountMode == store.CountOccurrence {
					var err error
					if canReplay, err = orderComplete(st); err != nil {
						return err
					}
				}
			}
			if canReplay {
				deferred = append(deferred, slices.Clone(key))
				return nil
			}
			es.Estimated++
		}
		p, err := keys.Decode(key)
		if err != nil {
			return fmt.Errorf("position key %x: %w (corrupt store?)", key, err)
		}
		white := p.SideToMove() == board.White
		if (o.OnlyWhite && !white) || (o.OnlyBlack && white) {
			return nil
		}
		// The occurrences PolyGlot files under en-passant keys, then
		// the rest under the position's own key.
		rest := entry
		if len(sides) > 0 {
			c := entry.Clone()
			rest = &c
		}
		for _, sr := range sides {
			q := p
			q.SetEPSquare(board.MakeSquare(sr.file, epRank(white)))
			cands = x.cands(cands[:0], &sr.entry, white)
			kept, err := x.add(&q, polyglot.Key(&q), cands, &es)
			if err != nil {
				return err
			}
			if kept {
				es.EPSplit++
			}
			subtract(rest, &sr.entry)
		}
		cands = x.cands(cands[:0], rest, white)
		_, err = x.add(&p, polyglot.Key(&p), cands, &es)
		return err
	})
	if err != nil {
		return es, err
	}
	eps = nil
	if len(deferred) > 0 {
		maxPly := st.Meta().MaxPly
		if o.MaxPly > 0 && (maxPly == 0 || o.MaxPly < maxPly) {
			maxPly = o.MaxPly
		}
		sims, err := countInInputOrder(ctx, st, deferred, maxPly)
		if err != nil {
			return es, err
		}
		es.Replayed = len(deferred)
		if err := x.addReplayed(sims, &es); err != nil {
			return es, err
		}
	}
	if es.Estimated > 0 {
		es.Warning = fmt.Sprintf("%d positions needed a replay of the games in input order to match make-book exactly (counts halved at 16384, or en-passant ties), but the store has no complete game order index (built with -count game, or by an older version): their counts were estimated", es.Estimated)
	}
	// Nothing but the sorted entries is live from here on: the
	// positions' replay and join are done.
	err = x.sort.each(ctx, func(e polyglot.Entry) error {
		es.Entries++
		return fn(e)
	})
	return es, err
}

// epRank returns the rank (0-based) of the en-passant square when white
// (or Black, if false) is to move: the square the other side's pawn just
// skipped.
func epRank(white bool) int {
	if white {
		return 5
	}
	return 2
}

// ranked is an exported entry with what orders weight ties.
type ranked struct {
	polyglot.Entry
	seen uint64
	move board.Move
}

// exporter collects the entries of an export.
type exporter struct {
	o    Options
	sort entrySorter
}

// cands appends the moves of e, from a position where White is to move if
// white, to dst, with their counts and make-book scores, leaving out the
// moves played only from MaxPly on.
func (x *exporter) cands(dst []cand, e *stats.Entry, white bool) []cand {
	for i := range e.Moves {
		me := &e.Moves[i]
		n := me.Games()
		if n == 0 {
			continue
		}
		if ply, known := me.MinPly(); x.o.MaxPly > 0 && known && ply >= x.o.MaxPly {
			continue
		}
		dst = append(dst, cand{move: me.Move, n: n, sum: me.Score(white), seen: me.FirstSeen})
	}
	return dst
}

// add filters the moves cands of position p, whose Polyglot key is key,
// as make-book does, and adds the ones kept to the book; it reports
// whether it kept any. With es, counts that reach the halving limit are
// halved (an estimate) and counted in es; without, they were already
// counted exactly.
func (x *exporter) add(p *board.Position, key uint64, cands []cand, es *Stats) (bool, error) {
	if len(cands) == 0 {
		return false, nil
	}
	if es != nil {
		var maxN uint64
		for _, c := range cands {
			maxN = max(maxN, c.n)
		}
		if maxN >= halvingLimit {
			es.Halved++
			es.HalvedKeys = append(es.HalvedKeys, key)
			halve(cands, maxN)
		}
	}
	kept := false
	for _, c := range cands {
		if c.n < x.o.MinGame || c.sum == 0 || c.n == 0 {
			continue
		}
		if x.o.MinScore > 0 && float64(c.sum)/float64(2*c.n) < x.o.MinScore/100 {
			continue
		}
		var w uint64
		switch x.o.Weighting {
		case WeightGames:
			w = c.n
		case WeightUniform:
			w = 1
		default:
			w = c.sum
		}
		err := x.sort.add(ranked{
			Entry: polyglot.Entry{Key: key, Move: polyglot.EncodeMove(p, c.move), Weight: uint16(min(w, 65535))},
			seen:  c.seen, move: c.move,
		})
		if err != nil {
			return kept, err
		}
		kept = true
	}
	return kept, nil
}

// addReplayed adds the positions counted by a replay of the games in
// input order (see countInInputOrder): their counts are make-book's already, halving
// included.
func (x *exporter) addReplayed(sims map[uint64]*simPos, es *Stats) error {
	var cands []cand
	for _, s := range sims {
		white := s.pos.SideToMove() == board.White
		if (x.o.OnlyWhite && !white) || (x.o.OnlyBlack && white) {
			continue
		}
		cands = cands[:0]
		for _, m := range s.moves {
			cands = append(cands, cand{move: m.move, n: m.n, sum: m.sum, seen: m.seen})
		}
		if s.halved > 0 {
			es.Halved++
			es.HalvedKeys = append(es.HalvedKeys, s.key)
		}
		kept, err := x.add(&s.pos, s.key, cands, nil)
		if err != nil {
			return err
		}
		if kept && s.pos.PolyglotEPFile() >= 0 && s.pos.LegalEPSquare() == board.NoSquare {
			es.EPSplit++
		}
	}
	slices.Sort(es.HalvedKeys)
	return nil
}

// subtract removes the counts of the side record side from e: the moves'
// result counters and rating sums. Dates, plies, first-seen stamps and
// game references stay e's (an upper bound of what is left).
func subtract(e *stats.Entry, side *stats.Entry) {
	for _, sm := range side.Moves {
		i := slices.IndexFunc(e.Moves, func(m stats.MoveEntry) bool { return m.Move == sm.Move })
		if i < 0 {
			continue
		}
		m := &e.Moves[i]
		m.WhiteWins -= min(m.WhiteWins, sm.WhiteWins)
		m.Draws -= min(m.Draws, sm.Draws)
		m.BlackWins -= min(m.BlackWins, sm.BlackWins)
		m.Unknown -= min(m.Unknown, sm.Unknown)
		m.RatingSum -= min(m.RatingSum, sm.RatingSum)
		m.RatingCount -= min(m.RatingCount, sm.RatingCount)
	}
}

// epTieUnknown reports whether the first occurrence under the position's
// own Polyglot key is unknown for a move that is left there once the side
// records are taken out: the position's first-seen stamp is a side
// record's, so the rest came later, by an unknown amount. Only a replay
// can then order the move's weight ties.
func epTieUnknown(e *stats.Entry, sides []epRec) bool {
	for _, m := range e.Moves {
		left := m.Games()
		seenInSide := false
		for _, sr := range sides {
			if sm, ok := sr.entry.Lookup(m.Move); ok {
				left -= min(left, sm.Games())
				if sm.FirstSeen != 0 && sm.FirstSeen == m.FirstSeen {
					seenInSide = true
				}
			}
		}
		if left > 0 && seenInSide {
			return true
		}
	}
	return false
}
