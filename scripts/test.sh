#!/usr/bin/env bash
# Installs dependencies, builds, and runs every test (the README's test command; CI runs it).
# Prints the CTest summary, then the per-file vector counts the tests recorded.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/build.sh default
reports="$PWD/build/default/test-reports"
rm -rf "$reports"
status=0
WARPCRYPT_REPORT_DIR="$reports" ctest --preset default -j "$(nproc)" || status=$?

if [ -d "$reports" ]; then
  echo
  echo "Vector files and ACVP sets checked (backend, file, counts):"
  find "$reports" -name '*.txt' -print0 | sort -z | xargs -0 cat
fi
exit "$status"
