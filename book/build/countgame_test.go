package build_test

import (
	"context"
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/book"
	"github.com/chessbook/chessbook/book/build"
	"github.com/chessbook/chessbook/ingest"
	"github.com/chessbook/chessbook/keys"
	"github.com/chessbook/chessbook/pgn"
	"github.com/chessbook/chessbook/stats"
	"github.com/chessbook/chessbook/store"
	nchess "github.com/notnil/chess"
	"slices"
)

// repeatFEN is a position that Timofeeva - Pustovoitova (Tyumen 2012.06.25,
// book/testdata/timofeeva_pustovoitova.pgn, taken from
// small/notnil_twic0920.pgn) reaches twice: at ply 19, where it plays
// 10...Be4, and at ply 23 (after 10...Be4 11.Qc1 Bb7 12.Qc2), where it plays
// 12...Bd6. Three other games of the TWIC file reach it once and play Be4.
const repeatFEN = "rn1q1rk1/1bp1bppp/p3pn2/1p6/3P4/5NP1/PPQBPPBP/RN3RK1 b - - 0 1"

// movesAt returns the games of each move (in SAN) stored for fen, and the
// entry.
func movesAt(t *testing.T, st *store.Store, fen string) (map[string]uint64, stats.Entry) {
	t.Helper()
	p, err := board.ParseFEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	e, _, err := book.Lookup(st, keys.Encode(&p))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]uint64{}
	for _, m := range e.Moves {
		got[p.SAN(m.Move)] = m.Games()
	}
	return got, e
}

// TestCountGameFirstVisit: in -count game mode a game that comes back to a
// position counts once there, under the move it played at its first visit
// (10...Be4), not also under the move of its second visit (12...Bd6); in
// -count occurrence mode both visits count.
func TestCountGameFirstVisit(t *testing.T) {
	in := filepath.Join("..", "testdata", "timofeeva_pustovoitova.pgn")
	for _, c := range []struct {
		mode store.CountMode
		want string
	}{
		{store.CountGame, "map[Be4:1]"},
		{store.CountOccurrence, "map[Bd6:1 Be4:1]"},
	} {
		t.Run(string(c.mode), func(t *testing.T) {
			st, _, bs := buildBook(t, build.Options{CountMode: c.mode}, in)
			if bs.Games != 1 {
				t.Fatalf("%d games ingested, want 1", bs.Games)
			}
			if got, _ := movesAt(t, st, repeatFEN); fmt.Sprint(got) != c.want {
				t.Errorf("moves at the repeated position: %v, want %s", got, c.want)
			}
			// The start position, and the position after 10...Be4 11.Qc1
			// Bb7 (reached once), count the game once.
			if got, _ := movesAt(t, st, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"); fmt.Sprint(got) != "map[Nf3:1]" {
				t.Errorf("start position: %v", got)
			}
		})
	}
}

// TestCountGameOracle: for every position of every game of shared/data
// small/ and medium/ (medium not with -short), the games a -count game
// -keep-duplicates store counts at the position equal the number of games
// that play a move from it, as an independent replay with notnil/chess
// counts them. Every stored position is compared, and every position the
// oracle finds must be stored.
func TestCountGameOracle(t *testing.T) {
	t.Parallel() // beside the other long oracles of the package: the build alone does not keep two cores busy
	small, medium, minTotal := countGameInputs(t)
	var total, smallFiles, smallRan int
	var files []string
	for _, path := range append(small, medium...) {
		if strings.HasSuffix(path, ".txt") {
			continue
		}
		isMedium := slices.Contains(medium, path)
		if !isMedium {
			smallFiles++
		}
		files = append(files, path)
	}
	// The files two at a time (GOMAXPROCS): the oracle's replay is one
	// goroutine.
	var mu sync.Mutex
	t.Run("files", func(t *testing.T) {
		for _, path := range files {
			isMedium := slices.Contains(medium, path)
			t.Run(filepath.Base(path), func(t *testing.T) {
				if isMedium && testing.Short() {
					t.Skip("medium corpus: not with -short")
				}
				t.Parallel()
				n := compareWithOracle(t, path)
				mu.Lock()
				defer mu.Unlock()
				total += n
				if !isMedium {
					smallRan++
				}
			})
		}
	})
	// small/ alone holds about 676,000 distinct positions (counted per
	// file): the check can not pass by comparing nothing. (Unless -run
	// picks some files only.)
	if smallFiles == 0 || (smallRan == smallFiles && total < minTotal) {
		t.Fatalf("%d positions compared in all (%d small files), want at least %d", total, smallFiles, minTotal)
	}
	t.Logf("%d positions compared in all", total)
}

// compareWithOracle builds path into a -count game -keep-duplicates store
// and compares every position with the oracle; it returns the number of
// positions compared.
func compareWithOracle(t *testing.T, path string) int {
	start := time.Now()
	want, games := oracleGamesPerPosition(t, path)
	oracleTime := time.Since(start)
	start = time.Now()
	st, sum, bs := buildBook(t, build.Options{CountMode: store.CountGame, KeepDuplicates: true}, path)
	buildTime := time.Since(start)
	if bs.Games != int64(games) || bs.Unstorable != 0 || bs.Duplicates != 0 {
		t.Fatalf("builder ingested %d games (%d unstorable, %d duplicates, skipped %v), the oracle replayed %d",
			bs.Games, bs.Unstorable, bs.Duplicates, sum.Skipped, games)
	}
	var compared, mismatches int
	report := func(format string, args ...any) {
		mismatches++
		if mismatches <= 10 {
			t.Errorf(format, args...)
		}
	}
	seen := make(map[string]bool, len(want))
	err := book.Positions(context.Background(), st, 0, func(key []byte, e *stats.Entry) error {
		p, err := keys.Decode(key)
		if err != nil {
			return fmt.Errorf("key %x: %w", key, err)
		}
		fen := fenKey(p.FEN())
		compared++
		seen[fen] = true
		if got, w := e.Games(), want[fen]; got != uint64(w) {
			report("%s: the store counts %d games, %d play on from it", fen, got, w)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for fen, w := range want {
		if !seen[fen] {
			report("%s: not in the store, %d games play on from it", fen, w)
		}
	}
	if mismatches > 0 {
		t.Fatalf("%d mismatches of %d positions", mismatches, compared)
	}
	if compared != len(want) || compared < 5000 || compared < games {
		t.Fatalf("%d positions compared, the oracle has %d; want them all, and many", compared, len(want))
	}
	t.Logf("%d games, %d positions agree (oracle %v, build %v)", games, compared, oracleTime.Round(time.Millisecond), buildTime.Round(time.Millisecond))
	return compared
}

// fenKey returns FEN fields 1-4 (placement, side to move, castling,
// en passant).
func fenKey(fen string) string {
	f := strings.Fields(fen)
	return strings.Join(f[:4], " ")
}

// oracleGame is one game as its tags and raw SAN tokens.
type oracleGame struct {
	fen  string
	skip bool // a variant, a syntax error or a null move: the builder skips it
	sans []string
}

// oracleReader collects every game of a file through pgn.Read's tokens; the
// moves are then played by notnil/chess, not by our board.
type oracleReader struct {
	games []oracleGame
	cur   oracleGame
}

func (r *oracleReader) BeginGame(int) { r.cur = oracleGame{} }
func (r *oracleReader) Tag(name, value []byte) {
	switch string(name) {
	case "FEN":
		r.cur.fen = strings.TrimSpace(string(value))
	case "Variant":
		switch strings.ToLower(strings.TrimSpace(string(value))) {
		case "", "standard", "chess", "from position", "fromposition", "normal":
		default:
			r.cur.skip = true
		}
	}
}
func (r *oracleReader) BeginMovetext() bool { return !r.cur.skip }
func (r *oracleReader) SAN(san []byte, _ int) bool {
	s := string(san)
	switch s {
	case "--", "Z0", "0000", "@@@@", "null":
		r.cur.skip = true
		return false
	}
	r.cur.sans = append(r.cur.sans, s)
	return true
}
func (r *oracleReader) Outcome(pgn.Result)     {}
func (r *oracleReader) ParseError(int, string) { r.cur.skip = true }
func (r *oracleReader) EndGame()               { r.games = append(r.games, r.cur) }

// oracleGamesPerPosition replays every game of path with notnil/chess and
// returns, per position (fenKey, en passant only when a legal en-passant
// capture exists, as our keys count it), the number of games that play a
// move from it; and the number of games replayed (those with a bad FEN, an
// impossible set-up or an illegal move are left out, as the builder leaves
// them out).
func oracleGamesPerPosition(t *testing.T, path string) (map[string]int, int) {
	t.Helper()
	rc, err := ingest.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	var r oracleReader
	if err := pgn.Read(rc, &r); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	work := make(chan oracleGame)
	var mu sync.Mutex
	counts := make(map[string]int)
	replayed := 0
	var wg sync.WaitGroup
	for range runtime.NumCPU() {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for g := range work {
				positions, ok := oracleReplay(g)
				if !ok {
					continue
				}
				mu.Lock()
				replayed++
				for fen := range positions {
					counts[fen]++
				}
				mu.Unlock()
			}
		}()
	}
	for _, g := range r.games {
		if !g.skip {
			work <- g
		}
	}
	close(work)
	wg.Wait()
	return counts, replayed
}

// oracleReplay plays g with notnil/chess and returns the set of positions
// a move is played from; ok is false when the game can not be replayed.
func oracleReplay(g oracleGame) (positions map[string]bool, ok bool) {
	var pos *nchess.Position
	if g.fen != "" {
		opt, err := nchess.FEN(g.fen)
		if err != nil {
			return nil, false
		}
		pos = nchess.NewGame(opt).Position()
		if impossibleMaterial(pos) {
			return nil, false
		}
	} else {
		pos = nchess.StartingPosition()
	}
	positions = make(map[string]bool, len(g.sans))
	notations := []nchess.Notation{nchess.AlgebraicNotation{}, nchess.LongAlgebraicNotation{}, nchess.UCINotation{}}
	for _, san := range g.sans {
		var m *nchess.Move
		for _, n := range notations {
			if mv, err := n.Decode(pos, san); err == nil {
				m = mv
				break
			}
		}
		if m == nil {
			return nil, false
		}
		positions[oracleKey(pos)] = true
		pos = pos.Update(m)
	}
	return positions, true
}

// impossibleMaterial reports whether a set-up has material no game can
// reach: more than 8 pawns or 16 men a side, or more pieces beyond the
// initial set than missing pawns. notnil accepts such FENs (lichess lets
// users start from them); the builder skips them as bad FENs, as the ingest
// differential test documents.
func impossibleMaterial(pos *nchess.Position) bool {
	var n [2][7]int // colour, piece type
	for _, pc := range pos.Board().SquareMap() {
		c := 0
		if pc.Color() == nchess.Black {
			c = 1
		}
		n[c][pc.Type()]++
	}
	for _, k := range n {
		men := 0
		for _, x := range k {
			men += x
		}
		promoted := max(k[nchess.Knight]-2, 0) + max(k[nchess.Bishop]-2, 0) + max(k[nchess.Rook]-2, 0) + max(k[nchess.Queen]-1, 0)
		if k[nchess.Pawn] > 8 || men > 16 || k[nchess.Pawn]+promoted > 8 {
			return true
		}
	}
	return false
}

// oracleKey is notnil's FEN fields 1-4, with the en-passant square kept
// only when notnil lists a legal en-passant capture onto it.
func oracleKey(pos *nchess.Position) string {
	f := strings.Fields(pos.String())
	if f[3] != "-" {
		f[3] = "-"
		for _, m := range pos.ValidMoves() {
			if m.HasTag(nchess.EnPassant) {
				f[3] = m.S2().String()
				break
			}
		}
	}
	return strings.Join(f[:4], " ")
}
