#!/usr/bin/env bash
# bench/replay.sh: replay speed and peak memory of our PGN replay, next to
# github.com/notnil/chess and PolyGlot's make-book, on the same file in the
# same run. Times are medians of REPEAT runs (these machines are shared and
# noisy); ratios are what to quote.
#
#   bench/replay.sh [INPUT]        default: ../shared/data/large/pgnmentor_players_239files.pgn.zst
#   REPEAT=5 NOTNIL_GAMES=20000 bench/replay.sh
#
# PolyGlot aborts on the first illegal move, so it gets the input cleaned by
# pgn-extract (which drops games with illegal moves); we replay that same
# cleaned file, and the original compressed file as well.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
input=${1:-$root/../shared/data/large/pgnmentor_players_239files.pgn.zst}
repeat=${REPEAT:-3}
notnil_games=${NOTNIL_GAMES:-20000}
cache=${BENCH_CACHE:-${TMPDIR:-/tmp}/chessbook-bench}
. "$root/bench/lib.sh"
(cd "$root" && go build -o "$cache/bin/" ./cmd/bookbuild ./bench/notnilreplay)

echo "input: $input ($(stat -c %s "$input") bytes); cleaned copy: $clean ($(stat -c %s "$clean") bytes)"
echo "machine: $(nproc) cores; repeat=$repeat (median time, max RSS)"
echo

read -r t_ours_zst rss_ours_zst < <(measure ours_zst "$cache/bin/bookbuild" -progress none "$input")
games_zst=$(field ours_zst "games read"); plies_zst=$(field ours_zst "plies replayed")
read -r t_ours rss_ours < <(measure ours "$cache/bin/bookbuild" -progress none "$clean")
games=$(field ours "games replayed"); plies=$(field ours "plies replayed")
read -r t_ours1 rss_ours1 < <(measure ours_1core "$cache/bin/bookbuild" -progress none -workers 1 "$clean")
read -r t_pg rss_pg < <(measure polyglot polyglot make-book -max-ply 1024 -pgn "$clean" -bin "$cache/polyglot.bin")
saved=$repeat; repeat=1
read -r t_nn rss_nn < <(measure notnil "$cache/bin/notnilreplay" -limit "$notnil_games" "$clean")
repeat=$saved
nn_line=$(cat "$cache/notnil.out")
nn_games=$(echo "$nn_line" | awk '{print $2}'); nn_plies=$(echo "$nn_line" | awk '{print $4}')

row() { # name games plies seconds rss_kib
  awk -v n="$1" -v g="$2" -v p="$3" -v t="$4" -v r="$5" 'BEGIN {
    printf "%-34s %9d %11d %8.2f %11.0f %12.0f %8.0f\n", n, g, p, t, g/t, p/t, r/1024 }'
}
printf "%-34s %9s %11s %8s %11s %12s %8s\n" tool games plies seconds games/s plies/s RSS_MiB
row "ours, .zst input, all cores" "$games_zst" "$plies_zst" "$t_ours_zst" "$rss_ours_zst"
row "ours, cleaned .pgn, all cores" "$games" "$plies" "$t_ours" "$rss_ours"
row "ours, cleaned .pgn, 1 worker" "$games" "$plies" "$t_ours1" "$rss_ours1"
row "polyglot make-book -max-ply 1024" "$games" "$plies" "$t_pg" "$rss_pg"
row "notnil/chess (first $notnil_games games)" "$nn_games" "$nn_plies" "$t_nn" "$rss_nn"
echo
awk -v a="$t_ours" -v a1="$t_ours1" -v pg="$t_pg" -v p="$plies" -v np="$nn_plies" -v nt="$t_nn" 'BEGIN {
  printf "ours (all cores) vs polyglot make-book: %.1fx games/s\n", pg/a
  printf "ours (all cores) vs notnil/chess:       %.0fx plies/s\n", (p/a)/(np/nt)
  printf "ours (1 worker)  vs notnil/chess:       %.0fx plies/s\n", (p/a1)/(np/nt)
}'
