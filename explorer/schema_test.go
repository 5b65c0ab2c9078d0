package explorer

import (
	"encoding/json"
	"github.com/chessbook/chessbook/pgn"
	"strings"
	"testing"
)

// TestGameJSONWhole: a full game's JSON has its GameRef's fields and its
// own (tags, moves, pgn), and an unknown month is absent outside /lichess.
func TestGameJSONWhole(t *testing.T) {
	g := Game{GameRef: GameRef{ID: "00000000000000aa", Result: "1-0", Year: 1990}, Tags: []pgn.Tag{{Name: []byte("Event"), Value: []byte("X")}}, Moves: []string{"e4"}, PGN: "1. e4 1-0"}
	b, err := json.Marshal(g)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"id":"00000000000000aa","winner":null,"white":{"name":"","rating":0},"black":{"name":"","rating":0},"year":1990,"result":"1-0","plies":0,"tags":[{"name":"Event","value":"X"}],"moves":["e4"],"pgn":"1. e4 1-0"}`
	if string(b) != want {
		t.Errorf("game JSON\n got %s\nwant %s", b, want)
	}
	g.nullMonth = true
	if b, _ := json.Marshal(g.GameRef); !strings.Contains(string(b), `"month":null`) {
		t.Errorf("a /lichess game with no month: %s", b)
	}
}
