#!/usr/bin/env bash
# bench/live-cg.sh: instructions and cache misses of one live update,
# counted by callgrind (the machine's load does not change them), for
# BenchmarkLiveUpdate (listener: a board's whole PGN resent with one more
# move, through the feed and the watcher) and BenchmarkHubBroadcast (web:
# the dashboard's side of it), at 10 and 1,000 boards of 10 and 500 plies.
#
# Each row runs the benchmark's test binary under callgrind's cache
# simulation with this machine's first level and a 2 MB last level (one
# core's L2), collecting only inside the function that makes one update
# (liveUpdate, hubBroadcastUpdate: --collect-atstart=no --toggle-collect), and divides by the
# updates made: N+1, the benchmark's N and the testing package's first run
# of one. GOMAXPROCS=1 (otherwise the scheduler spins under valgrind),
# GOGC=off (no collection inside an update), asynchronous preemption off,
# and stacks never shrunk (gcshrinkstackoff=1): the benchmark's
# runtime.GC() between rounds would shrink the goroutine's stack, the next
# update would grow it again, and callgrind, which follows calls by the
# stack pointer, misses the return of a function whose stack was moved
# (the toggle then stays on outside the update: ~50% too many
# instructions at 10 boards of 10 plies).
#
# Usage: bench/live-cg.sh [BENCH_REGEXP]
#   BENCH_REGEXP: LiveUpdate, HubBroadcast (default both)
#   N=10000 updates a row; OUT=dir keeps the callgrind files (default a
#   temporary directory, removed). Prints, per row: instructions, D1 and
#   LL read misses (Ir, D1mr, DLmr) per update.
# A row takes about a minute (the 1,000-board rows' setup replays every
# board under valgrind too, but outside the collection).
set -euo pipefail
cd "$(dirname "$0")/.."
which=${1:-LiveUpdate|HubBroadcast}
n=${N:-10000}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/threefold-live-cg.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
out=${OUT:-$tmp}
mkdir -p "$out"
printf '%-14s %-22s %9s %8s %8s\n' benchmark row Ir D1mr DLmr
for spec in "LiveUpdate listener liveUpdate" "HubBroadcast web hubBroadcastUpdate"; do
  read -r bench pkg fn <<<"$spec"
  [[ $bench =~ ^($which)$ ]] || continue
  go test -c -o "$tmp/$pkg.test" "./$pkg"
  for row in boards=10/plies=10 boards=10/plies=500 boards=1000/plies=10 boards=1000/plies=500; do
    f="$out/$bench-${row//[\/=]/-}.out"
    (cd "$pkg" && GOMAXPROCS=1 GOGC=off GODEBUG=asyncpreemptoff=1,gcshrinkstackoff=1 valgrind --tool=callgrind \
      --cache-sim=yes --D1=49152,12,64 --LL=2097152,16,64 --collect-atstart=no --toggle-collect="*.$fn" \
      --callgrind-out-file="$f" "$tmp/$pkg.test" -test.run X -test.bench "^Benchmark$bench\$/^${row%%/*}\$/^${row#*/}\$" \
      -test.benchtime="${n}x" >"$f.log" 2>&1) || { cat "$f.log" >&2; exit 1; }
    grep -q "^Benchmark$bench/$row" "$f.log" || { echo "$0: $bench/$row did not run" >&2; cat "$f.log" >&2; exit 1; }
    awk -v n="$((n + 1))" -v b="$bench" -v r="$row" '
      /^events:/ { for (i = 2; i <= NF; i++) col[$i] = i - 1 }
      /^summary:/ { printf "%-14s %-22s %9.0f %8.1f %8.1f\n", b, r, $(col["Ir"] + 1) / n, $(col["D1mr"] + 1) / n, $(col["DLmr"] + 1) / n }
    ' "$f"
  done
done
echo "$(git rev-parse --short HEAD)$(git diff --quiet HEAD -- listener web store || echo '+changes'), N=$n updates a row (+1), load $(cut -d' ' -f1-3 /proc/loadavg)"
