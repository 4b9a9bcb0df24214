#!/usr/bin/env bash
# Install dependencies, build, and validate every backend this machine can run against the
# NIST ACVP vector sets, with a one-line verdict.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/build.sh default --target warpcrypt-acvp >/dev/null
vectors="${WARPCRYPT_VECTORS_DIR:-$PWD/tests/vectors}"
harness=build/default/tests/acvp/warpcrypt-acvp

backends=$("$harness" --list-backends)
failed=0 sets=0
for backend in $backends; do
  for dir in "$vectors"/acvp/ACVP-*/; do
    sets=$((sets + 1))
    "$harness" --backend "$backend" --expected "$dir/expectedResults.json" \
      "$dir/prompt.json" >/dev/null 2>"build/default/acvp-$backend-$(basename "$dir").log" ||
      { failed=$((failed + 1)); cat "build/default/acvp-$backend-$(basename "$dir").log" >&2; }
  done
done

if [ "$failed" -eq 0 ]; then
  echo "warpcrypt: ACVP: all $sets vector sets match NIST's expected results (backends: $(echo $backends))"
else
  echo "warpcrypt: ACVP: $failed of $sets vector sets FAILED (see above)" >&2
  exit 1
fi
