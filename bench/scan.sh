#!/usr/bin/env bash
# bench/scan.sh: how fast `threefold scan --json` reads a PGN corpus, as
# ratios against the baselines measured in the same run on the same input:
#   - the threefold of another commit (BASE, built in a temporary worktree);
#   - pgn-extract --repetition (Debian: apt-get install pgn-extract), one
#     thread, on the decompressed text (it does not read gzip);
#   - notnil/chess, the Go chess library, through the go test benchmark
#     BenchmarkScan/first300 (it replays the first 300 games and counts
#     repetitions; its cost grows with the square of a game's length, so
#     it is measured on those games only, and so is threefold there);
#   - python-chess (pip install chess, or PYTHONPATH naming a folder that
#     holds its source tree's chess/ package: it is pure Python), parse +
#     replay + position key, on the first PYGAMES games, when it imports;
#     it is compared twice: with threefold on the same games (where
#     threefold's start-up weighs), and by rate with HEAD's gzip row on the
#     whole corpus (the issue's measure: plies a second against plies a
#     second, by wall and by CPU time);
#   - threefold on the same text compressed with zstd -3, when the zstd tool
#     is installed (the Lichess database is .pgn.zst);
#   - threefold at HEAD and at BASE on the same games written as the Lichess
#     database writes them (bench/lichess-shape.awk: a game's movetext on
#     one line, a clock comment after every move), compressed with zstd -3
#     (gzip without the zstd tool), and HEAD with one worker on it: the
#     throughput to size a scan of the Lichess database with.
# HEAD's gzip and zstd rows and BASE's gzip row are run by turns, so that
# they are measured alike on a machine whose speed drifts.
# Each command runs RUNS times; the table gives the median wall time, the
# CPU time (user + system) of that run, plies per second of wall time and
# of CPU time, and how many times faster threefold (HEAD, gzip input) is,
# by wall time and by CPU time. The machine's load is printed: on a shared
# machine the wall times mean little and the CPU times more.
#
# Usage: bench/scan.sh [CORPUS_DIR]
#   CORPUS_DIR holds pgn/corpus.pgn.gz (default $THREEFOLD_CORPUS, else ../shared/data)
#   RUNS=3 BASE=<git ref> PYGAMES=2000 WORKERS=<scan --workers, default all CPUs>
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=bench/lib.sh
. bench/lib.sh
bench_corpus "${1:-}"
runs=${RUNS:-3}
base=${BASE:-bfe0c74} # the last commit before issue 18's work
pygames=${PYGAMES:-2000}
workers=${WORKERS:-}
PATH="$PATH:/usr/games"

bench_setup

# measure NAME CMD...: runs CMD (stdout discarded, stderr kept) $runs times
# and prints "NAME<TAB>wall<TAB>cpu" of the median run.
measure() {
  local name=$1
  shift
  local i
  : >"$tmp/times"
  for ((i = 0; i < runs; i++)); do
    time_once "$tmp/times" "$@"
  done
  median_row "$name" "$tmp/times"
}

# by_turns NAME BIN FILE [NAME BIN FILE ...]: measure's rows for BIN scan --json of FILE, the commands run by
# turns (the first, the second, ..., the first again), so that the machine's speed, which drifts from
# minute to minute, falls alike on all of them: HEAD's gzip row is compared with its zstd row and with
# BASE's gzip row. The row of the i-th command (from 0) goes to "$tmp/turn$i".
by_turns() {
  local -a names bins files
  local i j n=0
  while [ $# -ge 3 ]; do
    names[n]=$1 bins[n]=$2 files[n]=$3
    : >"$tmp/times$n"
    n=$((n + 1))
    shift 3
  done
  for ((i = 0; i < runs; i++)); do
    for ((j = 0; j < n; j++)); do
      time_once "$tmp/times$j" "${bins[j]}" scan --json "${wflag[@]}" "${files[j]}"
    done
  done
  for ((j = 0; j < n; j++)); do
    median_row "${names[j]}" "$tmp/times$j" >"$tmp/turn$j"
  done
}

# time_once FILE CMD...: runs CMD once and appends "wall cpu" to FILE.
time_once() {
  local out=$1
  shift
  /usr/bin/time -f "%e %U %S" -o "$tmp/t" "$@" >/dev/null 2>"$tmp/stderr"
  awk '{printf "%s %.2f\n", $1, $2 + $3}' "$tmp/t" >>"$out"
}

# median_row NAME FILE: "NAME<TAB>wall<TAB>cpu" of the median (by wall time) of FILE's runs.
median_row() {
  sort -n "$2" | awk -v n="$runs" -v name="$1" 'NR == int((n + 1) / 2) {printf "%s\t%s\t%s\n", name, $1, $2}'
}

wflag=()
[ -n "$workers" ] && wflag=(--workers "$workers")
"$tmp/threefold-head" scan "$gz" 2>"$tmp/summary" >/dev/null
# The totals group digits ("59,915 games, 5,146,645 plies"): drop the commas between digits.
read -r games plies < <(sed -e 's/\([0-9]\),\([0-9]\)/\1\2/g' "$tmp/summary" | sed -n 's/^\([0-9]*\) games, \([0-9]*\) plies.*/\1 \2/p')

{
  # The Lichess database is zstd: the same text as the zstd tool writes it (level 3, its default), and
  # the same games as that database writes them (a clock comment after every move), run by turns with the
  # gzip file and with BASE.
  awk -f bench/lichess-shape.awk "$tmp/corpus.pgn" >"$tmp/shaped.pgn"
  if command -v zstd >/dev/null; then
    zstd -q -3 -c "$tmp/corpus.pgn" >"$tmp/corpus.pgn.zst"
    shaped=$tmp/shaped.pgn.zst
    zstd -q -3 -c "$tmp/shaped.pgn" >"$shaped"
    by_turns "threefold scan --json, HEAD, gzip" "$tmp/threefold-head" "$gz" \
      "threefold scan --json, BASE $base, gzip" "$tmp/threefold-base" "$gz" \
      "threefold scan --json, HEAD, zstd" "$tmp/threefold-head" "$tmp/corpus.pgn.zst" \
      "threefold scan --json, HEAD, Lichess-shaped" "$tmp/threefold-head" "$shaped" \
      "threefold scan --json, BASE, Lichess-shaped" "$tmp/threefold-base" "$shaped"
    cat "$tmp/turn0" "$tmp/turn2" "$tmp/turn3"
  else
    shaped=$tmp/shaped.pgn.gz
    gzip -6 -c "$tmp/shaped.pgn" >"$shaped"
    by_turns "threefold scan --json, HEAD, gzip" "$tmp/threefold-head" "$gz" \
      "threefold scan --json, BASE $base, gzip" "$tmp/threefold-base" "$gz" \
      "threefold scan --json, HEAD, Lichess-shaped" "$tmp/threefold-head" "$shaped" \
      "threefold scan --json, BASE, Lichess-shaped" "$tmp/threefold-base" "$shaped"
    cat "$tmp/turn0"
    printf 'threefold scan --json, HEAD, zstd\tnot run (apt-get install zstd)\t\n'
    cat "$tmp/turn2"
    mv "$tmp/turn3" "$tmp/turn4"
  fi
  measure "threefold scan --json, HEAD, plain" "$tmp/threefold-head" scan --json "${wflag[@]}" "$tmp/corpus.pgn"
  measure "threefold scan --json, HEAD, 1 worker" "$tmp/threefold-head" scan --json --workers 1 "$tmp/corpus.pgn"
  measure "threefold, HEAD, 1 worker, Lichess-shaped" "$tmp/threefold-head" scan --json --workers 1 "$shaped"
  cat "$tmp/turn1" "$tmp/turn4"
  if command -v pgn-extract >/dev/null; then
    measure "pgn-extract --repetition, plain" pgn-extract --repetition -s -o /dev/null "$tmp/corpus.pgn"
  else
    printf 'pgn-extract --repetition\tnot installed (apt-get install pgn-extract)\t\n'
  fi
} >"$tmp/rows"

head_wall=$(awk -F'\t' 'NR == 1 {print $2}' "$tmp/rows")
head_cpu=$(awk -F'\t' 'NR == 1 {print $3}' "$tmp/rows")
echo "corpus: $gz: $games games, $plies plies; $runs runs each, the median; $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "pgn-extract: $(pgn-extract --version 2>&1 | head -1 || true)"
printf '%-44s %7s %7s %12s %12s %9s %9s\n' "command" "wall s" "cpu s" "plies/s" "plies/cpu-s" "HEAD x" "HEAD x"
printf '%-44s %7s %7s %12s %12s %9s %9s\n' "" "" "" "(wall)" "" "(wall)" "(cpu)"
awk -F'\t' -v plies="$plies" -v hw="$head_wall" -v hc="$head_cpu" '
  $3 == "" { printf "%-44s %s\n", $1, $2; next }
  { printf "%-44s %7.2f %7.2f %12.0f %12.0f %9.1f %9.1f\n", $1, $2, $3, plies / $2, plies / $3, $2 / hw, $3 / hc }' "$tmp/rows"

# notnil/chess and threefold on the same first 300 games, through go test.
if [ -d "$corpus_dir/pgn" ]; then
  THREEFOLD_CORPUS="$corpus_dir" go test -run '^$' -bench 'BenchmarkScan/first300' -count "$runs" ./cmd/threefold/ 2>/dev/null |
    awk '/plies\/s/ { for (i = 1; i <= NF; i++) if ($(i+1) == "plies/s") { split($1, n, "-"); v[n[1]] = v[n[1]] " " $i } }
      END {
        for (k in v) { m = split(substr(v[k], 2), a, " "); asort_n(a, m); med[k] = a[int((m + 1) / 2)] }
        t = med["BenchmarkScan/first300/threefold"]; o = med["BenchmarkScan/first300/notnil"]
        if (t && o) printf "%-44s %7s %7s %12.0f %12s %9.1f\n%-44s %7s %7s %12.0f\n", "notnil/chess, first 300 games (go test)", "", "", o, "", t / o, "threefold scan --json, same 300 games", "", "", t
      }
      function asort_n(a, m,   i, j, x) { for (i = 2; i <= m; i++) { x = a[i] + 0; for (j = i - 1; j >= 1 && a[j] + 0 > x; j--) a[j+1] = a[j]; a[j+1] = x } }'
fi

# python-chess, when installed.
if python3 -c 'import chess.pgn' 2>/dev/null; then
  awk -v n="$pygames" '/^\[Event /{g++} g > n {exit} {print}' "$tmp/corpus.pgn" >"$tmp/sample.pgn"
  "$tmp/threefold-head" scan "$tmp/sample.pgn" 2>"$tmp/sample-summary" >/dev/null
  splies=$(sed -e 's/\([0-9]\),\([0-9]\)/\1\2/g' "$tmp/sample-summary" | sed -n 's/^[0-9]* games, \([0-9]*\) plies.*/\1/p')
  row=$(measure "python-chess, first $pygames games" python3 bench/pychess.py "$tmp/sample.pgn")
  tf=$(measure "threefold, same games" "$tmp/threefold-head" scan --json "${wflag[@]}" "$tmp/sample.pgn")
  printf '%s\n%s\n' "$row" "$tf" | awk -F'\t' -v plies="$splies" 'NR == 1 {pw = $2} NR == 2 {tw = $2} {r[NR] = $0; w[NR] = $2; c[NR] = $3; name[NR] = $1}
    END { printf "%-44s %7.2f %7.2f %12.0f %12.0f %9.1f %9.1f\n", name[1], w[1], c[1], plies / w[1], plies / c[1], pw / tw, c[1] / c[2]
      printf "%-44s %7.2f %7.2f %12.0f %12.0f\n", name[2], w[2], c[2], plies / w[2], plies / c[2] }'
  # The rate ratio: HEAD's gzip row on the whole corpus against python-chess's plies a second.
  printf '%s\n' "$row" | awk -F'\t' -v plies="$splies" -v cplies="$plies" -v hw="$head_wall" -v hc="$head_cpu" '
    { printf "%-44s %7s %7s %12s %12s %9.0f %9.0f\n", "python-chess rate vs HEAD gzip (whole corpus)", "", "", "", "", (cplies / hw) / (plies / $2), (cplies / hc) / (plies / $3) }'
else
  echo "python-chess: not importable (pip install chess, or PYTHONPATH=<python-chess source tree>), skipped"
fi
