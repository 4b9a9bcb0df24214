#!/usr/bin/env bash
# Installs dependencies, then configures and builds one CMake preset (default: "default").
# Usage: scripts/build.sh [PRESET] [cmake --build args...]
set -euo pipefail
cd "$(dirname "$0")/.."
preset="${1:-default}"
shift || true

scripts/deps.sh
# Configure once; later builds let CMake re-run itself when a CMakeLists changes.
[ -f "build/$preset/build.ninja" ] || cmake --preset "$preset" >/dev/null
cmake --build --preset "$preset" -j "$(nproc)" "$@"
