package build_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/book"
	"github.com/chessbook/chessbook/book/build"
	"github.com/chessbook/chessbook/keys"
	"github.com/chessbook/chessbook/pgn"
	"github.com/chessbook/chessbook/stats"
	"github.com/chessbook/chessbook/store"
	nchess "github.com/notnil/chess"
)

// Plies count from White's first move by the games' move numbers: a game
// set up from a FEN at move 6 reaches its first position at ply 10, as a
// game from the start position does, not at ply 0.

// ruyLopez is the Ruy Lopez after 5...Be7, White's sixth move to play,
// and two games through it: one from the start, one set up there.
const (
	ruyLopez    = "r1bqk2r/1pppbppp/p1n2n2/4p3/B3P3/5N2/PPPP1PPP/RNBQ1RK1 w kq - 4 6"
	ruyFromMove = `[Event "set up"]
[FEN "` + ruyLopez + `"]
[SetUp "1"]
[Result "*"]

6. Re1 b5 7. Bb3 d6 *
`
	ruyFromStart = `[Event "from the start"]
[Result "*"]

1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 *
`
)

// TestPliesRuyLopez: the set-up game alone puts the Ruy Lopez at ply 10
// and its next position at 11, as the game from the start does; games
// through it say the same.
func TestPliesRuyLopez(t *testing.T) {
	for _, tc := range []struct {
		name, pgn string
	}{{"set up", ruyFromMove}, {"both", ruyFromMove + "\n" + ruyFromStart}, {"from the start", ruyFromStart}} {
		in := filepath.Join(t.TempDir(), "ruy.pgn")
		if err := os.WriteFile(in, []byte(tc.pgn), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, mode := range []store.CountMode{store.CountGame, store.CountOccurrence} {
			st, _, _ := buildBook(t, build.Options{CountMode: mode, Inputs: []string{in}}, in)
			p, err := board.ParseFEN(ruyLopez)
			if err != nil {
				t.Fatal(err)
			}
			for i, want := range []int{10, 11} {
				e, found, err := book.Lookup(st, keys.Encode(&p))
				ply, ok := e.Total().MinPly()
				if err != nil || !found || !ok || ply != want {
					t.Errorf("%s, %s: position %s at ply %d (%v, %v, %v), want %d", tc.name, mode, p.FEN(), ply, ok, found, err, want)
				}
				n := 0
				err = book.GamesThrough(context.Background(), st, &p, book.ThroughOptions{}, func(id store.GameID, _ []byte, ply int) (bool, error) {
					if n++; ply != want {
						t.Errorf("%s, %s: game %s reaches %s at ply %d, want %d", tc.name, mode, id, p.FEN(), ply, want)
					}
					return true, nil
				})
				if err != nil || n == 0 {
					t.Errorf("%s, %s: GamesThrough %s: %d games, %v", tc.name, mode, p.FEN(), n, err)
				}
				if i == 0 {
					m, err := p.ParseSAN([]byte("Re1"))
					if err != nil {
						t.Fatal(err)
					}
					p.Play(m)
				}
			}
		}
	}
}

// TestPliesFromFENOracle builds a store of the games of lichess_10k (the
// 106 of testdata's lichess_fen106; lichess_10k itself with -tags oracle)
// that start from a FEN and compares the lowest ply of every position with
// notnil/chess's: the ply its move number and side to move give
// (2*(fullmove-1), plus 1 with Black to move), the lowest over the games
// that play a move from it.
func TestPliesFromFENOracle(t *testing.T) {
	text, minFEN := fenGames(t)
	var setUp strings.Builder
	n := 0
	for _, g := range strings.Split(text, "\n[Event ")[1:] {
		if strings.Contains(g, "\n[FEN ") {
			setUp.WriteString("[Event " + g + "\n")
			n++
		}
	}
	if n < minFEN {
		t.Fatalf("%d games from a FEN, want %d or more", n, minFEN)
	}
	in := filepath.Join(t.TempDir(), "setup.pgn")
	if err := os.WriteFile(in, []byte(setUp.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	// The oracle: notnil/chess replays each game, our PGN reader only
	// splits its tokens.
	f, err := os.Open(in)
	if err != nil {
		t.Fatal(err)
	}
	var r oracleReader
	err = pgn.Read(f, &r)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{}
	replayed, later := 0, 0
	for _, g := range r.games {
		if g.skip {
			continue
		}
		plies, ok := oraclePlies(g)
		if !ok {
			continue
		}
		replayed++
		for k, ply := range plies {
			if w, seen := want[k]; !seen || ply < w {
				want[k] = ply
			}
		}
		if fields := strings.Fields(g.fen); len(fields) == 6 && fields[5] != "1" {
			later++
		}
	}
	if replayed < 90 || later < 40 {
		t.Fatalf("%d set-up games replayed by notnil/chess, %d of them after move 1: want most of the 106", replayed, later)
	}
	for _, mode := range []store.CountMode{store.CountGame, store.CountOccurrence} {
		st, sum, _ := buildBook(t, build.Options{CountMode: mode, Inputs: []string{in}}, in)
		if int(sum.Ingested) != replayed {
			t.Errorf("%s: %d games built, notnil/chess replays %d", mode, sum.Ingested, replayed)
		}
		got := map[string]int{}
		err := book.Positions(context.Background(), st, 0, func(key []byte, e *stats.Entry) error {
			p, err := keys.Decode(key)
			if err != nil {
				return err
			}
			ply, ok := e.Total().MinPly()
			if !ok {
				t.Errorf("%s: %s has no ply", mode, p.FEN())
				return nil
			}
			got[fenKey(p.FEN())] = ply
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		bad := 0
		for k, w := range want {
			if g, ok := got[k]; !ok || g != w {
				if bad++; bad <= 10 {
					t.Errorf("%s: %s at ply %d (in the store: %v), notnil/chess's move number gives %d", mode, k, g, ok, w)
				}
			}
		}
		if len(got) != len(want) || bad > 0 {
			t.Errorf("%s: %d positions in the store, %d in the oracle, %d differ", mode, len(got), len(want), bad)
		}
	}
}

// oraclePlies plays g with notnil/chess and returns the lowest ply of
// each position a move is played from, by the position's FEN: its move
// number and side to move; ok is false when the game cannot be replayed.
func oraclePlies(g oracleGame) (map[string]int, bool) {
	opt, err := nchess.FEN(g.fen)
	if err != nil {
		return nil, false
	}
	pos := nchess.NewGame(opt).Position()
	if impossibleMaterial(pos) {
		return nil, false
	}
	plies := map[string]int{}
	notations := []nchess.Notation{nchess.AlgebraicNotation{}, nchess.LongAlgebraicNotation{}, nchess.UCINotation{}}
	for _, san := range g.sans {
		var m *nchess.Move
		for _, n := range notations {
			if mv, err := n.Decode(pos, san); err == nil {
				m = mv
				break
			}
		}
		if m == nil {
			return nil, false
		}
		f := strings.Fields(pos.String())
		move, err := strconv.Atoi(f[5])
		if err != nil {
			return nil, false
		}
		ply := 2 * (move - 1)
		if f[1] == "b" {
			ply++
		}
		if w, seen := plies[oracleKey(pos)]; !seen || ply < w {
			plies[oracleKey(pos)] = ply
		}
		pos = pos.Update(m)
	}
	return plies, true
}
