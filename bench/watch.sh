#!/usr/bin/env bash
# bench/watch.sh: how fast `threefold watch --once --json FILE` takes a PGN
# file into the default store (SQLite in a fresh data_dir, every alert
# stored before it is written), at HEAD and at another commit (BASE, built
# in a temporary worktree), on the first 2,000 and 8,000 games of the
# shared corpus, on all of it and on all of it gzip-compressed (gz). The
# two binaries run alternately, RUNS times each; the table gives the
# median CPU time (user + system), the wall time and maximum resident
# memory of that run, plies per CPU-second and per second of wall time,
# and HEAD's CPU time over BASE's. When the sizes include 8000 and all, a
# last line compares the two: the CPU time of the whole corpus over that of
# its first 8,000 games, against the same ratio of plies (linear in the
# games: about the same; the later games of the corpus carry more text a
# ply, comments and clocks, so a few per cent more a ply is their content).
# Each run's alerts on stdout are counted against the alerts table, so a
# run that lost one fails. The machine's load is printed: on a shared
# machine the wall times mean little and the CPU times more.
#
# Usage: bench/watch.sh [CORPUS_DIR]
#   CORPUS_DIR holds pgn/corpus.pgn.gz (default $THREEFOLD_CORPUS, else ../shared/data)
#   RUNS=3 BASE=<git ref, default 56949bf: main before issue 18's second round> SIZES="2000 8000 all gz"
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=bench/lib.sh
. bench/lib.sh
bench_corpus "${1:-}"
runs=${RUNS:-3}
base=${BASE:-56949bf}
sizes=${SIZES:-2000 8000 all gz}
command -v sqlite3 >/dev/null || { echo "bench/watch.sh: needs sqlite3 (apt-get install sqlite3)" >&2; exit 2; }

bench_setup
mv "$tmp/threefold-head" "$tmp/HEAD"
mv "$tmp/threefold-base" "$tmp/BASE"
mv "$tmp/corpus.pgn" "$tmp/all.pgn"

# once BIN FILE: one watch --once into a fresh data_dir; appends
# "cpu wall rss" to $tmp/BIN.times, fails if an alert written is not stored.
once() {
  local bin=$1 file=$2 data
  data=$(mktemp -d "$tmp/data.XXXXXX")
  echo "data_dir: $data" >"$data/c.yaml"
  /usr/bin/time -f "%U %S %e %M" -o "$tmp/t" "$tmp/$bin" watch --once --json --config "$data/c.yaml" "$file" >"$data/out" 2>"$data/err"
  local written stored
  written=$(wc -l <"$data/out")
  stored=$(sqlite3 "$data/threefold.db" 'SELECT COUNT(*) FROM alerts')
  if [ "$written" != "$stored" ]; then
    echo "bench/watch.sh: $bin on $file wrote $written alerts but stored $stored" >&2
    exit 1
  fi
  awk '{printf "%.2f %.2f %.0f\n", $1 + $2, $3, $4 / 1024}' "$tmp/t" >>"$tmp/$bin.times"
  echo "$written" >"$tmp/alerts"
  rm -rf "$data"
}

# median BIN: "cpu wall rss" of the run with the median CPU time.
median() {
  sort -n "$tmp/$1.times" | awk -v n="$runs" 'NR == int((n + 1) / 2)'
}

printf '%-6s %-8s %9s %8s %7s %7s %7s %7s %12s %13s %10s\n' input games plies alerts binary "cpu s" "wall s" "RSS MB" "plies/cpu-s" "plies/wall-s" "HEAD/BASE"
for size in $sizes; do
  file="$tmp/all.pgn"
  if [ "$size" = gz ]; then
    file=$gz
  elif [ "$size" != all ]; then
    file="$tmp/first$size.pgn"
    awk -v n="$size" '/^\[Event /{c++} c > n {exit} {print}' "$tmp/all.pgn" >"$file"
  fi
  read -r games plies < <("$tmp/HEAD" scan "$file" 2>&1 >/dev/null | sed -n 's/^\([0-9,]*\) games, \([0-9,]*\) plies.*/\1 \2/p' | tr -d ,)
  rm -f "$tmp/HEAD.times" "$tmp/BASE.times"
  for ((i = 0; i < runs; i++)); do
    once BASE "$file"
    once HEAD "$file"
  done
  read -r base_cpu base_wall base_rss < <(median BASE)
  read -r head_cpu head_wall head_rss < <(median HEAD)
  declare "cpu_${size}_HEAD=$head_cpu" "cpu_${size}_BASE=$base_cpu" "plies_${size}=$plies"
  for row in "BASE $base_cpu $base_wall $base_rss" "HEAD $head_cpu $head_wall $head_rss"; do
    read -r bin cpu wall rss <<<"$row"
    printf '%-6s %-8s %9s %8s %7s %7s %7s %7s %12.0f %13.0f %10s\n' "$size" "$games" "$plies" "$(cat "$tmp/alerts")" "$bin" "$cpu" "$wall" "$rss" \
      "$(echo "$plies / $cpu" | bc -l)" "$(echo "$plies / $wall" | bc -l)" "$([ "$bin" = HEAD ] && printf '%.2f' "$(echo "$head_cpu / $base_cpu" | bc -l)")"
  done
done
if [ -n "${plies_8000:-}" ] && [ -n "${plies_all:-}" ]; then
  for bin in HEAD BASE; do
    small="cpu_8000_$bin" whole="cpu_all_$bin"
    printf 'all/8000 %s: %.2fx the CPU for %.2fx the plies (%.2fx a ply)\n' "$bin" \
      "$(echo "${!whole} / ${!small}" | bc -l)" "$(echo "$plies_all / $plies_8000" | bc -l)" \
      "$(echo "(${!whole} / ${!small}) / ($plies_all / $plies_8000)" | bc -l)"
  done
fi
echo "BASE $base, HEAD $(git rev-parse --short HEAD); $runs runs each, the median by CPU time; $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg)"
