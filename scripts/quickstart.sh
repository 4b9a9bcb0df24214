#!/usr/bin/env bash
# The main job: install dependencies, build, then use warpcrypt for real. It generates a key
# and a 64 MiB file, encrypts the file, decrypts it back through a pipe, and prints both
# checksums (they must be equal). Everything it makes lives in build/quickstart/.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/build.sh default --target warpcrypt >/dev/null
warpcrypt=build/default/cli/warpcrypt
work=build/quickstart
rm -rf "$work"
mkdir -p "$work"

"$warpcrypt" keygen -o "$work/demo.key"
head -c $((64 << 20)) /dev/urandom >"$work/demo.bin"
# -v reports the engine's decision for this very file: "warpcrypt: aes-256-gcm, 1 key slot(s),
# backend x86-vaes (auto: ...)". Its first words name what ran.
note=$("$warpcrypt" encrypt -v -k "$work/demo.key" -o "$work/demo.bin.warp" "$work/demo.bin" 2>&1 |
  grep '^warpcrypt: .* key slot(s), backend ')
ran=$(sed -E 's/^warpcrypt: ([a-z0-9-]+), .* key slot\(s\), backend ([a-z0-9-]+) .*/\1 on \2/' <<<"$note")
before=$(sha256sum <"$work/demo.bin" | cut -d' ' -f1)
after=$("$warpcrypt" decrypt --quiet -k "$work/demo.key" <"$work/demo.bin.warp" | sha256sum | cut -d' ' -f1)

echo "plaintext  sha256 $before"
echo "round trip sha256 $after  ($(stat -c %s "$work/demo.bin.warp") bytes encrypted, via a pipe)"
if [ "$before" = "$after" ]; then
  echo "warpcrypt: quickstart: encrypt -> decrypt round trip OK ($ran)"
else
  echo "warpcrypt: quickstart: checksums DIFFER" >&2
  exit 1
fi
