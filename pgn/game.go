package pgn

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/chessbook/chessbook/board"
)

// Tag is one tag pair of a Game. In a Game filled with AddTag both slices
// point into the Game's own storage: they are valid until the Game is
// Reset, and must not be appended to.
type Tag struct {
	Name, Value []byte
}

// tagJSON is the JSON form of a Tag: its name and value as strings.
type tagJSON struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// MarshalJSON encodes t as {"name": name, "value": value} with both as
// JSON strings (tag text is UTF-8), not as base64 byte arrays.
func (t Tag) MarshalJSON() ([]byte, error) {
	return json.Marshal(tagJSON{Name: string(t.Name), Value: string(t.Value)})
}

// UnmarshalJSON decodes the form MarshalJSON writes.
func (t *Tag) UnmarshalJSON(b []byte) error {
	var j tagJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return fmt.Errorf("pgn: tag: %w", err)
	}
	t.Name, t.Value = []byte(j.Name), []byte(j.Value)
	return nil
}

// Game is one game: its tags, start position, main line and result. It is
// the game model of the whole project: the replay pipeline fills one
// (ingest), the game store encodes and decodes it (gamecode), and Append
// and Writer print it as PGN.
//
// A Game is meant to be reused: Reset empties it but keeps its storage,
// and AddTag copies tags into that storage, so that filling the same Game
// game after game allocates nothing once the storage has grown. Whoever
// hands out a reused Game says how long it stays valid; use Clone to keep
// one.
type Game struct {
	File    string         // input name, when the game was read from a file
	Line    int            // 1-based line where the game starts in File (0: unknown)
	Tags    []Tag          // every tag pair, in input order
	Start   board.Position // the start position (the FEN tag's, or the standard one)
	FromFEN bool           // the game starts from a FEN tag rather than the standard position
	Moves   []board.Move   // the main line
	Result  Result         // the termination marker (or the Result tag when the marker is missing)

	arena []byte // backing store of the tags added with AddTag
}

// Reset empties g for the next game: no tags or moves, NoResult, the
// standard start position, no File or Line. It keeps g's storage.
func (g *Game) Reset() {
	*g = Game{Tags: g.Tags[:0], Moves: g.Moves[:0], arena: g.arena[:0], Start: startPosition}
}

// startPosition is the standard start position, computed once and only read.
var startPosition = board.StartPosition()

// AddTag appends a tag pair, copying name and value into g's storage.
func (g *Game) AddTag(name, value []byte) {
	if need := len(name) + len(value); cap(g.arena)-len(g.arena) < need {
		g.growArena(need)
	}
	n0 := len(g.arena)
	g.arena = append(g.arena, name...)
	v0 := len(g.arena)
	g.arena = append(g.arena, value...)
	end := len(g.arena)
	g.Tags = append(g.Tags, Tag{Name: g.arena[n0:v0:v0], Value: g.arena[v0:end:end]})
}

// Grow makes room for n more tags holding size bytes of names and values
// in all, so that the AddTag calls that follow allocate nothing.
func (g *Game) Grow(n, size int) {
	g.Tags = slices.Grow(g.Tags, n)
	if cap(g.arena)-len(g.arena) < size {
		g.growArena(size)
	}
}

// growArena replaces g's tag storage by a larger one holding the current
// tags (wherever they point) and room for need more bytes.
func (g *Game) growArena(need int) {
	size := 0
	for _, t := range g.Tags {
		size += len(t.Name) + len(t.Value)
	}
	arena := make([]byte, 0, max(2*cap(g.arena), size+need, 256))
	for i := range g.Tags {
		t := &g.Tags[i]
		n0 := len(arena)
		arena = append(arena, t.Name...)
		v0 := len(arena)
		arena = append(arena, t.Value...)
		t.Name, t.Value = arena[n0:v0:v0], arena[v0:len(arena):len(arena)]
	}
	g.arena = arena
}

// Tag returns the value of the first tag named name, or nil when there is
// none.
func (g *Game) Tag(name string) []byte {
	for i := range g.Tags {
		if string(g.Tags[i].Name) == name {
			return g.Tags[i].Value
		}
	}
	return nil
}

// Clone returns a deep copy of g that shares no storage with it.
func (g *Game) Clone() *Game {
	c := &Game{File: g.File, Line: g.Line, Start: g.Start, FromFEN: g.FromFEN, Result: g.Result, Moves: slices.Clone(g.Moves)}
	if len(g.Tags) > 0 {
		size := 0
		for _, t := range g.Tags {
			size += len(t.Name) + len(t.Value)
		}
		c.Tags, c.arena = make([]Tag, 0, len(g.Tags)), make([]byte, 0, size)
		for _, t := range g.Tags {
			c.AddTag(t.Name, t.Value)
		}
	}
	return c
}
