package ingest

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/internal/testutil"
	"github.com/chessbook/chessbook/pgn"
)

// FuzzReplay checks, for any input, that replaying it hands over only
// legal games, each of which prints as PGN that reads back as the same game
// (checkReplayRoundTrip). (pgn's FuzzParse checks the parser on the same
// kind of input.)
func FuzzReplay(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join("..", "testdata", "pgn", "*.pgn"))
	for _, s := range seeds {
		if data, err := os.ReadFile(s); err == nil {
			f.Add(data)
		}
	}
	// Every tricky file's head, and its games that replay skips (none
	// when ../shared/data is missing).
	for _, data := range trickySeeds(f) {
		f.Add(data)
	}
	for _, s := range []string{
		"[Event \"x\"]\n\n1. e4 {open\n\n[Event \"y\"]\n\n1. d4 *",
		"[A \"1\"]\n\n[B \"2\"]\n\n[A \"3\"]\r[B \"4\"]\r\r*",
		"1. e4 (1. d4 {)} (1. c4 ;(\n)) e5 1-0 ff [x] <y> z",
		"\xef\xbb\xbf%x\n[Event \"\\\"\"][Site \"a\"b\"]\r\n1.e4 Qc20-1",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkReplayRoundTrip(t, data)
	})
}

// trickySeeds returns fuzz seeds made from the tricky files: each file's
// head (small files whole), and the text of every game in them that the
// Replayer skips or that has no tags, so that the interesting games deep in
// big files are seeds too. The seeds stay small, for the fuzzer's speed.
func trickySeeds(tb testing.TB) [][]byte {
	const head = 4 << 10
	const maxGame = 8 << 10
	var seeds [][]byte
	for _, path := range trickyFiles(tb) {
		data, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		seeds = append(seeds, data[:min(len(data), head)])
		if len(data) <= head {
			continue
		}
		lines := splitLinesKeepEnds(data)
		var gs gameSpans
		pgn.Parse(data, 1, &gs)
		for _, sp := range gs.spans {
			if !sp.interesting || sp.first < 1 || sp.first > len(lines) {
				continue
			}
			last := min(sp.next-1, len(lines))
			text := bytes.Join(lines[sp.first-1:last], nil)
			if len(text) > 0 && len(text) <= maxGame {
				seeds = append(seeds, text)
			}
		}
	}
	return seeds
}

// splitLinesKeepEnds cuts data into lines as the Parser counts them (LF,
// CRLF, lone CR), each with its line end.
func splitLinesKeepEnds(data []byte) [][]byte {
	var lines [][]byte
	start := 0
	for i := 0; i < len(data); i++ {
		switch data[i] {
		case '\n':
			lines = append(lines, data[start:i+1])
			start = i + 1
		case '\r':
			if i+1 < len(data) && data[i+1] == '\n' {
				continue
			}
			lines = append(lines, data[start:i+1])
			start = i + 1
		}
	}
	if start < len(data) {
		lines = append(lines, data[start:])
	}
	return lines
}

// lineCount counts line breaks as the Parser does: LF, CRLF and lone CR.
func lineCount(b []byte) int {
	n := 0
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case '\n':
			n++
		case '\r':
			if i+1 >= len(b) || b[i+1] != '\n' {
				n++
			}
		}
	}
	return n
}

// gameSpans is a Visitor that records where each game starts, and whether
// it is interesting as a seed: replay skips it (its ParseError, variant,
// bad FEN or bad move) or it has no tags.
type gameSpans struct {
	spans []gameSpan
	rep   *Replayer
	skips int
	tags  int
}

type gameSpan struct {
	first, next int // the game's first line, and the next game's
	interesting bool
}

func (g *gameSpans) Game(*pgn.Game) error { return nil }
func (g *gameSpans) Skip(*GameError)      { g.skips++ }

func (g *gameSpans) BeginGame(line int) {
	if g.rep == nil {
		g.rep = NewReplayer("seed", g)
	}
	if n := len(g.spans); n > 0 {
		g.spans[n-1].next = line
	}
	g.spans = append(g.spans, gameSpan{first: line, next: 1 << 30})
	g.skips, g.tags = 0, 0
	g.rep.BeginGame(line)
}
func (g *gameSpans) Tag(name, value []byte)             { g.tags++; g.rep.Tag(name, value) }
func (g *gameSpans) BeginMovetext() bool                { return g.rep.BeginMovetext() }
func (g *gameSpans) SAN(san []byte, line int) bool      { return g.rep.SAN(san, line) }
func (g *gameSpans) Outcome(r pgn.Result)               { g.rep.Outcome(r) }
func (g *gameSpans) ParseError(line int, reason string) { g.rep.ParseError(line, reason) }
func (g *gameSpans) EndGame() {
	g.rep.EndGame()
	g.spans[len(g.spans)-1].interesting = g.skips > 0 || g.tags == 0
}

// copiedGame is a replayed game copied out of the Replayer's reused Game.
type copiedGame struct {
	line    int
	tags    [][2]string
	start   board.Position
	fromFEN bool
	moves   []board.Move
	result  pgn.Result
}

// collectSink keeps a copy of every game, and every skip.
type collectSink struct {
	games []copiedGame
	skips []GameError
}

func (c *collectSink) Game(g *pgn.Game) error {
	cg := copiedGame{line: g.Line, start: g.Start, fromFEN: g.FromFEN, moves: slices.Clone(g.Moves), result: g.Result}
	for _, t := range g.Tags {
		cg.tags = append(cg.tags, [2]string{string(t.Name), string(t.Value)})
	}
	c.games = append(c.games, cg)
	return nil
}

func (c *collectSink) Skip(e *GameError) { c.skips = append(c.skips, *e) }

// replayAll parses and replays data in one piece.
func replayAll(data []byte) *collectSink {
	var c collectSink
	pgn.Parse(data, 1, NewReplayer("fuzz", &c))
	return &c
}

// writeGamePGN prints a replayed game as standard PGN: its tags in order,
// escaped, and its moves in SAN from its start position.
func writeGamePGN(g *copiedGame) []byte {
	var b bytes.Buffer
	for _, t := range g.tags {
		b.WriteString("[" + t[0] + " \"")
		for i := 0; i < len(t[1]); i++ {
			if c := t[1][i]; c == '"' || c == '\\' {
				b.WriteByte('\\')
			}
			b.WriteByte(t[1][i])
		}
		b.WriteString("\"]\n")
	}
	b.WriteString("\n")
	if len(g.tags) == 0 && len(g.moves) == 0 {
		// A game with neither tags nor moves ("1. *"): a lone result
		// would read as stray text between games.
		b.WriteString("1.")
	}
	pos := g.start
	for i, m := range g.moves {
		if i > 0 {
			b.WriteByte(' ')
		}
		if pos.SideToMove() == board.White || i == 0 {
			b.WriteString(strconv.Itoa(pos.FullMoveNumber()))
			if pos.SideToMove() == board.White {
				b.WriteString(". ")
			} else {
				b.WriteString("... ")
			}
		}
		b.WriteString(pos.SAN(m))
		pos.Play(m)
	}
	if g.result != pgn.NoResult {
		b.WriteString(" " + g.result.String())
	}
	b.WriteString("\n")
	return b.Bytes()
}

// checkReplayRoundTrip replays data and checks every game handed to the
// Sink: its moves are legal from its start position, every skip names a
// line inside the input and a reason, and printing the game as PGN and
// reading that back gives exactly the same game (tags, start, moves,
// result): parse(print(x)) == x.
func checkReplayRoundTrip(t *testing.T, data []byte) {
	t.Helper()
	c := replayAll(data)
	lines := lineCount(data) + 1
	for _, e := range c.skips {
		if e.Line < 1 || e.Line > lines || e.Reason == SkipNone || e.Reason >= numSkipReasons || e.Detail == "" {
			t.Fatalf("bad skip report %q (input has %d lines)", e.Error(), lines)
		}
	}
	for i := range c.games {
		g := &c.games[i]
		if g.line < 1 || g.line > lines {
			t.Fatalf("game at line %d of %d", g.line, lines)
		}
		if err := g.start.Validate(); err != nil {
			t.Fatalf("game %d starts from an invalid position %s: %v", i, g.start.FEN(), err)
		}
		pos := g.start
		for ply, m := range g.moves {
			if !pos.IsLegal(m) {
				t.Fatalf("game %d ply %d: %v is not legal in %s", i, ply, m, pos.FEN())
			}
			pos.Play(m)
		}
		if len(g.tags) == 0 && len(g.moves) == 0 && g.result == pgn.NoResult {
			continue // nothing to print
		}
		text := writeGamePGN(g)
		back := replayAll(text)
		if len(back.skips) != 0 || len(back.games) != 1 {
			t.Fatalf("game %d printed as\n%s\nreads back as %d games, skips %v", i, text, len(back.games), back.skips)
		}
		if err := sameCopiedGame(g, &back.games[0]); err != nil {
			t.Fatalf("game %d printed as\n%s\nreads back differently: %v", i, text, err)
		}
	}
}

func sameCopiedGame(a, b *copiedGame) error {
	switch {
	case !slices.Equal(a.tags, b.tags):
		return fmt.Errorf("tags %q, then %q", a.tags, b.tags)
	case a.start != b.start || a.fromFEN != b.fromFEN:
		return fmt.Errorf("start %s (FEN %v), then %s (FEN %v)", a.start.FEN(), a.fromFEN, b.start.FEN(), b.fromFEN)
	case !slices.Equal(a.moves, b.moves):
		return fmt.Errorf("moves %v, then %v", a.moves, b.moves)
	case a.result != b.result:
		return fmt.Errorf("result %v, then %v", a.result, b.result)
	}
	return nil
}

// TestTrickyReplayRoundTrip runs the fuzz properties on every tricky file
// whole, not only on the fuzz seeds' heads.
func TestTrickyReplayRoundTrip(t *testing.T) {
	files := trickyFiles(t)
	root := testutil.RepoRoot(t)
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(filepath.Dir(root), path)
		t.Run(rel, func(t *testing.T) {
			checkReplayRoundTrip(t, data)
		})
	}
}
