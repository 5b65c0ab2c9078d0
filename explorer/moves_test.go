package explorer

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/filter"
	"github.com/chessbook/chessbook/internal/querytest"
	"github.com/chessbook/chessbook/store"
)

// TestMovesRatings checks averageRating and performance on games with
// ratings: after 1.e4, 1...e5 is played by a 2000 (twice) against a 2400
// who moves next, so performance = 2400 + 400*(1-1)/2.
func TestMovesRatings(t *testing.T) {
	pgn := filepath.Join(t.TempDir(), "rated.pgn")
	if err := os.WriteFile(pgn, []byte(querytest.RatedPGN), 0o644); err != nil {
		t.Fatal(err)
	}
	x := New(openStore(t, buildStore(t, pgn)))
	start := board.StartPosition()
	after, err := ParseLine(start, "e4", LineOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got, err := x.Moves(after, NewQuery())
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Moves) != 2 {
		t.Fatalf("moves after 1.e4: %+v", got.Moves)
	}
	e5, c5 := got.Moves[0], got.Moves[1]
	if e5.SAN != "e5" || e5.AverageRating != 2000 || e5.Performance == nil || *e5.Performance != 2400 || *e5.Score != 0.5 {
		t.Errorf("e5: %+v", e5)
	}
	if c5.SAN != "c5" || c5.AverageRating != 1700 || c5.Performance == nil || *c5.Performance != 1500 || *c5.Score != 0.5 {
		t.Errorf("c5: %+v", c5)
	}
	st, err := x.Moves([]board.Position{start}, NewQuery())
	if err != nil {
		t.Fatal(err)
	}
	// 1.e4 by 2400 (twice) and 1500: against 2000, 2000, 1700 (mean 1900),
	// scoring +1 -1 =1: performance 1900.
	if m := st.Moves[0]; m.AverageRating != 2100 || m.Performance == nil || *m.Performance != 1900 {
		t.Errorf("e4: %+v", m)
	}
	// Each move played by one game names it.
	if g := e5.Game; g != nil || c5.Game == nil || c5.Game.White.Name != "C" || c5.Game.UCI != "c7c5" || c5.Game.Result != "1/2-1/2" || c5.Game.Winner != nil {
		t.Errorf("games of e5 %+v and c5 %+v", e5.Game, c5.Game)
	}
	gs, err := x.Games(after[1], NewQuery())
	if err != nil {
		t.Fatal(err)
	}
	if len(gs.TopGames) != 3 || gs.TopGames[0].White.Rating != 2400 || gs.TopGames[2].Black.Rating != 1700 {
		t.Errorf("top games after 1.e4: %+v", gs.TopGames)
	}
	// Limit keeps the most played moves and the totals.
	got.Limit(1)
	if len(got.Moves) != 1 || got.Moves[0].SAN != "e5" || got.White+got.Draws+got.Black != 3 {
		t.Errorf("Limit(1): %+v", got)
	}
}

// TestMovesBadGameRecord: a game record that does not decode (here one
// overwritten with garbage) leaves its reference out with a warning; the
// query still answers.
func TestMovesBadGameRecord(t *testing.T) {
	pgn := filepath.Join(t.TempDir(), "rated.pgn")
	if err := os.WriteFile(pgn, []byte(querytest.RatedPGN), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := buildStore(t, pgn)
	start := []board.Position{board.StartPosition()}
	st := openStore(t, dir)
	before, err := New(st).Moves(start, NewQuery())
	if err != nil || len(before.TopGames) < 2 {
		t.Fatalf("Moves: %+v, %v", before, err)
	}
	st.Close()
	id, err := store.ParseGameID(before.TopGames[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	w, err := store.Open(dir, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	sst, err := w.NewSSTWriter()
	if err != nil {
		t.Fatal(err)
	}
	if err := sst.SetGame(id, []byte{0xff, 0x01, 0x02}); err != nil {
		t.Fatal(err)
	}
	if err := sst.IngestWith(); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	after, err := New(openStore(t, dir)).Moves(start, NewQuery())
	if err != nil {
		t.Fatalf("Moves with a bad game record: %v", err)
	}
	if len(after.TopGames) != len(before.TopGames)-1 || len(after.Warnings) != 1 || !strings.Contains(after.Warnings[0], id.String()) {
		t.Errorf("top games %d (before %d), warnings %q; want one game left out and named", len(after.TopGames), len(before.TopGames), after.Warnings)
	}
}

// TestUnselectableNotices: on a store of over-the-board games (no
// TimeControl), a speed filter selects nothing and says that every game
// through the position lacks the tag; a rating filter of every band
// selects the games with both ratings, and its notice counts the rest, so
// the two add up to the unfiltered total.
func TestUnselectableNotices(t *testing.T) {
	x := New(championsStore(t))
	line, err := requestLine("", "e2e4", "")
	if err != nil {
		t.Fatal(err)
	}
	all, err := x.Moves(line, Query{})
	if err != nil {
		t.Fatal(err)
	}
	total := all.White + all.Draws + all.Black + all.Unknown
	if total == 0 || len(all.Notices) != 0 {
		t.Fatalf("unfiltered: %d games, notices %q", total, all.Notices)
	}
	f, err := filter.Parse(filter.Values{Speeds: "blitz"}, filter.History, filter.FromParams)
	if err != nil {
		t.Fatal(err)
	}
	blitz, err := x.Moves(line, Query{Sel: f})
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("%d games through this position have no TimeControl: speed filters select none of them", total)
	if len(blitz.Moves) != 0 || len(blitz.Notices) != 1 || blitz.Notices[0] != want {
		t.Errorf("speeds=blitz: %d moves, notices %q; want none and %q", len(blitz.Moves), blitz.Notices, want)
	}
	if f, err = filter.Parse(filter.Values{Ratings: "0,1000,1200,1400,1600,1800,2000,2200,2500"}, filter.History, filter.FromParams); err != nil {
		t.Fatal(err)
	}
	rated, err := x.Moves(line, Query{Sel: f})
	if err != nil {
		t.Fatal(err)
	}
	var unrated uint64
	if len(rated.Notices) == 1 {
		if _, err := fmt.Sscanf(rated.Notices[0], "%d games", &unrated); err != nil {
			t.Fatal(err)
		}
	}
	got := rated.White + rated.Draws + rated.Black + rated.Unknown
	if unrated == 0 || got+unrated != total {
		t.Errorf("every rating band: %d games selected and notices %q; want them to add up to %d", got, rated.Notices, total)
	}
}
