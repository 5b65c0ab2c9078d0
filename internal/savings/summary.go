package savings

import (
	"context"
	"fmt"
	"time"

	"github.com/chessbook/chessbook/gamecode"
	"github.com/chessbook/chessbook/pgn"
	"github.com/chessbook/chessbook/store"
	"github.com/klauspost/compress/zstd"
)

// Summary is the short answer of bookquery savings: what the store takes,
// per game and per position, against its games written as PGN, that PGN
// under zstd and a Polyglot book of the same moves, and what the position
// keys save.
type Summary struct {
	Store       int64   `json:"store_bytes"`
	Games       uint64  `json:"games"`
	Positions   uint64  `json:"positions"`
	Entries     uint64  `json:"position_moves"`
	PGN         int64   `json:"pgn_bytes"`       // the stored games written as PGN
	PGNZstd     int64   `json:"pgn_zstd_bytes"`  // that PGN under zstd's default level (zstd -3)
	Polyglot    int64   `json:"polyglot_bytes"`  // a Polyglot book of every position-move: 16 bytes each
	KeyBits     float64 `json:"key_bits_mean"`   // our lossless key
	FENBits     float64 `json:"fen_bits_mean"`   // FEN text
	ZobristBits float64 `json:"zobrist_bits"`    // Polyglot's 64-bit hash (lossy)
	ElapsedSecs float64 `json:"elapsed_seconds"` // measuring time, r's included
}

// Summarize measures the summary of st, whose report (FromStore) is r:
// the store's size, its games written as PGN and compressed, and r's key
// figures. progress, when not nil, gets the games written so far and in
// all; ctx stops it.
func Summarize(ctx context.Context, st *store.Store, r *Report, progress func(what string, done, total int64)) (*Summary, error) {
	if progress == nil {
		progress = func(string, int64, int64) {}
	}
	start := time.Now()
	var done, total int64 = 0, int64(st.Meta().Games)
	s := &Summary{Store: store.DirSize(st.Dir()), Games: r.Games, Positions: r.Distinct, Entries: r.Entries}
	s.Polyglot = 16 * int64(r.Entries)
	for _, row := range r.PositionRows {
		switch row.ID {
		case "key":
			s.KeyBits = row.All.Mean
		case "fen":
			s.FENBits = row.All.Mean
		case "zobrist64":
			s.ZobristBits = row.All.Mean
		}
	}
	var zc countWriter
	zw, err := zstd.NewWriter(&zc, zstd.WithEncoderLevel(zstd.SpeedDefault))
	if err != nil {
		return nil, err
	}
	var buf []byte
	err = st.Games(func(id store.GameID, rec []byte) (bool, error) {
		if done++; done%1024 == 0 {
			if err := ctx.Err(); err != nil {
				return false, err
			}
			progress("games written as PGN", done, total)
		}
		g, err := gamecode.DecodeGame(rec)
		if err != nil {
			return false, fmt.Errorf("game %s: %w (corrupt store?)", id, err)
		}
		buf = pgn.Append(buf[:0], &g)
		s.PGN += int64(len(buf))
		_, err = zw.Write(buf)
		return err == nil, err
	})
	if err != nil {
		zw.Close()
		return nil, fmt.Errorf("writing the stored games as PGN: %w", err)
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	s.PGNZstd = zc.n
	s.ElapsedSecs = r.ElapsedSeconds + time.Since(start).Seconds()
	return s, nil
}
