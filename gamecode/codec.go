package gamecode

import (
	"errors"
	"fmt"
	"math/bits"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/ingest"
)

// Version is the first byte of every record; it names the format (and the
// move-ordering heuristic and static tables the format depends on).
const Version = 1

// Limits that bound what DecodeGame accepts, so that garbage cannot make
// it loop or allocate without bound.
const (
	maxPlies    = 1 << 16
	maxTags     = 1 << 12
	maxTextSize = 1 << 20
)

// Tag is one tag pair of a decoded game.
type Tag struct {
	Name, Value string
}

// Game is a decoded game.
type Game struct {
	Tags    []Tag          // every tag pair, in input order
	Start   board.Position // the start position
	FromFEN bool           // the game starts from a FEN rather than the standard position
	Moves   []board.Move   // the main line
	Result  ingest.Result  // the termination marker
}

// Tag returns the value of the first tag named name and whether there is one.
func (g *Game) Tag(name string) (string, bool) {
	for _, t := range g.Tags {
		if t.Name == name {
			return t.Value, true
		}
	}
	return "", false
}

// models are the static models built from the frozen tables.
type models struct {
	rank  [numRankContexts]model
	count model
	name  model
	text  [numClasses][numCharCtx]model
}

// staticModels is built once from the generated tables and only read.
var staticModels = buildModels()

func buildModels() *models {
	m := &models{name: newModel(nameFreq[:]), count: newModel(countFreq[:])}
	for i := range m.rank {
		m.rank[i] = newModel(rankFreq[i][:])
	}
	for i := range m.text {
		for j := range m.text[i] {
			m.text[i][j] = newModel(textFreq[i][j][:])
		}
	}
	return m
}

// AppendGame appends the record of g to dst and returns the extended
// slice. It fails, leaving dst's content unchanged, when g holds a move
// that is not legal where it is played or a result out of range.
func AppendGame(dst []byte, g *ingest.Game) ([]byte, error) {
	if g.Result > ingest.Unknown {
		return dst, fmt.Errorf("gamecode: result %d out of range", g.Result)
	}
	ms := staticModels
	start := len(dst)
	dst = append(dst, Version)
	e := newEncoder(dst)
	hdr := uint32(g.Result)
	if g.FromFEN {
		hdr += 5
	}
	e.encode(hdr, 1, 10)

	var fenTag []byte
	for _, t := range g.Tags {
		sym := knownIndex(t.Name)
		ms.name.encode(&e, sym, numNameSyms)
		name := string(t.Name)
		if sym == nameLiteral {
			encodeText(&e, &ms.text[classText], t.Name)
		}
		if name == "FEN" && fenTag == nil {
			fenTag = t.Value
		}
		if name == "Result" {
			r := ingest.ParseResult(t.Value)
			if r != ingest.NoResult && r.String() == string(t.Value) {
				e.encode(uint32(r), 1, 5)
				continue
			}
			e.encode(0, 1, 5)
		}
		encodeText(&e, &ms.text[tagClass(name)], t.Value)
	}
	ms.name.encode(&e, nameEnd, numNameSyms)

	if g.FromFEN {
		fen := g.Start.AppendFEN(nil)
		if fenTag != nil && string(fenTag) == string(fen) {
			e.encodeBits(1, 1)
		} else {
			e.encodeBits(0, 1)
			encodeText(&e, &ms.text[classCode], fen)
		}
	}

	n := len(g.Moves)
	if n >= maxPlies {
		return dst[:start], fmt.Errorf("gamecode: %d plies, at most %d can be stored", n, maxPlies-1)
	}
	encodeCount(&e, uint32(n))

	var sc scorer
	pos := g.Start
	last := board.NullMove
	for ply, m := range g.Moves {
		moves := sc.score(&pos, last)
		idx := -1
		for i, lm := range moves {
			if lm == m {
				idx = i
				break
			}
		}
		if idx < 0 {
			return dst[:start], fmt.Errorf("gamecode: ply %d: move %v is not legal in %s", ply+1, m, pos.FEN())
		}
		if len(moves) > 1 {
			r := sc.rank(len(moves), idx)
			ms.rank[sc.rankContext(len(moves))].encode(&e, r, len(moves))
		}
		pos.Play(m)
		last = m
	}
	out := e.finish()
	// The decoder reads zeros past the end: up to 4 trailing zero bytes
	// need not be stored.
	for k := 0; k < 4 && len(out) > start+1 && out[len(out)-1] == 0; k++ {
		out = out[:len(out)-1]
	}
	return out, nil
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

func encodeText(e *rcEncoder, m *[numCharCtx]model, s []byte) {
	ctx := 0
	for _, c := range s {
		m[ctx].encode(e, int(c), symEnd+1)
		ctx = charCtx(c)
	}
	m[ctx].encode(e, symEnd, symEnd+1)
}

func decodeText(d *rcDecoder, m *[numCharCtx]model, buf []byte, budget *int) ([]byte, error) {
	ctx := 0
	for {
		c, err := m[ctx].decode(d, symEnd+1)
		if err != nil {
			return buf, err
		}
		if c == symEnd {
			return buf, nil
		}
		if *budget <= 0 {
			return buf, errCorrupt
		}
		*budget--
		buf = append(buf, byte(c))
		ctx = charCtx(byte(c))
	}
}

// DecodeGame decodes a record made by AppendGame. It returns an error
// wrapping the cause for anything that is not such a record; it never
// panics.
func DecodeGame(b []byte) (Game, error) {
	var g Game
	if len(b) == 0 {
		return g, fmt.Errorf("%w: empty", errCorrupt)
	}
	if b[0] != Version {
		return g, fmt.Errorf("%w: version %d, want %d", errCorrupt, b[0], Version)
	}
	ms := staticModels
	d := newDecoder(b[1:])
	hdr, err := d.target(10)
	if err != nil {
		return g, fmt.Errorf("%w: header", err)
	}
	d.consume(hdr, 1, 10)
	g.Result = ingest.Result(hdr % 5)
	g.FromFEN = hdr >= 5

	budget := maxTextSize
	var buf []byte
	fenTag := ""
	for {
		sym, err := ms.name.decode(&d, numNameSyms)
		if err != nil {
			return g, fmt.Errorf("%w: tag name", err)
		}
		if sym == nameEnd {
			break
		}
		if len(g.Tags) >= maxTags {
			return g, fmt.Errorf("%w: too many tags", errCorrupt)
		}
		var name string
		if sym == nameLiteral {
			buf, err = decodeText(&d, &ms.text[classText], buf[:0], &budget)
			if err != nil {
				return g, fmt.Errorf("%w: tag name", err)
			}
			name = string(buf)
		} else {
			name = knownTags[sym-nameKnown]
		}
		if name == "Result" {
			r, err := d.target(5)
			if err != nil {
				return g, fmt.Errorf("%w: result tag", err)
			}
			d.consume(r, 1, 5)
			if r != 0 {
				g.Tags = append(g.Tags, Tag{name, ingest.Result(r).String()})
				continue
			}
		}
		buf, err = decodeText(&d, &ms.text[tagClass(name)], buf[:0], &budget)
		if err != nil {
			return g, fmt.Errorf("%w: tag %q value", err, name)
		}
		if name == "FEN" && fenTag == "" {
			fenTag = string(buf)
		}
		g.Tags = append(g.Tags, Tag{name, string(buf)})
	}

	g.Start = board.StartPosition()
	if g.FromFEN {
		same, err := d.decodeBits(1)
		if err != nil {
			return g, fmt.Errorf("%w: start position", err)
		}
		fen := fenTag
		if same == 0 {
			buf, err = decodeText(&d, &ms.text[classCode], buf[:0], &budget)
			if err != nil {
				return g, fmt.Errorf("%w: start position", err)
			}
			fen = string(buf)
		}
		g.Start, err = board.ParseFEN(fen)
		if err != nil {
			return g, fmt.Errorf("%w: start position: %w", errCorrupt, err)
		}
	}

	n, err := decodeCount(&d)
	if err != nil {
		return g, fmt.Errorf("%w: ply count", err)
	}
	g.Moves = make([]board.Move, 0, n)
	var sc scorer
	pos := g.Start
	last := board.NullMove
	for ply := 0; ply < int(n); ply++ {
		moves := sc.score(&pos, last)
		if len(moves) == 0 {
			return g, fmt.Errorf("%w: ply %d: no legal move", errCorrupt, ply+1)
		}
		r := 0
		if len(moves) > 1 {
			r, err = ms.rank[sc.rankContext(len(moves))].decode(&d, len(moves))
			if err != nil {
				return g, fmt.Errorf("%w: ply %d", err, ply+1)
			}
		}
		m := moves[sc.atRank(len(moves), r)]
		pos.Play(m)
		last = m
		g.Moves = append(g.Moves, m)
	}
	if d.over > 8 {
		return g, fmt.Errorf("%w: truncated", errCorrupt)
	}
	return g, nil
}

// IsCorrupt reports whether err says a record could not be decoded.
func IsCorrupt(err error) bool { return errors.Is(err, errCorrupt) }
