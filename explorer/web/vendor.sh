#!/usr/bin/env bash
# explorer/web/vendor.sh: refresh the vendored board and rules libraries of
# the explorer page from the npm registry, at the pinned versions below.
#
#   explorer/web/vendor.sh            fetch and copy into explorer/web/vendor/
#
# cm-chessboard (MIT, github.com/shaack/cm-chessboard) draws the board and
# takes the moves (click or drag); chess.js (BSD-2-Clause,
# github.com/jhlywa/chess.js) checks them and writes SAN, FEN and PGN. Only
# what the page loads is copied, with each package's LICENSE; bump a
# version here, run the script, and commit the vendor/ folder.
set -euo pipefail
CM_CHESSBOARD=8.15.1
CHESS_JS=1.4.0

here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
npm pack --silent "cm-chessboard@$CM_CHESSBOARD" "chess.js@$CHESS_JS" >/dev/null
mkdir cm chess
tar xzf "cm-chessboard-$CM_CHESSBOARD.tgz" -C cm
tar xzf "chess.js-$CHESS_JS.tgz" -C chess

out=$here/vendor
rm -rf "$out"
mkdir -p "$out/cm-chessboard/assets/pieces" "$out/cm-chessboard/assets/extensions/markers" "$out/cm-chessboard/src/extensions/markers" "$out/chess.js"
cp -r cm/package/src/Chessboard.js cm/package/src/lib cm/package/src/model cm/package/src/view "$out/cm-chessboard/src/"
cp cm/package/src/extensions/markers/Markers.js "$out/cm-chessboard/src/extensions/markers/"
cp cm/package/assets/chessboard.css "$out/cm-chessboard/assets/"
cp cm/package/assets/pieces/standard.svg "$out/cm-chessboard/assets/pieces/"
cp cm/package/assets/extensions/markers/markers.css cm/package/assets/extensions/markers/markers.svg "$out/cm-chessboard/assets/extensions/markers/"
cp cm/package/LICENSE "$out/cm-chessboard/LICENSE"
cp chess/package/dist/esm/chess.js "$out/chess.js/chess.js"
cp chess/package/LICENSE "$out/chess.js/LICENSE"
printf 'cm-chessboard %s\nchess.js %s\n' "$CM_CHESSBOARD" "$CHESS_JS" >"$out/VERSIONS"
echo "vendored cm-chessboard $CM_CHESSBOARD and chess.js $CHESS_JS into $out"
