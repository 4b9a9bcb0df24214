#!/usr/bin/env bash
# Installs dependencies, builds, and runs every test (the README's test command; CI runs it):
# CTest's, then the Python package's (scripts/test-python.sh: pip install ./python in a venv,
# pytest). Prints the CTest output, the per-file vector counts the tests recorded, pytest's, and
# last one-line totals "ctest: N passed, M failed" and "python: passed" or "python: failed".
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/build.sh default
reports="$PWD/build/default/test-reports"
log="$PWD/build/default/ctest.log"
rm -rf "$reports"
set +e
WARPCRYPT_REPORT_DIR="$reports" ctest --preset default -j "$(nproc)" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
set -e

if [ -d "$reports" ]; then
  echo
  echo "Vector files and ACVP sets checked (backend, file, counts):"
  find "$reports" -name '*.txt' -print0 | sort -z | xargs -0 cat
fi

# CTest's summary reads "100% tests passed, 0 tests failed out of 106".
if summary=$(grep -E '^[0-9]+% tests passed, [0-9]+ tests? failed out of [0-9]+' "$log"); then
  failed=$(sed -E 's/.* ([0-9]+) tests? failed out of.*/\1/' <<<"$summary")
  total=$(sed -E 's/.*out of ([0-9]+).*/\1/' <<<"$summary")
  echo
  echo "ctest: $((total - failed)) passed, $failed failed"
fi

set +e
scripts/test-python.sh
python_status=$?
set -e
if [ "$python_status" -eq 0 ]; then echo "python: passed"; else echo "python: failed"; fi
[ "$status" -ne 0 ] && exit "$status"
exit "$python_status"
