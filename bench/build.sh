#!/usr/bin/env bash
# bench/build.sh: book building speed, peak memory and size, next to
# PolyGlot's make-book, on the same file in the same run.
#
#   bench/build.sh [INPUT]      default: ../shared/data/large/pgnmentor_players_239files.pgn.zst
#   REPEAT=3 SCALE=10 bench/build.sh
#
# Rows:
#   - polyglot make-book -max-ply 1024, and -max-ply 40, on the input cleaned
#     by pgn-extract (PolyGlot aborts at the first illegal move);
#   - bookbuild with the same work (-count occurrence, same -max-ply) on the
#     same cleaned file, and on the original .zst (bad games skipped);
#   - bookbuild with its defaults;
#   - bookbuild on SCALE copies of the input streamed through stdin, to show
#     that peak RSS does not grow with the input.
# Times are medians of REPEAT runs, RSS the largest; quote the ratios.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
input=${1:-$root/../shared/data/large/pgnmentor_players_239files.pgn.zst}
repeat=${REPEAT:-3}
scale=${SCALE:-10}
cache=${BENCH_CACHE:-${TMPDIR:-/tmp}/chessbook-bench}
. "$root/bench/lib.sh"
(cd "$root" && go build -o "$cache/bin/" ./cmd/bookbuild)
bb=$cache/bin/bookbuild

games=$(grep -c '^\[Event ' "$clean")
echo "input: $input ($(size "$input") bytes); cleaned: $games games, $(size "$clean") bytes; $(nproc) cores; repeat=$repeat"
echo
printf "%-52s %9s %8s %9s %8s %12s\n" run games seconds games/s RSS_MiB output_MiB
row() { # name games seconds rss_kib output_bytes
  awk -v n="$1" -v g="$2" -v t="$3" -v r="$4" -v o="$5" 'BEGIN { printf "%-52s %9d %8.2f %9.0f %8.0f %12.1f\n", n, g, t, g/t, r/1024, o/1048576 }'
}

read -r t_pg rss_pg < <(measure pg polyglot make-book -max-ply 1024 -pgn "$clean" -bin "$cache/pg.bin")
row "polyglot make-book -max-ply 1024" "$games" "$t_pg" "$rss_pg" "$(size "$cache/pg.bin")"
read -r t_pg40 rss_pg40 < <(measure pg40 polyglot make-book -max-ply 40 -pgn "$clean" -bin "$cache/pg40.bin")
row "polyglot make-book -max-ply 40" "$games" "$t_pg40" "$rss_pg40" "$(size "$cache/pg40.bin")"

read -r t_bb rss_bb < <(measure bb "$bb" -db "$cache/bb.db" -q -count occurrence -max-ply 1024 "$clean")
row "bookbuild -count occurrence -max-ply 1024 (cleaned)" "$(field bb 'games ingested')" "$t_bb" "$rss_bb" "$(size "$cache/bb.db")"
read -r t_bb40 rss_bb40 < <(measure bb40 "$bb" -db "$cache/bb40.db" -q -count occurrence -max-ply 40 "$clean")
row "bookbuild -count occurrence -max-ply 40 (cleaned)" "$(field bb40 'games ingested')" "$t_bb40" "$rss_bb40" "$(size "$cache/bb40.db")"
read -r t_zst rss_zst < <(measure zst "$bb" -db "$cache/zst.db" -q -count occurrence -max-ply 1024 "$input")
row "bookbuild -count occurrence, original .zst" "$(field zst 'games ingested')" "$t_zst" "$rss_zst" "$(size "$cache/zst.db")"
read -r t_def rss_def < <(measure def "$bb" -db "$cache/def.db" -q "$input")
row "bookbuild (defaults), original .zst" "$(field def 'games ingested')" "$t_def" "$rss_def" "$(size "$cache/def.db")"
saved=$repeat; repeat=1
read -r t_x rss_x < <(measure x "$bb" -db "$cache/x.db" -q -progress none - < <(for ((i = 0; i < scale; i++)); do decompress "$input"; done))
repeat=$saved
row "bookbuild (defaults), ${scale}x the input via stdin" "$(field x 'games ingested')" "$t_x" "$rss_x" "$(size "$cache/x.db")"
echo
awk -v pg="$t_pg" -v bb="$t_bb" -v pg40="$t_pg40" -v bb40="$t_bb40" -v r1="$rss_def" -v rx="$rss_x" -v s="$scale" 'BEGIN {
  printf "bookbuild vs polyglot, -max-ply 1024: %.2fx games/s\n", pg/bb
  printf "bookbuild vs polyglot, -max-ply 40:   %.2fx games/s\n", pg40/bb40
  printf "peak RSS, 1x vs %dx input:            %.0f MiB vs %.0f MiB\n", s, r1/1024, rx/1024
}'
echo "input .pgn.zst: $(size "$input") bytes; polyglot .bin (-max-ply 1024): $(size "$cache/pg.bin") bytes; our store (defaults): $(size "$cache/def.db") bytes"
