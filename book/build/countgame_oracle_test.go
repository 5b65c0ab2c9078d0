//go:build oracle

package build_test

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/chessbook/chessbook/book/build"
	"github.com/chessbook/chessbook/gamecode"
	"github.com/chessbook/chessbook/internal/testutil"
	"github.com/chessbook/chessbook/store"
)

// TestCountGameTWIC: the position of repeatFEN in the whole TWIC file,
// built with and without -keep-duplicates: 4 games reach it (pgn-extract
// -Tf finds the same 4), all 4 play Be4 at their first visit, and
// Timofeeva - Pustovoitova is one of Be4's games; nothing is counted under
// Bd6, which that game played only at its second visit.
func TestCountGameTWIC(t *testing.T) {
	in := filepath.Join(testutil.SharedData(t), "small", "notnil_twic0920.pgn")
	for _, keep := range []bool{true, false} {
		t.Run(fmt.Sprintf("keep-duplicates=%v", keep), func(t *testing.T) {
			st, _, _ := buildBook(t, build.Options{CountMode: store.CountGame, KeepDuplicates: keep}, in)
			got, e := movesAt(t, st, repeatFEN)
			if fmt.Sprint(got) != "map[Be4:4]" || e.Games() != 4 {
				t.Fatalf("moves %v, total %d; want Be4 4 and nothing else", got, e.Games())
			}
			found := false
			for _, ref := range e.Moves[0].Refs.Top {
				if ref.ID == 0 {
					continue
				}
				rec, err := st.Game(store.GameID(ref.ID))
				if err != nil {
					t.Fatal(err)
				}
				g, err := gamecode.DecodeGame(rec)
				if err != nil {
					t.Fatal(err)
				}
				if string(g.Tag("White")) == "Timofeeva,Ekaterina" && string(g.Tag("Black")) == "Pustovoitova,D" {
					found = true
				}
			}
			if !found {
				t.Errorf("Timofeeva - Pustovoitova is not among Be4's games")
			}
		})
	}
}
