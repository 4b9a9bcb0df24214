#!/usr/bin/env bash
# Builds the `fuzz` preset (clang, libFuzzer, ASan + UBSan) and runs each fuzz target of
# tests/fuzz for a bounded time (tests/fuzz/README.md says what each one reaches).
#
# Usage: scripts/fuzz.sh [--seconds N | --smoke] [TARGET...]
#   --seconds N   run each target N seconds (default 60)
#   --smoke       20 seconds each (CI)
#   TARGET        fuzz-header, fuzz-decrypt, fuzz-decrypt-mutate, fuzz-acvp-json, fuzz-age-keys,
#                 fuzz-age, fuzz-age-plugin
#                 (default: all)
#
# Each target starts from a scratch copy of its committed seeds and regressions
# (build/fuzz/corpus/TARGET; the committed corpus is never written to). A crash, a leak, a
# sanitizer report, a timeout or an out-of-memory is saved under build/fuzz/artifacts/ and
# fails the script. Turn each into a regression: the input goes to
# tests/fuzz/regressions/TARGET/ (CTest replays it in every build with tests), and a unit test
# in tests/unit/ pins the fixed behaviour.
# At the end, one line per target: executions, executions per second, coverage (libFuzzer's
# "cov", edges reached, and "ft", features) and corpus size.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=60
targets=()
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) seconds=${2:?--seconds needs a number}; shift 2 ;;
    --smoke) seconds=20; shift ;;
    -h|--help) sed -n '2,18p' "$0"; exit 0 ;;
    fuzz-*) targets+=("$1"); shift ;;
    *) echo "fuzz.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
[ ${#targets[@]} -gt 0 ] || targets=(fuzz-header fuzz-decrypt fuzz-decrypt-mutate fuzz-acvp-json fuzz-age-keys
                                     fuzz-age fuzz-age-plugin)

# Longest input each target makes: a header with a post-quantum slot is 1,287 bytes, one with
# 16 small slots 1,252; a few chunks of 4 KiB reach every payload rule; ACVP documents of a few
# tests; identity files of a few keys (a post-quantum recipient is 1,959 characters).
max_len() {
  case "$1" in
    fuzz-header) echo 4096 ;;
    fuzz-decrypt|fuzz-decrypt-mutate) echo 16384 ;;
    fuzz-acvp-json) echo 8192 ;;
    fuzz-age-keys) echo 4096 ;;  # an identity file of a few keys and comments, or two age1pq1...
    fuzz-age) echo 8192 ;;       # an age header, armored or not, and a chunk or two
    fuzz-age-plugin) echo 4096 ;;  # a plugin's phase 2: a few questions, stanzas and labels
  esac
}

scripts/deps.sh fuzz
[ -f build/fuzz/build.ninja ] || cmake --preset fuzz >/dev/null
cmake --build --preset fuzz -j "$(nproc)"

artifacts=build/fuzz/artifacts
rm -rf "$artifacts" build/fuzz/corpus build/fuzz/logs
mkdir -p "$artifacts" build/fuzz/logs
export ASAN_OPTIONS=halt_on_error=1:detect_leaks=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1

# One target's run: its log in build/fuzz/logs/, its exit status in build/fuzz/logs/TARGET.rc.
fuzz_one() {
  local target=$1 corpus=build/fuzz/corpus/$1 log=build/fuzz/logs/$1.log rc=0
  mkdir -p "$corpus"
  # Committed seeds, seeds the build cut from the vectors (fuzz-acvp-json), regressions.
  for seeds in tests/fuzz/corpus/"$target" build/fuzz/tests/fuzz/corpus/"$target" \
               tests/fuzz/regressions/"$target"; do
    if [ -d "$seeds" ]; then
      find "$seeds" -type f ! -name '.*' -exec cp {} "$corpus"/ \;
    fi
  done
  build/fuzz/tests/fuzz/"$target" "$corpus" -max_total_time="$seconds" \
    -max_len="$(max_len "$target")" -timeout=25 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$artifacts/$target-" >"$log" 2>&1 || rc=$?
  echo "$rc" >build/fuzz/logs/"$target".rc
}

# libFuzzer runs one process on one core: the targets run side by side, one per core, each
# for its full time (the smoke takes a minute of wall time on CI's 2 cores, not two).
lanes=$(nproc)
for target in "${targets[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$lanes" ]; do wait -n || true; done
  echo "fuzz.sh: $target for ${seconds} s (log: build/fuzz/logs/$target.log)"
  fuzz_one "$target" &
done
wait

summary=()
status=0
for target in "${targets[@]}"; do
  log=build/fuzz/logs/$target.log
  rc=$(cat build/fuzz/logs/"$target".rc)
  # libFuzzer's last status line: "#N DONE cov: C ft: F corp: K/..." (or the last "pulse").
  last=$(grep -E '^#[0-9]+' "$log" | tail -1 || true)
  execs=$(grep -oP 'stat::number_of_executed_units: *\K[0-9]+' "$log" || echo "?")
  rate=$(grep -oP 'stat::average_exec_per_sec: *\K[0-9]+' "$log" || echo "?")
  cov=$(grep -oP 'cov: \K[0-9]+' <<<"$last" || echo "?")
  ft=$(grep -oP 'ft: \K[0-9]+' <<<"$last" || echo "?")
  corp=$(grep -oP 'corp: \K[0-9]+' <<<"$last" || echo "?")
  summary+=("$(printf '%-20s %9s execs %6s/s  cov %5s  ft %6s  corpus %5s  exit %s' \
    "$target" "$execs" "$rate" "$cov" "$ft" "$corp" "$rc")")
  if [ "$rc" -ne 0 ]; then
    status=1
    echo "fuzz.sh: $target failed (exit $rc); the end of its log:" >&2
    tail -40 "$log" >&2
  fi
done

echo
printf '%s\n' "${summary[@]}"
if [ -n "$(ls -A "$artifacts")" ]; then
  echo "fuzz.sh: inputs saved under $artifacts (add each to tests/fuzz/regressions/TARGET/):" >&2
  ls -l "$artifacts" >&2
  status=1
fi
exit "$status"
