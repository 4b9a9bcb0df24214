#!/usr/bin/env bash
# Installs dependencies, then configures and builds one CMake preset (default: "default").
# Usage: scripts/build.sh [PRESET] [cmake --build args...]
set -euo pipefail
cd "$(dirname "$0")/.."
preset="${1:-default}"
shift || true

scripts/deps.sh
# WARPCRYPT_CUDA=ON|OFF|AUTO in the environment overrides the preset's CUDA choice (CI sets ON,
# so that a CUDA build break fails CI); the arm64 preset never builds CUDA.
configure_args=()
if [ -n "${WARPCRYPT_CUDA:-}" ] && [ "$preset" != arm64 ]; then
  configure_args+=("-DWARPCRYPT_CUDA=$WARPCRYPT_CUDA")
fi
# Configure once; later builds let CMake re-run itself when a CMakeLists changes.
[ -f "build/$preset/build.ninja" ] || cmake --preset "$preset" "${configure_args[@]}" >/dev/null
cmake --build --preset "$preset" -j "$(nproc)" "$@"
