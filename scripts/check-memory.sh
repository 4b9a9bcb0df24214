#!/usr/bin/env bash
# Checks that `warpcrypt encrypt` runs in bounded memory: peak RSS for a 4 MiB and a 4 GiB
# stdin-to-stdout stream must differ by at most 16 MiB (the pipeline holds a few batches,
# whatever the input size), with any thread count: the large stream runs with the default
# (one thread per CPU) and with each of THREADS.
#
# Usage: scripts/check-memory.sh [WARPCRYPT_BINARY]
#   default binary: build/default/cli/warpcrypt; environment: CIPHER (default
#   chacha20-poly1305, the fast scalar suite), LARGE (default 4G, a `head -c` size),
#   LIMIT_MIB (default 16), THREADS (default "1 16": extra --threads values for the large run).
# Needs GNU time (/usr/bin/time -v), Debian package `time`; exits 77 (skipped) without it.
set -euo pipefail
cd "$(dirname "$0")/.."

bin=${1:-build/default/cli/warpcrypt}
cipher=${CIPHER:-chacha20-poly1305}
small=4M
large=${LARGE:-4G}
limit_mib=${LIMIT_MIB:-16}
read -r -a thread_counts <<< "${THREADS:-1 16}"

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
small_kib=$(peak_rss_kib "$small")
printf 'peak RSS, encrypt %s stream (%s): %6d KiB\n' "$small" "$cipher" "$small_kib"
failed=0
for threads in default "${thread_counts[@]}"; do
  if [ "$threads" = default ]; then
    large_kib=$(peak_rss_kib "$large")
  else
    large_kib=$(peak_rss_kib "$large" --threads "$threads")
  fi
  diff_kib=$((large_kib - small_kib))
  printf 'peak RSS, encrypt %s stream (%s, threads %s): %6d KiB, %d KiB more (limit %d MiB)\n' \
    "$large" "$cipher" "$threads" "$large_kib" "$diff_kib" "$limit_mib"
  [ "$diff_kib" -gt $((limit_mib * 1024)) ] && failed=1
done
echo "all runs took $SECONDS s"
if [ "$failed" -ne 0 ]; then
  echo "check-memory: FAIL: memory grows with the input size" >&2
  exit 1
fi
echo "check-memory: ok"
