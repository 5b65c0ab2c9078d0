package pgn

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/chessbook/chessbook/board"
)

// TestAddTag fills a Game with enough tags to grow its storage several
// times and checks every tag, the lookup, and that the tag slices cannot
// be appended into their neighbours.
func TestAddTag(t *testing.T) {
	var g Game
	g.Reset()
	for i := range 100 {
		g.AddTag(fmt.Appendf(nil, "Name%d", i), bytes.Repeat([]byte{'a' + byte(i%26)}, i))
	}
	if len(g.Tags) != 100 {
		t.Fatalf("%d tags, want 100", len(g.Tags))
	}
	for i, tg := range g.Tags {
		if string(tg.Name) != fmt.Sprintf("Name%d", i) || !bytes.Equal(tg.Value, bytes.Repeat([]byte{'a' + byte(i%26)}, i)) {
			t.Fatalf("tag %d = %q %q", i, tg.Name, tg.Value)
		}
	}
	if v := g.Tag("Name42"); len(v) != 42 {
		t.Errorf("Tag(Name42) = %q", v)
	}
	if v := g.Tag("Missing"); v != nil {
		t.Errorf("Tag(Missing) = %q, want nil", v)
	}
	_ = append(g.Tags[3].Value, "xyz"...)
	if string(g.Tags[4].Name) != "Name4" {
		t.Errorf("appending to a value changed the next tag's name to %q", g.Tags[4].Name)
	}
}

// TestAddTagToLiteral adds a tag to a Game whose tags were set directly:
// they keep their values, and no longer share the caller's memory.
func TestAddTagToLiteral(t *testing.T) {
	name, value := []byte("White"), []byte("Tal")
	g := Game{Tags: []Tag{{Name: name, Value: value}}}
	g.AddTag([]byte("Black"), []byte("Botvinnik"))
	value[0] = 'X'
	if string(g.Tag("White")) != "Tal" || string(g.Tag("Black")) != "Botvinnik" {
		t.Errorf("tags %q", g.Tags)
	}
}

// TestGameReuseNoAllocs checks that refilling a reused Game allocates
// nothing, and that Grow makes room ahead.
func TestGameReuseNoAllocs(t *testing.T) {
	var g Game
	fill := func() {
		g.Reset()
		g.AddTag([]byte("Event"), []byte("Hastings 1895"))
		g.AddTag([]byte("White"), []byte("Pillsbury, Harry Nelson"))
		g.AddTag([]byte("Black"), []byte("Tarrasch, Siegbert"))
		g.Moves = append(g.Moves, board.NullMove, board.NullMove)
	}
	fill()
	if n := testing.AllocsPerRun(100, fill); n != 0 {
		t.Errorf("refilling a Game: %v allocations", n)
	}
	if len(g.Tags) != 3 || len(g.Moves) != 2 || g.Result != NoResult || g.Start != board.StartPosition() {
		t.Errorf("after Reset and refill: %d tags, %d moves, result %v, start %s", len(g.Tags), len(g.Moves), g.Result, g.Start.FEN())
	}
	var h Game
	h.Grow(2, 10)
	tags, arena := &h.Tags[:1][0], &h.arena[:1][0]
	h.AddTag([]byte("ab"), []byte("cde"))
	h.AddTag([]byte("fg"), []byte("hij"))
	if &h.Tags[0] != tags || &h.arena[0] != arena {
		t.Error("AddTag after Grow moved the tags")
	}
}

// TestClone checks that a clone is equal and shares nothing.
func TestClone(t *testing.T) {
	var g Game
	g.Reset()
	g.File, g.Line, g.Result = "f.pgn", 7, Draw
	g.AddTag([]byte("Event"), []byte("E"))
	pos := board.StartPosition()
	m, err := pos.ParseSAN([]byte("e4"))
	if err != nil {
		t.Fatal(err)
	}
	g.Moves = append(g.Moves, m)
	c := g.Clone()
	if c.File != g.File || c.Line != g.Line || c.Result != g.Result || c.Start != g.Start ||
		len(c.Moves) != 1 || c.Moves[0] != m || string(c.Tag("Event")) != "E" {
		t.Fatalf("clone %+v differs from %+v", c, g)
	}
	g.Reset()
	g.AddTag([]byte("Site"), []byte("S"))
	g.Moves = append(g.Moves, board.NullMove)
	if string(c.Tags[0].Name) != "Event" || string(c.Tags[0].Value) != "E" || c.Moves[0] != m {
		t.Errorf("reusing the original changed the clone: %q %v", c.Tags, c.Moves)
	}
}

// TestTagJSON checks that tags marshal as text, not base64, and back.
func TestTagJSON(t *testing.T) {
	tags := []Tag{{Name: []byte("White"), Value: []byte("Müller \"Jörg\"")}}
	b, err := json.Marshal(tags)
	if err != nil {
		t.Fatal(err)
	}
	if want := `[{"name":"White","value":"Müller \"Jörg\""}]`; string(b) != want {
		t.Errorf("JSON %s, want %s", b, want)
	}
	var back []Tag
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if len(back) != 1 || !bytes.Equal(back[0].Name, tags[0].Name) || !bytes.Equal(back[0].Value, tags[0].Value) {
		t.Errorf("JSON round trip gives %q", back)
	}
	if err := json.Unmarshal([]byte(`[{"name":1}]`), &back); err == nil {
		t.Error("a number as a tag name was accepted")
	}
}
