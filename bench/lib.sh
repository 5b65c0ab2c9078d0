# bench/lib.sh: what the benchmark scripts share. Source it after setting
# root, input, repeat and cache; it installs the tools, defines
# decompress/measure/field/size, and makes $clean: the input as plain PGN,
# cleaned by pgn-extract (PolyGlot aborts at the first illegal move).
export PATH=$PATH:/usr/games
for tool in polyglot pgn-extract zstd /usr/bin/time; do
  command -v "$tool" >/dev/null 2>&1 || {
    echo "installing polyglot pgn-extract zstd time (apt-get)" >&2
    apt-get install -y -qq polyglot pgn-extract zstd time >/dev/null
    break
  }
done
mkdir -p "$cache/bin"

decompress() {
  case "$1" in
    *.zst) zstd -dc "$1" ;;
    *.gz) gzip -dc "$1" ;;
    *.bz2) bzip2 -dc "$1" ;;
    *) cat "$1" ;;
  esac
}

clean=$cache/$(basename "$input" | sed 's/\.\(zst\|gz\|bz2\)$//; s/\.pgn$//')-clean.pgn
if [ ! -s "$clean" ]; then
  echo "preparing $clean with pgn-extract (once)" >&2
  decompress "$input" | pgn-extract -s --nosetuptags -o "$clean" 2>/dev/null
fi

# measure NAME CMD...: runs CMD $repeat times (a fresh $cache/NAME.db each
# time, made by the function named in $setup if set, else removed) and
# prints "median_seconds max_rss_kib". Output goes to $cache/NAME.out,
# errors to $cache/NAME.err.
measure() {
  local name=$1; shift
  local times=() rss=0 out
  for ((i = 0; i < repeat; i++)); do
    rm -rf "$cache/$name.db"
    if [ -n "${setup:-}" ]; then "$setup" "$cache/$name.db"; fi
    /usr/bin/time -o "$cache/$name.time" -f '%e %M' "$@" >"$cache/$name.out" 2>"$cache/$name.err" ||
      { echo "$name failed: $(tail -3 "$cache/$name.err")" >&2; exit 1; }
    out=$(tail -1 "$cache/$name.time")
    times+=("${out% *}")
    [ "${out#* }" -gt "$rss" ] && rss=${out#* }
  done
  printf '%s %s\n' "$(printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')" "$rss"
}

# field NAME LABEL: the number after "LABEL:" in $cache/NAME.out.
field() { sed -n "s/^$2: *\([0-9]*\).*/\1/p" "$cache/$1.out" | head -1; }

# size PATH: bytes of a file or directory.
size() { du -sb "$1" | cut -f1; }
