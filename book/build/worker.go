package build

import (
	"crypto/sha256"
	"fmt"
	"github.com/chessbook/chessbook/book/counting"
	"math/rand/v2"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/gamecode"
	"github.com/chessbook/chessbook/gamedb"
	"github.com/chessbook/chessbook/ingest"
	"github.com/chessbook/chessbook/internal/tally"
	"github.com/chessbook/chessbook/keys"
	"github.com/chessbook/chessbook/pgn"
	"github.com/chessbook/chessbook/stats"
	"github.com/chessbook/chessbook/store"
)

// The pipeline workers: each reads its chunks of games, filters, hashes
// and codes them, claims them in input order (see dedupe) and adds the
// games claimed to its own unit.

// worker is one pipeline worker's sink: its own table and scratch space.
type worker struct {
	b      *Builder
	unit   *unit
	hasher *contentHasher
	moveIx gamecode.MoveIndexer // scratch for the game index entries
	read   chunkGames           // the games of the chunk being read, not added yet
	rng    *rand.Rand           // Options.hook's (tests); nil without it
	gen    uint64               // the Builder's flushGen when the worker last looked

	stats  Stats           // counters not yet added to the builder's
	epKey  []byte          // scratch for addEP
	counts counting.Walker // the positions a game counts (see addMoves)
}

// A worker takes a chunk of input in two steps (see ingest.OrderedSink),
// so that what the store ends with does not depend on the workers'
// scheduling. Game, as the worker replays the chunk, filters each game,
// hashes its content and codes its record into the worker's chunkGames
// (unless an earlier game claimed the content already: a duplicate).
// Ordered, called for the chunks one at a time in input order, decides
// each game's id and whether it is a duplicate (dedupe.claimChunk): of
// the copies of a content in the input the first is the one stored,
// with its tags and first-seen stamp, and with -keep-duplicates copy k in
// input order always gets the same id, in any build. Unordered then adds
// the games claimed to the worker's unit, in parallel with the others.

// Game implements ingest.Sink: it reads g into the chunk's games.
func (w *worker) Game(g *pgn.Game) error {
	tags := counting.TagsOf(g)
	if f, drop := w.b.opts.filter(g, &tags); drop {
		w.stats.Filtered[f]++
		return nil
	}
	if w.b.opts.hook != nil {
		w.b.opts.hook(hookRead, w.rng)
	}
	sum := w.hasher.content(g)
	if w.b.dedupe.claimedBefore(w.hasher, sum) {
		w.stats.Duplicates++ // not worth coding
		return nil
	}
	c := &w.read
	off := len(c.recs)
	var err error
	var nums [gamedb.SummaryPlies]gamecode.MoveNumber // the record's coding numbers the moves: the index entry takes them
	var numbered int
	c.recs, numbered, err = gamecode.AppendGameCodedNumbered(c.recs, g, w.b.opts.GameCoding, nums[:])
	if err != nil {
		c.recs = c.recs[:off]
		w.stats.Unstorable++
		if len(w.stats.Errors) < 10 {
			w.stats.Errors = append(w.stats.Errors, fmt.Sprintf("%s:%d: game not stored: %v", g.File, g.Line, err))
		}
		return nil
	}
	recEnd := len(c.recs)
	c.recs = gamedb.AppendEntry(c.recs, g, tags.Facts(nums[:numbered]), &w.moveIx)
	rg := readGame{sum: sum, stamp: w.seenStamp(g), rec: off, recEnd: recEnd, entEnd: len(c.recs),
		moves: len(c.moves), start: -1, result: g.Result, tags: tags}
	c.moves = append(c.moves, g.Moves...)
	rg.movesEnd = len(c.moves)
	if g.FromFEN {
		rg.start = int32(len(c.starts))
		c.starts = append(c.starts, g.Start)
	}
	c.games = append(c.games, rg)
	return nil
}

// Ordered implements ingest.OrderedSink: it claims the chunk's games in
// input order (see dedupe.claimChunk).
func (w *worker) Ordered() error {
	w.stats.Duplicates += int64(w.b.dedupe.claimChunk(w.hasher, w.read.games))
	return nil
}

// Unordered implements ingest.OrderedSink: it adds the chunk's games that
// were claimed, and their moves, to the worker's unit. When that fails
// (the flusher failed, or the store lookup did), the games not added are
// counted as not written and released.
func (w *worker) Unordered() error {
	c := &w.read
	defer c.reset()
	for i := range c.games {
		g := &c.games[i]
		if g.state == gameDuplicate {
			continue
		}
		if w.b.opts.hook != nil {
			w.b.opts.hook(hookAdd, w.rng)
		}
		if err := w.addGame(g); err != nil {
			w.dropRead(c.games[i:])
			return err
		}
		g.state = gameDone
	}
	return nil
}

// addGame adds the claimed game g of the chunk, unless the store holds it
// already (a duplicate), to the unit: its record, and its moves up to
// MaxPly (see addMoves).
func (w *worker) addGame(g *readGame) error {
	if g.state == gameMaybeStored {
		stored, err := w.b.st.HasGame(g.id)
		if err != nil {
			return fmt.Errorf("checking for duplicates: %w", err)
		}
		if stored {
			w.b.dedupe.release([]pendingGame{{id: g.id}}, false)
			w.stats.Duplicates++
			return nil
		}
	}
	c := &w.read
	moves := c.moves[g.moves:g.movesEnd]
	if err := w.makeRoom(len(moves)); err != nil {
		return err
	}
	gb := &w.unit.games
	off := len(gb.buf)
	gb.buf = append(gb.buf, c.recs[g.rec:g.entEnd]...)
	gb.games = append(gb.games, pendingGame{id: g.id, off: off, end: off + g.recEnd - g.rec, entEnd: len(gb.buf), stamp: g.stamp})
	start := &standardStart
	if g.start >= 0 {
		start = &c.starts[g.start]
	}
	w.addMoves(start, moves, counting.NewCount(g.result, g.tags, g.id, g.stamp), uint32(len(gb.games)-1))
	return nil
}

// dropRead gives up the games of the chunk not added yet: each counts as
// not written, and those claimed are released.
func (w *worker) dropRead(games []readGame) {
	for i := range games {
		g := &games[i]
		switch g.state {
		case gameDone, gameDuplicate:
			continue
		case gameNew, gameMaybeStored:
			w.b.dedupe.release([]pendingGame{{id: g.id}}, false)
		}
		w.stats.Uncommitted++
		g.state = gameDone
	}
}

// standardStart is the standard start position; only read.
var standardStart = board.StartPosition()

// makeRoom hands the worker's unit over to the flusher, and takes a free
// one, when a game of plies plies could grow it past the memory budget:
// its table, or its game records; or when the flusher asked for every
// unit, for a time-based commit (Builder.flushGen). It fails when the
// flusher has failed: the build stops.
func (w *worker) makeRoom(plies int) error {
	u := w.unit
	asked := false
	if gen := w.b.flushGen.Load(); gen != w.gen {
		w.gen, asked = gen, true
	}
	if !asked && u.t.HasRoom(plies) && len(u.games.buf)+len(u.games.games)*pendingGameSize < w.b.unitGames ||
		u.t.Len() == 0 && len(u.games.games) == 0 {
		return nil
	}
	if err := w.b.err(); err != nil {
		return err
	}
	w.handOver()
	w.unit = <-w.b.free
	return nil
}

// addMoves adds the moves of a game that counts count to the unit's
// table, one occurrence per position counted (see counting.Walker): the
// game starts from start and plays moves, and is game local of the unit's
// games. In CountGame mode a game counts once per position: at its first
// visit, under the move it played then; a later visit of the same position
// (a repetition) adds nothing, whatever move it plays. So a position's
// total is the number of games that played on from it. In CountOccurrence
// mode every visit counts.
func (w *worker) addMoves(start *board.Position, moves []board.Move, count counting.Count, local uint32) {
	o := &w.b.opts
	t := w.unit.t
	if o.MaxPly > 0 && len(moves) > o.MaxPly {
		moves = moves[:o.MaxPly]
	}
	// Positions are hashed, not keyed: the table keys those it must.
	t.StartGame(start, moves)
	it := &w.counts
	it.Reset(start, moves, count)
	for it.Next() {
		occ := it.Occurrence()
		occ.Local = local
		occ.Hash = store.SingleHashOf(it.Hash)
		t.AddPly(it.Ply, occ)
		w.unit.positions++
		if it.Pos.EPSquare() != board.NoSquare {
			w.addEP(&it.Pos, it.Move, occ)
		}
	}
}

// addEP adds the occurrence occ of move m from pos, a position just
// after a double pawn step, to the unit's en-passant side records when
// PolyGlot's key of pos has an en-passant file that our key drops:
// a pawn of the side to move stands beside the pawn that stepped, but no
// en-passant capture is legal (the pawn is pinned, or the capture would
// expose its king). The occurrence also stays counted under its key: the
// side record only tells the export which share of it PolyGlot files under
// the other key.
func (w *worker) addEP(pos *board.Position, m board.Move, occ *stats.Occurrence) {
	f := pos.PolyglotEPFile()
	if f < 0 || pos.LegalEPSquare() != board.NoSquare {
		return
	}
	if w.unit.ep == nil {
		w.unit.ep = tally.NewTable(64)
	}
	w.epKey = keys.Append(append(w.epKey[:0], byte(f)), pos)
	w.unit.ep.AddOccurrence(w.epKey, m, occ)
}

// seenStamp returns g's first-seen stamp without its ply (see
// Options.Inputs): its input's index and its line, in CountOccurrence
// mode; 0 otherwise, or for a game of another input.
func (w *worker) seenStamp(g *pgn.Game) uint64 {
	if w.b.opts.CountMode != store.CountOccurrence {
		return 0
	}
	if in := w.b.inputs[g.File]; in != 0 && g.Line > 0 && g.Line < 1<<32 {
		return in<<44 | uint64(g.Line)<<12
	}
	return 0
}

// Leaves reports whether o's filters leave game g out of a build, and
// by which filter: what a build does with g before it looks at its
// content (a pipeline that deduplicates games itself filters them first,
// as a build does, so that the copy it keeps is the one a build stores).
func (o *Options) Leaves(g *pgn.Game) (Filter, bool) {
	t := counting.TagsOf(g)
	return o.filter(g, &t)
}

// filter reports whether game g, whose tags t are read already (its
// speed and rating band in t.Cell), is left out, and by which filter.
func (o *Options) filter(g *pgn.Game, t *counting.Tags) (Filter, bool) {
	if o.StandardStartOnly && g.FromFEN {
		return FilterFEN, true
	}
	if o.MinRating > 0 && (t.White < o.MinRating || t.Black < o.MinRating) {
		return FilterRating, true
	}
	if o.Bands != 0 && !o.Bands.Has(t.Cell.RatingBand()) { // NoRatingBand without both ratings
		return FilterRating, true
	}
	if o.Since != 0 || o.Until != 0 {
		if d := t.Date; !d.Known() || (o.Since != 0 && d < o.Since) || (o.Until != 0 && d > o.Until) {
			return FilterDate, true
		}
	}
	if o.Speeds != 0 && !o.Speeds.Has(t.Cell.Speed()) { // NoSpeed without a usable TimeControl
		return FilterSpeed, true
	}
	return 0, false
}

// Skip implements ingest.Sink; skipped games are counted by the pipeline.
func (w *worker) Skip(*ingest.GameError) {}

// handOver gives the worker's unit to the flusher, and adds the worker's
// counters to the builder's.
func (w *worker) handOver() {
	if w.unit != nil && (w.unit.t.Len() > 0 || len(w.unit.games.games) > 0) {
		w.b.full <- w.unit
		w.unit = nil
	}
	w.b.mu.Lock()
	s := &w.b.stats
	s.Duplicates += w.stats.Duplicates
	s.Uncommitted += w.stats.Uncommitted
	s.Unstorable += w.stats.Unstorable
	if room := 10 - len(s.Errors); room > 0 {
		s.Errors = append(s.Errors, w.stats.Errors[:min(room, len(w.stats.Errors))]...)
	}
	for i, n := range w.stats.Filtered {
		s.Filtered[i] += n
	}
	w.b.mu.Unlock()
	w.stats = Stats{}
}

// readGame is a game a worker has read from its chunk (see worker.Game):
// its content hash, first-seen stamp, where its coded record, its game
// index entry (gamedb.AppendEntry, after the record) and moves are in the
// chunkGames, its start position (an index in starts, -1: the
// standard one), what it adds to each position, and what became of it.
type readGame struct {
	sum             [sha256.Size]byte
	id              store.GameID // set by claimChunk
	stamp           uint64
	rec, recEnd     int
	entEnd          int // the index entry is recs[recEnd:entEnd]
	moves, movesEnd int
	start           int32
	tags            counting.Tags
	result          pgn.Result
	state           gameState
}

// gameState is what became of a readGame.
type gameState uint8

const (
	gameRead        gameState = iota // not claimed yet
	gameDuplicate                    // a duplicate (counted)
	gameNew                          // claimed, not in the store
	gameMaybeStored                  // claimed, maybe in the store already
	gameDone                         // added, or counted as not
)

// chunkGames are the games of one chunk a worker has read and not yet
// added, with their coded records, moves and start positions (those not
// the standard one), in buffers reused from chunk to chunk.
type chunkGames struct {
	games  []readGame
	recs   []byte
	moves  []board.Move
	starts []board.Position
}

// maxKeptChunkBuffer is the largest record or move buffer a worker keeps
// for its next chunk (a chunk's are a few hundred KiB; more only for a
// huge game).
const maxKeptChunkBuffer = 8 << 20

func (c *chunkGames) reset() {
	c.games, c.recs, c.moves, c.starts = c.games[:0], c.recs[:0], c.moves[:0], c.starts[:0]
	if cap(c.recs) > maxKeptChunkBuffer {
		c.recs = nil
	}
	if cap(c.moves)*2 > maxKeptChunkBuffer {
		c.moves = nil
	}
}
