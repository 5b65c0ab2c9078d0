package explorer

import (
	"context"
	"fmt"
	"io"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/book"
	"github.com/chessbook/chessbook/gamecode"
	"github.com/chessbook/chessbook/pgn"
	"github.com/chessbook/chessbook/store"
)

// IDTag is the tag WritePGN adds to each game: its id in the store.
const IDTag = "ChessbookID"

// WritePGN writes every game of the store through p that opts.Sel
// selects to w as PGN, in the order of game ids, each with an IDTag tag
// holding its id, and returns how many it wrote. The games are found by
// replaying the stored games (see book.GamesThrough, which opts
// configures); the scan stops when ctx is done, with ctx's error.
func (x *Explorer) WritePGN(ctx context.Context, w io.Writer, p board.Position, opts book.ThroughOptions) (int, error) {
	pw := pgn.NewWriter(w)
	found := 0
	err := book.GamesThrough(ctx, x.st, &p, opts, func(id store.GameID, rec []byte, _ int) (bool, error) {
		g, err := gamecode.DecodeGame(rec)
		if err != nil {
			return false, fmt.Errorf("game %s: %w (corrupt store?)", id, err)
		}
		g.Tags = append(g.Tags, pgn.Tag{Name: []byte(IDTag), Value: []byte(id.String())})
		found++
		if err := pw.WriteGame(&g); err != nil {
			return false, fmt.Errorf("writing output: %w", err)
		}
		return true, nil
	})
	if err != nil {
		return found, fmt.Errorf("games through %s: %w", p.FEN(), err)
	}
	return found, nil
}
