package build_test

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/book"
	"github.com/chessbook/chessbook/book/build"
	"github.com/chessbook/chessbook/keys"
	"github.com/chessbook/chessbook/stats"
	"github.com/chessbook/chessbook/store"
)

// Build a store from a PGN file, then look up the position after 1.e4 e5:
// its moves with the games that played them, White's wins, draws and
// Black's wins (the counts a script over the PGN's movetext finds too). Lookups go through package book (Entry, Positions), which
// answers for every position, also those the store keeps as references
// to a single game.
func ExampleRun() {
	dir, err := os.MkdirTemp("", "chessbook-example")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	db := filepath.Join(dir, "db")

	res, err := build.Run(context.Background(), build.RunOptions{
		Options: build.Options{Inputs: []string{"../../testdata/champions500.pgn"}},
		Dir:     db,
	})
	if err != nil {
		panic(err)
	}
	fmt.Println("games stored:", res.Store.Meta.Games)

	st, err := store.Open(db, store.Options{ReadOnly: true})
	if err != nil {
		panic(err)
	}
	defer st.Close()
	p := board.StartPosition()
	for _, uci := range []string{"e2e4", "e7e5"} {
		m, err := p.ParseUCI(uci)
		if err != nil {
			panic(err)
		}
		p.Play(m)
	}
	e, found, err := book.Lookup(st, keys.Encode(&p))
	if err != nil || !found {
		panic(fmt.Sprint(found, err))
	}
	fmt.Println("games through 1.e4 e5:", e.Games())
	moves := slices.SortedFunc(slices.Values(e.Moves), func(a, b stats.MoveEntry) int {
		return cmp.Or(cmp.Compare(b.Games(), a.Games()), cmp.Compare(a.Move, b.Move))
	})
	for _, m := range moves[:3] {
		fmt.Printf("%-4s %3d games: +%d =%d -%d\n", p.SAN(m.Move), m.Games(), m.WhiteWins, m.Draws, m.BlackWins)
	}
	// Output:
	// games stored: 500
	// games through 1.e4 e5: 342
	// Nf3  247 games: +97 =56 -94
	// Nc3   54 games: +32 =8 -14
	// f4    39 games: +25 =4 -10
}
