package explorer_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"

	"github.com/chessbook/chessbook/book/build"
	"github.com/chessbook/chessbook/explorer"
	"github.com/chessbook/chessbook/store"
)

// The HTTP API over a store built from a PGN file: the lichess opening
// explorer's /lichess after 1.e4 e5, its three most played moves.
func ExampleNewHandler() {
	dir, err := os.MkdirTemp("", "chessbook-example")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	db := filepath.Join(dir, "db")
	if _, err := build.Run(context.Background(), build.RunOptions{
		Options: build.Options{Inputs: []string{"../testdata/champions500.pgn"}},
		Dir:     db,
	}); err != nil {
		panic(err)
	}
	st, err := store.Open(db, store.Options{ReadOnly: true})
	if err != nil {
		panic(err)
	}
	defer st.Close()

	h := explorer.NewHandler(st)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/lichess?play=e2e4,e7e5&moves=3&topGames=0&recentGames=0", nil))
	fmt.Println(rec.Code, rec.Header().Get("Content-Type"))

	var answer struct {
		White, Draws, Black uint64
		Moves               []struct {
			SAN                 string
			White, Draws, Black uint64
		}
		Opening struct{ ECO, Name string }
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &answer); err != nil {
		panic(err)
	}
	fmt.Printf("%s %s: white %d, draws %d, black %d\n", answer.Opening.ECO, answer.Opening.Name, answer.White, answer.Draws, answer.Black)
	for _, m := range answer.Moves {
		fmt.Printf("%s: %d %d %d\n", m.SAN, m.White, m.Draws, m.Black)
	}
	// Output:
	// 200 application/json; charset=utf-8
	// C20 King's Pawn Game: white 154, draws 68, black 120
	// Nf3: 97 56 94
	// Nc3: 32 8 14
	// f4: 25 4 10
}
