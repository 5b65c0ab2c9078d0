#!/usr/bin/env bash
# bench/export.sh: Polyglot export speed and peak memory, next to PolyGlot's
# make-book, on the same file in the same run.
#
#   bench/export.sh [INPUT]     default: ../shared/data/large/pgnmentor_players_239files.pgn.zst
#   REPEAT=3 SCALE=10 bench/export.sh
#   SCALE=0 bench/export.sh ../shared/data/medium/...   (the 1x rows only)
#
# Rows:
#   - pgn-extract cleaning the input (PolyGlot aborts at the first illegal
#     move), then polyglot make-book -max-ply 1024 on the cleaned file;
#   - bookbuild doing make-book's work (-count occurrence -keep-duplicates
#     -max-ply 1024) on the cleaned file, then bookquery export of that
#     store: its book must be byte-identical to make-book's (cmp);
#   - the same from the original input (no cleaning), end to end;
#   - with SCALE > 0: SCALE copies of the input (made distinct by their
#     Round tag, written once, untimed) built the same way and exported,
#     to show that the export's peak RSS does not grow with the store.
# Times are medians of REPEAT runs, RSS the largest; quote the ratios, which
# are measured in the same run on the same file.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
input=${1:-$root/../shared/data/large/pgnmentor_players_239files.pgn.zst}
repeat=${REPEAT:-3}
scale=${SCALE:-0}
cache=${BENCH_CACHE:-${TMPDIR:-/tmp}/chessbook-bench}
. "$root/bench/lib.sh"
bin=$cache/bin/export
(cd "$root" && go build -o "$bin/" ./cmd/bookbuild ./cmd/bookquery)
bb=$bin/bookbuild bq=$bin/bookquery

games=$(grep -c '^\[Event ' "$clean")
echo "input: $input ($(size "$input") bytes); cleaned: $games games; $(nproc) cores; repeat=$repeat"
echo
printf "%-58s %8s %8s %12s\n" run seconds RSS_MiB output_MiB
row() { # name seconds rss_kib output_bytes
  awk -v n="$1" -v t="$2" -v r="$3" -v o="$4" 'BEGIN { printf "%-58s %8.2f %8.0f %12.1f\n", n, t, r/1024, o/1048576 }'
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a/b }'; }
sum() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a+b }'; }

read -r t_clean rss_clean < <(measure ex-clean sh -c 'case "$1" in *.zst) zstd -dc "$1";; *) cat "$1";; esac | pgn-extract -s --nosetuptags -o "$2" 2>/dev/null' sh "$input" "$cache/ex-clean.pgn")
row "pgn-extract cleaning" "$t_clean" "$rss_clean" "$(size "$cache/ex-clean.pgn")"
rm -f "$cache/ex-clean.pgn"
read -r t_mb rss_mb < <(measure ex-mb polyglot make-book -max-ply 1024 -pgn "$clean" -bin "$cache/ex-mb.bin")
row "polyglot make-book -max-ply 1024 (cleaned)" "$t_mb" "$rss_mb" "$(size "$cache/ex-mb.bin")"

same=(-progress none -count occurrence -keep-duplicates -max-ply 1024)
# The export rows read the store their build row left (the last of
# REPEAT builds); measure's fresh NAME.db is not used by them.
read -r t_bb rss_bb < <(measure ex-bb "$bb" -db "$cache/ex-bb.db" "${same[@]}" "$clean")
row "bookbuild, make-book's work (cleaned)" "$t_bb" "$rss_bb" "$(du -s -B1 "$cache/ex-bb.db" | cut -f1)"
read -r t_ex rss_ex < <(measure ex-export "$bq" -db "$cache/ex-bb.db" export -q -o "$cache/ex-export.bin")
row "bookquery export of it" "$t_ex" "$rss_ex" "$(size "$cache/ex-export.bin")"
if cmp -s "$cache/ex-mb.bin" "$cache/ex-export.bin"; then same_book=identical; else same_book=DIFFERENT; fi

read -r t_bz rss_bz < <(measure ex-bbz "$bb" -db "$cache/ex-bbz.db" "${same[@]}" "$input")
row "bookbuild, make-book's work (original input)" "$t_bz" "$rss_bz" "$(du -s -B1 "$cache/ex-bbz.db" | cut -f1)"
read -r t_exz rss_exz < <(measure ex-exportz "$bq" -db "$cache/ex-bbz.db" export -q -o "$cache/ex-exportz.bin")
row "bookquery export of it" "$t_exz" "$rss_exz" "$(size "$cache/ex-exportz.bin")"

if [ "$scale" -gt 0 ]; then
  xin=$cache/$(basename "$clean" .pgn)-x$scale.pgn # not build.sh's copies (made from the original input)
  if [ ! -s "$xin" ]; then
    echo "writing $scale copies of the input to $xin (once)" >&2
    for ((i = 0; i < scale; i++)); do sed "s/^\[Round \"/[Round \"copy$i./" "$clean"; done >"$xin"
  fi
  saved=$repeat; repeat=1
  read -r t_bx rss_bx < <(measure ex-bbx "$bb" -db "$cache/ex-bbx.db" "${same[@]}" "$xin")
  row "bookbuild, make-book's work, ${scale}x the input" "$t_bx" "$rss_bx" "$(du -s -B1 "$cache/ex-bbx.db" | cut -f1)"
  read -r t_exx rss_exx < <(measure ex-exportx "$bq" -db "$cache/ex-bbx.db" export -q -o "$cache/ex-exportx.bin")
  row "bookquery export of it" "$t_exx" "$rss_exx" "$(size "$cache/ex-exportx.bin")"
  repeat=$saved
fi

echo
echo "export / make-book (cleaned):                    $(ratio "$t_ex" "$t_mb") (must <= 0.50)"
echo "build + export / make-book (cleaned):            $(ratio "$(sum "$t_bb" "$t_ex")" "$t_mb")"
echo "end to end, original input: build + export $(sum "$t_bz" "$t_exz") s vs pgn-extract + make-book $(sum "$t_clean" "$t_mb") s ($(ratio "$(sum "$t_bz" "$t_exz")" "$(sum "$t_clean" "$t_mb")"))"
echo "export peak RSS:                                 $((rss_ex / 1024)) MiB, original input $((rss_exz / 1024)) MiB (must <= 1024)"
if [ "$scale" -gt 0 ]; then
  echo "export peak RSS, 1x vs ${scale}x:                      $((rss_ex / 1024)) MiB vs $((rss_exx / 1024)) MiB (must <= 1024)"
fi
echo "exported book vs make-book's .bin:               $same_book"
[ "$same_book" = identical ]
