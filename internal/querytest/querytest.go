// Package querytest holds what the tests of the query side (explorer and
// cmd/bookquery) share: the lines of real games, a few games with
// ratings, and requests to a test server.
package querytest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/ingest"
	"github.com/chessbook/chessbook/pgn"
)

// GameLines returns the UCI moves of the first n games of a PGN file (all
// when n is 0) that start from the standard position, as the book builder
// replays them. It fails the test when the file cannot be read.
func GameLines(tb testing.TB, path string, n int) [][]string {
	tb.Helper()
	lines, err := ReadGameLines(path, n)
	if err != nil {
		tb.Fatal(err)
	}
	return lines
}

// ReadGameLines is GameLines outside a test.
func ReadGameLines(path string, n int) ([][]string, error) {
	s := &lineSink{n: n}
	if _, err := ingest.Run(context.Background(), []string{path}, ingest.Options{Workers: 1}, func(int) ingest.Sink { return s }); err != nil && !errors.Is(err, errEnoughGames) {
		return nil, fmt.Errorf("querytest: reading %s: %w", path, err)
	}
	return s.lines, nil
}

// errEnoughGames stops the reading of games when a lineSink has its n.
var errEnoughGames = errors.New("enough games")

// lineSink keeps the UCI moves of the games from the standard position.
type lineSink struct {
	n     int
	lines [][]string
}

// Game keeps g's moves in UCI when g starts from the standard position.
func (s *lineSink) Game(g *pgn.Game) error {
	if s.n > 0 && len(s.lines) >= s.n {
		return errEnoughGames
	}
	if g.Start != board.StartPosition() {
		return nil
	}
	uci := make([]string, len(g.Moves))
	for i, m := range g.Moves {
		uci[i] = m.String()
	}
	s.lines = append(s.lines, uci)
	return nil
}

// Skip ignores a game that could not be replayed.
func (s *lineSink) Skip(*ingest.GameError) {}

// RatedPGN are three games with ratings: after 1.e4, 1...e5 is played by
// a 2000 (twice) against a 2400, 1...c5 by a 1700 against a 1500.
const RatedPGN = `[White "A"]
[Black "B"]
[Result "1-0"]
[WhiteElo "2400"]
[BlackElo "2000"]

1. e4 e5 2. Nf3 1-0

[White "A"]
[Black "B"]
[Result "0-1"]
[WhiteElo "2400"]
[BlackElo "2000"]

1. e4 e5 2. Nc3 0-1

[White "C"]
[Black "D"]
[Result "1/2-1/2"]
[WhiteElo "1500"]
[BlackElo "1700"]

1. e4 c5 2. Nf3 1/2-1/2
`

// Do sends a request with method to target on the test server and
// returns the status, the body and the Content-Type.
func Do(tb testing.TB, srv *httptest.Server, method, target string) (int, string, string) {
	tb.Helper()
	req, err := http.NewRequest(method, srv.URL+target, nil)
	if err != nil {
		tb.Fatal(err)
	}
	resp, err := srv.Client().Do(req)
	if err != nil {
		tb.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		tb.Fatal(err)
	}
	return resp.StatusCode, string(body), resp.Header.Get("Content-Type")
}

// Get sends a GET to target on the test server (see Do).
func Get(tb testing.TB, srv *httptest.Server, target string) (int, string, string) {
	tb.Helper()
	return Do(tb, srv, http.MethodGet, target)
}
