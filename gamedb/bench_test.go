package gamedb_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/book/build"
	"github.com/chessbook/chessbook/gamecode"
	"github.com/chessbook/chessbook/gamedb"
	"github.com/chessbook/chessbook/internal/testutil"
	"github.com/chessbook/chessbook/store"
)

// The benchmarks of the game index on the large corpus (the shared
// pgnmentor players file, 336,863 distinct games), built once per process
// into a temporary directory (a minute or two), or read from
// GAMEDB_BENCH_DB when set (a store built from it, kept between runs):
//
//	go test -run '^$' -bench . -benchtime 200x ./gamedb
//	GAMEDB_BENCH_DB=/tmp/large.db go test -run '^$' -bench . ./gamedb
//
// Each reports the mean (ns/op) and the p50 and p99 latency of one call,
// in process, on a store opened read-only as bookquery opens it. The
// player is the one with the most games (Carlsen,M: 4,000+ with each
// color); the positions are those of the player's own games, at plies 0
// to 20.

// benchData is what the benchmarks share.
type benchData struct {
	st     *store.Store
	db     *gamedb.DB
	player string
	// positions of the player's games at plies 0 to 20, by the color the
	// player had in them.
	positions [2][]board.Position
}

var (
	benchOnce sync.Once
	benchEnv  *benchData
	benchErr  error
)

func benchSetup(b *testing.B) *benchData {
	b.Helper()
	dir := os.Getenv("GAMEDB_BENCH_DB")
	input := ""
	if data := testutil.FindSharedData(); data != "" {
		input = filepath.Join(data, "large", "pgnmentor_players_239files.pgn.zst")
	}
	if dir == "" && input == "" {
		b.Skip("../shared/data is missing and GAMEDB_BENCH_DB is not set")
	}
	benchOnce.Do(func() {
		benchEnv, benchErr = makeBenchData(dir, input)
		if benchErr == nil {
			ns, _ := benchEnv.db.Names(context.Background(), gamedb.Players, benchEnv.player, 1)
			b.Logf("player %q: %d games with White, %d with Black; %d games in the store", benchEnv.player, ns[0].White, ns[0].Black, benchEnv.st.Meta().Games)
		}
	})
	if benchErr != nil {
		b.Fatal(benchErr)
	}
	return benchEnv
}

func makeBenchData(dir, input string) (*benchData, error) {
	ctx := context.Background()
	if _, err := os.Stat(dir); dir == "" || err != nil {
		if dir == "" {
			tmp, err := os.MkdirTemp("", "gamedb-bench")
			if err != nil {
				return nil, err
			}
			dir = filepath.Join(tmp, "large.db")
		}
		if _, err := build.Run(ctx, build.RunOptions{Options: build.Options{Inputs: []string{input}, Memory: 1 << 30}, Dir: dir, Compact: true}); err != nil {
			return nil, err
		}
	}
	st, err := store.Open(dir, store.Options{ReadOnly: true})
	if err != nil {
		return nil, err
	}
	db, err := gamedb.Open(st)
	if err != nil {
		return nil, err
	}
	top, err := db.Names(ctx, gamedb.Players, "", 1)
	if err != nil || len(top) == 0 {
		return nil, fmt.Errorf("no player: %v", err)
	}
	d := &benchData{st: st, db: db, player: top[0].Name}
	for color, q := range []gamedb.Query{{White: top[0].Name}, {Black: top[0].Name}} {
		q.Limit = 200
		res, err := db.Search(ctx, q)
		if err != nil {
			return nil, err
		}
		for i, g := range res.Games {
			rec, err := st.Game(g.ID)
			if err != nil {
				return nil, err
			}
			game, err := gamecode.DecodeGame(rec)
			if err != nil {
				return nil, err
			}
			p := game.Start
			for _, m := range game.Moves[:min(len(game.Moves), i%21)] {
				p.Play(m)
			}
			d.positions[color] = append(d.positions[color], p)
		}
	}
	return d, nil
}

// timed runs fn b.N times and reports the p50 and p99 of its durations.
func timed(b *testing.B, fn func(i int) error) {
	b.Helper()
	durs := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := range b.N {
		start := time.Now()
		if err := fn(i); err != nil {
			b.Fatal(err)
		}
		durs = append(durs, time.Since(start))
	}
	b.StopTimer()
	slices.Sort(durs)
	q := func(p float64) float64 { return float64(durs[int(p*float64(len(durs)-1))]) / 1e6 }
	b.ReportMetric(q(0.5), "p50-ms")
	b.ReportMetric(q(0.99), "p99-ms")
}

// BenchmarkPlayerTree: the player's tree at positions of the player's own
// games, plies 0 to 20, with either color.
func BenchmarkPlayerTree(b *testing.B) {
	d := benchSetup(b)
	ctx := context.Background()
	moves := 0
	timed(b, func(i int) error {
		color := i % 2
		ps := d.positions[color]
		tree, err := d.db.PlayerTree(ctx, gamedb.TreeQuery{Player: d.player, Color: color, Position: &ps[i/2%len(ps)], Recent: 8})
		if err == nil {
			moves += len(tree.Moves)
		}
		return err
	})
	if moves == 0 {
		b.Fatal("every tree is empty")
	}
}

// BenchmarkSearchPlayerPage: the first page (20 games, newest first) of
// the player's games with either color.
func BenchmarkSearchPlayerPage(b *testing.B) {
	d := benchSetup(b)
	ctx := context.Background()
	timed(b, func(int) error {
		_, err := d.db.Search(ctx, gamedb.Query{Player: d.player, Limit: 20})
		return err
	})
}

// BenchmarkSearchPlayerPosition: the first page of the player's games, with
// either color, that reach a position of the player's games (plies 0 to
// 20).
func BenchmarkSearchPlayerPosition(b *testing.B) {
	d := benchSetup(b)
	ctx := context.Background()
	timed(b, func(i int) error {
		ps := d.positions[i%2]
		_, err := d.db.Search(ctx, gamedb.Query{Player: d.player, Position: &ps[i/2%len(ps)], Limit: 20})
		return err
	})
}

// BenchmarkPlayersName: every spelling containing a name (players -name).
func BenchmarkPlayersName(b *testing.B) {
	d := benchSetup(b)
	ctx := context.Background()
	names := []string{"anand", "carlsen", "kasparov", "nakamura", "smith"}
	timed(b, func(i int) error {
		_, err := d.db.Names(ctx, gamedb.Players, names[i%len(names)], 50)
		return err
	})
}

// BenchmarkSearchTags: a search by tags only, which reads every game's
// summary: white wins in the Sicilian (B20-B99) by players rated 2600 and
// up, the first page by rating.
func BenchmarkSearchTags(b *testing.B) {
	d := benchSetup(b)
	ctx := context.Background()
	timed(b, func(int) error {
		_, err := d.db.Search(ctx, gamedb.Query{ECOFrom: gamedb.ParseECO([]byte("B20")), ECOTo: gamedb.ParseECO([]byte("B99")),
			MinRating: 2600, Sort: gamedb.ByRating, Limit: 20})
		return err
	})
}
