#!/usr/bin/env bash
# Builds the GPU bundle: what scripts/gpu-check.sh runs on a GPU machine that has
# neither Debian's packages nor a network. Runs here, on the build machine (Debian 12, nvcc).
#
#   warpcrypt, warpcrypt-acvp, warpcrypt-tests, warpcrypt-gpu-bench
#       linked with every third-party library, libstdc++ and the CUDA runtime static; only
#       glibc and libgcc_s stay dynamic (a static program cannot load the driver's libcuda.so;
#       WARPCRYPT_STATIC_DEPS in the top-level CMakeLists.txt says why), for glibc >= 2.34
#   vectors/      the AES and AES-GCM vector files the GPU tests and ACVP runs read
#   gpu-check.sh  a copy of scripts/gpu-check.sh
#   MANIFEST.txt  what was built, from which commit, and the oldest glibc it runs on
#
# Usage: scripts/gpu-bundle.sh [--out DIR] [--build DIR] [--jobs N]
#   --out DIR    the bundle (default build/gpu-bundle, git-ignored); replaced if present
#   --build DIR  the CMake build directory (default build/gpu-bundle-build)
#   --jobs N     parallel compile jobs (default 2)
# Then carry the bundle to the GPU machine and run, from the repository root there:
#   scripts/gpu-check.sh --bundle build/gpu-bundle
set -euo pipefail
cd "$(dirname "$0")/.."

out=build/gpu-bundle
build=build/gpu-bundle-build
jobs=2
while [ $# -gt 0 ]; do
  case "$1" in
    --out) out="$2"; shift 2 ;;
    --build) build="$2"; shift 2 ;;
    --jobs) jobs="$2"; shift 2 ;;
    -h|--help) sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "gpu-bundle: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done

say() { echo "gpu-bundle: $*" >&2; }
die() { say "error: $*"; exit 1; }

vectors="${WARPCRYPT_VECTORS_DIR:-$PWD/tests/vectors}"
[ -d "$vectors/cavp-gcm" ] || die "no vector files in $vectors (set WARPCRYPT_VECTORS_DIR)"
nvcc=/usr/local/cuda/bin/nvcc
[ -x "$nvcc" ] || nvcc=$(command -v nvcc) || die "nvcc not found: the bundle needs the CUDA toolkit"
scripts/deps.sh

# The tests read their vectors from the relative path "vectors" (compiled in), which
# gpu-check.sh makes right by running warpcrypt-tests from inside the bundle.
say "configuring $build (Release, CUDA on, static third-party libraries)"
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CUDA_COMPILER="$nvcc" -DWARPCRYPT_CUDA=ON -DWARPCRYPT_STATIC_DEPS=ON \
  -DWARPCRYPT_BUILD_TESTS=ON -DWARPCRYPT_VECTORS_DIR:STRING=vectors >/dev/null
binaries=(cli/warpcrypt tests/acvp/warpcrypt-acvp tests/warpcrypt-tests tests/gpu/warpcrypt-gpu-bench)
targets=()
for b in "${binaries[@]}"; do targets+=("$(basename "$b")"); done
say "building ${targets[*]} (-j$jobs)"
ninja -C "$build" -j "$jobs" "${targets[@]}"

rm -rf "$out"
mkdir -p "$out"
for b in "${binaries[@]}"; do
  cp "$build/$b" "$out/"
  strip --strip-unneeded "$out/$(basename "$b")"
done
cp scripts/gpu-check.sh "$out/"

# The vector files the cuda backend's tests and ACVP runs read: AES-GCM (CAVP, Wycheproof),
# FIPS-197's AES blocks, and NIST's ACVP AES sets.
copy_vector() { mkdir -p "$out/vectors/$(dirname "$1")"; cp "$vectors/$1" "$out/vectors/$1"; }
for f in "$vectors"/cavp-gcm/*.rsp; do copy_vector "cavp-gcm/$(basename "$f")"; done
copy_vector wycheproof/aes_gcm_test.json
copy_vector wycheproof/LICENSE
copy_vector acvp/fips197_appendix_c.json
for set in ACVP-AES-GCM-1.0 ACVP-AES-ECB-1.0 ACVP-AES-CTR-1.0; do
  copy_vector "acvp/$set/prompt.json"
  copy_vector "acvp/$set/expectedResults.json"
done
copy_vector README.md

# Only glibc (and libgcc_s, which every glibc system has) may remain dynamic.
glibc_libs='^(linux-vdso\.so\.1|libc\.so\.6|libm\.so\.6|libdl\.so\.2|librt\.so\.1|libpthread\.so\.0|libgcc_s\.so\.1|/lib64/ld-linux-x86-64\.so\.2|ld-linux-x86-64\.so\.2)$'
min_glibc=""
for b in "${targets[@]}"; do
  libs=$(ldd "$out/$b" | awk '{print $1}')
  others=$(echo "$libs" | grep -Ev "$glibc_libs" || true)
  [ -z "$others" ] || die "$b links libraries other than glibc's and libgcc_s: $(echo $others)"
  need=$(objdump -T "$out/$b" | grep -o 'GLIBC_[0-9][0-9.]*' | sort -uV | tail -1)
  say "$b: dynamic libraries: $(echo $libs); needs $need"
  min_glibc=$(printf '%s\n%s\n' "$min_glibc" "$need" | sed '/^$/d' | sort -V | tail -1)
done

total_kib=$(du -sk "$out" | cut -f1)
{
  echo "warpcrypt GPU bundle (scripts/gpu-bundle.sh), built $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "commit: $(git rev-parse HEAD 2>/dev/null || echo unknown)$(git diff --quiet HEAD 2>/dev/null || echo ' (with uncommitted changes)')"
  echo "build machine: $(. /etc/os-release && echo "$PRETTY_NAME"), $(ldd --version | head -1)"
  echo "CUDA: $("$nvcc" --version | tail -1); code for sm_90 plus compute_90 PTX"
  echo "needs: x86-64 Linux with glibc >= ${min_glibc#GLIBC_}, an NVIDIA driver for CUDA $("$nvcc" --version | sed -n 's/.*release \([0-9.]*\).*/\1/p') or newer"
  echo "size: ${total_kib} KiB"
  echo
  (cd "$out" && ls -l "${targets[@]}" | awk '{print $5, $9}')
} >"$out/MANIFEST.txt"

say "bundle ready: $out (${total_kib} KiB; needs glibc >= ${min_glibc#GLIBC_})"
[ "$total_kib" -lt $((48 * 1024)) ] ||
  say "warning: over 48 MiB; carrying it to the GPU machine allows 64 MiB in all"
say "on the GPU machine, from the repository root: scripts/gpu-check.sh --bundle $out"
