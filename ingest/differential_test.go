package ingest_test

import (
	"fmt"
	"github.com/chessbook/chessbook/internal/testutil"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/ingest"
	"github.com/chessbook/chessbook/pgn"
	nchess "github.com/notnil/chess"
)

// sanGame is a game as raw SAN tokens, for differential replay.
type sanGame struct {
	file string
	line int
	fen  string
	sans []string
	skip bool // a Variant other than standard chess
}

// sanCollector is a Visitor keeping every game's SAN tokens.
type sanCollector struct {
	file  string
	games []sanGame
	cur   sanGame
}

func (c *sanCollector) BeginGame(line int) { c.cur = sanGame{file: c.file, line: line} }
func (c *sanCollector) Tag(name, value []byte) {
	switch string(name) {
	case "FEN":
		c.cur.fen = string(value)
	case "Variant":
		v := strings.ToLower(string(value))
		c.cur.skip = v != "standard" && v != "from position"
	}
}
func (c *sanCollector) BeginMovetext() bool { return true }
func (c *sanCollector) SAN(san []byte, line int) bool {
	c.cur.sans = append(c.cur.sans, string(san))
	return true
}
func (c *sanCollector) Outcome(pgn.Result)     {}
func (c *sanCollector) ParseError(int, string) {}
func (c *sanCollector) EndGame()               { c.games = append(c.games, c.cur) }

func collectSANs(t *testing.T, path string) []sanGame {
	t.Helper()
	rc, err := ingest.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	c := &sanCollector{file: filepath.Base(path)}
	if err := pgn.Read(rc, c); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return c.games
}

// notnilFEN returns notnil's FEN with its en-passant field normalised to
// ours. notnil writes the en-passant square only when a pawn of the side to
// move could capture there; we write it after every double step, as the PGN
// standard's FEN does.
func notnilFEN(pos *nchess.Position, ours string) string {
	f := strings.Fields(pos.String())
	o := strings.Fields(ours)
	if len(f) == 6 && len(o) == 6 && f[3] == "-" && o[3] != "-" {
		f[3] = o[3]
	}
	return strings.Join(f, " ")
}

func legalUCI(p *board.Position, buf []board.Move) []string {
	var out []string
	for _, m := range p.LegalMoves(buf[:0]) {
		out = append(out, m.String())
	}
	slices.Sort(out)
	return out
}

func notnilLegalUCI(pos *nchess.Position) []string {
	var out []string
	for _, m := range pos.ValidMoves() {
		out = append(out, m.String())
	}
	slices.Sort(out)
	return out
}

// impossibleMaterial reports whether a FEN error is about material that no
// game can reach (more than 8 pawns, more than 16 pieces, too many promoted
// pieces).
func impossibleMaterial(err error) bool {
	m := err.Error()
	return strings.Contains(m, "more than 8") || strings.Contains(m, "more than 16") || strings.Contains(m, "promoted")
}

// checkGame replays one game on both implementations and returns the first
// disagreement, or "" when they agree at every ply.
func checkGame(g sanGame) (plies int, disagreement string) {
	where := fmt.Sprintf("%s:%d", g.file, g.line)
	var ours board.Position
	var theirs *nchess.Position
	if g.fen != "" {
		p, err := board.ParseFEN(g.fen)
		fenOpt, nerr := nchess.FEN(g.fen)
		if err != nil && nerr == nil && impossibleMaterial(err) {
			// A documented difference: we reject set-ups with material
			// that no game can reach (lichess lets users start from such
			// positions); notnil accepts them.
			return 0, ""
		}
		if (err == nil) != (nerr == nil) {
			return 0, fmt.Sprintf("%s: FEN %q: ours %v, notnil %v", where, g.fen, err, nerr)
		}
		if err != nil {
			return 0, ""
		}
		ours = p
		theirs = nchess.NewGame(fenOpt).Position()
	} else {
		ours = board.StartPosition()
		theirs = nchess.StartingPosition()
	}
	buf := make([]board.Move, 0, 256)
	an := nchess.AlgebraicNotation{}
	for i, san := range g.sans {
		if san == "--" || san == "Z0" {
			return i, ""
		}
		if a, b := legalUCI(&ours, buf), notnilLegalUCI(theirs); !slices.Equal(a, b) {
			return i, fmt.Sprintf("%s ply %d (%s): legal moves differ:\n ours   %v\n notnil %v", where, i+1, ours.FEN(), a, b)
		}
		m, err := ours.ParseSAN([]byte(san))
		nm, nerr := an.Decode(theirs, san)
		if (err == nil) != (nerr == nil) {
			return i, fmt.Sprintf("%s ply %d %q in %s: ours %v, notnil %v", where, i+1, san, ours.FEN(), err, nerr)
		}
		if err != nil {
			return i, "" // both reject the move: the game is skipped by both
		}
		if m.String() != nm.String() {
			return i, fmt.Sprintf("%s ply %d %q: ours %s, notnil %s", where, i+1, san, m, nm)
		}
		ours.Play(m)
		theirs = theirs.Update(nm)
		if a, b := ours.FEN(), notnilFEN(theirs, ours.FEN()); a != b {
			return i + 1, fmt.Sprintf("%s after ply %d %q: FEN\n ours   %s\n notnil %s", where, i+1, san, a, b)
		}
	}
	return len(g.sans), ""
}

// TestDifferentialNotnil replays every game of the repository's
// champions500 and lichess2k (with -tags oracle, of shared/data small/ and
// medium/) with our board and with github.com/notnil/chess and demands the
// same legal-move set before every ply, the same move for every SAN, the
// same verdict on bad moves and the same FEN after every ply. By default
// every 4th game of lichess2k is checked, with -short every 20th game.
func TestDifferentialNotnil(t *testing.T) {
	files := []string{testutil.Testdata(t, "champions500.pgn"), testutil.Testdata(t, "lichess2k.pgn.zst")}
	if withOracles {
		data := testutil.SharedData(t)
		small, _ := filepath.Glob(filepath.Join(data, "small", "*"))
		medium, _ := filepath.Glob(filepath.Join(data, "medium", "*"))
		files = append(small, medium...)
	}
	var inputs []string
	for _, f := range files {
		if !strings.HasSuffix(f, ".txt") {
			inputs = append(inputs, f)
		}
	}
	if len(inputs) == 0 {
		testutil.Missing(t, "no PGN under shared data small/ and medium/")
	}
	for _, path := range inputs {
		t.Run(filepath.Base(path), func(t *testing.T) {
			games := collectSANs(t, path)
			step := 1
			if testing.Short() {
				step = 20
			} else if !withOracles && strings.Contains(path, "lichess2k") {
				step = 4 // 500 of its games: the default tests' time
			}
			work := make(chan sanGame)
			var mu sync.Mutex
			var fails []string
			var plies, checked int
			var wg sync.WaitGroup
			for range runtime.NumCPU() {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for g := range work {
						n, d := checkGame(g)
						mu.Lock()
						plies += n
						checked++
						if d != "" {
							fails = append(fails, d)
						}
						mu.Unlock()
					}
				}()
			}
			for i := 0; i < len(games); i += step {
				if !games[i].skip {
					work <- games[i]
				}
			}
			close(work)
			wg.Wait()
			for i, f := range fails {
				if i == 10 {
					t.Errorf("... and %d more", len(fails)-10)
					break
				}
				t.Error(f)
			}
			if checked == 0 || plies == 0 {
				t.Fatalf("nothing checked (%d games read)", len(games))
			}
			t.Logf("%d games, %d plies agree with notnil/chess", checked, plies)
		})
	}
}
