package savings

import (
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"hash/maphash"
	"io"
	"sync"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/gamecode"
	"github.com/chessbook/chessbook/keys"
	"github.com/chessbook/chessbook/pgn"
	"github.com/chessbook/chessbook/polyglot"
	"github.com/klauspost/compress/zstd"
)

// BandKind says how the report splits the samples.
type BandKind string

// The two ways of banding: by ply (the games' order; from PGN) and by the
// number of men on the board (all a store keeps: it has no ply).
const (
	BandPly BandKind = "ply"
	BandMen BandKind = "men"
)

const numBands = 5

// bandNames returns the labels of the bands of kind k.
func bandNames(k BandKind) []string {
	if k == BandMen {
		return []string{"32-29 men", "28-21 men", "20-13 men", "12-7 men", "6-2 men"}
	}
	return []string{"ply 0-10", "ply 11-20", "ply 21-40", "ply 41-80", "ply 81+"}
}

func plyBand(ply int) int {
	switch {
	case ply <= 10:
		return 0
	case ply <= 20:
		return 1
	case ply <= 40:
		return 2
	case ply <= 80:
		return 3
	}
	return 4
}

func menBand(men int) int {
	switch {
	case men >= 29:
		return 0
	case men >= 21:
		return 1
	case men >= 13:
		return 2
	case men >= 7:
		return 3
	}
	return 4
}

// The move codes, measured per move.
const (
	mvSAN = iota
	mvFromTo
	mvLegalIndex
	mvLegalRadix
	numMoveCodes
)

// The game codes, measured per game.
const (
	gmGamecode = iota
	gmRanked
	gmZstdGame
	numGameCodes
)

// accumulator gathers the sizes of one worker's positions, moves and
// games. It is not safe for concurrent use: give each worker its own and
// Merge them at the end.
type accumulator struct {
	bands BandKind

	pos      [numPositionEncodings][numBands]dist
	posUnrep [numPositionEncodings]uint64
	posMax   [numPositionEncodings]int
	maxFEN   [numPositionEncodings]string // a position of maximal size

	mov           [numMoveCodes][numBands]dist
	game          [numGameCodes]dist // bits per move of each game, weighted by its plies
	gameBits      [numGameCodes]float64
	gameFail      [numGameCodes]uint64
	gameErr       error // the first game code error
	streamOut     countWriter
	stream        *zstd.Encoder // all the worker's SAN text as one zstd stream
	perGame       *zstd.Encoder
	gamecodeGames uint64 // games measured with gamecode
	gamecodeEvery int    // measure gamecode on one game in gamecodeEvery
	cache         *gameCache
	dedupe        *dedupe
	duplicates    uint64 // games skipped as copies of earlier ones
	games         uint64 // games measured
	gamePlies     uint64 // plies of the games measured
	positions     uint64 // position samples (weighted)
	moves         uint64 // move samples (weighted)
	epCandMax     int
	epCandFEN     string
	legalMax      int
	legalFEN      string
	distinct      *distinct
	s             scratch
	text, rec     []byte
	zbuf          []byte
	legal         [board.MaxMoves]board.Move
	closed        bool
}

// countWriter counts the bytes written to it.
type countWriter struct{ n int64 }

// Write counts b.
func (c *countWriter) Write(b []byte) (int, error) {
	c.n += int64(len(b))
	return len(b), nil
}

// accumulatorOptions configure newAccumulator.
type accumulatorOptions struct {
	Bands BandKind // BandPly (default) or BandMen
	// Distinct, when set, receives every position and move (AddGame), to
	// count distinct positions, entries and hash collisions.
	Distinct *distinct
	// Games enables the game codes (AddGame): gamecode and zstd.
	Games bool
	// Cache, when set, is consulted before coding a game (AddGame).
	Cache *gameCache
	// Dedupe, when set, makes AddGame skip the copies of a game it has
	// seen (as bookbuild does unless told to keep duplicates).
	Dedupe *dedupe
	// GamecodeEvery, when above 1, measures gamecode on one game in
	// GamecodeEvery only (chosen by the game's line number), as it costs
	// more than everything else together; its figures are then a sample.
	GamecodeEvery int
}

// newAccumulator returns an empty accumulator.
func newAccumulator(o accumulatorOptions) (*accumulator, error) {
	a := &accumulator{bands: o.Bands, distinct: o.Distinct, gamecodeEvery: o.GamecodeEvery, cache: o.Cache, dedupe: o.Dedupe}
	if a.bands == "" {
		a.bands = BandPly
	}
	for i := range a.mov[mvLegalRadix] {
		a.mov[mvLegalRadix][i].Scale = 8
	}
	for i := range a.game {
		a.game[i].Scale = 8
	}
	for i := range a.posMax {
		a.posMax[i] = -1
	}
	if o.Games {
		var err error
		opts := []zstd.EOption{zstd.WithEncoderConcurrency(1), zstd.WithEncoderCRC(false), zstd.WithEncoderLevel(zstd.SpeedDefault)}
		if a.perGame, err = zstd.NewWriter(nil, opts...); err != nil {
			return nil, fmt.Errorf("savings: zstd encoder: %w", err)
		}
		if a.stream, err = zstd.NewWriter(&a.streamOut, opts...); err != nil {
			return nil, fmt.Errorf("savings: zstd encoder: %w", err)
		}
	}
	return a, nil
}

// sizes computes the size of every position encoding of p (normalized),
// sharing the work they have in common; -1 marks a position an encoding
// cannot write. The key is left in s.key[:klen].
func (a *accumulator) sizes(p *board.Position, out *[numPositionEncodings]int) (klen int) {
	s0 := state000Bits(p)
	out[encFEN] = 8 * fenLen(p)
	out[encNibbles] = 257
	out[encBase13] = base13BoardBits + s0
	out[encVarBase] = varBaseBoardBits + s0
	out[encStream] = streamBits(p)
	out[encHuffman000] = huffman000Bits(p)
	out[encHuffman002] = huffBoardBits(p) + s0
	out[encFineTuned] = fineTunedBits(p)
	out[encPieces] = piecesBoardBits(p) + s0
	out[encStatic] = staticBits(p)
	dyn := dynamicBits(p)
	out[encDynamic] = dyn
	out[encDynamic85] = -1
	if dyn >= 0 {
		out[encDynamic85] = 8 * base85Len((dyn+7)/8)
	}
	klen = len(keys.Append(a.s.key[:0], p))
	out[encKey] = 8 * klen
	out[encKeyText] = 8 * base64.RawURLEncoding.EncodedLen(klen)
	out[encZobrist] = 64
	out[encHash128] = 128
	return klen
}

// band returns the band of a position at ply with men men.
func (a *accumulator) band(ply, men int) int {
	if a.bands == BandMen {
		return menBand(men)
	}
	return plyBand(ply)
}

// addPosition measures the normalized position p as w samples in band.
func (a *accumulator) addPosition(p *board.Position, band int, w uint64) (klen int) {
	var sz [numPositionEncodings]int
	klen = a.sizes(p, &sz)
	for i, n := range sz {
		if n < 0 {
			a.posUnrep[i] += w
			continue
		}
		a.pos[i][band].Add(float64(n), w)
		if n > a.posMax[i] {
			a.posMax[i] = n
			a.maxFEN[i] = p.FEN()
		}
	}
	if _, n := epCandidates(p); n > a.epCandMax {
		a.epCandMax, a.epCandFEN = n, p.FEN()
	}
	a.positions += w
	return klen
}

// addMove measures move m played in the normalized position p as w
// samples in band, appending its SAN and a space to a.text.
func (a *accumulator) addMove(p *board.Position, m board.Move, band int, w uint64) {
	n0 := len(a.text)
	a.text = append(p.AppendSAN(a.text, m), ' ')
	a.mov[mvSAN][band].Add(float64(8*(len(a.text)-n0)), w)
	a.mov[mvFromTo][band].Add(float64(fromToBits(m)), w)
	n := len(p.LegalMoves(a.legal[:0]))
	a.mov[mvLegalIndex][band].Add(float64(legalIndexBits(n)), w)
	a.mov[mvLegalRadix][band].Add(legalRadixBits(n), w)
	if n > a.legalMax {
		a.legalMax, a.legalFEN = n, p.FEN()
	}
	a.moves += w
}

// AddPosition measures a stored position (decoded from its key) and the
// moves played from it: the position weighs its games (w), each move
// the games it was played in (moveW[i]). The band is by men (a store has
// no ply) unless the accumulator bands by ply, in which case ply is used.
func (a *accumulator) AddPosition(p *board.Position, ply int, w uint64, moves []board.Move, moveW []uint64) error {
	q := normalize(p)
	band := a.band(ply, q.Occupied().Count())
	a.addPosition(&q, band, w)
	for i, m := range moves {
		if !q.IsLegal(m) {
			return fmt.Errorf("savings: move %v is not legal in %s", m, q.FEN())
		}
		a.addMove(&q, m, band, moveW[i])
		a.text = a.text[:0]
	}
	return nil
}

// AddGame measures a replayed game: every position before a move (the
// positions a book records), every move, and the whole game with the game
// codes.
func (a *accumulator) AddGame(g *pgn.Game) error {
	if a.closed {
		return fmt.Errorf("savings: AddGame after Close")
	}
	if a.dedupe != nil && !a.dedupe.first(g) {
		a.duplicates++
		return nil
	}
	pos := g.Start
	a.text = a.text[:0]
	for ply, m := range g.Moves {
		q := normalize(&pos)
		band := a.band(ply, q.Occupied().Count())
		klen := a.addPosition(&q, band, 1)
		if a.distinct != nil {
			a.distinct.Add(a.s.key[:klen], polyglot.Key(&q), m) // q is normalized: zobristKey
		}
		a.addMove(&q, m, band, 1)
		pos.Play(m)
	}
	a.games++
	a.gamePlies += uint64(len(g.Moves))
	if a.perGame == nil {
		return nil
	}
	// The game codes, looked up first among the games already coded (a
	// corpus may hold a game twice: the same bytes give the same sizes).
	wantGC := a.gamecodeEvery <= 1 || uint64(g.Line)*0x9e3779b97f4a7c15>>32%uint64(a.gamecodeEvery) == 0
	var h uint64
	if a.cache != nil {
		h = a.cache.hash(g)
		if sz, ok := a.cache.get(h); ok && (sz[gmGamecode] >= 0 || !wantGC) {
			a.addSizes(&sz, wantGC, len(g.Moves))
			return a.writeStream()
		}
	}
	sz := gameSizes{gmGamecode: -1, gmRanked: -1}
	if wantGC {
		if err := a.codeGame(g, &sz); err != nil {
			sz[gmGamecode], sz[gmRanked] = -1, -1
			for _, gc := range gamecodeCodings {
				a.gameFail[gc.code]++
			}
			if a.gameErr == nil {
				a.gameErr = fmt.Errorf("%s:%d: %w", g.File, g.Line, err)
			}
		}
	}
	a.zbuf = a.perGame.EncodeAll(a.text, a.zbuf[:0])
	sz[gmZstdGame] = int32(8 * len(a.zbuf))
	a.addSizes(&sz, wantGC, len(g.Moves))
	if a.cache != nil {
		a.cache.put(h, sz)
	}
	return a.writeStream()
}

// gameSizes are a game's sizes in bits by game code (gmGamecode ...); -1
// for the gamecode rows when they were not measured.
type gameSizes [numGameCodes]int32

// gamecodeCodings are the game codes that package gamecode makes, with
// their codings.
var gamecodeCodings = [...]struct {
	code   int
	coding gamecode.Coding
}{{gmGamecode, gamecode.Indexed}, {gmRanked, gamecode.Ranked}}

// codeGame codes g, its tags removed, in each of gamecode's codings, and
// sets their sizes in sz.
func (a *accumulator) codeGame(g *pgn.Game, sz *gameSizes) error {
	bare := *g
	bare.Tags = nil
	for _, gc := range gamecodeCodings {
		rec, err := gamecode.AppendGameCoded(a.rec[:0], &bare, gc.coding)
		if err != nil {
			return err
		}
		a.rec = rec
		sz[gc.code] = int32(8 * len(rec))
	}
	return nil
}

// addSizes adds a game's sizes: zstd's, and gamecode's when wantGC and
// they were measured.
func (a *accumulator) addSizes(sz *gameSizes, wantGC bool, plies int) {
	if wantGC && sz[gmGamecode] >= 0 {
		a.gamecodeGames++
		for _, gc := range gamecodeCodings {
			a.addGameCode(gc.code, int(sz[gc.code]), plies)
		}
	}
	a.addGameCode(gmZstdGame, int(sz[gmZstdGame]), plies)
}

// writeStream adds the game's SAN text to the worker's zstd stream.
func (a *accumulator) writeStream() error {
	if _, err := a.stream.Write(a.text); err != nil {
		return fmt.Errorf("savings: zstd stream: %w", err)
	}
	return nil
}

// gameCache remembers the game-code sizes of the games measured, shared by
// the workers, so that a game met twice is coded once. Games are told
// apart by a 64-bit hash of their start, result and moves.
type gameCache struct {
	seed  maphash.Seed
	mu    sync.Mutex
	sizes map[uint64]gameSizes
}

// newGameCache returns an empty cache.
func newGameCache() *gameCache {
	return &gameCache{seed: maphash.MakeSeed(), sizes: map[uint64]gameSizes{}}
}

func (c *gameCache) hash(g *pgn.Game) uint64 {
	var h maphash.Hash
	h.SetSeed(c.seed)
	var b [16]byte
	binary.LittleEndian.PutUint64(b[:], zobristKey(&g.Start))
	b[8] = byte(g.Result)
	if g.FromFEN {
		b[9] = 1
		h.Write(g.Start.AppendFEN(nil))
	}
	binary.LittleEndian.PutUint16(b[10:], uint16(g.Start.HalfMoveClock()))
	binary.LittleEndian.PutUint16(b[12:], uint16(g.Start.FullMoveNumber()))
	h.Write(b[:14])
	for _, m := range g.Moves {
		binary.LittleEndian.PutUint16(b[:], uint16(m))
		h.Write(b[:2])
	}
	return h.Sum64()
}

func (c *gameCache) get(h uint64) (gameSizes, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	sz, ok := c.sizes[h]
	return sz, ok
}

func (c *gameCache) put(h uint64, sz gameSizes) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if old, ok := c.sizes[h]; ok && old[gmGamecode] >= 0 {
		return
	}
	c.sizes[h] = sz
}

func (a *accumulator) addGameCode(i, bits, plies int) {
	a.gameBits[i] += float64(bits)
	if plies > 0 {
		a.game[i].Add(float64(bits)/float64(plies), uint64(plies))
	}
}

// Close flushes the zstd stream. Call it once, after the last AddGame.
func (a *accumulator) Close() error {
	if a.closed {
		return nil
	}
	a.closed = true
	if a.stream != nil {
		if err := a.stream.Close(); err != nil {
			return fmt.Errorf("savings: zstd stream: %w", err)
		}
	}
	if a.perGame != nil {
		return a.perGame.Close()
	}
	return nil
}

// Merge adds o's figures to a. Both must be closed.
func (a *accumulator) Merge(o *accumulator) {
	for i := range a.pos {
		for b := range a.pos[i] {
			a.pos[i][b].Merge(&o.pos[i][b])
		}
		a.posUnrep[i] += o.posUnrep[i]
		if o.posMax[i] > a.posMax[i] {
			a.posMax[i], a.maxFEN[i] = o.posMax[i], o.maxFEN[i]
		}
	}
	for i := range a.mov {
		for b := range a.mov[i] {
			a.mov[i][b].Merge(&o.mov[i][b])
		}
	}
	for i := range a.game {
		a.game[i].Merge(&o.game[i])
		a.gameBits[i] += o.gameBits[i]
		a.gameFail[i] += o.gameFail[i]
	}
	if a.gameErr == nil {
		a.gameErr = o.gameErr
	}
	a.streamOut.n += o.streamOut.n
	a.games += o.games
	a.gamecodeGames += o.gamecodeGames
	a.duplicates += o.duplicates
	a.gamePlies += o.gamePlies
	a.positions += o.positions
	a.moves += o.moves
	if o.epCandMax > a.epCandMax {
		a.epCandMax, a.epCandFEN = o.epCandMax, o.epCandFEN
	}
	if o.legalMax > a.legalMax {
		a.legalMax, a.legalFEN = o.legalMax, o.legalFEN
	}
}

var _ io.Writer = (*countWriter)(nil)

// dedupe recognises the copies of a game, shared by the workers. A game is
// identified as bookbuild identifies it: its White, Black, Date and Round
// tags, its result, its start position when set up from a FEN, and its
// moves (here through a 64-bit hash: two different games are taken for
// one with probability about n^2/2^65).
type dedupe struct {
	seed maphash.Seed
	mu   sync.Mutex
	seen map[uint64]struct{}
}

// newDedupe returns an empty dedupe.
func newDedupe() *dedupe { return &dedupe{seed: maphash.MakeSeed(), seen: map[uint64]struct{}{}} }

// first reports whether g is the first copy of its game.
func (d *dedupe) first(g *pgn.Game) bool {
	var h maphash.Hash
	h.SetSeed(d.seed)
	var b [binary.MaxVarintLen64]byte
	for _, name := range [...]string{"White", "Black", "Date", "Round"} {
		v := g.Tag(name)
		h.Write(b[:binary.PutUvarint(b[:], uint64(len(v)))])
		h.Write(v)
	}
	h.WriteByte(byte(g.Result))
	if g.FromFEN {
		h.WriteByte(1)
		h.Write(g.Start.AppendFEN(nil))
	} else {
		h.WriteByte(0)
	}
	h.Write(b[:binary.PutUvarint(b[:], uint64(len(g.Moves)))])
	for _, m := range g.Moves {
		binary.LittleEndian.PutUint16(b[:], uint16(m))
		h.Write(b[:2])
	}
	k := h.Sum64()
	d.mu.Lock()
	defer d.mu.Unlock()
	if _, ok := d.seen[k]; ok {
		return false
	}
	d.seen[k] = struct{}{}
	return true
}
