package pgn

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/chessbook/chessbook/board"
)

// gameOf replays SAN moves from fen ("" for the standard position).
func gameOf(t *testing.T, fen string, sans ...string) *Game {
	t.Helper()
	var g Game
	g.Reset()
	if fen != "" {
		p, err := board.ParseFEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		g.Start, g.FromFEN = p, true
	}
	pos := g.Start
	for _, s := range sans {
		m, err := pos.ParseSAN([]byte(s))
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		pos.Play(m)
		g.Moves = append(g.Moves, m)
	}
	return &g
}

func TestAppend(t *testing.T) {
	g := gameOf(t, "", "e4", "e5", "Nf3", "Nc6", "Bb5")
	g.AddTag([]byte("Event"), []byte(`The "Big" One \ 1`))
	g.AddTag([]byte("Result"), []byte("*"))
	g.Result = Unknown
	want := "[Event \"The \\\"Big\\\" One \\\\ 1\"]\n[Result \"*\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 *\n\n"
	if got := string(Append([]byte("x"), g)); got != "x"+want {
		t.Errorf("Append =\n%q\nwant\n%q", got, "x"+want)
	}

	// Black to move first, no tags, no result.
	g = gameOf(t, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", "c5", "Nf3", "d6")
	if got, want := string(Append(nil, g)), "\n1... c5 2. Nf3 d6\n\n"; got != want {
		t.Errorf("Append from a FEN = %q, want %q", got, want)
	}

	// No moves, only a result.
	g = gameOf(t, "")
	g.Result = Draw
	if got, want := string(Append(nil, g)), "\n1/2-1/2\n\n"; got != want {
		t.Errorf("Append of a game without moves = %q, want %q", got, want)
	}
}

// TestAppendLineLength checks that movetext lines are filled up to 80
// characters and no further.
func TestAppendLineLength(t *testing.T) {
	var sans []string
	for range 30 {
		sans = append(sans, "Nf3", "Nf6", "Ng1", "Ng8")
	}
	g := gameOf(t, "", sans...)
	g.Result = Draw
	text := string(Append(nil, g))
	lines := strings.Split(strings.TrimSuffix(text, "\n\n"), "\n")
	if lines[0] != "" || len(lines) < 4 {
		t.Fatalf("unexpected layout:\n%s", text)
	}
	for i, l := range lines[1:] {
		if len(l) > 80 {
			t.Errorf("line %d has %d characters: %q", i+1, len(l), l)
		}
		if i+2 < len(lines) && len(l)+1+len(strings.Fields(lines[i+2])[0]) <= 80 {
			t.Errorf("line %d ends early: %q", i+1, l)
		}
	}
	if want := "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. Nf3 Nf6 6. Ng1 Ng8 7. Nf3 Nf6 8."; lines[1] != want {
		t.Errorf("first line %q, want %q", lines[1], want)
	}
	if !strings.HasSuffix(text, " 1/2-1/2\n\n") {
		t.Errorf("no result at the end: %q", text[len(text)-20:])
	}
	// The movetext reads back as the same moves.
	var r sanList
	Parse([]byte(text), 1, &r)
	if strings.Join(r.sans, " ") != strings.Join(sans, " ") || r.result != Draw {
		t.Errorf("read back as %v %v", r.sans, r.result)
	}
}

// sanList is a Visitor collecting the SAN tokens and the result.
type sanList struct {
	sans   []string
	result Result
}

func (*sanList) BeginGame(int)                {}
func (*sanList) Tag(_, _ []byte)              {}
func (*sanList) BeginMovetext() bool          { return true }
func (l *sanList) SAN(san []byte, _ int) bool { l.sans = append(l.sans, string(san)); return true }
func (l *sanList) Outcome(r Result)           { l.result = r }
func (*sanList) ParseError(int, string)       {}
func (*sanList) EndGame()                     {}

type failWriter struct{}

var errFull = errors.New("disk full")

func (failWriter) Write([]byte) (int, error) { return 0, errFull }

func TestWriter(t *testing.T) {
	g1 := gameOf(t, "", "d4")
	g2 := gameOf(t, "", "e4", "c5")
	var b bytes.Buffer
	w := NewWriter(&b)
	for _, g := range []*Game{g1, g2} {
		if err := w.WriteGame(g); err != nil {
			t.Fatal(err)
		}
	}
	if want := string(Append(Append(nil, g1), g2)); b.String() != want {
		t.Errorf("Writer wrote %q, want %q", b.String(), want)
	}
	if err := NewWriter(failWriter{}).WriteGame(g1); !errors.Is(err, errFull) {
		t.Errorf("WriteGame to a failing writer: %v", err)
	}
}
