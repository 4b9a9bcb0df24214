#!/usr/bin/env bash
# Installs what warpcrypt needs to build and test, from Debian 12's packages.
# Idempotent and quick when everything is present: apt runs only if a package is missing.
#
# Usage: scripts/deps.sh          the native build and its tests
#        scripts/deps.sh arm64    the AArch64 cross build and qemu (scripts/test-arm64.sh):
#                                 Debian's cross compiler, qemu-user, and the target's
#                                 libraries as multiarch arm64 packages
#        scripts/deps.sh fuzz     also clang and its runtime libraries (libFuzzer, the
#                                 sanitizers): the fuzz preset (scripts/fuzz.sh)
#        scripts/deps.sh emulated also an emulated x86 CPU for the engine's tests
#                                 (scripts/test-emulated.sh): bochscpu-python 0.4.0 from PyPI
#                                 in build/emulated-venv, and the shim its wheel needs
#        scripts/deps.sh package  also makepkg and its tools (scripts/test-package.sh; Debian
#                                 splits makepkg from pacman-package-manager), and the
#                                 shells and man-page linter that check completions/ and
#                                 docs/man/ (zsh, fish, mandoc: about 8 MB to download)
#        scripts/deps.sh profile  also the profilers of scripts/profile.sh: perf (Debian's
#                                 linux-perf), llvm-mca (LLVM 14) and binutils' objdump
set -euo pipefail

packages=(
  cmake ninja-build g++ pkg-config git time
  libsodium-dev libxxhash-dev nlohmann-json3-dev libcli11-dev   # the product
  libgtest-dev libbenchmark-dev libssl-dev                      # tests, benchmarks, the oracle
  valgrind                                                      # the constant-time check (tests/ct)
  age openssh-client openssl                                    # the reference tools (interop tests: age, ssh-keygen; openssl makes PEM keys)
  zlib1g-dev                                                    # inflating age's CCTV vectors (tests)
  python3 python3-venv                                          # the README check, the test age plugin, tests/interop's venv
)
add_arch=""
if [ "${1:-}" = arm64 ]; then
  packages+=(g++-aarch64-linux-gnu qemu-user
             libsodium-dev:arm64 libxxhash-dev:arm64 libgtest-dev:arm64 libssl-dev:arm64)
  dpkg --print-foreign-architectures | grep -qx arm64 || add_arch=arm64
fi
if [ "${1:-}" = fuzz ]; then
  packages+=(clang libclang-rt-14-dev)
fi
if [ "${1:-}" = profile ]; then
  packages+=(linux-perf llvm-14 binutils)
fi
if [ "${1:-}" = package ]; then
  packages+=(makepkg pacman-package-manager libarchive-tools fakeroot zstd zsh fish mandoc groff-base)
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "warpcrypt: installing ${missing[*]}" >&2
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  [ -z "$add_arch" ] || $sudo dpkg --add-architecture "$add_arch"
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# The interop tests (tests/interop/) run on python packages Debian 12 lacks: the post-quantum
# ones a second implementation written from the specifications on python `cryptography` >= 47,
# the first with ML-KEM-768 and HPKE's MLKEM768-X25519 (Debian 12 has 38); the rage ones
# pyrage, rage's Rust `age` crate as a python module, pinned at 1.4.0 (a wheel: no Rust
# needed). So a virtual environment of their own under build/, from PyPI, made once and
# checked on every build (a second or so when it is there). A venv without a new enough
# cryptography is made again; one that lacks only pyrage, or has another version, gets it.
interop_venv=build/interop-venv
if ! "$interop_venv/bin/python3" -c 'import sys, cryptography
sys.exit(int(cryptography.__version__.split(".")[0]) < 47)' 2>/dev/null; then
  echo "warpcrypt: installing python cryptography >= 47 and pyrage 1.4.0 into $interop_venv (tests/interop)" >&2
  rm -rf "$interop_venv"
  python3 -m venv "$interop_venv"
  "$interop_venv/bin/pip" install -q --disable-pip-version-check 'cryptography>=47' 'pyrage==1.4.0'
fi
if ! "$interop_venv/bin/python3" -c 'import sys, importlib.metadata, pyrage
sys.exit(importlib.metadata.version("pyrage") != "1.4.0")' 2>/dev/null; then
  echo "warpcrypt: installing pyrage 1.4.0 into $interop_venv (tests/interop)" >&2
  "$interop_venv/bin/pip" install -q --disable-pip-version-check 'pyrage==1.4.0'
fi

# The emulated CPUs (tests/emulated/run_emulated.py): Bochs 3.0's CPU as a python library,
# pinned (the runner reaches into the wheel's model table, and checks the guest's CPUID). Its
# 0.4.0 wheel was linked against glibc 2.38's __isoc23_strtoull and __isoc23_sscanf, which
# Debian 12's 2.36 lacks: a two-function shim, built beside the venv's python, supplies them.
if [ "${1:-}" = emulated ]; then
  emulated_venv=build/emulated-venv
  if ! "$emulated_venv/bin/python3" -c 'import importlib.metadata as m, sys
sys.exit(m.version("bochscpu-python") != "0.4.0")' 2>/dev/null; then
    echo "warpcrypt: installing bochscpu-python 0.4.0 into $emulated_venv (tests/emulated)" >&2
    rm -rf "$emulated_venv"
    python3 -m venv "$emulated_venv"
    "$emulated_venv/bin/pip" install -q --disable-pip-version-check 'bochscpu-python==0.4.0'
  fi
  if [ ! -f "$emulated_venv/isoc23_shim.so" ]; then
    shim_source=$(mktemp --suffix=.c)
    cat > "$shim_source" <<'SHIM'
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
unsigned long long __isoc23_strtoull(const char *s, char **end, int base) {
    return strtoull(s, end, base);
}
int __isoc23_sscanf(const char *s, const char *format, ...) {
    va_list args;
    va_start(args, format);
    int n = vsscanf(s, format, args);
    va_end(args);
    return n;
}
SHIM
    cc -O2 -shared -fPIC "$shim_source" -o "$emulated_venv/isoc23_shim.so"
    rm -f "$shim_source"
  fi
fi
