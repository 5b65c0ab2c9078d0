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
// the move played at ply ply by side: the ply, the mover's rating (white
// and black are the players') and the first-seen stamp from the game's
// stamp (0: none).
func setPly(occ *stats.Occurrence, ply int, side board.Color, white, black int, stamp uint64) {
	occ.Ply = ply
	occ.MoverRating = white
	if side == board.Black {
		occ.MoverRating = black
	}
	if stamp != 0 {
		occ.Seen = stamp | uint64(min(ply, 1<<12-1))
	}
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
	found, err := st.GetInto(e, pos)
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
		hit  bool
		ply  int
		side board.Color
		mv   board.Move
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
			hit, ply, side, mv = true, n, p.SideToMove(), m
			return true
		}
		return false
	})
	if err != nil || !hit {
		return key, 0, stats.Occurrence{}, err
	}
	white, black, date := gameRatings(&g)
	occ := newOccurrence(&g, id, white, black, date)
	setPly(&occ, ply, side, white, black, stamp)
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
	// The hashes of the statistics records.
	pHashes := map[uint32][]uint64{} // -> the numbers of the games referenced under it
	if err := positionKeys(ctx, st, func(pos []byte) { pHashes[store.SingleHash(pos)] = nil }); err != nil {
		return err
	}
	// One pass over the references: those under the hash of a statistics
	// record, and how many there are and under which hashes several.
	var total int
	var last store.SingleRef
	multi := map[uint32][]uint64{} // hashes several games are referenced under -> their numbers
	err := st.AllSingles(func(r store.SingleRef) (bool, error) {
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
	// The games referenced under those hashes, each replayed once: what
	// they add to the positions with statistics records.
	extra, err := gamesAt(ctx, st, pHashes)
	if err != nil {
		return err
	}
	it, err := st.NewIter()
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
	}
	if err := it.Close(); err != nil {
		return err
	}
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
	several, err := gamesAt(ctx, st, wanted)
	if err != nil {
		return err
	}
	for _, k := range slices.Sorted(maps.Keys(several)) {
		if _, ok := pHashes[store.SingleHash([]byte(k))]; ok {
			found, err := st.GetInto(&e, []byte(k))
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
	return singlePositions(ctx, st, total, pHashes, multi, fn)
}

// positionKeys calls fn with the key of every statistics record.
func positionKeys(ctx context.Context, st *store.Store, fn func(pos []byte)) error {
	it, err := st.NewIter()
	if err != nil {
		return err
	}
	n := 0
	for ok := it.First(); ok; ok = it.Next() {
		if n++; n%4096 == 0 && ctx.Err() != nil {
			_ = it.Close()
			return ctx.Err()
		}
		fn(it.Key())
	}
	return it.Close()
}

// gamesAt replays every game referenced under a hash of hashes (hash ->
// game numbers) once, and returns what they add to each position they
// counted under those hashes (those the caller wants, and others with the
// same hash, which it ignores).
func gamesAt(ctx context.Context, st *store.Store, hashes map[uint32][]uint64) (map[string]*stats.Entry, error) {
	games := map[uint64][]uint32{} // game number -> the hashes it is referenced under
	for h, nums := range hashes {
		for _, num := range nums {
			games[num] = append(games[num], h)
		}
	}
	extra := map[string]*stats.Entry{}
	r := singleReplayer{st: st, maxPly: st.Meta().MaxPly}
	for _, num := range slices.Sorted(maps.Keys(games)) {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		id, stamp, err := st.GameByNumber(num)
		if err != nil {
			return nil, fmt.Errorf("single reference: %w", err)
		}
		hs := games[num]
		slices.Sort(hs)
		err = r.replay(id, stamp, func(h uint32) bool {
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
		if err != nil {
			return nil, err
		}
	}
	return extra, nil
}

// singleChunk is the most single references singlePositions holds in
// memory at once (8 bytes each); a store with more is listed in several
// passes over its games.
const singleChunk = 32 << 20

// singlePositions calls fn with every position that only single
// references reach, once each. It replays every numbered game and reports
// each position the game counted and holds a single reference for, unless
// it has a statistics record (Positions reported it). total is the number
// of references, pHashes holds the hashes of the statistics records and
// multi those with references from several games (Positions reported the
// positions under them). The references are read into memory, a range of
// game numbers at a time.
func singlePositions(ctx context.Context, st *store.Store, total int, pHashes, multi map[uint32][]uint64, fn func(pos []byte, e *stats.Entry) error) error {
	m := st.Meta()
	end := max(m.NextGame, 1)
	passes := uint64(total/singleChunk + 1)
	step := (end-1)/passes + 1
	r := singleReplayer{st: st, maxPly: m.MaxPly, pHashes: pHashes, multi: multi, fn: fn}
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
			if ctx.Err() != nil {
				return false, ctx.Err()
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
	return nil
}

// singleReplayer replays games for singlePositions.
type singleReplayer struct {
	st      *store.Store
	maxPly  int
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
		if _, ok := r.pHashes[h]; ok {
			found, err := r.st.GetInto(&r.e, pos)
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
	g, err := gamecode.DecodeGame(rec)
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
		setPly(&occ, ply, side, white, black, stamp)
		if err := found(r.key, h, mv, &occ); err != nil {
			return err
		}
	}
	return nil
}
