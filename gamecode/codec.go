package gamecode

import (
	"errors"
	"fmt"
	"math/bits"
	"sync"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/ingest"
)

// Version is the first byte of every record; it names the format (and the
// move-ordering heuristic and static tables the format depends on).
const Version = 2

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
	count model
	name  model
	text  [numClasses][numCharCtx]model
}

// staticModels is built once from the generated tables and only read.
var staticModels = buildModels()

func buildModels() *models {
	m := &models{name: newModel(nameFreq[:]), count: newModel(countFreq[:])}
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

	sc := scratchPool.Get().(*scratch)
	defer scratchPool.Put(sc)
	var fenTag []byte
	haveFEN := false
	for _, t := range g.Tags {
		sym := knownIndex(t.Name)
		ms.name.encode(&e, sym, numNameSyms)
		name := nameOf(sym)
		if sym == nameLiteral {
			encodeText(&e, &ms.text[classText], t.Name)
		}
		if name == "FEN" && !haveFEN {
			fenTag, haveFEN = t.Value, true
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
		fen := g.Start.AppendFEN(sc.fen[:0])
		sc.fen = fen
		if haveFEN && string(fenTag) == string(fen) {
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

	pos := &sc.pos
	*pos = g.Start
	var h history
	for ply, m := range g.Moves {
		np := sc.Gen(pos, &h)
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
					encodeChoice(&e, sc.PScore[:np], sc.PBest, sc.Freq[:], k)
				}
				if nd > 1 {
					encodeChoice(&e, sc.DScore[:nd], sc.DBest, sc.Freq[:], j)
				}
			}
		}
		if j < 0 {
			return dst[:start], fmt.Errorf("gamecode: ply %d: move %v is not legal in %s", ply+1, m, pos.FEN())
		}
		h.Play(pos, m)
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

	// All text goes into one buffer, made one string at the end.
	sc := scratchPool.Get().(*scratch)
	defer scratchPool.Put(sc)
	budget := maxTextSize
	text := sc.text[:0]
	spans := sc.spans[:0]
	defer func() { sc.text, sc.spans = text, spans }()
	fenTag := -1
	for {
		sym, err := ms.name.decode(&d, numNameSyms)
		if err != nil {
			return g, fmt.Errorf("%w: tag name", err)
		}
		if sym == nameEnd {
			break
		}
		if len(spans) >= maxTags {
			return g, fmt.Errorf("%w: too many tags", errCorrupt)
		}
		var sp tagSpan
		if sym == nameLiteral {
			lo := len(text)
			text, err = decodeText(&d, &ms.text[classText], text, &budget)
			if err != nil {
				return g, fmt.Errorf("%w: tag name", err)
			}
			sp.nameLo, sp.nameHi = int32(lo), int32(len(text))
			if k := knownIndex(text[lo:]); k != nameLiteral {
				sp.name = nameOf(k)
			}
		} else {
			sp.name = nameOf(sym)
		}
		if sp.name == "Result" {
			r, err := d.target(5)
			if err != nil {
				return g, fmt.Errorf("%w: result tag", err)
			}
			d.consume(r, 1, 5)
			if r != 0 {
				sp.value = ingest.Result(r).String()
				spans = append(spans, sp)
				continue
			}
		}
		lo := len(text)
		text, err = decodeText(&d, &ms.text[tagClass(sp.name)], text, &budget)
		if err != nil {
			return g, fmt.Errorf("%w: tag value", err)
		}
		sp.valLo, sp.valHi = int32(lo), int32(len(text))
		if sp.name == "FEN" && fenTag < 0 {
			fenTag = len(spans)
		}
		spans = append(spans, sp)
	}
	fenLo, fenHi := -1, -1
	if g.FromFEN {
		same, err := d.decodeBits(1)
		if err != nil {
			return g, fmt.Errorf("%w: start position", err)
		}
		if same == 1 {
			if fenTag < 0 {
				return g, fmt.Errorf("%w: start position: no FEN tag", errCorrupt)
			}
			fenLo, fenHi = int(spans[fenTag].valLo), int(spans[fenTag].valHi)
		} else {
			fenLo = len(text)
			text, err = decodeText(&d, &ms.text[classCode], text, &budget)
			if err != nil {
				return g, fmt.Errorf("%w: start position", err)
			}
			fenHi = len(text)
		}
	}
	str := string(text)
	if len(spans) > 0 {
		g.Tags = make([]Tag, len(spans))
		for i, sp := range spans {
			t := &g.Tags[i]
			t.Name, t.Value = sp.name, sp.value
			if t.Name == "" {
				t.Name = str[sp.nameLo:sp.nameHi]
			}
			if t.Value == "" {
				t.Value = str[sp.valLo:sp.valHi]
			}
		}
	}
	g.Start = board.StartPosition()
	if g.FromFEN {
		g.Start, err = board.ParseFEN(str[fenLo:fenHi])
		if err != nil {
			return g, fmt.Errorf("%w: start position: %w", errCorrupt, err)
		}
	}

	n, err := decodeCount(&d)
	if err != nil {
		return g, fmt.Errorf("%w: ply count", err)
	}
	g.Moves = make([]board.Move, 0, n)
	pos := &sc.pos
	*pos = g.Start
	var h history
	for ply := 0; ply < int(n); ply++ {
		np := sc.Gen(pos, &h)
		if np == 0 {
			return g, fmt.Errorf("%w: ply %d: no legal move", errCorrupt, ply+1)
		}
		k := 0
		if np > 1 {
			k, err = decodeChoice(&d, sc.PScore[:np], sc.PBest, sc.Freq[:])
			if err != nil {
				return g, fmt.Errorf("%w: ply %d", err, ply+1)
			}
		}
		nd := sc.Dests(&sc.Pieces[k])
		j := 0
		if nd > 1 {
			j, err = decodeChoice(&d, sc.DScore[:nd], sc.DBest, sc.Freq[:])
			if err != nil {
				return g, fmt.Errorf("%w: ply %d", err, ply+1)
			}
		}
		m := sc.Moves[j]
		h.Play(pos, m)
		g.Moves = append(g.Moves, m)
	}
	if d.over > 8 {
		return g, fmt.Errorf("%w: truncated", errCorrupt)
	}
	return g, nil
}

// tagSpan is a decoded tag: its name, when it is a known one, else where
// it is in the text; its value, when it is a result token, else where it
// is in the text.
type tagSpan struct {
	name, value                  string
	nameLo, nameHi, valLo, valHi int32
}

// scratch is what coding a game needs besides the output.
type scratch struct {
	scorer
	pos   board.Position
	text  []byte
	spans []tagSpan
	fen   []byte
}

// scratchPool keeps scratch space (a few kilobytes) between games.
var scratchPool = sync.Pool{New: func() any { return new(scratch) }}

// IsCorrupt reports whether err says a record could not be decoded.
func IsCorrupt(err error) bool { return errors.Is(err, errCorrupt) }
