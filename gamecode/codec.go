package gamecode

import (
	"errors"
	"fmt"
	"math/bits"
	"sync"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/gamecode/internal/gamemodel"
	"github.com/chessbook/chessbook/pgn"
)

// Coding names how a record codes its moves (see the package doc). The
// tags, the start position and the ply count are coded the same way in
// both; a record's first byte says which coding it uses, so DecodeGame
// reads either.
type Coding uint8

const (
	// Indexed codes each move as its number among the legal moves of its
	// position (n equiprobable symbols): records 10-20% larger than
	// Ranked's with their tags, coded and decoded 2-3 times faster. The
	// default.
	Indexed Coding = iota
	// Ranked codes each move with the frozen move model
	// (internal/gamemodel): the smallest records, the slowest coding.
	Ranked
)

// Record versions: the first byte of every record names its format (and,
// for Ranked, the move model and static tables it depends on).
const (
	// VersionRanked is the first byte of a Ranked record.
	VersionRanked = 2
	// VersionIndexed is the first byte of an Indexed record.
	VersionIndexed = 3
)

// String returns "indexed" or "ranked".
func (c Coding) String() string {
	switch c {
	case Indexed:
		return "indexed"
	case Ranked:
		return "ranked"
	}
	return fmt.Sprintf("Coding(%d)", uint8(c))
}

// ParseCoding returns the coding named s ("indexed" or "ranked").
func ParseCoding(s string) (Coding, error) {
	switch s {
	case "indexed":
		return Indexed, nil
	case "ranked":
		return Ranked, nil
	}
	return 0, fmt.Errorf("gamecode: unknown coding %q (want indexed or ranked)", s)
}

// version returns the first byte of c's records.
func (c Coding) version() byte {
	if c == Ranked {
		return VersionRanked
	}
	return VersionIndexed
}

// codingOf returns the coding of records whose first byte is v (one of
// the versions).
func codingOf(v byte) Coding {
	if v == VersionRanked {
		return Ranked
	}
	return Indexed
}

// Limits that bound what DecodeGame accepts, so that garbage cannot make
// it loop or allocate without bound.
const (
	maxPlies    = 1 << 16
	maxTags     = 1 << 12
	maxTextSize = 1 << 20
	// maxFENText bounds the text of a start position's FEN (at most 92
	// bytes), which AppendGame reserves in maxTextSize.
	maxFENText = 128
)

// models are the static models built from the frozen tables.
type models struct {
	count model
	name  model
	text  [gamemodel.NumClasses][gamemodel.NumCharCtx]model
}

// staticModels is built once from the generated tables and only read.
var staticModels = buildModels()

func buildModels() *models {
	m := &models{name: newModel(gamemodel.NameFreq[:]), count: newModel(countFreq[:])}
	for i := range m.text {
		for j := range m.text[i] {
			m.text[i][j] = newModel(gamemodel.TextFreq[i][j][:])
		}
	}
	return m
}

// AppendGame appends the record of g, in the default coding (Indexed), to
// dst and returns the extended slice. It fails, leaving dst's content
// unchanged, when g holds a move that is not legal where it is played or a
// result out of range.
func AppendGame(dst []byte, g *pgn.Game) ([]byte, error) {
	return AppendGameCoded(dst, g, Indexed)
}

// AppendGameCoded is AppendGame with the moves in coding c.
func AppendGameCoded(dst []byte, g *pgn.Game, c Coding) ([]byte, error) {
	out, _, err := AppendGameCodedNumbered(dst, g, c, nil)
	return out, err
}

// AppendGameCodedNumbered is AppendGameCoded that also gives, in the
// Indexed coding, the numbers of the game's first moves among the legal
// moves of their positions (as MoveIndexer.Number gives them), which the
// coding computes anyway: it fills nums with those of the first
// min(len(nums), plies) moves and returns how many it filled (0 in the
// Ranked coding).
func AppendGameCodedNumbered(dst []byte, g *pgn.Game, c Coding, nums []MoveNumber) ([]byte, int, error) {
	if c != Indexed && c != Ranked {
		return dst, 0, fmt.Errorf("gamecode: unknown coding %d", uint8(c))
	}
	if g.Result > pgn.Unknown {
		return dst, 0, fmt.Errorf("gamecode: result %d out of range", g.Result)
	}
	// What DecodeGame accepts, AppendGame stores, and nothing more: at
	// most maxTags tags, and maxTextSize bytes of text in all (names,
	// values and the start position's FEN, counted as if all were text).
	if len(g.Tags) > maxTags {
		return dst, 0, fmt.Errorf("gamecode: %d tags, at most %d can be stored", len(g.Tags), maxTags)
	}
	text := maxFENText
	for _, t := range g.Tags {
		text += len(t.Name) + len(t.Value)
	}
	if text > maxTextSize {
		return dst, 0, fmt.Errorf("gamecode: %d bytes of tags, at most %d can be stored", text-maxFENText, maxTextSize-maxFENText)
	}
	ms := staticModels
	start := len(dst)
	dst = append(dst, c.version())
	e := newEncoder(dst)
	hdr := uint32(g.Result)
	if g.FromFEN {
		hdr += 5
	}
	e.encode(hdr, 1, 10)

	sc := scratchPool.Get().(*scratch)
	defer scratchPool.Put(sc)
	var fenTag []byte
	haveFEN := false
	for _, t := range g.Tags {
		sym := gamemodel.KnownIndex(t.Name)
		ms.name.encode(&e, sym, gamemodel.NumNameSyms)
		name := gamemodel.NameOf(sym)
		if sym == gamemodel.NameLiteral {
			encodeText(&e, &ms.text[gamemodel.ClassText], t.Name)
		}
		if name == "FEN" && !haveFEN {
			fenTag, haveFEN = t.Value, true
		}
		if name == "Result" {
			r := pgn.ParseResult(t.Value)
			if r != pgn.NoResult && r.String() == string(t.Value) {
				e.encode(uint32(r), 1, 5)
				continue
			}
			e.encode(0, 1, 5)
		}
		encodeText(&e, &ms.text[gamemodel.TagClass(name)], t.Value)
	}
	ms.name.encode(&e, gamemodel.NameEnd, gamemodel.NumNameSyms)

	if g.FromFEN {
		fen := g.Start.AppendFEN(sc.fen[:0])
		sc.fen = fen
		if haveFEN && string(fenTag) == string(fen) {
			e.encodeBits(1, 1)
		} else {
			e.encodeBits(0, 1)
			encodeText(&e, &ms.text[gamemodel.ClassCode], fen)
		}
	}

	n := len(g.Moves)
	if n >= maxPlies {
		return dst[:start], 0, fmt.Errorf("gamecode: %d plies, at most %d can be stored", n, maxPlies-1)
	}
	encodeCount(&e, uint32(n))

	pos := &sc.pos
	*pos = g.Start
	numbered := 0
	if c == Indexed {
		if len(nums) > len(g.Moves) {
			nums = nums[:len(g.Moves)]
		}
		if err := encodeIndexed(&e, sc, g.Moves, nums); err != nil {
			return dst[:start], 0, err
		}
		numbered = len(nums)
	} else if err := encodeRanked(&e, sc, g.Moves); err != nil {
		return dst[:start], 0, err
	}
	out := e.finish()
	// The decoder reads zeros past the end: up to 4 trailing zero bytes
	// need not be stored.
	for k := 0; k < 4 && len(out) > start+1 && out[len(out)-1] == 0; k++ {
		out = out[:len(out)-1]
	}
	return out, numbered, nil
}

// encodeIndexed codes moves, played from sc.pos, in the Indexed coding,
// and gives the numbers of the first len(nums) in nums.
func encodeIndexed(e *rcEncoder, sc *scratch, moves []board.Move, nums []MoveNumber) error {
	pos := &sc.pos
	ix := &sc.ix
	for ply, m := range moves {
		i, n := ix.number(pos, m)
		if i < 0 {
			return fmt.Errorf("gamecode: ply %d: move %v is not legal in %s", ply+1, m, pos.FEN())
		}
		if ply < len(nums) {
			nums[ply] = MoveNumber{I: uint8(i), N: uint8(n)}
		}
		if n > 1 {
			e.encode(uint32(i), 1, uint32(n))
		}
		pos.Play(m)
	}
	return nil
}

// encodeRanked codes moves, played from sc.pos, in the Ranked coding.
func encodeRanked(e *rcEncoder, sc *scratch, moves []board.Move) error {
	pos := &sc.pos
	var h gamemodel.History
	for ply, m := range moves {
		np := sc.Score(pos, &h)
		k := sc.PieceOf(np, m)
		j := -1
		if k >= 0 && sc.Pieces[k].Dests.Has(m.To()) {
			nd := sc.Dests(&sc.Pieces[k])
			for i, dm := range sc.Moves[:nd] {
				if dm == m {
					j = i
					break
				}
			}
			if j >= 0 {
				if np > 1 {
					encodeChoice(e, sc.PScore[:np], sc.PBest, sc.Freq[:], k)
				}
				if nd > 1 {
					encodeChoice(e, sc.DScore[:nd], sc.DBest, sc.Freq[:], j)
				}
			}
		}
		if j < 0 {
			return fmt.Errorf("gamecode: ply %d: move %v is not legal in %s", ply+1, m, pos.FEN())
		}
		h.Play(pos, m)
	}
	return nil
}

// countFreq is the static model of a ply count's bit length (0-16); the
// bits below the leading one follow raw.
var countFreq = [17]uint16{2, 1, 1, 2, 4, 8, 30, 40, 12, 2, 1, 1, 1, 1, 1, 1, 1}

func encodeCount(e *rcEncoder, n uint32) {
	k := uint(bits.Len32(n))
	m := &staticModels.count
	m.encode(e, int(k), len(countFreq))
	if k > 1 {
		e.encodeBits(n&(1<<(k-1)-1), k-1)
	}
}

func decodeCount(d *rcDecoder) (uint32, error) {
	m := &staticModels.count
	k, err := m.decode(d, len(countFreq))
	if err != nil || k <= 1 {
		return uint32(k), err
	}
	low, err := d.decodeBits(uint(k - 1))
	return 1<<(k-1) | low, err
}

func encodeText(e *rcEncoder, m *[gamemodel.NumCharCtx]model, s []byte) {
	ctx := 0
	for _, c := range s {
		m[ctx].encode(e, int(c), gamemodel.SymEnd+1)
		ctx = gamemodel.CharCtx(c)
	}
	m[ctx].encode(e, gamemodel.SymEnd, gamemodel.SymEnd+1)
}

func decodeText(d *rcDecoder, m *[gamemodel.NumCharCtx]model, buf []byte, budget *int) ([]byte, error) {
	ctx := 0
	for {
		c, err := m[ctx].decode(d, gamemodel.SymEnd+1)
		if err != nil {
			return buf, err
		}
		if c == gamemodel.SymEnd {
			return buf, nil
		}
		if *budget <= 0 {
			return buf, errCorrupt
		}
		*budget--
		buf = append(buf, byte(c))
		ctx = gamemodel.CharCtx(byte(c))
	}
}

// DecodeGame decodes a record made by AppendGame. It returns an error
// wrapping the cause for anything that is not such a record; it never
// panics. The game it returns owns its memory (no File or Line: a record
// does not store them).
func DecodeGame(b []byte) (pgn.Game, error) {
	return DecodeGameUntil(b, nil)
}

// DecodeGameUntil is DecodeGame, except that when stop is not nil it is
// called after each move is decoded, with its ply (from 0), the position
// before it and the move, and decoding ends as soon as it returns true:
// the game then holds the moves up to that one, and the rest of the record
// is not checked. A reader that looks for a position near the start of a
// game decodes only that far.
func DecodeGameUntil(b []byte, stop func(ply int, pos *board.Position, m board.Move) bool) (pgn.Game, error) {
	var g pgn.Game
	sc := scratchPool.Get().(*scratch)
	defer scratchPool.Put(sc)
	d, err := decodeInfo(b, &g, sc)
	if err != nil {
		return g, err
	}
	stopped, err := decodeMoves(&d, sc, &g, codingOf(b[0]), stop)
	if err != nil || stopped {
		return g, err
	}
	if d.over > 8 {
		return g, fmt.Errorf("%w: truncated", errCorrupt)
	}
	return g, nil
}

// DecodeGameInfo decodes what a record holds before its moves: the tags,
// the result and the start position, and the number of plies, without
// decoding the moves (the game it returns has none). Listing games this
// way costs a fraction of DecodeGame.
func DecodeGameInfo(b []byte) (g pgn.Game, plies int, err error) {
	sc := scratchPool.Get().(*scratch)
	defer scratchPool.Put(sc)
	d, err := decodeInfo(b, &g, sc)
	if err != nil {
		return g, 0, err
	}
	n, err := decodeCount(&d)
	if err != nil {
		return g, 0, fmt.Errorf("%w: ply count", err)
	}
	return g, int(n), nil
}

// decodeInfo decodes what precedes the moves of record b into g: the
// header, the tags and the start position; it returns the decoder
// positioned at the ply count.
func decodeInfo(b []byte, g *pgn.Game, sc *scratch) (rcDecoder, error) {
	d, err := decodeHeader(b, g)
	if err != nil {
		return d, err
	}
	td := textDecoder{text: sc.text[:0], spans: sc.spans[:0], budget: maxTextSize}
	defer func() { sc.text, sc.spans = td.text, td.spans }()
	fenTag, err := td.tags(&d)
	if err != nil {
		return d, err
	}
	fenLo, fenHi, err := td.startFEN(&d, g.FromFEN, fenTag)
	if err != nil {
		return d, err
	}
	td.fillTags(g)
	g.Start = board.StartPosition()
	if g.FromFEN {
		if g.Start, err = board.ParseFEN(string(td.text[fenLo:fenHi])); err != nil {
			return d, fmt.Errorf("%w: start position: %w", errCorrupt, err)
		}
	}
	return d, nil
}

// decodeHeader checks the version byte, decodes the header (result and
// whether the game starts from a FEN) into g, and returns the decoder
// positioned after it.
func decodeHeader(b []byte, g *pgn.Game) (rcDecoder, error) {
	if len(b) == 0 {
		return rcDecoder{}, fmt.Errorf("%w: empty", errCorrupt)
	}
	if b[0] != VersionIndexed && b[0] != VersionRanked {
		return rcDecoder{}, fmt.Errorf("%w: version %d, want %d or %d", errCorrupt, b[0], VersionIndexed, VersionRanked)
	}
	d := newDecoder(b[1:])
	hdr, err := d.target(10)
	if err != nil {
		return d, fmt.Errorf("%w: header", err)
	}
	d.consume(hdr, 1, 10)
	g.Result = pgn.Result(hdr % 5)
	g.FromFEN = hdr >= 5
	return d, nil
}

// textDecoder decodes a record's tags and start position into one text
// buffer, within a budget of text bytes.
type textDecoder struct {
	text   []byte    // every decoded name and value, one after the other
	spans  []tagSpan // the tags decoded so far
	budget int       // text bytes left
}

// tags decodes the tag list and returns the index of the first FEN tag
// (-1: none).
func (td *textDecoder) tags(d *rcDecoder) (fenTag int, err error) {
	fenTag = -1
	for {
		sym, err := staticModels.name.decode(d, gamemodel.NumNameSyms)
		if err != nil {
			return fenTag, fmt.Errorf("%w: tag name", err)
		}
		if sym == gamemodel.NameEnd {
			return fenTag, nil
		}
		if len(td.spans) >= maxTags {
			return fenTag, fmt.Errorf("%w: too many tags", errCorrupt)
		}
		sp, err := td.tag(d, sym)
		if err != nil {
			return fenTag, err
		}
		if sp.name == "FEN" && fenTag < 0 {
			fenTag = len(td.spans)
		}
		td.spans = append(td.spans, sp)
	}
}

// tag decodes the tag whose name symbol is sym.
func (td *textDecoder) tag(d *rcDecoder, sym int) (tagSpan, error) {
	ms := staticModels
	var sp tagSpan
	if sym == gamemodel.NameLiteral {
		lo := len(td.text)
		var err error
		if td.text, err = decodeText(d, &ms.text[gamemodel.ClassText], td.text, &td.budget); err != nil {
			return sp, fmt.Errorf("%w: tag name", err)
		}
		sp.nameLo, sp.nameHi = int32(lo), int32(len(td.text))
		if k := gamemodel.KnownIndex(td.text[lo:]); k != gamemodel.NameLiteral {
			sp.name = gamemodel.NameOf(k)
		}
	} else {
		sp.name = gamemodel.NameOf(sym)
		sp.nameLo = int32(len(td.text))
		td.text = append(td.text, sp.name...)
		sp.nameHi = int32(len(td.text))
	}
	if sp.name == "Result" {
		r, err := d.target(5)
		if err != nil {
			return sp, fmt.Errorf("%w: result tag", err)
		}
		d.consume(r, 1, 5)
		if r != 0 {
			sp.valLo = int32(len(td.text))
			td.text = append(td.text, pgn.Result(r).String()...)
			sp.valHi = int32(len(td.text))
			return sp, nil
		}
	}
	lo := len(td.text)
	var err error
	if td.text, err = decodeText(d, &ms.text[gamemodel.TagClass(sp.name)], td.text, &td.budget); err != nil {
		return sp, fmt.Errorf("%w: tag value", err)
	}
	sp.valLo, sp.valHi = int32(lo), int32(len(td.text))
	return sp, nil
}

// startFEN decodes, for a game from a FEN, where its FEN is in the text:
// the value of tag fenTag, or a FEN of its own.
func (td *textDecoder) startFEN(d *rcDecoder, fromFEN bool, fenTag int) (lo, hi int, err error) {
	if !fromFEN {
		return -1, -1, nil
	}
	same, err := d.decodeBits(1)
	if err != nil {
		return -1, -1, fmt.Errorf("%w: start position", err)
	}
	if same == 1 {
		if fenTag < 0 {
			return -1, -1, fmt.Errorf("%w: start position: no FEN tag", errCorrupt)
		}
		return int(td.spans[fenTag].valLo), int(td.spans[fenTag].valHi), nil
	}
	lo = len(td.text)
	if td.text, err = decodeText(d, &staticModels.text[gamemodel.ClassCode], td.text, &td.budget); err != nil {
		return -1, -1, fmt.Errorf("%w: start position", err)
	}
	return lo, len(td.text), nil
}

// fillTags adds the decoded tags to g, with one allocation for their text.
func (td *textDecoder) fillTags(g *pgn.Game) {
	size := 0
	for _, sp := range td.spans {
		size += int(sp.nameHi-sp.nameLo) + int(sp.valHi-sp.valLo)
	}
	g.Grow(len(td.spans), size)
	for _, sp := range td.spans {
		g.AddTag(td.text[sp.nameLo:sp.nameHi], td.text[sp.valLo:sp.valHi])
	}
}

// decodeMoves decodes the ply count and the moves, in coding c, from
// g.Start into g.Moves.
func decodeMoves(d *rcDecoder, sc *scratch, g *pgn.Game, c Coding, stop func(int, *board.Position, board.Move) bool) (stopped bool, err error) {
	n, err := decodeCount(d)
	if err != nil {
		return false, fmt.Errorf("%w: ply count", err)
	}
	g.Moves = make([]board.Move, 0, n)
	pos := &sc.pos
	*pos = g.Start
	if c == Indexed {
		return decodeIndexed(d, sc, g, int(n), stop)
	}
	var h gamemodel.History
	for ply := 0; ply < int(n); ply++ {
		np := sc.Score(pos, &h)
		if np == 0 {
			return false, fmt.Errorf("%w: ply %d: no legal move", errCorrupt, ply+1)
		}
		k := 0
		if np > 1 {
			if k, err = decodeChoice(d, sc.PScore[:np], sc.PBest, sc.Freq[:]); err != nil {
				return false, fmt.Errorf("%w: ply %d", err, ply+1)
			}
		}
		nd := sc.Dests(&sc.Pieces[k])
		j := 0
		if nd > 1 {
			if j, err = decodeChoice(d, sc.DScore[:nd], sc.DBest, sc.Freq[:]); err != nil {
				return false, fmt.Errorf("%w: ply %d", err, ply+1)
			}
		}
		m := sc.Moves[j]
		g.Moves = append(g.Moves, m)
		if stop != nil && stop(ply, pos, m) {
			return true, nil
		}
		h.Play(pos, m)
	}
	return false, nil
}

// decodeIndexed decodes n moves in the Indexed coding, played from
// sc.pos, into g.Moves.
func decodeIndexed(d *rcDecoder, sc *scratch, g *pgn.Game, n int, stop func(int, *board.Position, board.Move) bool) (stopped bool, err error) {
	pos := &sc.pos
	ix := &sc.ix
	for ply := 0; ply < n; ply++ {
		nm := ix.set(pos)
		if nm == 0 {
			return false, fmt.Errorf("%w: ply %d: no legal move", errCorrupt, ply+1)
		}
		i := 0
		if nm > 1 {
			v, r, err := d.targetR(uint32(nm))
			if err != nil {
				return false, fmt.Errorf("%w: ply %d", err, ply+1)
			}
			d.consumeR(v, 1, r)
			i = int(v)
		}
		m := ix.move(i)
		g.Moves = append(g.Moves, m)
		if stop != nil && stop(ply, pos, m) {
			return true, nil
		}
		pos.Play(m)
	}
	return false, nil
}

// tagSpan is a decoded tag: where its name and value are in the decoded
// text (known names and result tokens are copied there too), and its name
// when it is a known one (else "").
type tagSpan struct {
	name                         string
	nameLo, nameHi, valLo, valHi int32
}

// scratch is what coding a game needs besides the output.
type scratch struct {
	gamemodel.Scorer
	pos   board.Position
	ix    indexer
	text  []byte
	spans []tagSpan
	fen   []byte
}

// scratchPool keeps scratch space (a few kilobytes) between games.
var scratchPool = sync.Pool{New: func() any { return new(scratch) }}

// IsCorrupt reports whether err says a record could not be decoded.
func IsCorrupt(err error) bool { return errors.Is(err, errCorrupt) }
