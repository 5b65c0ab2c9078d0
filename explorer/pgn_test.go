package explorer

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/book"
	"github.com/chessbook/chessbook/gamecode"
	"github.com/chessbook/chessbook/ingest"
	"github.com/chessbook/chessbook/pgn"
	"github.com/chessbook/chessbook/store"
)

// TestWritePGN: the PGN WritePGN writes after 1. e4 e5 parses back into
// the games book.GamesThrough finds, in id order, each the stored game
// with its id in an IDTag tag, and every one of them reaching the
// position.
func TestWritePGN(t *testing.T) {
	st := championsStore(t)
	p := board.StartPosition()
	for _, uci := range []string{"e2e4", "e7e5"} {
		m, err := p.ParseUCI(uci)
		if err != nil {
			t.Fatal(err)
		}
		p.Play(m)
	}
	var want []store.GameID
	err := book.GamesThrough(context.Background(), st, &p, book.ThroughOptions{}, func(id store.GameID, _ []byte, _ int) (bool, error) {
		want = append(want, id)
		return true, nil
	})
	if err != nil || len(want) < 10 {
		t.Fatalf("GamesThrough: %d games, %v", len(want), err)
	}
	var out bytes.Buffer
	n, err := New(st).WritePGN(context.Background(), &out, p, book.ThroughOptions{})
	if err != nil || n != len(want) {
		t.Fatalf("WritePGN: %d games, %v; GamesThrough finds %d", n, err, len(want))
	}
	var got []pgn.Game
	file := filepath.Join(t.TempDir(), "through.pgn")
	if err := os.WriteFile(file, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	sum, err := ingest.Run(context.Background(), []string{file}, ingest.Options{Workers: 1}, func(int) ingest.Sink { return ingest.SinkFunc((*pgnGames)(&got).add) })
	if err != nil || sum.SkippedTotal() != 0 {
		t.Fatalf("reading the PGN back: %v, %d skipped", err, sum.SkippedTotal())
	}
	if len(got) != len(want) {
		t.Fatalf("%d games read back, %d written", len(got), len(want))
	}
	for i, g := range got {
		id, err := store.ParseGameID(string(g.Tag(IDTag)))
		if err != nil || id != want[i] {
			t.Fatalf("game %d: %s %q, want %s", i, IDTag, g.Tag(IDTag), want[i])
		}
		rec, err := st.Game(id)
		if err != nil {
			t.Fatal(err)
		}
		stored, err := gamecode.DecodeGame(rec)
		if err != nil {
			t.Fatal(err)
		}
		if len(stored.Moves) != len(g.Moves) || string(stored.Tag("White")) != string(g.Tag("White")) {
			t.Fatalf("game %s: %d moves, White %q; stored %d, %q", id, len(g.Moves), g.Tag("White"), len(stored.Moves), stored.Tag("White"))
		}
		q := g.Start
		through := false
		for _, m := range g.Moves {
			if q.FEN() == p.FEN() {
				through = true
				break
			}
			q.Play(m)
		}
		if !through {
			t.Fatalf("game %s never reaches %s", id, p.FEN())
		}
	}
}

// pgnGames keeps the games, in input order (one worker).
type pgnGames []pgn.Game

func (l *pgnGames) add(g *pgn.Game) error { *l = append(*l, *g.Clone()); return nil }
