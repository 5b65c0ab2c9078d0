//go:build oracle

package board

import (
	"bufio"
	"fmt"
	"io"
	"math/rand"
	"os/exec"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// stockfish is a running Stockfish in UCI_Chess960 mode, the oracle of
// TestChess960PerftOracle.
type stockfish struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Scanner
}

// startStockfish starts the stockfish binary (on PATH, or Debian's
// /usr/games/stockfish); a missing binary fails the test.
func startStockfish(t *testing.T) *stockfish {
	t.Helper()
	bin, err := exec.LookPath("stockfish")
	if err != nil {
		if bin, err = exec.LookPath("/usr/games/stockfish"); err != nil {
			t.Fatalf("the oracle needs the stockfish binary (apt-get install stockfish): %v", err)
		}
	}
	cmd := exec.Command(bin)
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting %s: %v", bin, err)
	}
	sf := &stockfish{cmd: cmd, in: in, out: bufio.NewScanner(out)}
	t.Cleanup(func() {
		_, _ = io.WriteString(in, "quit\n")
		_ = in.Close()
		_ = cmd.Wait()
	})
	sf.send(t, "uci")
	sf.until(t, "uciok")
	sf.send(t, "setoption name UCI_Chess960 value true")
	sf.send(t, "isready")
	sf.until(t, "readyok")
	return sf
}

func (sf *stockfish) send(t *testing.T, line string) {
	t.Helper()
	if _, err := io.WriteString(sf.in, line+"\n"); err != nil {
		t.Fatalf("stockfish: %v", err)
	}
}

// until reads lines up to one starting with prefix and returns the lines
// before it.
func (sf *stockfish) until(t *testing.T, prefix string) []string {
	t.Helper()
	var lines []string
	for sf.out.Scan() {
		line := sf.out.Text()
		if strings.HasPrefix(line, prefix) {
			return lines
		}
		lines = append(lines, line)
	}
	t.Fatalf("stockfish ended before %q: %v", prefix, sf.out.Err())
	return nil
}

// divide returns Stockfish's perft of fen, move by move (UCI_Chess960
// notation: castling as king takes own rook).
func (sf *stockfish) divide(t *testing.T, fen string, depth int) map[string]uint64 {
	t.Helper()
	sf.send(t, "position fen "+fen)
	sf.send(t, fmt.Sprintf("go perft %d", depth))
	got := map[string]uint64{}
	for _, line := range sf.until(t, "Nodes searched") {
		move, n, ok := strings.Cut(line, ": ")
		if !ok {
			continue
		}
		v, err := strconv.ParseUint(n, 10, 64)
		if err != nil {
			t.Fatalf("stockfish line %q: %v", line, err)
		}
		got[move] = v
	}
	return got
}

// boardDivide is board's perft of p, move by move, in UCI.
func boardDivide(p *Position, depth int) map[string]uint64 {
	out := map[string]uint64{}
	for _, m := range p.LegalMoves(nil) {
		q := *p
		q.Play(m)
		out[m.String()] = q.Perft(depth - 1)
	}
	return out
}

// TestChess960PerftOracle compares board's perft with Stockfish's, move by
// move, on the Chess960 suite and a few castling positions at depth 4,
// and at depth 3 on positions a few random moves into the suite (rights
// lost by rook and king moves, castlings played) and on random castling
// setups with pieces about (attacked and blocked castling paths).
func TestChess960PerftOracle(t *testing.T) {
	sf := startStockfish(t)
	rng := rand.New(rand.NewSource(960))
	type pos struct {
		p     Position
		depth int
	}
	var positions []pos
	for _, tc := range chess960Perft {
		p, err := ParseFEN(tc.fen)
		if err != nil {
			t.Fatal(err)
		}
		positions = append(positions, pos{p, 4})
		for walk := 0; walk < 4; walk++ {
			q := p
			for ply := 0; ply < 4+2*walk; ply++ {
				moves := q.LegalMoves(nil)
				if len(moves) == 0 {
					break
				}
				m := moves[rng.Intn(len(moves))]
				for _, c := range moves { // play a castling when there is one
					if c.Kind() == MoveCastling && rng.Intn(2) == 0 {
						m = c
					}
				}
				q.Play(m)
			}
			positions = append(positions, pos{q, 3})
		}
	}
	for _, fen := range []string{
		"4k3/8/8/8/8/8/8/rR1K4 w B - 0 1", // the castling rook shields c1
		"1r2k1r1/8/8/8/8/8/8/1R2K1R1 w KQkq - 0 1",
		"4k3/8/8/8/8/8/8/RK5R w KQ - 0 1",
	} {
		p, err := ParseFEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		positions = append(positions, pos{p, 4})
	}
	for len(positions) < 400 {
		if p, ok := randomCastlingPosition(rng); ok {
			positions = append(positions, pos{p, 3})
		}
	}
	for _, c := range positions {
		fen := c.p.FEN()
		want := sf.divide(t, fen, c.depth)
		got := boardDivide(&c.p, c.depth)
		if len(got) != len(want) {
			t.Errorf("%s: %d moves, stockfish %d\n%s", fen, len(got), len(want), diffDivide(got, want))
			continue
		}
		for m, n := range want {
			if got[m] != n {
				t.Errorf("%s depth %d: differs from stockfish\n%s", fen, c.depth, diffDivide(got, want))
				break
			}
		}
	}
	t.Logf("%d positions compared", len(positions))
}

// diffDivide lists the moves whose counts differ.
func diffDivide(got, want map[string]uint64) string {
	var lines []string
	for m, n := range want {
		if g, ok := got[m]; !ok || g != n {
			lines = append(lines, fmt.Sprintf("%s: board %d (listed %v), stockfish %d", m, g, ok, n))
		}
	}
	for m, g := range got {
		if _, ok := want[m]; !ok {
			lines = append(lines, fmt.Sprintf("%s: board %d, not in stockfish", m, g))
		}
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

// randomCastlingPosition returns a random Chess960 castling setup with a
// few sliders and knights of both colours about: the kings and castling
// rooks on their back ranks, the rights of every rook on either side of
// its king, the side to move not in check. ok is false when the placement
// is not a valid position.
func randomCastlingPosition(rng *rand.Rand) (Position, bool) {
	var p Position
	p.Clear()
	for c := White; c <= Black; c++ {
		rank := 7 * int(c)
		kf := 1 + rng.Intn(6)
		qf, kr := rng.Intn(kf), kf+1+rng.Intn(7-kf)
		p.Put(MakeSquare(kf, rank), MakePiece(c, King))
		p.Put(MakeSquare(qf, rank), MakePiece(c, Rook))
		p.Put(MakeSquare(kr, rank), MakePiece(c, Rook))
		_ = p.SetCastlingSquares(WhiteKingSide<<(2*c), MakeSquare(kf, rank), MakeSquare(kr, rank))
		_ = p.SetCastlingSquares(WhiteQueenSide<<(2*c), MakeSquare(kf, rank), MakeSquare(qf, rank))
	}
	p.SetCastlingMode(CastlingChess960)
	p.SetCastling(15)
	for i := 0; i < 6; i++ {
		s := Square(rng.Intn(64))
		if p.PieceAt(s) != NoPiece {
			continue
		}
		pt := [...]PieceType{Knight, Bishop, Rook, Queen}[rng.Intn(4)]
		p.Put(s, MakePiece(Color(rng.Intn(2)), pt))
	}
	p.SetSideToMove(Color(rng.Intn(2)))
	return p, p.Validate() == nil
}
