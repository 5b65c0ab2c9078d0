#!/usr/bin/env bash
# Regenerates the reference outputs of testdata/reference with the external
# tools (Debian's polyglot 2.0.4 and pgn-extract, in /usr/games): the answers
# of the oracles on the repository's own slices of the shared data, which
# the default tests (go test ./...) compare with. The oracle tests
# (go test -tags oracle ./polyglot, TestReferenceOutputs) run this script
# into a temporary folder and check that it makes these files byte for byte.
#
# usage: testdata/reference/generate.sh [OUTDIR]   (default: testdata/reference)
set -euo pipefail
export PATH=$PATH:/usr/games
here=$(cd "$(dirname "$0")" && pwd)
td=$(dirname "$here")
out=${1:-$here}
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"

# PolyGlot's make-book on the champions' 500 games, with its defaults and
# with the settings of the shared corpus's second reference book.
polyglot make-book -pgn "$td/champions500.pgn" -bin "$out/champions500_makebook_default.bin" >/dev/null
polyglot make-book -pgn "$td/champions500.pgn" -bin "$out/champions500_makebook_maxply20_mingame1.bin" -max-ply 20 -min-game 1 >/dev/null

# The lichess slice: make-book aborts on games that start from a FEN, so,
# as for the shared lichess_10k reference book, pgn-extract drops them first.
zstd -dc "$td/lichess2k.pgn.zst" > lichess2k.pgn
pgn-extract --quiet --nosetuptags -o lichess2k_nosetup.pgn lichess2k.pgn 2>/dev/null
polyglot make-book -pgn lichess2k_nosetup.pgn -bin "$out/lichess2k_nosetup_makebook_default.bin" >/dev/null

# pgn-extract's positional match (-x) on the champions' games, for two lines
# (cmd/bookquery's TestPGNAgainstPGNExtract compares 'pgn' with them).
i=0
for line in "1. d4 d5 2. c4 e6 3. Nc3 Nf6" "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6"; do
  i=$((i + 1))
  printf '%s\n' "$line" > vars.txt
  pgn-extract -x vars.txt --quiet -o "$out/champions500_pgnextract_x_line$i.pgn" "$td/champions500.pgn" 2>/dev/null
done

# make-book on three games whose rooks go e1-c1 and e8-c8 (cmd/bookquery's
# TestProbeCheckOwnExport writes the same PGN).
for i in 1 2 3; do
  printf '[Event "E"]\n[Site "S"]\n[Date "2000.01.01"]\n[Round "%d"]\n[White "W%d"]\n[Black "B"]\n[Result "1/2-1/2"]\n\n' $i $((i - 1))
  printf '1. d4 d5 2. Nf3 Nf6 3. e3 e6 4. Bd3 Bd6 5. O-O O-O 6. Re1 Re8 7. Bd2 Bd7 8. Qe2 Qe7 9. Rc1 Rc8 1/2-1/2\n\n'
done > rooks.pgn
polyglot make-book -pgn rooks.pgn -bin "$out/rooks_makebook_default.bin" >/dev/null

# make-book on the games with a pinned en-passant capture, with -min-game 1
# and 3 (book/export's TestExportPinnedEnPassant).
for m in 1 3; do
  polyglot make-book -pgn "$td/ep_pinned.pgn" -bin "$out/ep_pinned_makebook_mingame$m.bin" -min-game $m >/dev/null
done

# make-book -min-game 1 on the 21,700 short games of book/export's
# halvingPGN, where PolyGlot halves the counts of the start position
# (TestExportHalvingExact writes the same PGN).
awk 'BEGIN {
  split("1-0 0-1 1/2-1/2 1-0 * 0-1 1-0", res, " ")
  for (i = 0; i < 21700; i++) {
    if (i < 2500) m = (i % 5 == 0) ? "e4 c5 2. Nf3" : "d4 d5 2. c4"
    else if (i < 19500) {
      if (i % 97 == 0) m = "d4 Nf6 2. c4"
      else if (i % 89 == 0) m = "c4 e5 2. Nc3"
      else if (i % 3 == 0) m = "e4 e5 2. Nf3"
      else m = "e4 c5 2. Nf3"
    } else m = (i % 2 == 0) ? "c4 e5 2. Nc3" : "c4 c5 2. g3"
    r = res[i % 7 + 1]
    printf "[Event \"g%d\"]\n[White \"W%d\"]\n[Black \"B\"]\n[Result \"%s\"]\n\n1. %s %s\n\n", i, i, r, m, r
  }
}' > halving.pgn
polyglot make-book -pgn halving.pgn -bin "$out/halving_makebook_mingame1.bin" -min-game 1 >/dev/null

# make-book on champions500 followed by its first 100 games again (1,702
# lines): the world champions' corpus repeats games as these 600 do (the
# merge tests, book/merge's default mergeData).
{ cat "$td/champions500.pgn"; head -n 1702 "$td/champions500.pgn"; } > champions600dup.pgn
polyglot make-book -pgn champions600dup.pgn -bin "$out/champions600dup_makebook_default.bin" >/dev/null
polyglot make-book -pgn champions600dup.pgn -bin "$out/champions600dup_makebook_maxply20_mingame1.bin" -max-ply 20 -min-game 1 >/dev/null
