package book

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/gamecode"
	"github.com/chessbook/chessbook/keys"
	"github.com/chessbook/chessbook/pgn"
	"github.com/chessbook/chessbook/stats"
	"github.com/chessbook/chessbook/store"
)

// A store keeps a position reached by a single game as a single reference
// to that game rather than as a statistics record (see
// store.SSTWriter.MergeSingles):
// the position's statistics are what the game adds to it, which the
// functions here rebuild by replaying the game with the builder's rules.
// Every reader of positions goes through Entry or Positions.

// newOccurrence returns what game g, stored as id, adds to each position
// it counts, but for the ply and the mover's rating: white and black are
// the players' ratings and date the game's date.
func newOccurrence(g *pgn.Game, id store.GameID, white, black int, date stats.Date) stats.Occurrence {
	return occurrenceOf(g.Result, gameCell(g, white, black), id, white, black, date)
}

// occurrenceOf is newOccurrence for a game whose result and cell (see
// gameCell) are known.
func occurrenceOf(r pgn.Result, cell stats.Cell, id store.GameID, white, black int, date stats.Date) stats.Occurrence {
	return stats.Occurrence{Result: r, Date: date, Cell: cell,
		Game: stats.GameRef{ID: uint64(id), Rating: averageRating(white, black), Date: date}}
}

// setPly completes occ, what a game adds to the positions it counts, for
// the move played at ply ply of the game (from 0) by side, from a
// position at ply absPly of the whole game (see plyOf): the lowest-ply
// statistic takes absPly, the first-seen stamp from the game's stamp (0:
// none) takes ply; and the mover's rating (white and black are the
// players').
func setPly(occ *stats.Occurrence, ply, absPly int, side board.Color, white, black int, stamp uint64) {
	occ.Ply = absPly
	occ.MoverRating = white
	if side == board.Black {
		occ.MoverRating = black
	}
	if stamp != 0 {
		occ.Seen = stamp | uint64(min(ply, 1<<12-1))
	}
}

// plyOf returns the ply of position p in its game, counted from White's
// first move (ply 0) by p's move number and side to move: a game set up
// from a FEN at move 20 with White to move starts at ply 38, as a game
// from the start position reaches that move at ply 38.
func plyOf(p *board.Position) int {
	ply := 2 * (p.FullMoveNumber() - 1)
	if p.SideToMove() == board.Black {
		ply++
	}
	return ply
}

// gameRatings returns the players' ratings and the date of g, as the
// builder reads them.
func gameRatings(g *pgn.Game) (white, black int, date stats.Date) {
	return rating(g.Tag("WhiteElo")), rating(g.Tag("BlackElo")), stats.ParseDate(string(g.Tag("Date")))
}

// Entry returns the statistics of the position with key pos: its
// statistics record merged with the contribution of every game kept as a
// single reference to it. found is false when the store knows nothing of
// the position.
func Entry(st *store.Store, pos []byte) (e stats.Entry, found bool, err error) {
	found, err = EntryInto(st, &e, pos)
	return e, found, err
}

// EntryInto is Entry into e, whose memory it reuses.
func EntryInto(st *store.Store, e *stats.Entry, pos []byte) (bool, error) {
	found, err := st.StatsRecordInto(e, pos)
	if err != nil {
		return false, err
	}
	single, err := addSingles(st, e, pos)
	return found || single, err
}

// addSingles adds to e the contribution of every game kept as a single
// reference to position pos, and returns whether there was one.
func addSingles(st *store.Store, e *stats.Entry, pos []byte) (found bool, err error) {
	return eachSingle(st, pos, func(mv board.Move, occ *stats.Occurrence) { e.AddOccurrence(mv, occ) })
}

// eachSingle calls fn with the move played and what is counted for each
// game kept as a single reference to position pos (games referenced under
// its hash for another position are passed over), and reports whether
// there was one.
func eachSingle(st *store.Store, pos []byte, fn func(mv board.Move, occ *stats.Occurrence)) (found bool, err error) {
	m := st.Meta()
	var key []byte
	p, err := keys.Decode(pos)
	if err != nil {
		return false, nil // not a position: no game reaches it
	}
	target := keys.Hash(&p)
	err = st.SinglesOf(store.SingleHashOf(target), func(num uint64) error {
		id, stamp, err := st.GameByNumber(num)
		if err != nil {
			return fmt.Errorf("single reference of position %x: %w", pos, err)
		}
		rec, err := st.Game(id)
		if err != nil {
			return fmt.Errorf("single reference of position %x: %w", pos, err)
		}
		var occ stats.Occurrence
		var mv board.Move
		key, mv, occ, err = visit(rec, id, stamp, pos, target, m.MaxPly, key)
		if err != nil {
			return fmt.Errorf("single reference of position %x: game %s: %w", pos, id, err)
		}
		if occ.Game.ID != 0 {
			found = true
			fn(mv, &occ)
		}
		return nil
	})
	return found, err
}

// visit looks for the first visit of the position with key pos (whose
// keys.Hash is hash) in the game whose record is rec (stored as id, with
// first-seen stamp stamp) within maxPly plies (0: all), and returns the
// move the game played there and what it adds, as the builder counts it;
// a zero occurrence if the game never reaches pos. It decodes the record
// only as far as it needs, and keys only the positions with the hash. key
// is scratch space, returned for reuse.
func visit(rec []byte, id store.GameID, stamp uint64, pos []byte, hash uint64, maxPly int, key []byte) ([]byte, board.Move, stats.Occurrence, error) {
	var (
		hit         bool
		ply, absPly int
		side        board.Color
		mv          board.Move
	)
	g, err := gamecode.DecodeGameUntil(rec, func(n int, p *board.Position, m board.Move) bool {
		if maxPly > 0 && n >= maxPly {
			return true
		}
		if keys.Hash(p) != hash {
			return false
		}
		key = keys.Append(key[:0], p)
		if bytes.Equal(key, pos) {
			hit, ply, absPly, side, mv = true, n, plyOf(p), p.SideToMove(), m
			return true
		}
		return false
	})
	if err != nil || !hit {
		return key, 0, stats.Occurrence{}, err
	}
	white, black, date := gameRatings(&g)
	occ := newOccurrence(&g, id, white, black, date)
	setPly(&occ, ply, absPly, side, white, black, stamp)
	return key, mv, occ, nil
}

// Positions calls fn with every position of the store that at least
// minGames games may have reached (0 or 1: every position), with its
// statistics (see Entry): those with a statistics record (whatever their
// games), in the byte order of position keys; then those that several
// single references reach (one game per flush), in key order; then, when
// minGames is 0 or 1, every position reached by one game only, in the
// order of the games' numbers. A few positions of fewer games may be
// listed: callers filter on the statistics. pos and e are only valid during
// the call. Positions reached by one game are typically most of a store:
// a caller that wants only positions of at least two games skips
// replaying every stored game, and the higher minGames, the fewer games
// it replays.
//
// The single references are read in one pass, in hash order, and joined
// with the hashes of the statistics records (held in memory), rather than
// looked up once per position.
func Positions(ctx context.Context, st *store.Store, minGames uint64, fn func(pos []byte, e *stats.Entry) error) error {
	return PositionsWith(ctx, st, PositionsOptions{MinGames: minGames}, fn)
}

// PositionsOptions are the options of PositionsWith.
type PositionsOptions struct {
	// MinGames is Positions' minGames.
	MinGames uint64
	// LimitPly, with MaxPly, asks only for the positions reached at ply
	// MaxPly or earlier (counted as plyOf counts, from White's first
	// move), each with all its statistics: the games are replayed only
	// that far, but for those that reach, under the same hash, a position
	// reached by then, which are replayed in full. Positions with a
	// statistics record first reached later are still listed, with the
	// statistics of their record alone: callers filter on the lowest ply.
	// With MinGames 0 or 1, the positions of one game come first: their
	// replays find the others reached by the limit.
	LimitPly bool
	MaxPly   int
	// Progress, when not nil, is called now and then with what is being
	// read ("positions with statistics read", "games replayed"), how many
	// so far and how many in all (0: not known).
	Progress func(what string, done, total int64)
}

// PositionsWith is Positions with options: a ply limit, progress.
func PositionsWith(ctx context.Context, st *store.Store, o PositionsOptions, fn func(pos []byte, e *stats.Entry) error) error {
	minGames := o.MinGames
	progress := o.Progress
	if progress == nil {
		progress = func(string, int64, int64) {}
	}
	limit := -1 // the last ply wanted, -1: all
	if o.LimitPly {
		limit = max(o.MaxPly, 0)
	}
	// The hashes of the statistics records, and with a limit those of
	// the records reached by then.
	pHashes := map[uint32][]uint64{} // -> the numbers of the games referenced under it
	near := map[uint32]bool{}
	err := positionKeys(ctx, st, limit >= 0, func(pos []byte, e *stats.Entry) {
		h := store.SingleHash(pos)
		pHashes[h] = nil
		if e != nil {
			if ply, ok := e.Total().MinPly(); ok && ply <= limit {
				near[h] = true
			}
		}
	})
	if err != nil {
		return err
	}
	records := int64(len(pHashes))
	// One pass over the references: those under the hash of a statistics
	// record, and how many there are and under which hashes several.
	var total int
	var last store.SingleRef
	multi := map[uint32][]uint64{} // hashes several games are referenced under -> their numbers
	err = st.AllSingles(func(r store.SingleRef) (bool, error) {
		if nums, ok := pHashes[r.Hash]; ok {
			pHashes[r.Hash] = append(nums, r.Game)
		}
		if total > 0 && r.Hash == last.Hash {
			if len(multi[r.Hash]) == 0 {
				multi[r.Hash] = append(multi[r.Hash], last.Game)
			}
			multi[r.Hash] = append(multi[r.Hash], r.Game)
		}
		total++
		last = r
		return true, nil
	})
	if err != nil {
		return err
	}
	singles := singleReplayer{st: st, maxPly: st.Meta().MaxPly, limit: -1, pHashes: pHashes, multi: multi, fn: fn, progress: progress}
	complete := false // near holds every hash of a position reached by the limit
	if limit >= 0 && minGames <= 1 {
		// The positions of one game first: their replays, cut at the
		// limit, also find every position reached by then under the
		// hashes of the others.
		singles.limit, singles.reached = limit, near
		if err := singles.singlePositions(ctx, total); err != nil {
			return err
		}
		complete = true
	}
	// The games referenced under those hashes, each replayed once: what
	// they add to the positions with statistics records.
	extra, err := gamesAt(ctx, st, pHashes, limit, near, complete)
	if err != nil {
		return err
	}
	it, err := st.NewStatsIter()
	if err != nil {
		return err
	}
	var e stats.Entry
	n := 0
	for ok := it.First(); ok; ok = it.Next() {
		if n++; n%4096 == 0 && ctx.Err() != nil {
			_ = it.Close()
			return ctx.Err()
		}
		if err := it.EntryInto(&e); err != nil {
			_ = it.Close()
			return err
		}
		if x := extra[string(it.Key())]; x != nil {
			e.Merge(*x)
		}
		if err := fn(it.Key(), &e); err != nil {
			_ = it.Close()
			return err
		}
		if n%4096 == 0 {
			progress("positions with statistics read", int64(n), records)
		}
	}
	if err := it.Close(); err != nil {
		return err
	}
	progress("positions with statistics read", int64(n), records)
	// Positions with no statistics record that several games reach, one
	// per flush (each a single reference): their games replayed once;
	// only under hashes with enough references to reach minGames.
	wanted := multi
	if minGames > 2 {
		wanted = map[uint32][]uint64{}
		for h, nums := range multi {
			if uint64(len(nums)) >= minGames {
				wanted[h] = nums
			}
		}
	}
	several, err := gamesAt(ctx, st, wanted, limit, near, complete)
	if err != nil {
		return err
	}
	for _, k := range slices.Sorted(maps.Keys(several)) {
		if _, ok := pHashes[store.SingleHash([]byte(k))]; ok {
			found, err := st.StatsRecordInto(&e, []byte(k))
			if err != nil {
				return err
			}
			if found {
				continue // reported with the statistics records
			}
		}
		if err := fn([]byte(k), several[k]); err != nil {
			return err
		}
	}
	if minGames > 1 {
		return nil
	}
	if complete {
		return nil // listed first
	}
	return singles.singlePositions(ctx, total)
}

// positionKeys calls fn with the key of every statistics record, and with
// its statistics when withEntry is set (else nil).
func positionKeys(ctx context.Context, st *store.Store, withEntry bool, fn func(pos []byte, e *stats.Entry)) error {
	it, err := st.NewStatsIter()
	if err != nil {
		return err
	}
	var e *stats.Entry
	if withEntry {
		e = &stats.Entry{}
	}
	n := 0
	for ok := it.First(); ok; ok = it.Next() {
		if n++; n%4096 == 0 && ctx.Err() != nil {
			_ = it.Close()
			return ctx.Err()
		}
		if e != nil {
			if err := it.EntryInto(e); err != nil {
				_ = it.Close()
				return err
			}
		}
		fn(it.Key(), e)
	}
	return it.Close()
}

// gamesAt replays every game referenced under a hash of hashes (hash ->
// game numbers) once, and returns what they add to each position they
// counted under those hashes (those the caller wants, and others with the
// same hash, which it ignores).
//
// With a limit (a ply, -1 for none) only the hashes of positions reached
// by then count: those of near, and (unless complete says that near holds
// them already) those under which a game, replayed up to the limit,
// reaches a position. The games under them are replayed in full: the
// positions reached by the limit are counted whole.
func gamesAt(ctx context.Context, st *store.Store, hashes map[uint32][]uint64, limit int, near map[uint32]bool, complete bool) (map[string]*stats.Entry, error) {
	if limit >= 0 && complete {
		wanted := map[uint32][]uint64{}
		for h, nums := range hashes {
			if near[h] {
				wanted[h] = nums
			}
		}
		hashes = wanted
	} else if limit >= 0 {
		reached := map[uint32]bool{}
		for h := range near {
			reached[h] = true
		}
		r := singleReplayer{st: st, maxPly: st.Meta().MaxPly, limit: limit}
		err := eachGameAt(ctx, st, hashes, func(id store.GameID, stamp uint64, hs []uint32) error {
			return r.replay(id, stamp, func(h uint32) bool {
				_, ok := slices.BinarySearch(hs, h)
				return ok
			}, func(_ []byte, h uint32, _ board.Move, _ *stats.Occurrence) error {
				reached[h] = true
				return nil
			})
		})
		if err != nil {
			return nil, err
		}
		wanted := map[uint32][]uint64{}
		for h, nums := range hashes {
			if reached[h] {
				wanted[h] = nums
			}
		}
		hashes = wanted
	}
	extra := map[string]*stats.Entry{}
	r := singleReplayer{st: st, maxPly: st.Meta().MaxPly, limit: -1}
	err := eachGameAt(ctx, st, hashes, func(id store.GameID, stamp uint64, hs []uint32) error {
		return r.replay(id, stamp, func(h uint32) bool {
			_, ok := slices.BinarySearch(hs, h)
			return ok
		}, func(pos []byte, _ uint32, mv board.Move, occ *stats.Occurrence) error {
			e := extra[string(pos)]
			if e == nil {
				e = &stats.Entry{}
				extra[string(pos)] = e
			}
			e.AddOccurrence(mv, occ)
			return nil
		})
	})
	if err != nil {
		return nil, err
	}
	return extra, nil
}

// eachGameAt calls fn once with each game referenced under a hash of
// hashes (hash -> game numbers), in the order of the games' numbers, with
// the hashes it is referenced under, in order.
func eachGameAt(ctx context.Context, st *store.Store, hashes map[uint32][]uint64, fn func(id store.GameID, stamp uint64, hs []uint32) error) error {
	games := map[uint64][]uint32{} // game number -> the hashes it is referenced under
	for h, nums := range hashes {
		for _, num := range nums {
			games[num] = append(games[num], h)
		}
	}
	for _, num := range slices.Sorted(maps.Keys(games)) {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		id, stamp, err := st.GameByNumber(num)
		if err != nil {
			return fmt.Errorf("single reference: %w", err)
		}
		hs := games[num]
		slices.Sort(hs)
		if err := fn(id, stamp, hs); err != nil {
			return err
		}
	}
	return nil
}

// singleChunk is the most single references singlePositions holds in
// memory at once (8 bytes each); a store with more is listed in several
// passes over its games.
const singleChunk = 32 << 20

// singlePositions calls r.fn with every position that only single
// references reach, once each. It replays every numbered game and reports
// each position the game counted and holds a single reference for, unless
// it has a statistics record (Positions reported it). total is the number
// of references, r.pHashes holds the hashes of the statistics records and
// r.multi those with references from several games (Positions reported
// the positions under them). The references are read into memory, a range
// of game numbers at a time.
func (r *singleReplayer) singlePositions(ctx context.Context, total int) error {
	st := r.st
	m := st.Meta()
	end := max(m.NextGame, 1)
	passes := uint64(total/singleChunk + 1)
	step := (end-1)/passes + 1
	var replayed int64
	for lo := uint64(1); lo < end; lo += step {
		hi := min(lo+step, end)
		refs := make([]uint64, 0, min(total, singleChunk+singleChunk/4))
		err := st.AllSingles(func(r store.SingleRef) (bool, error) {
			if r.Game >= lo && r.Game < hi {
				refs = append(refs, (r.Game-lo)<<32|uint64(r.Hash))
			}
			return true, nil
		})
		if err != nil {
			return err
		}
		slices.Sort(refs)
		err = st.GameNumbers(lo, hi, func(num uint64, id store.GameID, stamp uint64) (bool, error) {
			if replayed++; replayed%1024 == 0 {
				if ctx.Err() != nil {
					return false, ctx.Err()
				}
				r.progress("games replayed", int64(num), int64(end-1))
			}
			i, _ := slices.BinarySearch(refs, (num-lo)<<32)
			j, _ := slices.BinarySearch(refs, (num-lo+1)<<32)
			if i == j {
				return true, nil // no single reference to this game
			}
			return true, r.game(id, stamp, refs[i:j])
		})
		if err != nil {
			return err
		}
	}
	r.progress("games replayed", int64(end-1), int64(end-1))
	return ctx.Err()
}

// singleReplayer replays games for singlePositions.
type singleReplayer struct {
	st     *store.Store
	maxPly int // the store's: plies recorded from the start of each game (0: all)
	// limit is the last ply (see plyOf) replayed, -1 for none: the
	// positions after it are not wanted.
	limit    int
	progress func(what string, done, total int64)
	// reached, when not nil, gets the hash of every position the games
	// replayed reach, by the limit, under a hash they are referenced under.
	reached map[uint32]bool
	pHashes map[uint32][]uint64
	multi   map[uint32][]uint64
	fn      func(pos []byte, e *stats.Entry) error
	key     []byte
	visits  visits
	zobrist keys.Hasher
	e       stats.Entry
}

// game replays game num (id), whose single references are refs (low 32
// bits: the hashes, in order), and reports the positions only single
// references reach, or gathers them when other games may reach them too.
func (r *singleReplayer) game(id store.GameID, stamp uint64, refs []uint64) error {
	return r.replay(id, stamp, func(h uint32) bool {
		_, ok := slices.BinarySearchFunc(refs, h, func(v uint64, h uint32) int { return cmp.Compare(uint32(v), h) })
		return ok
	}, func(pos []byte, h uint32, mv board.Move, occ *stats.Occurrence) error {
		if r.reached != nil {
			r.reached[h] = true
		}
		if _, ok := r.pHashes[h]; ok {
			found, err := r.st.StatsRecordInto(&r.e, pos)
			if err != nil {
				return err
			}
			if found {
				return nil // reported with the statistics records
			}
		}
		if _, ok := r.multi[h]; ok {
			return nil // other games may reach it too: Positions reported it
		}
		r.e.Reset()
		r.e.AddOccurrence(mv, occ)
		return r.fn(pos, &r.e)
	})
}

// replay replays game id (first-seen stamp stamp) and calls found with
// each position it counted (as the builder counts) whose hash want
// accepts, with that hash, the move played there and what the game adds to it. pos
// and occ are only valid during the call.
func (r *singleReplayer) replay(id store.GameID, stamp uint64, want func(h uint32) bool, found func(pos []byte, h uint32, mv board.Move, occ *stats.Occurrence) error) error {
	rec, err := r.st.Game(id)
	if err != nil {
		return fmt.Errorf("single reference: %w", err)
	}
	var stop func(int, *board.Position, board.Move) bool
	if r.limit >= 0 {
		// Only the moves played up to the limit are decoded.
		stop = func(_ int, p *board.Position, _ board.Move) bool { return plyOf(p) >= r.limit }
	}
	g, err := gamecode.DecodeGameUntil(rec, stop)
	if err != nil {
		return fmt.Errorf("game %s: %w", id, err)
	}
	white, black, date := gameRatings(&g)
	occ := newOccurrence(&g, id, white, black, date)
	p := g.Start
	r.visits.reset()
	r.zobrist.Reset(&p)
	for ply, mv := range g.Moves {
		if r.maxPly > 0 && ply >= r.maxPly {
			break
		}
		absPly := plyOf(&p)
		if r.limit >= 0 && absPly > r.limit {
			break
		}
		ph := r.zobrist.Hash(&p)
		h := store.SingleHashOf(ph)
		r.zobrist.Play(&p, mv)
		if !r.visits.first(&p, ph) || !want(h) {
			p.Play(mv)
			continue
		}
		r.key = keys.Append(r.key[:0], &p)
		side := p.SideToMove()
		p.Play(mv)
		setPly(&occ, ply, absPly, side, white, black, stamp)
		if err := found(r.key, h, mv, &occ); err != nil {
			return err
		}
	}
	return nil
}
