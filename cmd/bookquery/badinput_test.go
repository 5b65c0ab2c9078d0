package main

import (
	"encoding/json"
	"math/rand/v2"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/explorer"
	"github.com/chessbook/chessbook/keys"
)

// checkBadInput runs bookquery and checks the answer to bad input: exit
// status 2, nothing on stdout, one line on stderr "bookquery: CMD: ..."
// holding every want.
func checkBadInput(t *testing.T, args []string, want ...string) {
	t.Helper()
	out, errOut, code := runCmd(t, args...)
	if code != 2 || out != "" {
		t.Errorf("bookquery %q: exit %d, stdout %q; want 2 and nothing", args, code, out)
	}
	// One line, and for a bad flag where the help is.
	msg, help, _ := strings.Cut(strings.TrimSuffix(errOut, "\n"), "\n")
	if strings.Contains(msg, "\n") || !strings.HasPrefix(errOut, "bookquery: ") || !strings.HasSuffix(errOut, "\n") ||
		(help != "" && !regexp.MustCompile(`^run 'bookquery [a-z]+ -h' for help$`).MatchString(help)) {
		t.Errorf("bookquery %q: stderr %q; want one line bookquery: CMD: reason (and one saying where the help is)", args, errOut)
	}
	for _, w := range want {
		if !strings.Contains(errOut, w) {
			t.Errorf("bookquery %q: stderr %q does not mention %q", args, errOut, w)
		}
	}
}

// TestBadInputStoreCommands: bad FENs, moves, game ids and flag values for
// the commands that read a store, and for probe: exit status 2 and a
// message naming what is wrong.
func TestBadInputStoreCommands(t *testing.T) {
	db := championsBook(t)
	book := "../../polyglot/testdata/golden.bin"
	badFENs := []struct{ fen, want string }{
		{"8/8/8/8/8/8/8/8 w - - 0 1", "king"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", "bad FEN"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNRR w KQkq - 0 1", "bad FEN"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", "bad FEN"},
		{"5r1k/P2pNp1p/P2p1p1p/P2pPppp/PPPpP2p/P1P1P2p/P1PnP2p/K1R5 w - - 0 1", "14 pawns"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1", "bad FEN"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - -5 1", "bad FEN"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\xff", "bad FEN"},
		{"4k3/8/8/8/8/8/8/4Q1K1 w - - 0 1", "bad FEN"}, // the side not to move is in check
		{"P3k3/8/8/8/8/8/8/4K3 w - - 0 1", "bad FEN"},  // a pawn on the back rank
		{strings.Repeat("8/", 5000) + " w - - 0 1", "bad FEN"},
	}
	badMoves := []struct{ moves, want string }{
		{"e4 e5 Ke3", "move 2.Ke3: illegal move"},
		{"e5", "move 1.e5: illegal move"},
		{"e4 e5 Nf9", "2.Nf9: not a move"},
		{"e4 Nf6 Z9", "not a move"},
		{"e4 e5 --", "null move"},
		{"e2e5", "move 1.e2e5: illegal move"},
		{"1. e4 e5 1-0 2. Nf3", "more than one game"},
		{"e4 {unclosed comment", "-moves"},
		{strings.Repeat("Nf3 Nf6 Ng1 Ng8 ", 400) + "Qxf7", "move 801.Qxf7: illegal move"},
		{"e4 e5 \xff\xfe", "-moves"},
	}
	var cases []struct {
		args []string
		want []string
	}
	add := func(want []string, args ...string) {
		cases = append(cases, struct {
			args []string
			want []string
		}{args, want})
	}
	for _, c := range []string{"moves", "games"} {
		for _, f := range badFENs {
			add([]string{"bookquery: " + c + ": ", f.want}, "-db", db, c, "-fen", f.fen)
		}
		for _, m := range badMoves {
			add([]string{"bookquery: " + c + ": ", m.want}, "-db", db, c, "-moves", m.moves)
		}
		add([]string{"unexpected arguments"}, "-db", db, c, "e4", "e5")
		add([]string{"-db"}, c)
	}
	for _, f := range badFENs[:4] {
		add([]string{"bookquery: probe: ", f.want}, "probe", "-book", book, "-fen", f.fen)
		add([]string{"bookquery: encode: ", f.want}, "encode", "-fen", f.fen)
	}
	for _, m := range badMoves[:4] {
		add([]string{"bookquery: probe: ", m.want}, "probe", "-book", book, "-moves", m.moves)
	}
	// Game ids.
	for _, id := range []struct{ id, want string }{
		{"", "want 16 hex digits"},
		{"123", "want 16 hex digits"},
		{"0000000000000000", "not all zero"},
		{"00000000000000001", "want 16 hex digits"},
		{"zzzzzzzzzzzzzzzz", "want 16 hex digits"},
		{"-123456789abcdef", "unknown flag -123456789abcdef"},
		{"+123456789abcdef", "want 16 hex digits"},
		{"0x23456789abcdef", "want 16 hex digits"},
		{"ffffffffffffffff", "no such game"},
		{"é23456789abcde", "want 16 hex digits"},
	} {
		add([]string{"bookquery: game: ", id.want}, "-db", db, "game", id.id)
	}
	add([]string{"no game id given"}, "-db", db, "game")
	// Flag values.
	add([]string{"-limit"}, "-db", db, "moves", "-limit", "-1")
	add([]string{"-limit"}, "-db", db, "moves", "-limit", "many")
	add([]string{"-min-ply"}, "-db", db, "positions", "-min-ply", "-1")
	add([]string{"-max-ply"}, "-db", db, "positions", "-max-ply", "x")
	add([]string{"-format"}, "-db", db, "positions", "-format", "xml")
	add([]string{"-min-games"}, "-db", db, "positions", "-min-games", "-3")
	add([]string{"-min-score"}, "-db", db, "export", "-o", filepath.Join(t.TempDir(), "b.bin"), "-min-score", "101")
	add([]string{"-weights"}, "-db", db, "export", "-o", filepath.Join(t.TempDir(), "b.bin"), "-weights", "luck")
	add([]string{"-max-ply"}, "-db", db, "export", "-o", filepath.Join(t.TempDir(), "b.bin"), "-max-ply", "-2")
	add([]string{"-o"}, "-db", db, "export")
	// Flags that contradict each other or do nothing.
	add([]string{"-min-ply 5 is above -max-ply 3"}, "-db", db, "positions", "-min-ply", "5", "-max-ply", "3")
	add([]string{"-json and -format csv"}, "-db", db, "positions", "-json", "-format", "csv")
	add([]string{"unknown flag -json (serve answers JSON over HTTP"}, "-db", db, "serve", "-json")
	add([]string{"unknown flag -json (pgn writes PGN"}, "-db", db, "pgn", "-json")
	for _, c := range cases {
		checkBadInput(t, c.args, c.want...)
	}
}

// mutate returns s with a few random edits: bytes replaced, deleted,
// inserted or duplicated, from an alphabet that keeps most results close
// to the original's syntax.
func mutate(r *rand.Rand, s string) string {
	const alphabet = "pnbrqkPNBRQK12345678abcdefgh/ -+x=#O0.KQkqwb\xff\x00é♘"
	b := []byte(s)
	for range 1 + r.IntN(3) {
		switch op := r.IntN(4); {
		case op == 0 && len(b) > 0:
			b[r.IntN(len(b))] = alphabet[r.IntN(len(alphabet))]
		case op == 1 && len(b) > 0:
			i := r.IntN(len(b))
			b = append(b[:i], b[i+1:]...)
		case op == 2:
			i := r.IntN(len(b) + 1)
			b = append(b[:i], append([]byte{alphabet[r.IntN(len(alphabet))]}, b[i:]...)...)
		default:
			if len(b) > 0 {
				i, j := r.IntN(len(b)), r.IntN(len(b))
				i, j = min(i, j), max(i, j)
				b = append(b[:j], append(append([]byte(nil), b[i:j]...), b[j:]...)...)
			}
		}
	}
	return string(b)
}

// TestMutatedInput feeds every query command FENs, move lists, codes and
// game ids that are a few random edits away from good ones: the answer is
// either a normal one (exit 0, output) or bad input (exit 2, one line on
// stderr, nothing on stdout); never a panic or a runtime error.
func TestMutatedInput(t *testing.T) {
	db := championsBook(t)
	// Good inputs to mutate: FENs, lines and codes of positions of the
	// book, and the ids of its games.
	fens := []string{board.StartFEN,
		"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
		"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
		"3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1"}
	lines := []string{"e4 e5 Nf3 Nc6 Bb5 a6", "1. d4 Nf6 2. c4 e6 3. Nc3 Bb4", "e2e4 c7c5 g1f3", "1.e4 c5 2.Nf3 d6 3.d4 cxd4 4.Nxd4 Nf6 5.Nc3 a6"}
	var codes []string
	for _, f := range fens {
		p, err := board.ParseFEN(f)
		if err != nil {
			t.Fatal(err)
		}
		codes = append(codes, keys.Hex(keys.Encode(&p)), keys.Text(keys.Encode(&p)))
	}
	var g explorer.Games
	if err := json.Unmarshal([]byte(mustRun(t, "-db", db, "games", "-json", "-moves", "e4")), &g); err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, x := range append(g.TopGames, g.RecentGames...) {
		ids = append(ids, x.ID)
	}
	if len(ids) == 0 {
		t.Fatal("no game ids")
	}
	n := 150
	if testing.Short() {
		n = 30
	}
	r := rand.New(rand.NewPCG(8, 8))
	counts := map[int]int{}
	for i := range n {
		var runs [][]string
		fen, line := mutate(r, fens[i%len(fens)]), mutate(r, lines[i%len(lines)])
		for _, c := range []string{"moves", "games"} {
			runs = append(runs, []string{"-db", db, c, "-fen", fen}, []string{"-db", db, c, "-moves", line})
		}
		runs = append(runs,
			[]string{"encode", "-fen", fen, "-moves", line},
			[]string{"decode", mutate(r, codes[i%len(codes)])},
			[]string{"-db", db, "game", mutate(r, ids[i%len(ids)])},
			[]string{"probe", "-book", "../../polyglot/testdata/golden.bin", "-moves", line})
		for _, args := range runs {
			out, errOut, code := runCmd(t, args...)
			counts[code]++
			switch code {
			case 0:
				if out == "" || errOut != "" {
					t.Errorf("bookquery %q: exit 0, stdout %q, stderr %q", args, out, errOut)
				}
			case 2:
				cmd := args[0]
				if cmd == "-db" {
					cmd = args[2]
				}
				if out != "" || strings.Count(errOut, "\n") != 1 || !strings.HasPrefix(errOut, "bookquery: "+cmd+": ") {
					t.Errorf("bookquery %q: exit 2, stdout %q, stderr %q", args, out, errOut)
				}
			default:
				t.Errorf("bookquery %q: exit %d, stderr %q; want 0 or 2", args, code, errOut)
			}
		}
	}
	if counts[0] == 0 || counts[2] == 0 {
		t.Errorf("exit statuses %v: want both good and bad inputs among the mutations", counts)
	}
	t.Logf("exit statuses: %v", counts)
}
