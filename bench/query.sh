#!/usr/bin/env bash
# bench/query.sh: bookquery latency on a book of real games: a cold
# 'bookquery moves' call (a new process each time), and 'bookquery serve'
# throughput and latency on loopback over real game positions.
#
#   bench/query.sh [INPUT]      default: ../shared/data/large/pgnmentor_players_239files.pgn.zst
#   BENCH_DB=DIR bench/query.sh reuse a store built by bookbuild from INPUT
#   REPEAT=20 REQUESTS=30000 CLIENTS=64 COMPACT=1 bench/query.sh
#   ENDPOINTS="/moves /lichess" bench/query.sh   the endpoints serve is measured on
#   MEASURES="cold serve burst index" bench/query.sh   which measures to run (default all)
#   PLAYER=Nakamura,Hi INDEX_REQUESTS=300 bench/query.sh   the game index's measure: its player, requests per route
#   BURST_REQUESTS=5000 BURST_RATE=500 bench/query.sh   the burst measure's light load
#
# The store is built once into $BENCH_CACHE/query.db (bookbuild defaults)
# and reused. The measures are the Go benchmarks of cmd/bookquery
# (bench_test.go says how they work):
#   - cold moves: the built binary run REPEAT times on positions of real
#     games, median and p99 in ms (target: 100 ms at most);
#   - serve max, for each of ENDPOINTS (default /moves, ours with the
#     moves' performance, and /lichess, the lichess explorer's answer,
#     which reads no child position): REQUESTS requests from CLIENTS
#     connections, each sending
#     its next request when answered: requests/s;
#   - serve rate=5000, rate=20000: REQUESTS requests on a fixed schedule,
#     latency from when each was due: p50 and p99 in ms (targets: 5,000/s
#     with p99 <= 10 ms; goal 20,000/s with p99 <= 2 ms).
#   - burst (serve under attack; on the store as bookbuild leaves it only):
#     BURST_REQUESTS light requests (the page, a static file, /game/ID,
#     /masters, /lichess, /moves) at BURST_RATE/s over 16 keep-alive
#     connections, p50 and p99 in ms (target: p99 <= 10 ms), quiet, then
#     during a burst of 48 clients asking /games?page=1 for rare positions
#     (a scan of every game) over and over (the scans' outcomes: answered,
#     503, failed), then during a burst of 128 clients asking heavy
#     searches (/search?player=a with and without a rare position, by
#     rating, deep pages, /search?event=ch, /players?name=a) over and over,
#     then each on a new connection while 10,000 silent
#     connections are opened (BenchmarkServeBurst in burst_bench_test.go).
# With COMPACT=1 (the default) the cold and serve measures are repeated on
# a compacted copy of the store (store.Compact, made once into $BENCH_CACHE), which
# bookbuild does not make: the difference is the cost of reading a store
# whose positions are spread over many levels and sstables.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
input=${1:-$root/../shared/data/large/pgnmentor_players_239files.pgn.zst}
repeat=${REPEAT:-20}
requests=${REQUESTS:-30000}
clients=${CLIENTS:-64}
compact=${COMPACT:-1}
endpoints=${ENDPOINTS:-/moves /lichess}
measures=${MEASURES:-cold serve burst index}
index_requests=${INDEX_REQUESTS:-300}
player=${PLAYER:-Nakamura,Hi}
burst_requests=${BURST_REQUESTS:-5000}
burst_rate=${BURST_RATE:-500}
cache=${BENCH_CACHE:-${TMPDIR:-/tmp}/chessbook-bench}
db=${BENCH_DB:-$cache/query.db}
mkdir -p "$cache"
cd "$root"

if [ ! -d "$db" ]; then
  echo "building $db from $input (once)" >&2
  go run ./cmd/bookbuild -db "$db" -q "$input" >/dev/null
fi
echo "store: $db ($(du -sb "$db" | cut -f1) bytes); $(nproc) cores; load average $(cut -d' ' -f1-3 /proc/loadavg)"

gobench() { # pattern, benchtime, extra env...
  local pattern=$1 benchtime=$2 out=$cache/query-bench.out; shift 2
  if ! env BOOKQUERY_BENCH_DB="$db" BOOKQUERY_BENCH_CLIENTS="$clients" "$@" \
    go test -run '^$' -bench "$pattern" -benchtime "$benchtime" -timeout 30m ./cmd/bookquery >"$out" 2>&1; then
    echo "go test -bench $pattern failed:" >&2
    tail -20 "$out" >&2
    exit 1
  fi
  grep '^Benchmark' "$out"
}
measuring() { [[ " $measures " == *" $1 "* ]]; }
bench() { # label, extra env...
  local label=$1; shift
  echo
  echo "== $label"
  if measuring cold; then
    gobench ColdMoves "${repeat}x" "$@"
  fi
  if measuring serve; then
    for ep in $endpoints; do
      echo "-- serve $ep"
      gobench 'Serve$' "${requests}x" BOOKQUERY_BENCH_PATH="$ep" "$@"
    done
  fi
}
bench "store as bookbuild leaves it"
if measuring burst; then
  echo "-- serve under attack: light load quiet, beside 48 scans, beside 128 heavy searches, beside 10,000 silent connections"
  gobench ServeBurst "${burst_requests}x" BOOKQUERY_BENCH_RATE="$burst_rate"
fi
if measuring index; then
  echo "-- the game index through serve, one request at a time: /player, /search, /players (player $player)"
  gobench ServeGameIndex "${index_requests}x" BOOKQUERY_BENCH_PLAYER="$player"
fi
if [ "$compact" != 0 ] && { measuring cold || measuring serve; }; then
  compacted=$cache/$(basename "$db")-compacted
  if [ -d "$compacted" ] && [ "$db" -nt "$compacted" ]; then
    rm -rf "$compacted" # the store changed since
  fi
  bench "compacted copy of the store ($compacted)" BOOKQUERY_BENCH_COMPACT="$compacted"
fi
echo
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
