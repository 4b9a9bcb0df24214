#!/usr/bin/env bash
# Cross-builds warpcrypt's engine tests for AArch64 and runs them under qemu-aarch64 (CI runs
# this after scripts/test.sh): every vector file, the ACVP harness (warpcrypt-acvp, also run
# under qemu) and the differential tests, through every backend the emulated CPU can run (qemu's
# "max" CPU has NEON, AES, PMULL and SVE2 with 512-bit vectors: arm-crypto, arm-sve2, arm-neon
# and scalar); then the same tests with SVE2 at 128-bit vectors, the length of every ARMv9 core
# shipping today (arm-sve2 uses the low 128 bits whatever the length; both must pass); then
# with the crypto extensions and SVE2 reported absent
# (WARPCRYPT_CPU_MASK=arm_aes,arm_pmull,arm_sve2), so the fallback to arm-neon and scalar is
# what runs. Wall times under emulation mean nothing; README, "ARM", says how the ARM kernels
# were measured instead.
#
# Usage: scripts/test-arm64.sh     (installs the cross toolchain and arm64 libraries if missing)
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/deps.sh arm64
cmake --preset arm64 >/dev/null
cmake --build --preset arm64 --target warpcrypt-tests warpcrypt-acvp

# The engine's tests; the format, CLI and cost-model tests are the native run's business.
engine_tests='^(Acvp|Backends/|Differential/|Vectors/|Rfc8439|Registry|Dispatch|CpuFeatures|Scalar|StreamThreads|ArmNeon)'
reports="$PWD/build/arm64/test-reports"

run() {
  local label=$1
  rm -rf "$reports"
  echo "== aarch64 under qemu: $label"
  echo "   backends: $(qemu-aarch64 -L /usr/aarch64-linux-gnu build/arm64/tests/acvp/warpcrypt-acvp \
    --list-backends | tr '\n' ' ')"
  WARPCRYPT_REPORT_DIR="$reports" ctest --preset arm64 -j "$(nproc)" -R "$engine_tests"
  if [ -d "$reports" ]; then
    find "$reports" -name '*.txt' -print0 | sort -z | xargs -0 cat
  fi
}

run "CPU with NEON, AES, PMULL and SVE2 (512-bit vectors)"
QEMU_CPU=max,sve-default-vector-length=16 run "the same with 128-bit SVE2 vectors"
WARPCRYPT_CPU_MASK=arm_aes,arm_pmull,arm_sve2 run "crypto extensions and SVE2 reported absent"
echo "test-arm64: all three runs passed"
