// Package corpus replays the games of PGN files into board positions for
// the key tests, the table generator and the measurement tool.
//
// It is the one place that knows where their positions come from. PGN is
// read and replayed by the project's ingest pipeline (ingest.Run), the same
// code the book builder uses, so the key tests see exactly the positions the
// store will be keyed with; this package only expands each game's start
// position and moves into the list of its positions.
package corpus

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/ingest"
	"github.com/chessbook/chessbook/pgn"
)

// Game is one replayed game.
type Game struct {
	// Line is the 1-based line of the file where the game starts or, for a
	// game that could not be replayed, the line of the offending token.
	Line int
	// Positions are the positions of the game, Positions[i] after i plies
	// (Positions[0] is the start position or the game's FEN position). The
	// slice is reused once the callback returns: copy what you keep.
	Positions []board.Position
	// Err is set, and Positions empty, when the game could not be replayed
	// (an *ingest.GameError: illegal or unparsable move, null move, bad FEN
	// tag, unsupported variant, PGN syntax error).
	Err error
}

// Files returns the PGN files (.pgn, .PGN, .pgn.zst, .pgn.bz2) of the
// directory dir/sub, sorted by name.
func Files(dir, sub string) ([]string, error) {
	ents, err := os.ReadDir(filepath.Join(dir, sub))
	if err != nil {
		return nil, fmt.Errorf("corpus: list %s: %w", sub, err)
	}
	var out []string
	for _, e := range ents {
		n := strings.ToLower(e.Name())
		if !e.IsDir() && (strings.HasSuffix(n, ".pgn") || strings.HasSuffix(n, ".pgn.zst") || strings.HasSuffix(n, ".pgn.bz2")) {
			out = append(out, filepath.Join(dir, sub, e.Name()))
		}
	}
	return out, nil
}

// Replay replays every game of the PGN file path (plain or compressed, as
// ingest.Open reads it) and calls fn for each, from up to workers goroutines
// at once (workers <= 0: GOMAXPROCS). With several workers the games come in
// no particular order; with one, in file order. Games that fail to replay
// are passed with Err set and no positions. The error is about the file
// itself (missing, unreadable).
func Replay(path string, workers int, fn func(Game)) error {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	_, err := ingest.Run(context.Background(), []string{path}, ingest.Options{Workers: workers},
		func(int) ingest.Sink { return &sink{fn: fn} })
	if err != nil {
		return fmt.Errorf("corpus: replay %s: %w", path, err)
	}
	return nil
}

// sink expands the games of one pipeline worker into positions.
type sink struct {
	fn        func(Game)
	positions []board.Position // reused from game to game
}

// Game implements ingest.Sink.
func (s *sink) Game(g *pgn.Game) error {
	ps := append(s.positions[:0], g.Start)
	p := g.Start
	for _, m := range g.Moves {
		p.Play(m)
		ps = append(ps, p)
	}
	s.positions = ps
	s.fn(Game{Line: g.Line, Positions: ps})
	return nil
}

// Skip implements ingest.Sink.
func (s *sink) Skip(e *ingest.GameError) {
	s.fn(Game{Line: e.Line, Err: e})
}

// EvalFile is the corpus the key sizes are measured on (relative to
// shared/data): the world champions' games.
const EvalFile = "medium/pgnmentor_world_champions_16players.pgn.zst"

// TrainingFiles returns the corpus the frozen code tables are built from
// (relative to shared/data): every small/ and medium/ file except EvalFile,
// so that the measured sizes are out-of-sample.
func TrainingFiles() []string {
	return []string{
		"medium/lichess_10k.pgn.zst",
		"small/allancao_games.pgn",
		"small/allancao_lichess_DannyTheDonkey_2019-01-29.pgn",
		"small/allancao_lichess_DrDrunkenstein_2019-01-29.pgn",
		"small/barakmich_lichess_head_50k_2022_06.pgn.bz2",
		"small/cfd_BDG2.PGN",
		"small/notnil_Carlsen.pgn",
		"small/notnil_twic0920.pgn",
	}
}
