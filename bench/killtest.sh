#!/usr/bin/env bash
# bench/killtest.sh: kill -9 a build at random moments, then run it to the
# end, and check the store equals an uninterrupted build of the same input.
#
#   bench/killtest.sh [INPUT] [KILLS]
#
# INPUT defaults to the medium corpus (world champions, ~32k games), KILLS to 5. Each kill
# round starts a build into the same store and sends SIGKILL after a random
# delay (0.2 s to most of a full build's time), then runs bookquery check,
# which must find no damage nor loss (what a kill leaves besides the store
# is leftovers); a final run then completes it. The statistics are compared as a full dump (bookquery positions
# -moves, sorted: every position with every move's counters, ratings, dates, plies
# and game references), plus the games counter and the number of games.
# -mem 256 -commit-runs 1 makes the builder commit every small flush, so
# kills land between, and during, many commits.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
input=${1:-$root/../shared/data/medium/pgnmentor_world_champions_16players.pgn.zst}
kills=${2:-5}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$root"
go build -o "$work/bookbuild" ./cmd/bookbuild
go build -o "$work/bookquery" ./cmd/bookquery
build() { "$work/bookbuild" -q -mem 256 -commit-runs 1 -db "$1" "$input"; }
dump() {
  "$work/bookquery" -db "$1" positions -moves | LC_ALL=C sort | sha256sum | cut -c1-16
  "$work/bookquery" -db "$1" positions -format csv | wc -l
}

start=$(date +%s.%N)
build "$work/ref" >"$work/ref.out"
full=$(echo "$(date +%s.%N) - $start" | bc)
ref=$(dump "$work/ref")
refgames=$(sed -n 's/.*, \([0-9]*\) games in all.*/\1/p' "$work/ref.out")
echo "uninterrupted build: ${full}s, $refgames games, dump $(echo $ref)"

for ((i = 1; i <= kills; i++)); do
  delay=$(awk -v seed="$RANDOM" -v full="$full" 'BEGIN { srand(seed); printf "%.2f", 0.2 + rand() * full * 0.6 }')
  "$work/bookbuild" -q -mem 256 -db "$work/killed" "$input" >/dev/null 2>&1 &
  pid=$!
  sleep "$delay"
  if kill -9 "$pid" 2>/dev/null; then
    echo "round $i: killed after ${delay}s"
  else
    echo "round $i: the build had finished before ${delay}s"
  fi
  wait "$pid" 2>/dev/null || true
  # What the kill left is the store (every commit whole) and leftovers:
  # check finds no damage and no loss.
  if [ -d "$work/killed" ] && ! "$work/bookquery" -db "$work/killed" check >"$work/check.out" 2>&1; then
    cat "$work/check.out" >&2
    echo "FAIL: check after round $i" >&2
    exit 1
  fi
  sed -n 's/^\(leftovers: [^,]*, [^,]*\).*/  \1/p' "$work/check.out"
done
build "$work/killed" >"$work/killed.out"
got=$(dump "$work/killed")
games=$(sed -n 's/.*, \([0-9]*\) games in all.*/\1/p' "$work/killed.out")
echo "after $kills kills and a final run: $games games, dump $(echo $got)"
if [ "$got" != "$ref" ] || [ "$games" != "$refgames" ]; then
  echo "FAIL: the interrupted build differs from the uninterrupted one" >&2
  exit 1
fi
echo "OK: identical statistics and games"
