#!/usr/bin/env bash
# Checks that `warpcrypt encrypt` runs in bounded memory, with any thread count (the default,
# one thread per CPU, and each of THREADS):
#   - peak RSS for a 64 MiB and a 4 GiB stdin-to-stdout stream, at the same thread count, must
#     differ by at most LIMIT_MIB (the pipeline holds one batch per thread, whatever the input
#     size; 64 MiB is 64 batches, enough for every thread's batch to be in use);
#   - and no run may exceed the one-thread 64 MiB run by more than BUDGET_MIB: the pipeline's
#     buffers stay within 24 MiB whatever the thread count (engine/stream/chunk_pipeline.hpp),
#     and threads' stacks and the rest get 8 MiB more.
#
# Usage: scripts/check-memory.sh [WARPCRYPT_BINARY]
#   default binary: build/default/cli/warpcrypt; environment: CIPHER (default
#   chacha20-poly1305, the fast scalar suite), LARGE (default 4G, a `head -c` size),
#   LIMIT_MIB (default 16), BUDGET_MIB (default 32), THREADS (default "16": --threads values
#   beside 1 and the default).
# Needs GNU time (/usr/bin/time -v), Debian package `time`; exits 77 (skipped) without it.
set -euo pipefail
cd "$(dirname "$0")/.."

bin=${1:-build/default/cli/warpcrypt}
cipher=${CIPHER:-chacha20-poly1305}
small=64M
large=${LARGE:-4G}
limit_mib=${LIMIT_MIB:-16}
budget_mib=${BUDGET_MIB:-32}
read -r -a thread_counts <<< "${THREADS:-16}"

if [ ! -x "$bin" ]; then
  echo "check-memory: no warpcrypt binary at $bin (build it, or pass its path)" >&2
  exit 2
fi
if ! /usr/bin/time -v true >/dev/null 2>&1; then
  echo "check-memory: GNU time (/usr/bin/time -v) is needed: sudo apt-get install time" >&2
  exit 77  # CTest: skipped (SKIP_RETURN_CODE)
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$bin" keygen -o "$work/key"

# Peak RSS in KiB of one `encrypt` of SIZE bytes of zeros, stdin to stdout (/dev/null);
# further arguments go to warpcrypt.
peak_rss_kib() {
  local size=$1
  shift
  local log="$work/time.log"
  if ! head -c "$size" /dev/zero |
      /usr/bin/time -v -o "$log" "$bin" encrypt -k "$work/key" --cipher "$cipher" "$@" \
        >/dev/null; then
    echo "check-memory: warpcrypt encrypt failed on a $size stream" >&2
    cat "$log" >&2 || true
    exit 1
  fi
  sed -n 's/^[[:space:]]*Maximum resident set size (kbytes): //p' "$log"
}

SECONDS=0
failed=0
baseline_kib=''
for threads in 1 default "${thread_counts[@]}"; do
  args=()
  [ "$threads" = default ] || args=(--threads "$threads")
  small_kib=$(peak_rss_kib "$small" "${args[@]}")
  large_kib=$(peak_rss_kib "$large" "${args[@]}")
  baseline_kib=${baseline_kib:-$small_kib}
  diff_kib=$((large_kib - small_kib))
  over_kib=$((large_kib - baseline_kib))
  printf 'peak RSS, encrypt (%s, threads %s): %s %6d KiB, %s %6d KiB: %d KiB more (limit %d MiB); %d KiB over one thread (budget %d MiB)\n' \
    "$cipher" "$threads" "$small" "$small_kib" "$large" "$large_kib" "$diff_kib" "$limit_mib" \
    "$over_kib" "$budget_mib"
  if [ "$diff_kib" -gt $((limit_mib * 1024)) ]; then
    echo "check-memory: FAIL: memory grows with the input size (threads $threads)" >&2
    failed=1
  fi
  if [ "$over_kib" -gt $((budget_mib * 1024)) ] || [ "$((small_kib - baseline_kib))" -gt $((budget_mib * 1024)) ]; then
    echo "check-memory: FAIL: more memory than the buffer budget allows (threads $threads)" >&2
    failed=1
  fi
done
echo "all runs took $SECONDS s"
[ "$failed" -eq 0 ] || exit 1
echo "check-memory: ok"
