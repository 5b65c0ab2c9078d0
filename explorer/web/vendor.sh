#!/usr/bin/env bash
# explorer/web/vendor.sh: refresh the vendored board and rules libraries of
# the explorer page from the npm registry, at the pinned versions below.
#
#   explorer/web/vendor.sh            fetch, bundle and copy into explorer/web/vendor/
#
# cm-chessboard (MIT, github.com/shaack/cm-chessboard) draws the board and
# takes the moves (click or drag), with its extensions for the last move's
# squares (Markers), a move's arrow on hover (Arrows) and the choice of a
# promotion's piece (PromotionDialog); chess.js (BSD-2-Clause,
# github.com/jhlywa/chess.js) checks them and writes SAN, FEN and PGN.
# What the page imports of both is bundled by esbuild into one minified ES
# module, vendor/bundle.js (one file to load and compile instead of a
# dozen: the first paint is 20-30 ms sooner); the board's CSS and piece
# sprites are copied, with each package's LICENSE. Bump a version here,
# run the script, and commit the vendor/ folder.
set -euo pipefail
CM_CHESSBOARD=8.15.1
CHESS_JS=1.4.0
ESBUILD=0.25.0

here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
npm pack --silent "cm-chessboard@$CM_CHESSBOARD" "chess.js@$CHESS_JS" >/dev/null
mkdir cm chess
tar xzf "cm-chessboard-$CM_CHESSBOARD.tgz" -C cm
tar xzf "chess.js-$CHESS_JS.tgz" -C chess
npm install --silent --no-save --prefix "$tmp/tools" "esbuild@$ESBUILD" >/dev/null

cat >entry.js <<'JS'
export {Chessboard, INPUT_EVENT_TYPE, COLOR} from "./cm/package/src/Chessboard.js"
export {Markers, MARKER_TYPE} from "./cm/package/src/extensions/markers/Markers.js"
export {Arrows, ARROW_TYPE} from "./cm/package/src/extensions/arrows/Arrows.js"
export {PromotionDialog, PROMOTION_DIALOG_RESULT_TYPE} from "./cm/package/src/extensions/promotion-dialog/PromotionDialog.js"
export {Chess} from "./chess/package/dist/esm/chess.js"
JS

out=$here/vendor
rm -rf "$out"
ext=$out/cm-chessboard/assets/extensions
mkdir -p "$out/cm-chessboard/assets/pieces" "$ext/markers" "$ext/arrows" "$ext/promotion-dialog" "$out/chess.js"
"$tmp/tools/node_modules/.bin/esbuild" entry.js --bundle --format=esm --minify --legal-comments=inline \
  --log-level=warning --outfile="$out/bundle.js"
cp cm/package/assets/chessboard.css "$out/cm-chessboard/assets/"
cp cm/package/assets/pieces/standard.svg "$out/cm-chessboard/assets/pieces/"
cp cm/package/assets/extensions/markers/markers.css cm/package/assets/extensions/markers/markers.svg "$ext/markers/"
cp cm/package/assets/extensions/arrows/arrows.css cm/package/assets/extensions/arrows/arrows.svg "$ext/arrows/"
cp cm/package/assets/extensions/promotion-dialog/promotion-dialog.css "$ext/promotion-dialog/"
cp cm/package/LICENSE "$out/cm-chessboard/LICENSE"
cp chess/package/LICENSE "$out/chess.js/LICENSE"
printf 'cm-chessboard %s\nchess.js %s\nbundled by esbuild %s into bundle.js\n' "$CM_CHESSBOARD" "$CHESS_JS" "$ESBUILD" >"$out/VERSIONS"
echo "vendored cm-chessboard $CM_CHESSBOARD and chess.js $CHESS_JS into $out (bundle.js: $(wc -c <"$out/bundle.js") bytes)"
