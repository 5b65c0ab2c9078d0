package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chessbook/chessbook/internal/testutil"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/explorer"
	"github.com/chessbook/chessbook/ingest"
	"github.com/chessbook/chessbook/pgn"
)

// runCmd runs bookquery in-process.
func runCmd(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = run(args, &out, &errOut)
	return out.String(), errOut.String(), code
}

// mustRun runs bookquery and fails the test unless it exits with status 0
// and prints nothing to stderr.
func mustRun(t *testing.T, args ...string) string {
	t.Helper()
	out, errOut, code := runCmd(t, args...)
	if code != 0 || errOut != "" {
		t.Fatalf("bookquery %q: exit status %d, stderr %q", args, code, errOut)
	}
	return out
}

func encodeJSONOf(t *testing.T, args ...string) encodeJSON {
	t.Helper()
	out := mustRun(t, append([]string{"encode", "-json"}, args...)...)
	var e encodeJSON
	if err := json.Unmarshal([]byte(out), &e); err != nil {
		t.Fatalf("bookquery encode -json %q: %v in %q", args, err, out)
	}
	return e
}

func TestEncodeStartPosition(t *testing.T) {
	want := encodeJSON{FEN: board.StartFEN, Hex: "5000241c0402", Text: "UAAkHAQC", Bytes: 6, Polyglot: "463b96181691fc9c"}
	for _, args := range [][]string{nil, {"-fen", board.StartFEN}} {
		if got := encodeJSONOf(t, args...); got != want {
			t.Errorf("encode -json %q = %+v, want %+v", args, got, want)
		}
	}
	out := mustRun(t, "encode")
	for _, line := range []string{"fen      " + board.StartFEN, "hex      5000241c0402", "text     UAAkHAQC", "bytes    6", "polyglot 463b96181691fc9c"} {
		if !strings.Contains(out, line+"\n") {
			t.Errorf("encode prints %q, want a line %q", out, line)
		}
	}
}

func TestEncodeGolden(t *testing.T) {
	for _, g := range testutil.GoldenKeys {
		got := encodeJSONOf(t, "-fen", g.FEN)
		if got.Hex != g.Hex || got.Text != g.Text || got.Bytes != len(g.Hex)/2 || got.FEN != g.FEN {
			t.Errorf("encode -fen %q = %+v, want hex %s text %s", g.FEN, got, g.Hex, g.Text)
		}
	}
}

// TestEncodeMovesPolyglot plays the move sequences of the Polyglot test
// vectors (shared/spec/polyglot.md) and checks the FEN and Polyglot key
// reached.
func TestEncodeMovesPolyglot(t *testing.T) {
	for _, tc := range []struct{ moves, fen, polyglot string }{
		{"e4", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", "823c9b50fd114196"},
		{"e4 d5", "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2", "0756b94461c50fb0"},
		{"e4 d5 e5", "rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2", "662fafb965db29d4"},
		{"e4 d5 e5 f5", "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", "22a48b5a8e47ff78"},
		{"e4 d5 e5 f5 Ke2", "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPPKPPP/RNBQ1BNR b kq - 1 3", "652a607ca3f242c1"},
		{"e4 d5 e5 f5 Ke2 Kf7", "rnbq1bnr/ppp1pkpp/8/3pPp2/8/8/PPPPKPPP/RNBQ1BNR w - - 2 4", "00fdd303c946bdd9"},
		{"a4 b5 h4 b4 c4", "rnbqkbnr/p1pppppp/8/8/PpP4P/8/1P1PPPP1/RNBQKBNR b KQkq c3 0 3", "3c8123ea7b067637"},
		{"a4 b5 h4 b4 c4 bxc3 Ra3", "rnbqkbnr/p1pppppp/8/8/P6P/R1p5/1P1PPPP1/1NBQKBNR b Kkq - 1 4", "5c3f9b829b279560"},
		{"e4 e5", "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2", "0844931a6ef4b9a0"},
	} {
		got := encodeJSONOf(t, "-moves", tc.moves)
		if got.FEN != tc.fen || got.Polyglot != tc.polyglot {
			t.Errorf("encode -moves %q: fen %s polyglot %s, want %s %s", tc.moves, got.FEN, got.Polyglot, tc.fen, tc.polyglot)
		}
		if byFEN := encodeJSONOf(t, "-fen", got.FEN); byFEN != got {
			t.Errorf("encode -moves %q = %+v, but -fen of its FEN gives %+v", tc.moves, got, byFEN)
		}
	}
}

// TestEncodeMovesNotations checks that the same moves written as SAN, as
// UCI, with move numbers or mixed give the same position and key.
func TestEncodeMovesNotations(t *testing.T) {
	for _, tc := range []struct {
		fen   string
		forms []string
	}{
		{"", []string{
			"e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O",
			"e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5a4 g8f6 e1g1",
			"1.e4 e5 2.Nf3 Nc6 3.Bb5 a6 4.Ba4 Nf6 5.O-O",
			"1. e4 1... e5 2. Nf3 2... Nc6 3. Bb5 a6 4. Ba4 Nf6 5. 0-0",
			"1.e2e4 e7e5 2.Ng1-f3 Nc6 3.Bb5 a7a6 4.Ba4 g8f6 5.e1g1 *",
			" e4  e5\nNf3 {the main line} Nc6 Bb5+? a6 (3...Nf6) Ba4 $1 Nf6 O-O!",
		}},
		// En passant and a promotion with capture, from a FEN.
		{"1n2k1n1/P7/8/3pP3/8/8/8/4K3 w - d6 0 40", []string{
			"exd6 Kf7 axb8=Q Nf6",
			"e5d6 e8f7 a7b8q g8f6",
			"40.exd6 Kf7 41.axb8Q Nf6",
			"40. e5xd6 40... Kf7 41. a7xb8=Q 41... Ng8-f6",
		}},
		// Black to move first.
		{"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", []string{
			"c5 Nf3 d6 d4 cxd4",
			"c7c5 g1f3 d7d6 d2d4 c5d4",
			"1...c5 2.Nf3 d6 3.d4 cxd4",
		}},
	} {
		var first encodeJSON
		for i, moves := range tc.forms {
			args := []string{"-moves", moves}
			if tc.fen != "" {
				args = append(args, "-fen", tc.fen)
			}
			got := encodeJSONOf(t, args...)
			if i == 0 {
				first = got
				continue
			}
			if got != first {
				t.Errorf("-fen %q -moves %q = %+v, but %q gives %+v", tc.fen, moves, got, tc.forms[0], first)
			}
		}
	}
}

// gamePositions returns every position of the first n games of the PGN
// file path, as the book builder replays them.
func gamePositions(t *testing.T, path string, n int) []board.Position {
	t.Helper()
	s := &positionCollector{n: n}
	if _, err := ingest.Run(context.Background(), []string{path}, ingest.Options{Workers: 1}, func(int) ingest.Sink { return ingest.SinkFunc(s.add) }); err != nil {
		t.Fatal(err)
	}
	if s.games < n {
		t.Fatalf("%s: %d games, want %d", path, s.games, n)
	}
	return s.positions
}

type positionCollector struct {
	n, games  int
	positions []board.Position
}

func (s *positionCollector) add(g *pgn.Game) error {
	if s.games++; s.games > s.n {
		return nil
	}
	p := g.Start
	s.positions = append(s.positions, p)
	for _, m := range g.Moves {
		p.Play(m)
		s.positions = append(s.positions, p)
	}
	return nil
}

// decodedFEN returns the FEN decode prints for p: the en-passant square
// only when the capture is legal, clocks 0 1.
func decodedFEN(p board.Position) string {
	p.SetEPSquare(p.LegalEPSquare())
	p.SetClocks(0, 1)
	return p.FEN()
}

// TestRoundTrip encodes positions and decodes both forms of their keys.
func TestRoundTrip(t *testing.T) {
	var ps []board.Position
	for _, f := range testutil.PerftFENs {
		p, err := board.ParseFEN(f)
		if err != nil {
			t.Fatal(err)
		}
		ps = append(ps, p)
	}
	for _, g := range testutil.GoldenKeys {
		p, err := board.ParseFEN(g.FEN)
		if err != nil {
			t.Fatal(err)
		}
		ps = append(ps, p)
	}
	ps = append(ps, gamePositions(t, "../../testdata/champions500.pgn", 500)...)
	if len(ps) < 30000 {
		t.Fatalf("only %d positions", len(ps))
	}
	eps := 0
	for i := range ps {
		fen := ps[i].FEN()
		want := decodedFEN(ps[i])
		if ps[i].LegalEPSquare() != board.NoSquare {
			eps++
		}
		e := encodeJSONOf(t, "-fen", fen)
		if e.FEN != fen {
			t.Errorf("encode -fen %q: fen %q", fen, e.FEN)
		}
		for _, code := range []string{e.Hex, e.Text, strings.ToUpper(e.Hex)} {
			if got := mustRun(t, "decode", code); got != want+"\n" {
				t.Errorf("%s: decode %s = %q, want %q", fen, code, got, want)
			}
		}
		if i%50 == 0 {
			out := mustRun(t, "decode", "-json", e.Hex, e.Text)
			wantJSON := `{"code":"` + e.Hex + `","fen":"` + want + "\"}\n" + `{"code":"` + e.Text + `","fen":"` + want + "\"}\n"
			if out != wantJSON {
				t.Errorf("decode -json %s %s = %q, want %q", e.Hex, e.Text, out, wantJSON)
			}
		}
	}
	if eps == 0 {
		t.Error("no position with a legal en-passant capture among the test positions")
	}
	t.Logf("%d positions round-tripped (%d with a legal en-passant capture)", len(ps), eps)
}

// TestDecodeSeveral checks that several codes give one line each, in order.
func TestDecodeSeveral(t *testing.T) {
	var codes []string
	var want strings.Builder
	for _, g := range testutil.GoldenKeys {
		codes = append(codes, g.Hex, g.Text)
		p, err := board.ParseFEN(g.FEN)
		if err != nil {
			t.Fatal(err)
		}
		want.WriteString(decodedFEN(p) + "\n" + decodedFEN(p) + "\n")
	}
	if got := mustRun(t, append([]string{"decode"}, codes...)...); got != want.String() {
		t.Errorf("decode %q =\n%s\nwant\n%s", codes, got, want.String())
	}
}

// TestBadInput checks that bad usage and bad input exit with status 2 and
// a message that names the problem, printing nothing to stdout.
func TestBadInput(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want []string // substrings of stderr
	}{
		{nil, []string{"bookquery: no command given", "usage: bookquery"}},
		{[]string{"frobnicate"}, []string{`bookquery: unknown command "frobnicate"`, "encode, decode"}},
		{[]string{"-nosuchflag", "encode"}, []string{"bookquery: unknown flag -nosuchflag"}},
		{[]string{"encode", "-nosuchflag"}, []string{"bookquery: encode: unknown flag -nosuchflag"}},
		{[]string{"encode", "-fen"}, []string{"bookquery: encode: flag needs an argument: -fen"}},
		// Bad FENs.
		{[]string{"encode", "-fen", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1"}, []string{"bookquery: encode: bad FEN", "RNBQKBN w", "rank 1"}},
		{[]string{"encode", "-fen", "8/8/8/8/8/8/8/8 w - - 0 1"}, []string{"bookquery: encode: bad FEN", "king"}},
		{[]string{"encode", "-fen", "hello"}, []string{"bookquery: encode: bad FEN \"hello\""}},
		{[]string{"encode", "-fen", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", "w", "KQkq", "-", "0", "1"}, []string{"bookquery: encode: unexpected arguments \"w KQkq - 0 1\"", "quoted"}},
		// Bad moves: the move is named with its number.
		{[]string{"encode", "-moves", "e4 e5 Ke3"}, []string{"bookquery: encode: -moves: move 2.Ke3: illegal move"}},
		{[]string{"encode", "-moves", "1.e4 e5 2.Nf3 Bxf3"}, []string{"bookquery: encode: -moves: move 2...Bxf3: illegal move"}},
		{[]string{"encode", "-moves", "e4 e5 Nf9"}, []string{"bookquery: encode: -moves: move 2.Nf9: not a move"}},
		{[]string{"encode", "-moves", "e4 hello"}, []string{"bookquery: encode: -moves: move 1...hello: not a move"}},
		{[]string{"encode", "-moves", "1.e4 e5 2.Nf3 2...Nz6"}, []string{"bookquery: encode: -moves: move 2...Nz6: not a move"}},
		{[]string{"encode", "-moves", "Nf6 8.Xc3", "-fen", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 7"}, []string{"bookquery: encode: -moves: move 8.Xc3: not a move"}},
		{[]string{"encode", "-moves", "e2e5"}, []string{"bookquery: encode: -moves: move 1.e2e5: illegal move"}},
		{[]string{"encode", "-moves", "e4 e5 --"}, []string{"bookquery: encode: -moves: move 2.--: null move"}},
		{[]string{"encode", "-moves", "e4 e5 1-0 Nf3"}, []string{"bookquery: encode: -moves", "more than one game"}},
		// Bad codes.
		{[]string{"decode"}, []string{"bookquery: decode: missing CODE"}},
		{[]string{"decode", "5000241c040"}, []string{`bookquery: decode: code "5000241c040": odd number of hex digits`}},
		{[]string{"decode", "5000241c0403"}, []string{`bookquery: decode: code "5000241c0403": not a key as hex`, "invalid key"}},
		{[]string{"decode", "UAAkHAQD"}, []string{`bookquery: decode: code "UAAkHAQD": as URL-safe text`, "invalid key"}},
		{[]string{"decode", "UAAk!HAQC"}, []string{`bookquery: decode: code "UAAk!HAQC"`, "not hex or URL-safe base64"}},
		{[]string{"decode", "UAAkHAQC=="}, []string{`bookquery: decode: code "UAAkHAQC=="`, "not hex or URL-safe base64", "without = padding"}},
		{[]string{"decode", "5000241c0402", ""}, []string{`bookquery: decode: code "": empty code`}},
		{[]string{"decode", "5000241c0402", "zz", "UAAkHAQC", "0000"}, []string{"bookquery: decode: 2 of 4 codes are not position keys", `code "zz"`, `code "0000"`}},
	} {
		out, errOut, code := runCmd(t, tc.args...)
		if code != 2 {
			t.Errorf("bookquery %q: exit status %d, want 2 (stderr %q)", tc.args, code, errOut)
		}
		if out != "" {
			t.Errorf("bookquery %q: stdout %q, want nothing", tc.args, out)
		}
		for _, w := range tc.want {
			if !strings.Contains(errOut, w) {
				t.Errorf("bookquery %q: stderr %q, want it to contain %q", tc.args, errOut, w)
			}
		}
	}
}

func TestHelp(t *testing.T) {
	for _, args := range [][]string{{"-h"}, {"encode", "-h"}, {"decode", "-help"}} {
		out, errOut, code := runCmd(t, args...)
		if code != 0 || out != "" || !strings.Contains(errOut, "usage: bookquery") || !strings.Contains(errOut, "-json") {
			t.Errorf("bookquery %q: exit status %d, stdout %q, stderr %q; want 0 and usage on stderr", args, code, out, errOut)
		}
	}
	// -db is accepted before the command.
	mustRun(t, "-db", t.TempDir(), "encode")
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestWriteError(t *testing.T) {
	for _, args := range [][]string{{"encode"}, {"encode", "-json"}, {"decode", "UAAkHAQC"}} {
		var errOut bytes.Buffer
		code := run(args, failWriter{}, &errOut)
		if code != 1 || !strings.Contains(errOut.String(), "bookquery: "+args[0]+": writing output: disk full") {
			t.Errorf("bookquery %q with a failing stdout: exit status %d, stderr %q; want 1 and the write error", args, code, errOut.String())
		}
	}
}

// TestBinary builds the command and runs it, to check the exit statuses
// that reach the shell.
func TestBinary(t *testing.T) {
	gobin := testutil.GoTool(t)
	bin := filepath.Join(t.TempDir(), "bookquery")
	if out, err := exec.Command(gobin, "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	exe := func(args ...string) (string, string, int) {
		var out, errOut bytes.Buffer
		cmd := exec.Command(bin, args...)
		cmd.Stdout, cmd.Stderr = &out, &errOut
		err := cmd.Run()
		var ee *exec.ExitError
		switch {
		case err == nil:
			return out.String(), errOut.String(), 0
		case errors.As(err, &ee):
			return out.String(), errOut.String(), ee.ExitCode()
		}
		t.Fatalf("%s %q: %v", bin, args, err)
		return "", "", -1
	}
	fen := "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3"
	out, errOut, code := exe("encode", "-json", "-moves", "1.e4 d5 2.e5 f5")
	var e encodeJSON
	if code != 0 || json.Unmarshal([]byte(out), &e) != nil || e.FEN != fen || e.Hex != "5000207c80e05014" || e.Text != "UAAgfIDgUBQ" {
		t.Fatalf("encode: exit status %d, stdout %q, stderr %q", code, out, errOut)
	}
	if out, errOut, code := exe("decode", e.Text); code != 0 || out != strings.Replace(fen, " 0 3", " 0 1", 1)+"\n" {
		t.Errorf("decode %s: exit status %d, stdout %q, stderr %q", e.Text, code, out, errOut)
	}
	for _, args := range [][]string{{"decode", "UAAkHAQD"}, {"encode", "-fen", "bad"}, {"nosuchcommand"}} {
		if out, errOut, code := exe(args...); code != 2 || out != "" || !strings.HasPrefix(errOut, "bookquery: ") {
			t.Errorf("%q: exit status %d, stdout %q, stderr %q; want 2 and a message", args, code, out, errOut)
		}
	}
}

// TestFlagsAnywhere: -db may follow the command's name, and flags may
// follow the arguments, as in bookbuild.
func TestFlagsAnywhere(t *testing.T) {
	db := championsBook(t)
	before := mustRun(t, "-db", db, "moves", "-moves", "e4", "-json")
	if after := mustRun(t, "moves", "-moves", "e4", "-db", db, "-json"); after != before {
		t.Errorf("moves -db DIR after the command:\n%s\nwant\n%s", after, before)
	}
	var g explorer.Games
	if err := json.Unmarshal([]byte(mustRun(t, "games", "-db", db, "-json")), &g); err != nil || len(g.TopGames) == 0 {
		t.Fatalf("games: %v %+v", err, g)
	}
	id := g.TopGames[0].ID
	if out := mustRun(t, "game", id, "-db", db, "-json"); !strings.Contains(out, `"tags":[{"name":"Event"`) {
		t.Errorf("game ID -db DIR -json: %.200s", out)
	}
}

// TestVersion checks -version: one line on standard output, exit 0, no
// command needed.
func TestVersion(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := run([]string{"-version"}, &out, &errOut); code != 0 {
		t.Fatalf("bookquery -version: exit %d, stderr %q", code, errOut.String())
	}
	if got := out.String(); !strings.HasPrefix(got, "bookquery github.com/chessbook/chessbook ") || !strings.Contains(got, " go1.") || strings.Count(got, "\n") != 1 {
		t.Errorf("bookquery -version printed %q", got)
	}
}
