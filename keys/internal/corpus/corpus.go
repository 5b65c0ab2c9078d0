// Package corpus replays the games of PGN files into board positions for
// the key tests, the table generator and the measurement tool.
//
// It is the one place that knows where positions come from, meant to be
// switched to the project's ingest replay once that exists, without touching
// its users. Until then it has two sources:
//   - Replay: a minimal PGN movetext tokenizer (tags, comments, variations,
//     NAGs, move numbers, results) feeding board.ParseSAN and Play; fast
//     enough (~1M plies/s) for the default tests to cover small/ and medium/.
//   - ReplayNotnil: github.com/notnil/chess (~40k plies/s), each position
//     converted through its FEN; the oracle the fast source is checked
//     against (corpus_test.go).
package corpus

import (
	"bufio"
	"compress/bzip2"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"

	"github.com/klauspost/compress/zstd"
	"github.com/notnil/chess"

	"github.com/chessbook/chessbook/board"
)

// Game is one replayed game.
type Game struct {
	// Index is the game's 0-based index within its file.
	Index int
	// Positions are the positions of the game, Positions[i] after i plies
	// (Positions[0] is the start position or the game's FEN position).
	Positions []board.Position
	// Err is set, and Positions empty, when the game could not be replayed.
	Err error
}

// FindData returns the shared data directory: rel (a path relative to the
// caller's working directory, such as "../../shared/data") if it exists,
// else /work/shared/data if that exists, else "".
func FindData(rel string) string {
	for _, d := range []string{rel, "/work/shared/data"} {
		if d == "" {
			continue
		}
		if st, err := os.Stat(d); err == nil && st.IsDir() {
			return d
		}
	}
	return ""
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

// open returns a reader of the decompressed contents of path.
func open(path string) (io.ReadCloser, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("corpus: %w", err)
	}
	switch {
	case strings.HasSuffix(path, ".zst"):
		d, err := zstd.NewReader(f)
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("corpus: zstd %s: %w", path, err)
		}
		return readCloser{d.IOReadCloser(), f}, nil
	case strings.HasSuffix(path, ".bz2"):
		return readCloser{io.NopCloser(bzip2.NewReader(f)), f}, nil
	}
	return f, nil
}

type readCloser struct {
	io.ReadCloser
	f *os.File
}

// Close closes the decompressor and the file.
func (r readCloser) Close() error {
	r.ReadCloser.Close()
	return r.f.Close()
}

// Replay replays every game of the PGN file path with the fast source and
// calls fn for each, from up to workers goroutines at once (workers <= 0:
// GOMAXPROCS), in no particular order. Games that fail to replay (an
// illegal or unparsable move, a bad FEN tag, a null move) are passed with
// Err set and no positions. The error is about the file itself (missing,
// unreadable).
func Replay(path string, workers int, fn func(Game)) error {
	return run(path, workers, fn, replayFast)
}

// ReplayNotnil is Replay with github.com/notnil/chess as the source.
func ReplayNotnil(path string, workers int, fn func(Game)) error {
	return run(path, workers, fn, replayNotnil)
}

func run(path string, workers int, fn func(Game), replay func(int, string) Game) error {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	rc, err := open(path)
	if err != nil {
		return err
	}
	defer rc.Close()
	type job struct {
		idx  int
		text string
	}
	jobs := make(chan job, 4*workers)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				fn(replay(j.idx, j.text))
			}
		}()
	}
	err = split(rc, func(idx int, text string) { jobs <- job{idx, text} })
	close(jobs)
	wg.Wait()
	if err != nil {
		return fmt.Errorf("corpus: read %s: %w", path, err)
	}
	return nil
}

// split cuts the PGN stream into games at each tag line that follows
// movetext, removing check and mate marks from movetext lines (notnil's
// SAN matching is strict about them and real files put '+' on mates; the
// fast source ignores them anyway).
func split(r io.Reader, emit func(int, string)) error {
	br := bufio.NewReaderSize(r, 1<<20)
	var sb strings.Builder
	idx := 0
	sawMoves := false
	flush := func() {
		if sawMoves {
			emit(idx, sb.String())
			idx++
		}
		sb.Reset()
		sawMoves = false
	}
	strip := strings.NewReplacer("+", "", "#", "")
	inBrace := false // inside a {comment} spanning lines
	for {
		line, err := br.ReadString('\n')
		if len(line) > 0 {
			t := strings.TrimSpace(strings.TrimPrefix(line, "\ufeff"))
			switch {
			case strings.HasPrefix(t, "[") && !inBrace:
				if sawMoves {
					flush()
				}
				sb.WriteString(t + "\n")
			case t == "":
				sb.WriteString("\n")
			default:
				sawMoves = true
				sb.WriteString(strip.Replace(t) + "\n")
				for i := 0; i < len(t); i++ {
					switch t[i] {
					case '{':
						inBrace = true
					case '}':
						inBrace = false
					}
				}
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
	}
	flush()
	return nil
}

func replayNotnil(idx int, text string) Game {
	g := Game{Index: idx}
	opt, err := chess.PGN(strings.NewReader(text))
	if err != nil {
		g.Err = fmt.Errorf("game %d: %w", idx, err)
		return g
	}
	cg := chess.NewGame(opt)
	ps := cg.Positions()
	g.Positions = make([]board.Position, 0, len(ps))
	for i, cp := range ps {
		p, err := board.ParseFEN(cp.String())
		if err != nil {
			g.Err = fmt.Errorf("game %d ply %d: %w", idx, i, err)
			g.Positions = nil
			return g
		}
		g.Positions = append(g.Positions, p)
	}
	if len(g.Positions) == 0 {
		g.Err = errors.New("no positions")
	}
	return g
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
