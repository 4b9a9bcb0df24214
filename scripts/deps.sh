#!/usr/bin/env bash
# Installs what warpcrypt needs to build and test, from Debian 12's packages.
# Idempotent and quick when everything is present: apt runs only if a package is missing.
set -euo pipefail

packages=(
  cmake ninja-build g++ pkg-config git time
  libsodium-dev libxxhash-dev nlohmann-json3-dev libcli11-dev   # the product
  libgtest-dev libbenchmark-dev libssl-dev                      # tests, benchmarks, the oracle
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "warpcrypt: installing ${missing[*]}" >&2
sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
