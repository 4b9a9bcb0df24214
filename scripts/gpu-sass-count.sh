#!/usr/bin/env bash
# Counts the sm_90 machine instructions (SASS) of the CUDA kernels' steady-state loops, per
# 16-byte block, by the pipe that executes them, and derives the throughput bounds an H200
# imposes; no GPU needed. Printed as Markdown.
#
# How:
#   1. compiles engine/cuda/kernels.cu for sm_90 as the build does (nvcc -O2 -DNDEBUG
#      -std=c++20; the device code is ptxas -O3 either way), to a cubin, with -lineinfo (which
#      changes no instruction: compared with and without) and -Xptxas -v (registers, spills,
#      shared memory per kernel);
#   2. disassembles it with nvdisasm (the toolkit here has no nvdisasm or cuobjdump, so the
#      PyPI wheel `nvidia-cuda-nvdisasm` is installed once into a scratch virtual environment,
#      $WARPCRYPT_SASS_TOOLS or ~/.cache/warpcrypt/sass-tools, if it is not on PATH);
#   3. splits each kernel into basic blocks, finds its steady-state loop (the innermost loop
#      whose body stores whole 16-byte blocks, STG.E.128) and walks every path through one
#      iteration. A steady-state iteration handles one 16-byte block per thread: the paths that
#      store a whole block and touch no single byte of global memory (the partial-block and AAD
#      paths load and store bytes) are the steady state; the shortest of them is AES-128, the
#      longest AES-256 (the only branches left are the key length's extra rounds).
#
# Pipes (sm_90, per multiprocessor and clock; assumptions of the bound, not measurements):
#   issue  4 schedulers x 1 warp instruction = 128 thread-instructions
#   ALU    integer and logic (LOP3, SHF, IADD3, LEA, ISETP, SEL, PRMT, MOV, ...) at half rate:
#          64 thread-instructions
#   FMA    IMAD and its aliases (IMAD.MOV/SHL/IADD/HI): 64 thread-instructions (the CUDA
#          Programming Guide's throughput table, compute capability 9.0: 32-bit integer
#          multiply-add)
#   shared one wavefront: a conflict-free LDS.32 warp instruction is one wavefront, LDS.64 two,
#          LDS.128 four (the lane-replicated tables make every lookup conflict-free)
#   HBM    4.8 TB/s for 16 bytes read and 16 written per block
# H200: 132 multiprocessors at 1.98 GHz. Bound = what one pipe alone would allow if every
# multiprocessor ran the loop all the time; the smallest binds.
#
# Usage: scripts/gpu-sass-count.sh > counts.md      (same code, same counts)
set -euo pipefail
cd "$(dirname "$0")/.."

tools=${WARPCRYPT_SASS_TOOLS:-${XDG_CACHE_HOME:-$HOME/.cache}/warpcrypt/sass-tools}
nvdisasm_bin=$(command -v nvdisasm || true)
if [ -z "$nvdisasm_bin" ]; then
  nvdisasm_bin=$(find "$tools" -name nvdisasm -type f 2>/dev/null | head -n 1 || true)
fi
if [ -z "$nvdisasm_bin" ]; then
  echo "gpu-sass-count: installing nvidia-cuda-nvdisasm into $tools" >&2
  python3 -m venv "$tools" >&2
  "$tools/bin/pip" install -q nvidia-cuda-nvdisasm >&2
  nvdisasm_bin=$(find "$tools" -name nvdisasm -type f | head -n 1)
fi
nvcc_bin=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$nvcc_bin" -I. -O2 -DNDEBUG -std=c++20 -cubin -arch=sm_90 -lineinfo -Xptxas -v \
  engine/cuda/kernels.cu -o "$work/kernels.cubin" 2>"$work/ptxas.txt"
"$nvdisasm_bin" -c "$work/kernels.cubin" >"$work/kernels.sass"
# The kernels' shared memory is dynamic (ptxas -v does not see it): the size of each phase
# struct, which is what kernels.cu asks for at launch, from a host build of the same headers.
cat >"$work/shared_sizes.cpp" <<'CPP'
#include <cstdio>
#include "engine/cuda/device/ecb_phases.hpp"
#include "engine/cuda/device/gcm_phases.hpp"
using namespace warp::cuda::device;
int main() {
    std::printf("gcm %zu\necb_encrypt %zu\necb_decrypt %zu\n", sizeof(GcmShared),
                sizeof(EcbEncryptShared), sizeof(EcbDecryptShared));
}
CPP
"${CXX:-g++}" -std=c++20 -I. "$work/shared_sizes.cpp" -o "$work/shared_sizes"
"$work/shared_sizes" >"$work/shared_sizes.txt"

echo "# CUDA kernels: SASS per 16-byte block (sm_90), and the H200 bounds"
echo
echo '```'
echo "date:     $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
echo "commit:   $(git rev-parse --short HEAD 2>/dev/null || echo n/a)$(git diff --quiet 2>/dev/null || echo ' (with uncommitted changes)')"
echo "nvcc:     $("$nvcc_bin" --version | tail -n 1)"
echo "nvdisasm: $("$nvdisasm_bin" --version | tail -n 1)"
echo '```'
echo

# The counts and the bounds (the method is this script's header).
python3 scripts/gpu_sass_count.py "$work/kernels.sass" "$work/ptxas.txt" engine/cuda/kernel_api.hpp \
  "$work/shared_sizes.txt"
