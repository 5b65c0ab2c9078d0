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
