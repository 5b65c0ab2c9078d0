#!/usr/bin/env bash
# bench/killtest.sh: kill -9 a build at random moments, then run it to the
# end, and check the store equals an uninterrupted build of the same input.
#
#   bench/killtest.sh [INPUT] [KILLS]
#   TRIALS=10 FLAGS="-count occurrence -keep-duplicates -max-ply 20" \
#     REF=../shared/data/reference/polyglot204_makebook_maxply20_mingame1__pgnmentor_world_champions_16players.bin \
#     EXPORT="-min-game 1 -max-ply 20" bench/killtest.sh
#
# INPUT defaults to the medium corpus (world champions, ~32k games), KILLS to 5,
# TRIALS to 1. Each trial starts from an empty store and runs KILLS kill
# rounds: a build into the store that gets SIGKILL after a random delay
# (0.2 s to 90% of a full build's time, the last one measured: a round
# that finishes first measures it again); a final run then completes it.
# Every build, killed or not, has the flags FLAGS (default: none) and
# -mem 256 -commit-runs 1, which make the builder commit every small flush,
# so kills land between, and during, many commits. The store is compared
# with an uninterrupted build's: the statistics as a full dump (bookquery
# positions -moves, sorted: every position with every move's counters,
# ratings, dates, plies, first-seen stamps and game references), every game
# through the start position as PGN with its id (bookquery pgn: tags and
# moves), the games counter and the number of games. With REF (a Polyglot
# book, PolyGlot make-book's on the same input) the store's export (flags
# EXPORT, default "-min-game 3") must also equal REF byte for byte. It exits
# 1 if any trial differs.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
input=${1:-$root/../shared/data/medium/pgnmentor_world_champions_16players.pgn.zst}
kills=${2:-5}
trials=${TRIALS:-1}
read -r -a flags <<<"${FLAGS:-}"
ref_book=${REF:-}
read -r -a export_flags <<<"${EXPORT:--min-game 3}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$root"
go build -o "$work/bookbuild" ./cmd/bookbuild
go build -o "$work/bookquery" ./cmd/bookquery
build() { "$work/bookbuild" -progress none -mem 256 -commit-runs 1 "${flags[@]}" -db "$1" "$input"; }
# dump prints a digest of the statistics, one of the games (each game's PGN
# on one line, sorted), and the number of positions.
dump() {
  "$work/bookquery" -db "$1" positions -moves | LC_ALL=C sort | sha256sum | cut -c1-16
  "$work/bookquery" -db "$1" pgn 2>/dev/null | awk 'BEGIN { RS = ""; ORS = "\n" } { gsub("\n", " "); print }' |
    LC_ALL=C sort | sha256sum | cut -c1-16
  "$work/bookquery" -db "$1" positions -format csv | wc -l
}
exported() { # store: the export's sha256, or "same" when it equals REF
  "$work/bookquery" -db "$1" export -o "$work/export.bin" "${export_flags[@]}" >/dev/null
  if cmp -s "$work/export.bin" "$ref_book"; then echo same; else sha256sum <"$work/export.bin" | cut -c1-16; fi
}

start=$(date +%s.%N)
build "$work/ref" >"$work/ref.out"
full=$(echo "$(date +%s.%N) - $start" | bc)
ref=$(dump "$work/ref")
refgames=$(sed -n 's/.*, \([0-9]*\) games in all.*/\1/p' "$work/ref.out")
echo "uninterrupted build (${flags[*]:-defaults}): ${full}s, $refgames games, dump $(echo $ref)"
if [ -n "$ref_book" ]; then
  e=$(exported "$work/ref")
  echo "uninterrupted build's export: $e"
  [ "$e" = same ] || { echo "FAIL: the uninterrupted build's export differs from $ref_book" >&2; exit 1; }
fi

failed=0
midway=0 # rounds killed with some, not all, of the games in the store
rounds=0
for ((trial = 1; trial <= trials; trial++)); do
  rm -rf "$work/killed"
  for ((i = 1; i <= kills; i++)); do
    delay=$(awk -v seed="$RANDOM" -v full="$full" 'BEGIN { srand(seed); printf "%.2f", 0.2 + rand() * full * 0.9 }')
    t0=$(date +%s.%N)
    # (the status read in a subshell, so that bash does not report the kill)
    status=$( (timeout -s KILL "$delay" "$work/bookbuild" -q -mem 256 -commit-runs 1 "${flags[@]}" -db "$work/killed" "$input" >/dev/null 2>&1
      echo $?) 2>/dev/null)
    took=$(echo "$(date +%s.%N) - $t0" | bc)
    case $status in
      137) what="killed after ${delay}s" ;;
      0)
        what="the build had finished, in ${took}s"
        full=$took # the machine is faster now: kill sooner
        ;;
      *) echo "FAIL: trial $trial, round $i: the build failed (exit $status)" >&2; exit 1 ;;
    esac
    stored=0
    if [ -d "$work/killed" ]; then
      # What the kill left is the store (every commit whole) and leftovers
      # (a killed compaction's output, an ingestion not committed): check
      # must find no damage and no loss.
      if ! "$work/bookquery" -db "$work/killed" check >"$work/check.out" 2>&1; then
        cat "$work/check.out" >&2
        echo "FAIL: trial $trial, round $i: check after the kill" >&2
        exit 1
      fi
      stored=$(sed -n 's/^metadata: \([0-9]*\) games counted.*/\1/p' "$work/check.out")
    fi
    rounds=$((rounds + 1))
    if [ "$status" = 137 ] && [ "${stored:-0}" -gt 0 ] && [ "${stored:-0}" -lt "$refgames" ]; then
      midway=$((midway + 1))
    fi
    echo "trial $trial, round $i: $what; ${stored:-0} games in the store"
  done
  build "$work/killed" >"$work/killed.out"
  "$work/bookquery" -db "$work/killed" check >"$work/check.out" 2>&1 ||
    { echo "FAIL: trial $trial: the store does not pass check after the final run:" >&2; tail -3 "$work/check.out" >&2; exit 1; }
  got=$(dump "$work/killed")
  games=$(sed -n 's/.*, \([0-9]*\) games in all.*/\1/p' "$work/killed.out")
  echo "trial $trial: after $kills kills and a final run: $games games, dump $(echo $got)"
  if [ "$got" != "$ref" ] || [ "$games" != "$refgames" ]; then
    echo "FAIL: trial $trial: the interrupted build differs from the uninterrupted one" >&2
    failed=$((failed + 1))
  elif [ -n "$ref_book" ] && [ "$(exported "$work/killed")" != same ]; then
    echo "FAIL: trial $trial: the export differs from $ref_book" >&2
    failed=$((failed + 1))
  fi
done
if [ "$midway" = 0 ]; then
  echo "note: no kill landed between two commits: with these flags and input the build commits once, at its end (-mem 256 is the least the CLI takes; book's TestKilledBuildsEqualMakeBook kills builds of a 16 MiB table that commit a dozen times)" >&2
fi
if [ "$failed" -gt 0 ]; then
  echo "FAIL: $failed of $trials trials differ ($midway of $rounds rounds killed with part of the games committed)" >&2
  exit 1
fi
echo "OK: $trials trials of $kills kills ($midway of $rounds rounds killed with part of the games committed), identical statistics and games${ref_book:+, exports equal to $(basename "$ref_book")}"
