package explorer

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/ingest"
	"github.com/chessbook/chessbook/pgn"
)

// uciLine plays the UCI moves of uci (spaces between) from fen with
// board.ParseUCI alone: the reference ParseLine's answers are checked
// against.
func uciLine(t testing.TB, fen, uci string) []board.Position {
	t.Helper()
	p := board.StartPosition()
	if fen != "" {
		var err error
		if p, err = board.ParseFEN(fen); err != nil {
			t.Fatal(err)
		}
	}
	line := []board.Position{p}
	for _, s := range strings.Fields(uci) {
		m, err := p.ParseUCI(s)
		if err != nil {
			t.Fatalf("reference line %q: %v", uci, err)
		}
		p.Play(m)
		line = append(line, p)
	}
	return line
}

// checkLine parses text and compares the line with want.
func checkLine(t *testing.T, fen, text string, o LineOptions, want []board.Position) {
	t.Helper()
	start, err := ParseFEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	got, err := ParseLine(start, text, o)
	if err != nil {
		t.Errorf("ParseLine(%q, %+v): %v", text, o, err)
		return
	}
	if len(got) != len(want) {
		t.Errorf("ParseLine(%q, %+v): %d positions, want %d", text, o, len(got), len(want))
		return
	}
	for i := range got {
		if got[i] != want[i] {
			t.Errorf("ParseLine(%q, %+v): position %d is %s, want %s", text, o, i, got[i].FEN(), want[i].FEN())
			return
		}
	}
}

// TestParseLineMovetext checks that every way of writing a line that
// bookquery's -moves (PGN movetext, read by ingest before) or the API's
// moves= (SAN or UCI, spaces or commas, move numbers) took gives the same
// positions, as Movetext.
func TestParseLineMovetext(t *testing.T) {
	for _, tc := range []struct {
		fen, uci string
		forms    []string
	}{
		{"", "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5a4 g8f6 e1g1", []string{
			// What both took.
			"e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O",
			"e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5a4 g8f6 e1g1",
			"1.e4 e5 2.Nf3 Nc6 3.Bb5 a6 4.Ba4 Nf6 5.O-O",
			"1. e4 1... e5 2. Nf3 2... Nc6 3. Bb5 a6 4. Ba4 Nf6 5. 0-0",
			"e4 e5 Nf3 Nc6 Bb5+ a6 Ba4 Nf6 O-O!?",
			// What -moves took: long algebraic, comments, variations,
			// NAGs, lone marks, numbers without dots, a result.
			"1.e2e4 e7e5 2.Ng1-f3 Nc6 3.Bb5 a7a6 4.Ba4 g8f6 5.e1g1 *",
			" e4  e5\nNf3 {the main line} Nc6 Bb5+? a6 (3...Nf6) Ba4 $1 Nf6 O-O!",
			"1 e4 e5 2 Nf3 Nc6 3 . Bb5 3 ... a6 4.Ba4 Nf6 5.O-O 1-0",
			"e4 ! e5 Nf3 !? Nc6 Bb5 a6 (a6 (Nf6 {a comment (with a paren}) d6) Ba4 Nf6 O-O ; the end",
			"e2-e4 e7-e5 Ng1-f3 Nb8-c6 Bf1-b5 a7-a6 Bb5-a4 Ng8-f6 Ke1-g1",
			"1.e4 e5 2.Nf3 Nc6 3.Bb5 a6 4.Ba4 Nf6 5.O-O 1/2-1/2 {drawn later}",
			"1.e4 1.e5 9.Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O", // numbers are not checked
			// What moves= took: commas, commas and spaces.
			"e4,e5,Nf3,Nc6,Bb5,a6,Ba4,Nf6,O-O",
			"1.e4, e5, 2.Nf3,, Nc6 Bb5 a6 Ba4 Nf6 O-O",
			"e2e4,e7e5 g1f3 Nc6 Bb5 a6 Ba4 Nf6 e1g1",
			// New: lower-case castling.
			"e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 o-o",
		}},
		// En passant and a promotion with capture, from a FEN.
		{"1n2k1n1/P7/8/3pP3/8/8/8/4K3 w - d6 0 40", "e5d6 e8f7 a7b8q g8f6", []string{
			"exd6 Kf7 axb8=Q Nf6",
			"e5d6 e8f7 a7b8q g8f6",
			"e5d6 e8f7 a7b8Q g8f6",
			"40.exd6 Kf7 41.axb8Q Nf6",
			"40. e5xd6 40... Kf7 41. a7xb8=Q 41... Ng8-f6",
			"exd6e.p. Kf7 axb8=Q+ Nf6",
			"exd6 e.p. Kf7 a7-b8=Q+ Nf6",
		}},
		// Black to move first.
		{"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", "c7c5 g1f3 d7d6 d2d4 c5d4", []string{
			"c5 Nf3 d6 d4 cxd4",
			"c7c5 g1f3 d7d6 d2d4 c5d4",
			"1...c5 2.Nf3 d6 3.d4 cxd4",
			"1... c5 2. Nf3 d6 3. d4 c5xd4",
		}},
		// Nothing to play.
		{"", "", []string{"", "  ", "{just a comment}", "*", "1.", "$1 ,,"}},
	} {
		want := uciLine(t, tc.fen, tc.uci)
		for _, text := range tc.forms {
			checkLine(t, tc.fen, text, LineOptions{}, want)
			checkLine(t, tc.fen, text, LineOptions{MaxPlies: len(want) - 1}, want)
		}
	}
}

// TestParseLineUCIList checks the play= form: UCI moves, commas or spaces,
// empty items skipped.
func TestParseLineUCIList(t *testing.T) {
	want := uciLine(t, "", "e2e4 e7e5 g1f3 b8c6")
	for _, text := range []string{"e2e4,e7e5,g1f3,b8c6", " e2e4 , e7e5,g1f3,b8c6 ", "e2e4,,e7e5,g1f3,b8c6,", "e2e4 e7e5 g1f3 b8c6"} {
		checkLine(t, "", text, LineOptions{Notation: UCIList}, want)
	}
	checkLine(t, "1n2k1n1/P7/8/3pP3/8/8/8/4K3 w - d6 0 40", "e5d6,e8f7,a7b8Q", LineOptions{Notation: UCIList},
		uciLine(t, "1n2k1n1/P7/8/3pP3/8/8/8/4K3 w - d6 0 40", "e5d6 e8f7 a7b8q"))
	// UCIList takes nothing but UCI moves.
	for _, text := range []string{"e4", "e2e4,Nf3", "1.e2e4", "e2-e4", "e2e4 {comment}", "e2e4 1-0", "e1g1+"} {
		if _, err := ParseLine(board.StartPosition(), text, LineOptions{Notation: UCIList}); err == nil {
			t.Errorf("ParseLine(%q, UCIList): no error", text)
		}
	}
}

// TestParseLineGames reads the lines of real games written three ways
// (numbered SAN, long algebraic, a UCI list) and checks them against the
// positions the book builder replays.
func TestParseLineGames(t *testing.T) {
	s := &lineGames{}
	if _, err := ingest.Run(context.Background(), []string{championsPGN}, ingest.Options{Workers: 1}, func(int) ingest.Sink { return ingest.SinkFunc(s.add) }); err != nil {
		t.Fatal(err)
	}
	if len(s.games) != 500 {
		t.Fatalf("%d games, want 500", len(s.games))
	}
	for _, g := range s.games {
		var san, long, uci strings.Builder
		p := g.start
		want := []board.Position{p}
		for i, m := range g.moves {
			if i%2 == 0 {
				fmt.Fprintf(&san, "%d.", i/2+1)
			}
			sn := p.SAN(m)
			san.WriteString(sn + " ")
			switch {
			case sn[0] == 'O':
				long.WriteString("K")
			case strings.IndexByte("NBRQK", sn[0]) >= 0:
				long.WriteString(sn[:1])
			}
			sep := "-"
			if strings.Contains(sn, "x") {
				sep = "x"
			}
			u := m.String()
			long.WriteString(u[:2] + sep + u[2:4])
			if len(u) == 5 {
				long.WriteString("=" + strings.ToUpper(u[4:]))
			}
			long.WriteByte(' ')
			uci.WriteString(u + ",")
			p.Play(m)
			want = append(want, p)
		}
		for _, c := range []struct {
			text string
			o    LineOptions
		}{{san.String(), LineOptions{}}, {long.String(), LineOptions{}}, {uci.String(), LineOptions{}}, {uci.String(), LineOptions{Notation: UCIList}}} {
			got, err := ParseLine(g.start, c.text, c.o)
			if err != nil {
				t.Fatalf("ParseLine(%q): %v", c.text, err)
			}
			if !slices.Equal(got, want) {
				t.Fatalf("ParseLine(%q) does not replay the game", c.text)
			}
		}
	}
}

// reachable reports whether a legal move leads from p to q.
func reachable(p, q *board.Position) bool {
	for _, m := range p.LegalMoves(nil) {
		r := *p
		r.Play(m)
		if r == *q {
			return true
		}
	}
	return false
}

// lineGames keeps every game's start and moves.
type lineGames struct {
	games []struct {
		start board.Position
		moves []board.Move
	}
}

func (s *lineGames) add(g *pgn.Game) error {
	s.games = append(s.games, struct {
		start board.Position
		moves []board.Move
	}{g.Start, slices.Clone(g.Moves)})
	return nil
}

// TestParseLineErrors checks the errors: their kind, the move and its
// number, the message, and that they are bad input.
func TestParseLineErrors(t *testing.T) {
	blackFEN := "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 7"
	for _, tc := range []struct {
		fen, text string
		o         LineOptions
		kind      MoveErrorKind
		ply       int
		number    string
		move      string
		msg       []string // in Error()
	}{
		{"", "e4 e5 Ke3", LineOptions{}, IllegalMove, 2, "2.", "Ke3", []string{"move 2.Ke3: illegal move: no king can move to e3 (position rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2)"}},
		{"", "1.e4 e5 2.Nf3 Bxf3", LineOptions{}, IllegalMove, 3, "2...", "Bxf3", []string{"move 2...Bxf3: illegal move"}},
		{"", "e5", LineOptions{}, IllegalMove, 0, "1.", "e5", []string{"move 1.e5: illegal move"}},
		{"", "e2e5", LineOptions{}, IllegalMove, 0, "1.", "e2e5", []string{"move 1.e2e5: illegal move"}},
		{"", "e4 e5 Ng1-e3", LineOptions{}, IllegalMove, 2, "2.", "Ng1-e3", []string{"move 2.Ng1-e3: illegal move"}},
		{"4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8", LineOptions{}, IllegalMove, 0, "1.", "a7a8", []string{"promotion without a promotion piece"}},
		{"", "e4 e5 Nf9", LineOptions{}, NotAMove, 2, "2.", "Nf9", []string{"move 2.Nf9: not a move"}},
		{"", "e4 hello", LineOptions{}, NotAMove, 1, "1...", "hello", []string{"move 1...hello: not a move"}},
		{"", "1.e4 e5 2.Nf3 2...Nz6", LineOptions{}, NotAMove, 3, "2...", "Nz6", []string{"move 2...Nz6: not a move"}},
		{blackFEN, "Nf6 8.Xc3", LineOptions{}, NotAMove, 1, "8.", "Xc3", []string{"move 8.Xc3: not a move"}},
		{"", "e4 e5 \xff\xfe", LineOptions{}, NotAMove, 2, "2.", "\xff\xfe", []string{"not a move"}},
		{"", "e4 e5 )", LineOptions{}, NotAMove, 2, "2.", ")", []string{"not a move"}},
		{"", "e4 e5 --", LineOptions{}, NullMove, 2, "2.", "--", []string{"move 2.--: null move"}},
		{"", "e4 e5 0000", LineOptions{}, NullMove, 2, "2.", "0000", []string{"null move"}},
		{"", "e4 e5 1-0 Nf3", LineOptions{}, AfterResult, 2, "2.", "Nf3", []string{"after the result 1-0", "more than one game"}},
		{"", "e4 {unclosed comment", LineOptions{}, Unterminated, 1, "1...", "{unclosed comment", []string{"not closed"}},
		{"", "e4 (e5 Nf3", LineOptions{}, Unterminated, 1, "1...", "(e5 Nf3", []string{"not closed"}},
		{"", "Nf3 Nf6 Ng1 Ng8 Nf3", LineOptions{MaxPlies: 4}, TooManyMoves, 4, "3.", "Nf3", []string{"more than 4 moves"}},
		// UCIList.
		{"", "e2e4,e7e5,e1e3", LineOptions{Notation: UCIList}, IllegalMove, 2, "2.", "e1e3", []string{"move 2.e1e3: illegal move"}},
		{"", "e2e4,e7e5,Nf3", LineOptions{Notation: UCIList}, NotAMove, 2, "2.", "Nf3", []string{"move 2.Nf3: not a move", "want 4 or 5 characters"}},
		{"", "e2e4,e7e5,e1g1", LineOptions{Notation: UCIList}, IllegalMove, 2, "2.", "e1g1", []string{"illegal"}},
		{"", "e7e8x", LineOptions{Notation: UCIList}, NotAMove, 0, "1.", "e7e8x", []string{"move 1.e7e8x"}},
		{"", "0000", LineOptions{Notation: UCIList}, NullMove, 0, "1.", "0000", []string{"null move"}},
		{"", "e2e4,{", LineOptions{Notation: UCIList}, NotAMove, 1, "1...", "{", []string{"not a move"}},
	} {
		start, err := ParseFEN(tc.fen)
		if err != nil {
			t.Fatal(err)
		}
		line, err := ParseLine(start, tc.text, tc.o)
		var me *MoveError
		if !errors.As(err, &me) || line != nil {
			t.Errorf("ParseLine(%q): %v, %d positions; want a *MoveError", tc.text, err, len(line))
			continue
		}
		if me.Kind != tc.kind || me.Ply != tc.ply || me.Number != tc.number || me.Move != tc.move {
			t.Errorf("ParseLine(%q): %+v; want kind %d, ply %d, %s%s", tc.text, *me, tc.kind, tc.ply, tc.number, tc.move)
		}
		if !errors.Is(err, ErrBadInput) {
			t.Errorf("ParseLine(%q): %v is not ErrBadInput", tc.text, err)
		}
		for _, w := range tc.msg {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("ParseLine(%q): %q does not say %q", tc.text, err, w)
			}
		}
	}
	// board's error is kept.
	_, err := ParseLine(board.StartPosition(), "e4 e5 Ke3", LineOptions{})
	if _, ok := errors.AsType[*board.SANError](err); !ok {
		t.Errorf("%v: no *board.SANError in it", err)
	}
}

func TestParseFEN(t *testing.T) {
	if p, err := ParseFEN(""); err != nil || p != board.StartPosition() {
		t.Errorf(`ParseFEN(""): %s, %v`, p.FEN(), err)
	}
	fen := "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"
	if p, err := ParseFEN(fen); err != nil || p.FEN() != fen {
		t.Errorf("ParseFEN(%q): %s, %v", fen, p.FEN(), err)
	}
	for _, bad := range []string{"nonsense", "8/8/8/8/8/8/8/8 w - - 0 1", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1",
		"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"} { // Chess960 castling: no key
		_, err := ParseFEN(bad)
		var fe *FENError
		if !errors.As(err, &fe) || fe.FEN != bad || !errors.Is(err, ErrBadInput) || !strings.HasPrefix(err.Error(), fmt.Sprintf("bad FEN %q: ", bad)) {
			t.Errorf("ParseFEN(%q): %v", bad, err)
		}
	}
}

// FuzzParseLine: any text gives a line from the start position, one
// position per move, or a *MoveError within the text; never a panic.
func FuzzParseLine(f *testing.F) {
	for _, s := range []string{"e4 e5 Nf3", "1.e4 {x} (1.d4) e5 $1 1-0", "e2e4,e7e5", "Ng1-f3 o-o", "e4 (", "{", "1...", "a7xb8=Q+"} {
		f.Add(s, false)
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, text string, uci bool) {
		o := LineOptions{MaxPlies: 50}
		if uci {
			o.Notation = UCIList
		}
		start := board.StartPosition()
		line, err := ParseLine(start, text, o)
		if err != nil {
			var me *MoveError
			if !errors.As(err, &me) || !errors.Is(err, ErrBadInput) || !strings.Contains(text, me.Move) || me.Ply < 0 || me.Ply > 50 {
				t.Fatalf("ParseLine(%q): %v", text, err)
			}
			return
		}
		if len(line) == 0 || line[0] != start || len(line) > 51 {
			t.Fatalf("ParseLine(%q): %d positions", text, len(line))
		}
		for i := 1; i < len(line); i++ {
			if !reachable(&line[i-1], &line[i]) {
				t.Fatalf("ParseLine(%q): no move from %s to %s", text, line[i-1].FEN(), line[i].FEN())
			}
		}
	})
}

func BenchmarkParseLine(b *testing.B) {
	for _, c := range []struct {
		name, text string
		o          LineOptions
	}{
		{"UCIList", "e2e4,e7e5,g1f3,b8c6,f1b5,a7a6,b5a4,g8f6,e1g1,f8e7,f1e1,b7b5,a4b3,d7d6,c2c3,e8g8", LineOptions{Notation: UCIList, MaxPlies: MaxPlayPlies}},
		{"SAN", "1.e4 e5 2.Nf3 Nc6 3.Bb5 a6 4.Ba4 Nf6 5.O-O Be7 6.Re1 b5 7.Bb3 d6 8.c3 O-O", LineOptions{MaxPlies: MaxPlayPlies}},
	} {
		b.Run(c.name, func(b *testing.B) {
			start := board.StartPosition()
			for b.Loop() {
				if _, err := ParseLine(start, c.text, c.o); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
