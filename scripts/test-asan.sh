#!/usr/bin/env bash
# Builds the `asan` preset (AddressSanitizer + UndefinedBehaviorSanitizer, -O1 -g1, no CUDA) and
# runs the whole test suite under it: unit, vector, ACVP, CLI tests (which run the sanitized
# `warpcrypt` binary) and the fuzz corpus replays. Any sanitizer report fails the run.
#
# The one test left out is check-memory (the asan test preset excludes it): it measures the
# peak RSS of `warpcrypt encrypt`, and under ASan the shadow memory, the allocator's
# quarantine and redzones make peak RSS a measure of the sanitizer, not of the pipeline.
#
# The sanitizer options live in CMakePresets.json (test preset `asan`), so a plain
# `ctest --preset asan` behaves the same: halt on the first report, leaks reported
# (LeakSanitizer), exit status 86 (a status no warpcrypt program uses, so a test expecting a
# failure status cannot take a report for the failure it expected), and every report written
# to build/asan/sanitizer-reports/ as well: a report from a child process whose status a test
# does not look at (a process it kills, say) fails the run too.
#
# Usage: scripts/test-asan.sh [ctest args...]   e.g. -R 'Format' to run a subset
set -euo pipefail
cd "$(dirname "$0")/.."

start=$SECONDS
scripts/deps.sh
[ -f build/asan/build.ninja ] || cmake --preset asan >/dev/null
cmake --build --preset asan -j "$(nproc)"
built=$SECONDS

reports=build/asan/sanitizer-reports
rm -rf "$reports"
mkdir -p "$reports"
set +e
ctest --preset asan -j "$(nproc)" "$@"
status=$?
set -e

if [ -n "$(ls -A "$reports")" ]; then
  echo "test-asan: sanitizer reports:" >&2
  for report in "$reports"/*; do
    echo "--- $report" >&2
    cat "$report" >&2
  done
  status=1
fi
echo "test-asan: build $((built - start)) s, tests $((SECONDS - built)) s, exit $status"
exit "$status"
