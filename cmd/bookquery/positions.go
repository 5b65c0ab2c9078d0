package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/book"
	"github.com/chessbook/chessbook/internal/cli"
	"github.com/chessbook/chessbook/keys"
	"github.com/chessbook/chessbook/stats"
)

// The positions command streams every stored position. Only a store whose
// keys are lossless can do this: each key decodes back to its position.
// Positions of several games come first, in key order; then those reached
// by one game only (single references, see package store), found by
// replaying every stored game, in the order of the games' numbers.

var positionsCmd = &command{
	name:    "positions",
	args:    "[-min-games N] [-min-ply N] [-max-ply N] [-format ndjson|csv] [-moves] [-progress MODE] [-q]",
	summary: "stream every stored position (FEN, games, results, ply), as NDJSON or CSV",
	run:     runPositions,
}

// positionJSON is one line of positions' NDJSON output.
type positionJSON struct {
	FEN     string         `json:"fen"`
	Key     string         `json:"key"` // the store key, URL-safe base64 (bookquery decode reads it)
	Games   uint64         `json:"games"`
	White   uint64         `json:"white"`
	Draws   uint64         `json:"draws"`
	Black   uint64         `json:"black"`
	Unknown uint64         `json:"unknown"`
	Ply     *int           `json:"ply"` // the lowest ply the position was reached at, counted from White's first move by the games' move numbers; null if not recorded
	Moves   []dumpMoveJSON `json:"moves,omitempty"`
}

// dumpMoveJSON is everything the store keeps about one move (-moves).
type dumpMoveJSON struct {
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

// positionsOptions are the flags of positions.
type positionsOptions struct {
	minGames       uint64
	minPly, maxPly int // maxPly -1: no limit
	csv, withMoves bool
	progress       string // the progress display's mode
}

func runPositions(e *env, args []string) error {
	o, err := positionsFlags(e, args)
	if err != nil {
		return err
	}
	st, err := openBook(e.db)
	if err != nil {
		return err
	}
	defer st.Close()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	w := bufio.NewWriterSize(e.stdout, 1<<16)
	enc := json.NewEncoder(w)
	if o.csv {
		fmt.Fprintln(w, "fen,games,white,draws,black,unknown,ply")
	}
	var line []byte
	// Positions reached by one game only are most of a store, and listed
	// by replaying every game: skipped when -min-games leaves them out.
	prog := cli.NewProgress(o.progress, e.stderr)
	bo := book.PositionsOptions{MinGames: o.minGames, LimitPly: o.maxPly >= 0, MaxPly: o.maxPly, Progress: prog.Count}
	err = book.PositionsWith(ctx, st, bo, func(key []byte, entry *stats.Entry) error {
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
		if o.csv {
			line = appendPositionCSV(line[:0], &p, t, ply, plyKnown)
			if _, err := w.Write(line); err != nil {
				return fmt.Errorf("writing output: %w", err)
			}
			return nil
		}
		out := positionJSON{FEN: p.FEN(), Key: keys.Text(key), Games: t.Games(),
			White: t.WhiteWins, Draws: t.Draws, Black: t.BlackWins, Unknown: t.Unknown, Ply: plyPtr(t)}
		if o.withMoves {
			out.Moves = dumpMoves(&p, *entry)
		}
		if err := enc.Encode(out); err != nil {
			return fmt.Errorf("writing output: %w", err)
		}
		return nil
	})
	prog.End(err)
	if err != nil {
		return err
	}
	if err := w.Flush(); err != nil {
		return fmt.Errorf("writing output: %w", err)
	}
	return nil
}

// positionsFlags parses and checks the flags of positions.
func positionsFlags(e *env, args []string) (positionsOptions, error) {
	fs := e.flags()
	minGames := fs.Uint64("min-games", 0, "only positions with at least N games")
	minPly := fs.Int("min-ply", 0, "only positions first reached at ply N or later")
	maxPly := fs.Int("max-ply", -1, "only positions reached at ply N or earlier (-1: no limit); the games are replayed only that far")
	var format string
	cli.EnumVar(fs, &format, "format", "ndjson", "the output `FORMAT`: ndjson or csv", "ndjson", "csv")
	withMoves := fs.Bool("moves", false, "include every move with all its statistics (ndjson only): a full dump of the book")
	po := e.progressFlags(fs, "")
	if err := e.parse(fs, args); err != nil {
		return positionsOptions{}, err
	}
	formatSet := false
	fs.Visit(func(f *flag.Flag) { formatSet = formatSet || f.Name == "format" })
	switch {
	case e.json && formatSet && format != "ndjson":
		return positionsOptions{}, badInput("-json and -format %s: -json prints NDJSON; give one of them", format)
	case e.json:
		format = "ndjson"
	}
	switch {
	case *maxPly >= 0 && *minPly > *maxPly:
		return positionsOptions{}, badInput("-min-ply %d is above -max-ply %d: no position could be listed", *minPly, *maxPly)
	case *maxPly < -1:
		return positionsOptions{}, badInput("-max-ply %d: want -1 (no limit), 0 or more", *maxPly)
	case fs.NArg() > 0:
		return positionsOptions{}, badInput("unexpected arguments %q", strings.Join(fs.Args(), " "))
	case *withMoves && format != "ndjson":
		return positionsOptions{}, badInput("-moves needs -format ndjson")
	case *minPly < 0:
		return positionsOptions{}, badInput("-min-ply %d: must be 0 or more", *minPly)
	case e.db == "":
		return positionsOptions{}, badInput("no book given: use 'bookquery -db DIR positions'")
	}
	return positionsOptions{minGames: *minGames, minPly: *minPly, maxPly: *maxPly, csv: format == "csv", withMoves: *withMoves, progress: po.Mode()}, nil
}

// keep reports whether a position of games games, first reached at ply
// (when plyKnown), passes the filters.
func (o *positionsOptions) keep(games uint64, ply int, plyKnown bool) bool {
	if games < o.minGames {
		return false
	}
	if (o.minPly > 0 || o.maxPly >= 0) && !plyKnown {
		return false
	}
	return ply >= o.minPly && (o.maxPly < 0 || ply <= o.maxPly)
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

// dumpMoves returns every move of entry with all its statistics.
func dumpMoves(p *board.Position, entry stats.Entry) []dumpMoveJSON {
	var out []dumpMoveJSON
	for _, me := range entry.Moves {
		d := dumpMoveJSON{UCI: me.Move.String(), White: me.WhiteWins, Draws: me.Draws, Black: me.BlackWins, Unknown: me.Unknown,
			RatingSum: me.RatingSum, RatingCount: me.RatingCount, Ply: plyPtr(me.MoveStats), FirstSeen: me.FirstSeen,
			Top: refIDs(me.Refs.Top[:]), Recent: refIDs(me.Refs.Recent[:])}
		if me.FirstDate.Known() {
			d.FirstDate = me.FirstDate.String()
		}
		if me.LastDate.Known() {
			d.LastDate = me.LastDate.String()
		}
		out = append(out, d)
	}
	return out
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
