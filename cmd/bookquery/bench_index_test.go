package main

import (
	"cmp"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"strings"
	"syscall"
	"testing"
)

// BenchmarkServeGameIndex measures the game index's routes through 'bookquery
// serve' on the large store (see benchEnv), one request at a time, each
// sub-benchmark reporting the p50 and p99 latency (issue 29's targets in
// brackets):
//
//   - player: GET /player for BOOKQUERY_BENCH_PLAYER (default Nakamura,Hi:
//     2,077 games with White, 2,026 with Black) with either color, at
//     positions of plies 0 to 20 that his games reach (walks down his own
//     trees) [p50 20 ms, p99 100 ms];
//   - player-search: the first page of his games, newest first [20 ms];
//   - player-position-search: his games through one of those positions
//     [200 ms];
//   - players-name: GET /players?name=TEXT, the completion, for prefixes of
//     the names of the store [20 ms];
//   - tags-search: a search without a name (ECO B20-B99, both players
//     rated 2600 or more, by rating), which reads every game's summary in
//     the scan pool (no target; for scale).
//
// bench/query.sh runs it with MEASURES=index.
func BenchmarkServeGameIndex(b *testing.B) {
	e := benchSetup(b)
	player := cmp.Or(os.Getenv("BOOKQUERY_BENCH_PLAYER"), "Nakamura,Hi")
	cmd, base, logs := startServer(b, e.bin, e.db)
	addr := strings.TrimPrefix(base, "http://")
	lines := playerLines(b, base, player, 400)
	q := url.QueryEscape(player)
	playerTarget := func(i int) string {
		l := lines[i%len(lines)]
		return "/player?player=" + q + "&color=" + l.color + "&play=" + strings.Join(l.uci, ",")
	}
	names := []string{"naka", "carl", "anand", "kasp", "kramnik", "topa", "ivan", "svid", "grisch", "aron", "so,w", "caru", "gelfand", "shirov", "adams", "leko"}
	benches := []struct {
		name   string
		target func(i int) string
	}{
		{"player", playerTarget},
		{"player-search", func(int) string { return "/search?player=" + q }},
		{"player-position-search", func(i int) string {
			l := lines[i%len(lines)]
			return "/search?player=" + q + "&play=" + strings.Join(l.uci, ",")
		}},
		{"players-name", func(i int) string { return "/players?name=" + url.QueryEscape(names[i%len(names)]) + "&limit=8" }},
		{"tags-search", func(int) string { return "/search?eco=B20-B99&minRating=2600&sort=rating" }},
	}
	for _, bb := range benches {
		// Warm up: the store's blocks of these requests cached, as in a
		// server that has run for a while.
		if _, err := load(addr, 1, min(len(lines), 50), 0, bb.target); err != nil {
			b.Fatal(err)
		}
		b.Run(bb.name, func(b *testing.B) {
			ds, err := load(addr, 1, b.N, 0, bb.target)
			if err != nil {
				b.Fatal(err)
			}
			reportLatencies(b, ds, "ms")
		})
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		b.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		b.Fatalf("serve: %v\n%s", err, logs.String())
	}
}

// playerLine is a position of a player's games: the UCI moves from the
// start, and the player's color.
type playerLine struct {
	color string
	uci   []string
}

// playerLines returns n positions that the player's games reach, at plies
// 0 to 20 in turn, by walking down the player's trees (each color in turn,
// a move chosen among those played by the walk's number).
func playerLines(b *testing.B, base, player string, n int) []playerLine {
	b.Helper()
	var out []playerLine
	for k := 0; len(out) < n && k < 4*n; k++ {
		color := []string{"white", "black"}[k%2]
		depth := k / 2 % 21
		var line []string
		for len(line) < depth {
			resp, err := http.Get(base + "/player?player=" + url.QueryEscape(player) + "&color=" + color + "&recentGames=0&play=" + strings.Join(line, ","))
			if err != nil {
				b.Fatal(err)
			}
			var tree struct {
				Moves []struct {
					UCI string `json:"uci"`
				} `json:"moves"`
			}
			err = json.NewDecoder(resp.Body).Decode(&tree)
			resp.Body.Close()
			if err != nil || resp.StatusCode != 200 {
				b.Fatalf("/player for %s: %d %v", player, resp.StatusCode, err)
			}
			if len(tree.Moves) == 0 {
				break
			}
			// The most played moves mostly, others now and then.
			pick := (k*31 + len(line)*7) % len(tree.Moves)
			if (k+len(line))%3 != 0 {
				pick %= min(2, len(tree.Moves))
			}
			line = append(line, tree.Moves[pick].UCI)
		}
		out = append(out, playerLine{color, line})
	}
	if len(out) == 0 {
		b.Fatal(fmt.Sprintf("no positions of %s's games", player))
	}
	return out
}
