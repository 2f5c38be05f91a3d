# bench/lib.sh: what the bench scripts share. Source it from the
# repository's root.

# bench_corpus [CORPUS_DIR] sets root (the repository), corpus_dir (the
# shared data: CORPUS_DIR, else $THREEFOLD_CORPUS, else ../shared/data) and
# gz (its corpus, gzip), or ends the script if the corpus is not there.
bench_corpus() {
  root=$(pwd)
  corpus_dir=${1:-${THREEFOLD_CORPUS:-../shared/data}}
  corpus_dir=$(cd "$corpus_dir" && pwd)
  gz="$corpus_dir/pgn/corpus.pgn.gz"
  [ -f "$gz" ] || { echo "$0: no $gz (give the corpus folder)" >&2; exit 2; }
}

# bench_setup, with base (a git ref) set, makes $tmp (removed at exit, with BASE's worktree), builds
# threefold at HEAD into $tmp/threefold-head and at $base into
# $tmp/threefold-base, and decompresses $gz into $tmp/corpus.pgn.
bench_setup() {
  tmp=$(mktemp -d "${TMPDIR:-/tmp}/threefold-bench.XXXXXX")
  trap bench_cleanup EXIT
  echo "building threefold at HEAD ($(git rev-parse --short HEAD)) and at BASE ($base)..." >&2
  go build -o "$tmp/threefold-head" ./cmd/threefold
  git worktree add --detach "$tmp/base" "$base" >/dev/null 2>&1
  (cd "$tmp/base" && go build -o "$tmp/threefold-base" ./cmd/threefold)
  gzip -dc "$gz" >"$tmp/corpus.pgn"
}

bench_cleanup() {
  git -C "$root" worktree remove --force "$tmp/base" >/dev/null 2>&1 || true
  rm -rf "$tmp"
}
