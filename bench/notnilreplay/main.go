// Command notnilreplay replays PGN games with github.com/notnil/chess, the
// reference implementation, so that bench/replay.sh can compare its speed
// with ours on the same file. Each game is decoded on its own (notnil's
// Scanner gives up on a whole file at its first complaint). It prints
// games, plies and the elapsed time.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/chessbook/chessbook/ingest"
	"github.com/chessbook/chessbook/pgn"
	"github.com/notnil/chess"
)

func main() {
	limit := flag.Int("limit", 0, "stop after this many games (0: all)")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: notnilreplay [-limit N] FILE")
		os.Exit(2)
	}
	if err := run(flag.Arg(0), *limit); err != nil {
		fmt.Fprintln(os.Stderr, "notnilreplay:", err)
		os.Exit(1)
	}
}

func run(path string, limit int) error {
	rc, err := ingest.Open(path)
	if err != nil {
		return err
	}
	defer rc.Close()
	start := time.Now()
	sp := pgn.NewSplitter(rc)
	var games, plies, bad int
	var buf []byte
	sep := []byte("\n[Event ")
	for limit == 0 || games < limit {
		chunk, _, err := sp.Next(buf[:0])
		buf = chunk
		for len(chunk) > 0 && (limit == 0 || games < limit) {
			end := bytes.Index(chunk[1:], sep)
			game := chunk
			if end >= 0 {
				game, chunk = chunk[:end+2], chunk[end+2:]
			} else {
				chunk = nil
			}
			text := bytes.ReplaceAll(game, []byte("\r\n"), []byte("\n"))
			opt, perr := chess.PGN(bytes.NewReader(text))
			games++
			if perr != nil {
				bad++
				continue
			}
			plies += len(chess.NewGame(opt).Moves())
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
	}
	secs := time.Since(start).Seconds()
	fmt.Printf("notnil/chess: %d games, %d plies, %.2fs, %.0f games/s, %.0f plies/s, %d games rejected\n",
		games, plies, secs, float64(games)/secs, float64(plies)/secs, bad)
	return nil
}
