package export

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/book"
	"github.com/chessbook/chessbook/keys"
	"github.com/chessbook/chessbook/stats"
	"github.com/chessbook/chessbook/store"
)

// The dump of every stored position (bookquery positions). Only a store
// whose keys are lossless can do this: each key decodes back to its
// position. Positions of several games come first, in key order; then
// those reached by one game only (single references, see package store),
// found by replaying every stored game, in the order of the games'
// numbers (see book.Positions).

// Format is the format of a dump of positions.
type Format string

// The formats.
const (
	// NDJSON writes a Position as JSON on each line.
	NDJSON Format = "ndjson"
	// CSV writes a header line (CSVHeader), then a line per position:
	// its FEN, games, white wins, draws, black wins, unknown results, and
	// lowest ply (empty when not recorded).
	CSV Format = "csv"
)

// CSVHeader is the first line of a CSV dump.
const CSVHeader = "fen,games,white,draws,black,unknown,ply"

// Position is one line of an NDJSON dump.
type Position struct {
	FEN     string `json:"fen"`
	Key     string `json:"key"` // the store key, URL-safe base64 (bookquery decode reads it)
	Games   uint64 `json:"games"`
	White   uint64 `json:"white"`
	Draws   uint64 `json:"draws"`
	Black   uint64 `json:"black"`
	Unknown uint64 `json:"unknown"`
	// Ply is the lowest ply the position was reached at, counted from
	// White's first move by the games' move numbers; null if not
	// recorded.
	Ply   *int           `json:"ply"`
	Moves []PositionMove `json:"moves,omitempty"`
}

// PositionMove is everything the store keeps about one move of a
// position (PositionsOptions.Moves).
type PositionMove struct {
	UCI         string   `json:"uci"`
	White       uint64   `json:"white"`
	Draws       uint64   `json:"draws"`
	Black       uint64   `json:"black"`
	Unknown     uint64   `json:"unknown"`
	RatingSum   uint64   `json:"ratingSum"`
	RatingCount uint64   `json:"ratingCount"`
	FirstDate   string   `json:"firstDate,omitempty"`
	LastDate    string   `json:"lastDate,omitempty"`
	Ply         *int     `json:"ply"`
	FirstSeen   uint64   `json:"firstSeen,omitempty"`
	Top         []string `json:"top"`
	Recent      []string `json:"recent"`
}

// PositionsOptions select the positions of a dump and its format.
type PositionsOptions struct {
	// MinGames keeps the positions of at least this many games.
	MinGames uint64
	// MinPly and MaxPly keep the positions first reached at a ply in
	// [MinPly, MaxPly] (MaxPly -1: no limit); with either set, positions
	// whose ply was not recorded are left out. With MaxPly the games are
	// replayed only that far (see book.PositionsOptions.LimitPly).
	MinPly, MaxPly int
	// Format is NDJSON (the default, "") or CSV.
	Format Format
	// Moves adds every move with all its statistics to each position
	// (NDJSON only): a full dump of the book.
	Moves bool
	// Progress, when not nil, is called now and then with what is being
	// read, how many so far and how many in all (see
	// book.PositionsOptions).
	Progress func(what string, done, total int64)
}

// Check reports what is wrong with o, in the terms of bookquery
// positions' flags.
func (o *PositionsOptions) Check() error {
	switch {
	case o.MaxPly >= 0 && o.MinPly > o.MaxPly:
		return fmt.Errorf("-min-ply %d is above -max-ply %d: no position could be listed", o.MinPly, o.MaxPly)
	case o.MaxPly < -1:
		return fmt.Errorf("-max-ply %d: want -1 (no limit), 0 or more", o.MaxPly)
	case o.Format != "" && o.Format != NDJSON && o.Format != CSV:
		return fmt.Errorf("format %q: want ndjson or csv", o.Format)
	case o.Moves && o.Format == CSV:
		return errors.New("-moves needs -format ndjson")
	case o.MinPly < 0:
		return fmt.Errorf("-min-ply %d: must be 0 or more", o.MinPly)
	}
	return nil
}

// Positions writes every position of st that o keeps to w, in o.Format.
// Errors writing to w are wrapped with "writing output".
func Positions(ctx context.Context, st *store.Store, w io.Writer, o PositionsOptions) error {
	if err := o.Check(); err != nil {
		return err
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	enc := json.NewEncoder(bw)
	csv := o.Format == CSV
	if csv {
		fmt.Fprintln(bw, CSVHeader)
	}
	var line []byte
	bo := book.PositionsOptions{MinGames: o.MinGames, LimitPly: o.MaxPly >= 0, MaxPly: o.MaxPly, Progress: o.Progress}
	err := book.PositionsWith(ctx, st, bo, func(key []byte, entry *stats.Entry) error {
		t := entry.Total()
		ply, plyKnown := t.MinPly()
		if !o.keep(t.Games(), ply, plyKnown) {
			return nil
		}
		p, err := keys.Decode(key)
		if err != nil {
			return fmt.Errorf("position key %x: %w (corrupt store?)", key, err)
		}
		if plyKnown {
			// Keys have no clocks: give the FEN the move number of the
			// earliest ply the position was reached at.
			p.SetClocks(0, ply/2+1)
		}
		if csv {
			line = appendPositionCSV(line[:0], &p, t, ply, plyKnown)
			if _, err := bw.Write(line); err != nil {
				return fmt.Errorf("writing output: %w", err)
			}
			return nil
		}
		if err := enc.Encode(NewPosition(key, &p, entry, o.Moves)); err != nil {
			return fmt.Errorf("writing output: %w", err)
		}
		return nil
	})
	if err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("writing output: %w", err)
	}
	return nil
}

// NewPosition returns the dump's line of the position p, whose key is
// key and statistics entry, with its moves when withMoves is set.
func NewPosition(key []byte, p *board.Position, entry *stats.Entry, withMoves bool) Position {
	t := entry.Total()
	out := Position{FEN: p.FEN(), Key: keys.Text(key), Games: t.Games(),
		White: t.WhiteWins, Draws: t.Draws, Black: t.BlackWins, Unknown: t.Unknown, Ply: plyPtr(t)}
	if withMoves {
		for _, me := range entry.Moves {
			d := PositionMove{UCI: me.Move.String(), White: me.WhiteWins, Draws: me.Draws, Black: me.BlackWins, Unknown: me.Unknown,
				RatingSum: me.RatingSum, RatingCount: me.RatingCount, Ply: plyPtr(me.MoveStats), FirstSeen: me.FirstSeen,
				Top: refIDs(me.Refs.Top[:]), Recent: refIDs(me.Refs.Recent[:])}
			if me.FirstDate.Known() {
				d.FirstDate = me.FirstDate.String()
			}
			if me.LastDate.Known() {
				d.LastDate = me.LastDate.String()
			}
			out.Moves = append(out.Moves, d)
		}
	}
	return out
}

// keep reports whether a position of games games, first reached at ply
// (when plyKnown), passes the filters.
func (o *PositionsOptions) keep(games uint64, ply int, plyKnown bool) bool {
	if games < o.MinGames {
		return false
	}
	if (o.MinPly > 0 || o.MaxPly >= 0) && !plyKnown {
		return false
	}
	return ply >= o.MinPly && (o.MaxPly < 0 || ply <= o.MaxPly)
}

// appendPositionCSV appends the CSV line of position p with the totals t.
func appendPositionCSV(line []byte, p *board.Position, t stats.MoveStats, ply int, plyKnown bool) []byte {
	line = append(line, p.FEN()...)
	for _, v := range []uint64{t.Games(), t.WhiteWins, t.Draws, t.BlackWins, t.Unknown} {
		line = append(line, ',')
		line = strconv.AppendUint(line, v, 10)
	}
	line = append(line, ',')
	if plyKnown {
		line = strconv.AppendInt(line, int64(ply), 10)
	}
	return append(line, '\n')
}

// plyPtr returns the lowest ply of s, or nil.
func plyPtr(s stats.MoveStats) *int {
	if ply, ok := s.MinPly(); ok {
		return &ply
	}
	return nil
}

// refIDs returns the ids of the references in the list.
func refIDs(refs []stats.GameRef) []string {
	ids := []string{}
	for _, r := range refs {
		if r.ID != 0 {
			ids = append(ids, fmt.Sprintf("%016x", r.ID))
		}
	}
	return ids
}
