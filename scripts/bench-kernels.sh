#!/usr/bin/env bash
# warpcrypt's kernels vs OpenSSL (`openssl speed -evp`), single thread, printed as Markdown:
#   (a) raw AES-128/192/256 (ECB) encrypt and decrypt at 4, 8 and 16 KiB, one column group per
#       implementation (scalar, x86 AES-NI, x86 VAES, any other block backend, CUDA, OpenSSL);
#   (b) ChaCha20-Poly1305 vs AES-256-GCM at 100 B, 1 KiB and 16 KiB, for the backend `auto`
#       picks and for OpenSSL, with the AES speedup (AES-GCM MB/s / ChaCha MB/s);
#   (c) the kernel-speed goals: warpcrypt's best backend / OpenSSL, "met" or "not met";
#   (d) ChaCha20-Poly1305 at 1, 16, 64 KiB and 1 MiB against the references measured in the
#       same run: OpenSSL 3.0 (`openssl speed -evp`, a stream), OpenSSL 3.0 one message per
#       call through EVP (warpcrypt-openssl-aead-bench, as `warpcrypt bench` times warpcrypt)
#       and OpenSSL 4 through python `cryptography` (scripts/bench-cryptography.py, at 64 KiB
#       and 1 MiB), with the ChaCha20-Poly1305 goals for this CPU (AVX2 only, or AVX-512 with IFMA),
#       judged against `openssl speed -evp` as the goals state them;
#   (e) AES-256-GCM per backend at 100 B .. 1 MiB against the same two references, with each
#       backend's open/seal ratio and the AES-GCM goals for this CPU; at 256 B and 1350 B the
#       x86 backends against each other (x86-avx512 against x86-vaes);
#   (f) with BSSL_BENCH, AES-256-GCM on x86-avx512 against BoringSSL's own kernel at 256 B,
#       1350 B, 16 KiB and 64 KiB, seal and open, in the same passes, and issue 48's goals
#       (>= 1.0x at every size);
#   (g) where the CPU has AVX-512 with IFMA, x86-avx512's ChaCha20-Poly1305
#       step in its parts (warpcrypt-engine-bench: ChaCha20 alone, Poly1305 on IFMA alone, the
#       two stitched) and the AEAD against the bound they set, judged within 5%
#   (h) ML-KEM-768 encapsulation and decapsulation (warpcrypt-pq-bench) against OpenSSL
#       through python `cryptography`, alternating (scripts/bench-pq.py), and issue 48's goal
#       (>= 1.0x); left out with NO_CRYPTOGRAPHY=1.
# MB/s = 10^6 bytes per second (openssl speed prints 1000s of bytes per second). Both sides
# count CPU time of the measuring thread/process, so other load disturbs them less.
#
# Usage: scripts/bench-kernels.sh > bench.md
# Environment:
#   BENCH_PASSES     passes over every cell, warpcrypt and the references taking turns; each
#                    cell reports its best pass (default 3)
#   BENCH_SECONDS    CPU seconds per warpcrypt cell (default 0.2)
#   OPENSSL_SECONDS  seconds per openssl run, a whole number (default 1)
#   OPENSSL_AEAD=1   time openssl's AEADs with `-aead` instead of plain `-evp`, which times
#                    EVP_*Update on one endless stream (no nonce, key block or tag per message).
#                    In OpenSSL 3.0.22 `-aead` makes AES-GCM per message (an IV, 13 bytes of AAD
#                    and the tag each time) but ChaCha20-Poly1305 stays a stream: counted with an
#                    LD_PRELOAD shim, 1.8 million EVP_EncryptUpdate calls and one final. The
#                    per-message reference for both is warpcrypt-openssl-aead-bench (table (d))
#   WARPCRYPT_BIN    a warpcrypt binary to measure instead of building the release preset
#   BSSL_BENCH       a bssl_bench binary built apart from this repository (nothing here
#                    fetches or builds BoringSSL): `cmake -GNinja -DCMAKE_BUILD_TYPE=Release -B
#                    build && ninja -C build bssl_bench` in a BoringSSL checkout. Its
#                    BM_SpeedAEAD rows for AES-256-GCM join every pass (table (f));
#                    BSSL_COMMIT, the commit it was built from, goes into the header
#   BENCH_PYTHON     a python with `cryptography` (default: python3 if it has it, else a venv
#                    made once with pip under ~/.cache/warpcrypt/bench-venv; NO_CRYPTOGRAPHY=1
#                    leaves that column out)
# The default run takes about four minutes after the build: three passes of 42
# openssl runs of a second, about 110 warpcrypt cells of a fifth of a second, 20 per-message
# OpenSSL cells of as long and 8 python cells.
set -euo pipefail
cd "$(dirname "$0")/.."

bench_seconds=${BENCH_SECONDS:-0.2}
openssl_seconds=${OPENSSL_SECONDS:-1}
passes=${BENCH_PASSES:-3}

if [ -n "${WARPCRYPT_BIN:-}" ]; then
  bin=$WARPCRYPT_BIN
  scripts/build.sh release --target warpcrypt-openssl-aead-bench \
    --target warpcrypt-pq-bench --target warpcrypt-engine-bench >&2
else
  scripts/build.sh release --target warpcrypt --target warpcrypt-openssl-aead-bench \
    --target warpcrypt-pq-bench >&2
  bin=build/release/cli/warpcrypt
fi
per_message_bin=build/release/tests/bench/warpcrypt-openssl-aead-bench
if [ ! -x "$bin" ]; then
  echo "bench-kernels: no warpcrypt binary at $bin" >&2
  exit 2
fi
if ! command -v openssl >/dev/null; then
  echo "bench-kernels: openssl is needed (Debian package openssl)" >&2
  exit 2
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The sizes each table needs, in bytes; warpcrypt and openssl measure the same ones.
ecb_sizes=(4096 8192 16384)
aead_sizes=(100 1024 16384 65536 1048576)
cryptography_sizes=(65536 1048576)
# AES-256-GCM only, warpcrypt's backends against each other: a short message and an Ethernet
# frame's payload, where the 512-bit kernel must lose nothing to the 256-bit one (table (e)).
# (Where either cannot run, the bench refuses and the table leaves the comparison out.)
gcm_small_sizes=(256 1350)

echo "# warpcrypt kernels vs OpenSSL"
echo
echo '```'
echo "date:    $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
echo "machine: $(uname -m)"
echo "cpu:     $(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -n 1)"
echo "openssl: $(openssl version)"
echo "timing:  warpcrypt ${bench_seconds} s per cell, openssl ${openssl_seconds} s per run, one thread;"
echo "         best of $passes passes, the tools taking turns"
echo "openssl AEAD mode: $([ "${OPENSSL_AEAD:-0}" = 1 ] && echo "-aead (per message for AES-GCM; a stream for ChaCha20-Poly1305)" || echo "-evp (stream)")"
if [ -n "${BSSL_BENCH:-}" ]; then
  echo "boringssl: $BSSL_BENCH, commit ${BSSL_COMMIT:-not given (BSSL_COMMIT names it)}"
fi
echo
"$bin" backends
echo '```'
echo

join() { local IFS=,; echo "$*"; }

# What auto picks depends on the size: ask the registry for each.
for size in "${aead_sizes[@]}"; do
  "$bin" backends --json --size "$size" >"$work/auto-$size.json"
done

# One openssl run: suite, direction (encrypt|decrypt), size -> a line of openssl-PASS.txt with
# the 1000s of bytes per second from openssl's last line, or "n/a" where openssl refuses.
openssl_speed() {
  local suite=$1 direction=$2 size=$3 pass=$4 flags=() out rate
  [ "$direction" = decrypt ] && flags+=(-decrypt)
  [[ ${OPENSSL_AEAD:-0} = 1 && $suite != *-ecb ]] && flags+=(-aead)
  if out=$(openssl speed -evp "$suite" "${flags[@]}" -bytes "$size" -seconds "$openssl_seconds" \
             2>/dev/null | tail -n 1); then
    rate=$(awk '{ sub(/k$/, "", $NF); print $NF }' <<<"$out")
  else
    rate=n/a
  fi
  [[ $rate =~ ^[0-9.]+$ ]] || rate=n/a
  echo "$suite $direction $size $rate" >>"$work/openssl-$pass.txt"
}

# The second reference: OpenSSL 4 inside python `cryptography` (PyPI wheels bundle it).
bench_python() {
  if [ -n "${BENCH_PYTHON:-}" ]; then echo "$BENCH_PYTHON"; return; fi
  if python3 -c 'import cryptography' 2>/dev/null; then echo python3; return; fi
  local venv="${XDG_CACHE_HOME:-$HOME/.cache}/warpcrypt/bench-venv"
  if ! "$venv/bin/python" -c 'import cryptography' 2>/dev/null; then
    echo "bench-kernels: installing python cryptography into $venv" >&2
    python3 -m venv "$venv" >&2 && "$venv/bin/pip" install -q cryptography >&2
  fi
  echo "$venv/bin/python"
}
python=""
if [ "${NO_CRYPTOGRAPHY:-0}" != 1 ] && ! python=$(bench_python); then
  echo "bench-kernels: no python cryptography; its column reads n/a" >&2
  python=""
fi

# Passes: warpcrypt, then openssl, then python cryptography, again and again, so that each
# side meets the same moments of this shared machine's load; every cell keeps its best pass.
for pass in $(seq 1 "$passes"); do
  echo "bench-kernels: pass $pass of $passes: warpcrypt..." >&2
  "$bin" bench --json --cipher aes-ecb --sizes "$(join "${ecb_sizes[@]}")" \
    --seconds "$bench_seconds" >"$work/warpcrypt-ecb-$pass.json"
  "$bin" bench --json --cipher aes-256-gcm,chacha20-poly1305 --sizes "$(join "${aead_sizes[@]}")" \
    --seconds "$bench_seconds" >"$work/warpcrypt-aead-$pass.json"
  "$bin" bench --json --cipher aes-256-gcm --backend x86-avx512,x86-vaes \
    --sizes "$(join "${gcm_small_sizes[@]}")" \
    --seconds "$bench_seconds" >"$work/warpcrypt-gcm-small-$pass.json" 2>/dev/null || echo '[]' \
    >"$work/warpcrypt-gcm-small-$pass.json"
  echo "bench-kernels: pass $pass of $passes: openssl..." >&2
  : >"$work/openssl-$pass.txt"
  for suite in aes-128-ecb aes-192-ecb aes-256-ecb; do
    for direction in encrypt decrypt; do
      for size in "${ecb_sizes[@]}"; do openssl_speed "$suite" "$direction" "$size" "$pass"; done
    done
  done
  for suite in aes-256-gcm chacha20-poly1305; do
    for direction in encrypt decrypt; do
      for size in "${aead_sizes[@]}"; do openssl_speed "$suite" "$direction" "$size" "$pass"; done
    done
  done
  echo "bench-kernels: pass $pass of $passes: openssl per message..." >&2
  "$per_message_bin" "$bench_seconds" "${aead_sizes[@]}" >"$work/per-message-$pass.txt"
  if [ -n "${BSSL_BENCH:-}" ]; then
    echo "bench-kernels: pass $pass of $passes: BoringSSL..." >&2
    "$BSSL_BENCH" --benchmark_filter='BM_SpeedAEAD/(seal|open)_aes_256_gcm/InputSize:[0-9]+$' \
      -i 256 -i 1350 -i 16384 -i 65536 --benchmark_min_time="${bench_seconds}s" \
      --benchmark_format=json >"$work/boringssl-$pass.json" 2>/dev/null ||
      echo '{"benchmarks": []}' >"$work/boringssl-$pass.json"
  fi
  if grep -q -w avx512ifma /proc/cpuinfo; then
    echo "bench-kernels: pass $pass of $passes: ChaCha20-Poly1305 parts..." >&2
    build/release/tests/bench/warpcrypt-engine-bench --benchmark_format=json \
      --benchmark_filter='x86-avx512-parts/|x86-avx512/chacha20-poly1305/(seal|open)/(16384|65536)$' \
      --benchmark_min_time="$bench_seconds" >"$work/chacha-parts-$pass.json" 2>/dev/null ||
      echo '{"benchmarks": []}' >"$work/chacha-parts-$pass.json"
  fi
  : >"$work/cryptography-$pass.txt"
  if [ -n "$python" ]; then
    echo "bench-kernels: pass $pass of $passes: python cryptography..." >&2
    "$python" scripts/bench-cryptography.py "$openssl_seconds" "${cryptography_sizes[@]}" \
      >"$work/cryptography-$pass.txt" || : >"$work/cryptography-$pass.txt"
  fi
done

# The tables, from the passes' files in $work and this CPU's AVX-512 flags.
python3 scripts/bench_kernels_report.py "$work" "$(grep -o -w -E 'avx512f|avx512ifma|avx512vl' /proc/cpuinfo 2>/dev/null | sort -u | tr '\n' ' ')"

# (h) ML-KEM-768: its own alternating passes, after the AEADs' (it needs ML-KEM in cryptography).
if [ -n "$python" ]; then
  echo
  echo "## (h) ML-KEM-768: warpcrypt vs OpenSSL through python cryptography"
  echo
  echo "bench-kernels: ML-KEM-768..." >&2
  "$python" scripts/bench-pq.py build/release/tests/bench/warpcrypt-pq-bench --rounds "$passes" ||
    echo "bench-pq.py failed: this python's cryptography may lack ML-KEM (it needs >= 47)"
fi
