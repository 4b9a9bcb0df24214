#!/usr/bin/env bash
# Builds the engine's tests static and non-PIE (the emulated preset) and runs them on emulated
# x86 CPUs (tests/emulated/run_emulated.py, Bochs 3.0's CPU through bochscpu-python 0.4.0): the
# x86-avx512 kernels through every vector file and differential test on a Sapphire Rapids, and
# the dispatch's fallback on a Skylake-X (AVX-512 without VAES) and a Zen 1 (no AVX-512), where
# a kernel that used a missing instruction would raise #UD. CI runs it after scripts/test.sh;
# on a CPU with AVX-512 the native run has tested the same kernels already, at full speed.
# Wall times under emulation mean nothing (docs/testing.md, "Emulated CPUs").
#
# Usage: scripts/test-emulated.sh
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/deps.sh emulated
cmake --preset emulated >/dev/null
cmake --build --preset emulated
ctest --preset emulated -j "$(nproc)"
echo "test-emulated: every model passed"
