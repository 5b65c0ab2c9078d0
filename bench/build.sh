#!/usr/bin/env bash
# bench/build.sh: book building speed, peak memory and size, next to
# PolyGlot's make-book, on the same file in the same run.
#
#   bench/build.sh [INPUT]      default: ../shared/data/large/pgnmentor_players_239files.pgn.zst
#   REPEAT=3 SCALE=10 ADD=medium.pgn.zst PROJECT=lichess_10k.pgn.zst bench/build.sh
#   SCALE=0 ADD= PROJECT= bench/build.sh ../shared/data/medium/...   (the speed rows only)
#
# Rows:
#   - polyglot make-book -max-ply 1024, and -max-ply 40, on the input cleaned
#     by pgn-extract (PolyGlot aborts at the first illegal move);
#   - bookbuild doing make-book's work (-count occurrence -keep-duplicates,
#     same -max-ply; games are stored too) on the same cleaned file, and on
#     the original compressed input (bad games skipped);
#   - bookbuild with its defaults (deduplicated, game database, refs);
#   - bookbuild on SCALE copies of the input streamed through stdin (from
#     a file written once, untimed), each copy's games made distinct by
#     their Round tag, to show that peak RSS and games/s do not depend on
#     the input's size;
#   - ADD (games that are not in the input: lichess_10k by default; the world
#     champions are all in the players corpus) added to a store of the input,
#     against ADD built alone;
#   - PROJECT (lichess games, with clock comments) built with defaults: its
#     games/s projects the hours a lichess month of 100 M games takes here.
# Times are medians of REPEAT runs, RSS the largest; quote the ratios, which
# are measured in the same run on the same file. Store sizes are what du
# counts (blocks on disk), as bookbuild's summary reports them; files (the
# input, PolyGlot's .bin) are their sizes.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
input=${1:-$root/../shared/data/large/pgnmentor_players_239files.pgn.zst}
repeat=${REPEAT:-3}
scale=${SCALE:-10}
add=${ADD-$root/../shared/data/medium/lichess_10k.pgn.zst}
project=${PROJECT-$root/../shared/data/medium/lichess_10k.pgn.zst}
cache=${BENCH_CACHE:-${TMPDIR:-/tmp}/chessbook-bench}
. "$root/bench/lib.sh"
(cd "$root" && go build -o "$cache/bin/" ./cmd/bookbuild)
bb=$cache/bin/bookbuild

games=$(grep -c '^\[Event ' "$clean")
zstd3=$(decompress "$input" | zstd -3 -q -c | wc -c)
echo "input: $input ($(size "$input") bytes, $zstd3 bytes under zstd -3); cleaned: $games games, $(size "$clean") bytes; $(nproc) cores; repeat=$repeat"
echo "ADD: ${add:-none}; PROJECT: ${project:-none}"
echo
printf "%-58s %9s %8s %9s %8s %12s\n" run games seconds games/s RSS_MiB output_MiB
row() { # name games seconds rss_kib output_bytes
  awk -v n="$1" -v g="$2" -v t="$3" -v r="$4" -v o="$5" 'BEGIN { printf "%-58s %9d %8.2f %9.0f %8.0f %12.1f\n", n, g, t, g/t, r/1024, o/1048576 }'
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a/b }'; }
# blocks DIR: the bytes a store takes on disk, as du counts them (its files'
# blocks, not their apparent sizes: what bookbuild's summary reports).
blocks() { du -s -B1 "$1" | cut -f1; }

read -r t_pg rss_pg < <(measure pg polyglot make-book -max-ply 1024 -pgn "$clean" -bin "$cache/pg.bin")
row "polyglot make-book -max-ply 1024" "$games" "$t_pg" "$rss_pg" "$(size "$cache/pg.bin")"
read -r t_pg40 rss_pg40 < <(measure pg40 polyglot make-book -max-ply 40 -pgn "$clean" -bin "$cache/pg40.bin")
row "polyglot make-book -max-ply 40" "$games" "$t_pg40" "$rss_pg40" "$(size "$cache/pg40.bin")"

same=(-progress none -count occurrence -keep-duplicates)
read -r t_bb rss_bb < <(measure bb "$bb" -db "$cache/bb.db" "${same[@]}" -max-ply 1024 "$clean")
row "bookbuild, make-book's work, -max-ply 1024 (cleaned)" "$(field bb 'games stored')" "$t_bb" "$rss_bb" "$(blocks "$cache/bb.db")"
read -r t_bb40 rss_bb40 < <(measure bb40 "$bb" -db "$cache/bb40.db" "${same[@]}" -max-ply 40 "$clean")
row "bookbuild, make-book's work, -max-ply 40 (cleaned)" "$(field bb40 'games stored')" "$t_bb40" "$rss_bb40" "$(blocks "$cache/bb40.db")"
read -r t_zst rss_zst < <(measure zst "$bb" -db "$cache/zst.db" "${same[@]}" -max-ply 1024 "$input")
row "bookbuild, make-book's work, original input" "$(field zst 'games stored')" "$t_zst" "$rss_zst" "$(blocks "$cache/zst.db")"
read -r t_def rss_def < <(measure def "$bb" -db "$cache/def.db" -progress none "$input")
n_def=$(field def 'games stored')
row "bookbuild (defaults), original input" "$n_def" "$t_def" "$rss_def" "$(blocks "$cache/def.db")"

if [ "$scale" -gt 0 ]; then
  saved=$repeat; repeat=1
  # The copies are written once to a file (not timed): generating them
  # while the build runs would have sed and zstd take a share of the two
  # cores the build is measured on.
  xin=$cache/$(basename "$clean" -clean.pgn)-x$scale.pgn
  if [ ! -s "$xin" ]; then
    echo "preparing $xin (once)" >&2
    for ((i = 0; i < scale; i++)); do decompress "$input" | sed "s/^\[Round \"/[Round \"copy$i./"; done >"$xin"
  fi
  read -r t_x rss_x < <(measure x "$bb" -db "$cache/x.db" -progress none - <"$xin")
  repeat=$saved
  n_x=$(field x 'games stored')
  row "bookbuild (defaults), ${scale}x the input, distinct, stdin" "$n_x" "$t_x" "$rss_x" "$(blocks "$cache/x.db")"
fi

if [ -n "$add" ]; then
  read -r t_alone rss_alone < <(measure alone "$bb" -db "$cache/alone.db" -progress none "$add")
  row "bookbuild (defaults), ADD alone" "$(field alone 'games stored')" "$t_alone" "$rss_alone" "$(blocks "$cache/alone.db")"
  copy_def() { cp -r "$cache/def.db" "$1"; }
  read -r t_added rss_added < <(setup=copy_def measure added "$bb" -db "$cache/added.db" -progress none "$add")
  row "bookbuild (defaults), ADD added to the input's store" "$(field added 'games stored')" "$t_added" "$rss_added" "$(blocks "$cache/added.db")"
fi

if [ -n "$project" ]; then
  read -r t_proj rss_proj < <(measure proj "$bb" -db "$cache/proj.db" -progress none "$project")
  n_proj=$(field proj 'games stored')
  row "bookbuild (defaults), PROJECT" "$n_proj" "$t_proj" "$rss_proj" "$(blocks "$cache/proj.db")"
fi

echo
echo "bookbuild vs polyglot make-book, same work, -max-ply 1024: $(ratio "$t_pg" "$t_bb")x (must >= 3, goal 10)"
echo "bookbuild vs polyglot make-book, same work, -max-ply 40:   $(ratio "$t_pg40" "$t_bb40")x"
echo "bookbuild defaults vs make-book -max-ply 1024:             $(ratio "$t_pg" "$t_def")x (must >= 2.5, goal 6)"
echo "store with defaults vs input under zstd -3:                $(ratio "$(blocks "$cache/def.db")" "$zstd3")x (must <= 5, goal 2.5); polyglot .bin $(size "$cache/pg.bin") bytes"
if [ "$scale" -gt 0 ]; then
  echo "peak RSS, 1x vs ${scale}x input:                           $((rss_def / 1024)) MiB vs $((rss_x / 1024)) MiB (must <= 1024)"
  awk -v a="$n_def" -v ta="$t_def" -v b="$n_x" -v tb="$t_x" -v s="$scale" 'BEGIN { printf "games/s, %dx vs 1x:                                     %.2f (must >= 0.8)\n", s, (b/tb)/(a/ta) }'
fi
if [ -n "$add" ]; then
  echo "adding ADD to the input's store vs ADD alone:              $(ratio "$t_added" "$t_alone")x the time"
fi
if [ -n "$project" ]; then
  awk -v n="$n_proj" -v t="$t_proj" 'BEGIN { printf "projection, a lichess month of 100 M games at %.0f games/s: %.1f hours\n", n/t, 100e6/(n/t)/3600 }'
fi
