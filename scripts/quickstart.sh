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
"$warpcrypt" encrypt --quiet -k "$work/demo.key" -o "$work/demo.bin.warp" "$work/demo.bin"
before=$(sha256sum <"$work/demo.bin" | cut -d' ' -f1)
after=$("$warpcrypt" decrypt --quiet -k "$work/demo.key" <"$work/demo.bin.warp" | sha256sum | cut -d' ' -f1)

echo "plaintext  sha256 $before"
echo "round trip sha256 $after  ($(stat -c %s "$work/demo.bin.warp") bytes encrypted, via a pipe)"
if [ "$before" = "$after" ]; then
  backend=$("$warpcrypt" backends --size $((64 << 20)) | awk '$1 == "aes-256-gcm" { print $2 }')
  echo "warpcrypt: quickstart: encrypt -> decrypt round trip OK (aes-256-gcm, backend $backend)"
else
  echo "warpcrypt: quickstart: checksums DIFFER" >&2
  exit 1
fi
