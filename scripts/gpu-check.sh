#!/usr/bin/env bash
# One-shot check of the cuda backend on a machine with an NVIDIA GPU, using the
# prebuilt bundle from scripts/gpu-bundle.sh (the GPU machine has no Debian packages and no
# network, so nothing is built here). Run from the repository root. A normal run takes a few
# minutes; each step has a time limit, and all of them together stop at --budget.
#
# Steps (each timed, each with its own log; a failure never stops the later steps):
#   host         nvidia-smi, the OS, glibc and CPUs
#   bundle       the bundle is present (else: how to make it)
#   start        every binary starts (glibc new enough, no missing library)
#   backends     `warpcrypt backends`: the cuda backend opens the device
#   acvp-*       warpcrypt-acvp --backend cuda over NIST's ACVP AES-GCM, AES-ECB, AES-CTR sets
#   tests        warpcrypt-tests, the cuda backend's Vectors/Differential/Backends suites (their
#                chunks up to 1 MiB are cut into 64 KiB pieces joined by a second kernel)
#   bench        warpcrypt-gpu-bench: the Markdown report (bench-report.md), with kernel-only
#                rows for 1 and 16 MiB chunks (pieces across thread blocks) and end-to-end
#                columns from pinned buffers (no copy on the host, as the pipeline's batches)
#   rt-*         a 1 GiB file: encrypt and decrypt with --backend cuda, compare
# Then a summary of every step's exit status and time; the exit status is 1 if any failed.
#
# Usage: scripts/gpu-check.sh [--bundle DIR] [--out DIR] [--budget SECONDS] [--quick]
#   --bundle DIR  the bundle (default build/gpu-bundle, or this script's folder when run as
#                 the bundle's own copy)
#   --out DIR     where logs and reports go (default $OUT if set, else build/gpu-check-DATE,
#                 or gpu-check-DATE beside the bundle's own copy)
#   --budget S    the whole run's time (default 540): a step gets at most what is left, and
#                 steps that find none left are skipped, so a hang cannot eat the machine's
#                 whole window
#   --quick       a 64 MiB round trip and `warpcrypt-gpu-bench --quick`
set -uo pipefail  # no -e: every step runs whatever failed before; failures are counted

here=$(cd "$(dirname "$0")" && pwd)
bundle="" out="${OUT:-}" quick=0 budget=540
while [ $# -gt 0 ]; do
  case "$1" in
    --bundle) bundle="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --budget) budget="$2"; shift 2 ;;
    --quick) quick=1; shift ;;
    -h|--help) sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "gpu-check: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
if [ -z "$bundle" ]; then
  if [ -x "$here/warpcrypt-gpu-bench" ]; then bundle="$here"; else bundle="$here/../build/gpu-bundle"; fi
fi
if [ -z "$out" ]; then  # beside the builds in a checkout, beside the script in a bundle
  out="$here/gpu-check-$(date -u +%Y%m%d-%H%M%S)"
  [ "$bundle" = "$here" ] || out="$here/../build/${out##*/}"
fi
mkdir -p "$out" || { echo "gpu-check: cannot create $out" >&2; exit 2; }
out=$(cd "$out" && pwd)
bundle=$(cd "$bundle" 2>/dev/null && pwd || echo "$bundle")

work=""  # scratch for the 1 GiB files: never under $out, whose files are carried back
cleanup() { [ -z "$work" ] || rm -rf "$work"; }
trap cleanup EXIT

deadline=$(($(date +%s) + budget))
names=() statuses=() seconds=() notes=()
blocked=""  # why the remaining bundle steps cannot run, once that is known

# step NAME LIMIT_SECONDS WHAT COMMAND...: runs COMMAND under `timeout`, output to NAME.log;
# shows the log's last lines; records the exit status (124: it ran past LIMIT_SECONDS).
step() {
  local name=$1 limit=$2 what=$3
  shift 3
  local log="$out/$name.log"
  echo
  echo "=== $name: $what (limit ${limit}s)"
  local left=$((deadline - $(date +%s)))
  local skip="$blocked"
  [ "$left" -ge 10 ] || skip="out of time (--budget $budget)"
  if [ -n "$skip" ]; then
    echo "skipped: $skip" | tee "$log"
    names+=("$name") statuses+=(skipped) seconds+=(0) notes+=("$skip")
    return
  fi
  [ "$limit" -le "$left" ] || limit=$left
  local start end rc
  start=$(date +%s.%N)
  timeout --kill-after=10 "$limit" "$@" >"$log" 2>&1
  rc=$?
  end=$(date +%s.%N)
  tail -n "${TAIL_LINES:-12}" "$log"
  local took note=""
  took=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }')
  [ $rc -eq 124 ] || [ $rc -eq 137 ] && note="timed out after ${limit}s"
  echo "--- $name: exit $rc in ${took}s${note:+ ($note)}"
  names+=("$name") statuses+=("$rc") seconds+=("$took") notes+=("$note")
}

# A step's last status, for checks that depend on it.
last_status() { echo "${statuses[${#statuses[@]}-1]}"; }

# ---- host -----------------------------------------------------------------------------------
host_info() {
  if command -v nvidia-smi >/dev/null; then
    nvidia-smi
    nvidia-smi --query-gpu=name,driver_version,pcie.link.gen.max,pcie.link.width.max,memory.total,clocks.max.sm \
      --format=csv
  else
    echo "nvidia-smi not found: no NVIDIA driver tools on this machine"
  fi
  echo
  uname -a
  [ -r /etc/os-release ] && (. /etc/os-release && echo "OS: $PRETTY_NAME")
  echo "glibc: $(ldd --version 2>&1 | head -1)"
  echo "CPUs: $(nproc), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-)"
  echo "memory: $(grep MemTotal /proc/meminfo)"
  ls -l /dev/nvidiactl /dev/nvidia0 2>&1
  command -v nvidia-smi >/dev/null  # the step fails without the driver's tools
}
TAIL_LINES=40 step host 20 "nvidia-smi, OS, glibc, CPUs" bash -c "$(declare -f host_info); host_info"

# ---- bundle -----------------------------------------------------------------------------------
check_bundle() {
  local missing=0
  for b in warpcrypt warpcrypt-acvp warpcrypt-tests warpcrypt-gpu-bench; do
    [ -x "$bundle/$b" ] || { echo "missing: $bundle/$b"; missing=1; }
  done
  [ -d "$bundle/vectors/cavp-gcm" ] || { echo "missing: $bundle/vectors"; missing=1; }
  if [ $missing -ne 0 ]; then
    echo
    echo "No usable bundle at $bundle. It is built on a machine with the Debian packages and"
    echo "the CUDA toolkit (this machine has neither the packages nor a network):"
    echo "  scripts/gpu-bundle.sh            # writes build/gpu-bundle"
    echo "then carry build/gpu-bundle here (it is git-ignored) and rerun this script."
    return 1
  fi
  cat "$bundle/MANIFEST.txt"
}
step bundle 10 "the bundle at $bundle" bash -c "bundle='$bundle'; $(declare -f check_bundle); check_bundle"
[ "$(last_status)" = 0 ] || blocked="no bundle (see the bundle step)"

# ---- start: the binaries load here ---------------------------------------------------------
check_start() {
  local failed=0 outp
  try_start() {  # try_start BINARY ARGS...
    if outp=$("$bundle/$1" "${@:2}" 2>&1); then
      echo "ok: $*"
      return
    fi
    failed=1
    echo "FAILED to start: $*"
    echo "$outp" | head -5
    if echo "$outp" | grep -q 'GLIBC_'; then
      echo "-> this machine's glibc is older than the bundle needs:"
      echo "   here: $(ldd --version 2>&1 | head -1)"
      echo "   bundle: $(grep '^needs:' "$bundle/MANIFEST.txt")"
      echo "   Build the bundle on a distribution whose glibc is no newer than this one's."
    fi
  }
  try_start warpcrypt --version
  try_start warpcrypt-acvp --list-backends
  try_start warpcrypt-gpu-bench --help
  try_start warpcrypt-tests --gtest_list_tests '--gtest_filter=Registry.*'
  echo "--- usable backends (the registry's cheap probe; the device opens in the next step):"
  "$bundle/warpcrypt-acvp" --list-backends 2>&1 | sed 's/^/  /'
  return $failed
}
TAIL_LINES=30 step start 30 "each binary starts" bash -c "bundle='$bundle'; $(declare -f check_start); check_start"
[ -n "$blocked" ] || [ "$(last_status)" = 0 ] || blocked="the bundle's binaries do not start here (see the start step)"

# ---- the backend --------------------------------------------------------------------------------
# `warpcrypt backends` opens the device for its listing; the step fails unless cuda says yes.
show_backends() {
  local listing rc
  listing=$("$bundle/warpcrypt" backends 2>&1)
  rc=$?
  echo "$listing"
  [ $rc -eq 0 ] || return $rc
  echo "$listing" | awk '$1 == "cuda" { found = 1; usable = ($2 == "yes") }
    END { if (!found) print "the cuda backend is not listed";
          else if (!usable) print "cuda: not usable (the reason is on its line above)";
          exit !(found && usable) }'
}
TAIL_LINES=30 step backends 30 "warpcrypt backends" bash -c "bundle='$bundle'; $(declare -f show_backends); show_backends"

vectors="$bundle/vectors"
for set in GCM ECB CTR; do
  dir="$vectors/acvp/ACVP-AES-$set-1.0"
  step "acvp-$(echo $set | tr 'A-Z' 'a-z')" 90 "warpcrypt-acvp --backend cuda, ACVP-AES-$set-1.0" bash -c \
    "'$bundle/warpcrypt-acvp' --backend cuda --expected '$dir/expectedResults.json' '$dir/prompt.json' > '$out/acvp-$set-response.json'"
done

# The cuda backend's instances of the vector, differential and consistency suites: test
# names end in the backend's name (Vectors/AeadFile.AllCases/cuda_gcmDecrypt128_rsp,
# Differential/OpenSslAead.InPlace/cuda_aes_256_gcm, Backends/AgainstScalar.*/cuda), less the
# CPU emulator's ("cuda-emulated", which CI runs everywhere). The vectors path is compiled in
# as "vectors", relative: the tests run from inside the bundle.
filter='Vectors/*/cuda_*:Differential/*/cuda_*:Backends/*/cuda:-*/cuda_emulated*'
run_tests() {
  cd "$bundle" || return 1
  local listed
  listed=$(./warpcrypt-tests --gtest_filter="$filter" --gtest_list_tests | grep -c '^  ')
  echo "cuda tests listed: $listed"
  if [ "$listed" -eq 0 ]; then
    echo "no cuda tests: the registry does not list the cuda backend as usable here (see the"
    echo "backends step: no /dev/nvidiactl, or no device)"
    return 1
  fi
  WARPCRYPT_REPORT_DIR="$out/test-reports" ./warpcrypt-tests --gtest_filter="$filter" \
    --gtest_output="xml:$out/tests.xml" --gtest_brief=1
}
TAIL_LINES=25 step tests 180 "warpcrypt-tests --gtest_filter='$filter'" bash -c \
  "bundle='$bundle' out='$out' filter='$filter'; $(declare -f run_tests); run_tests"

# ---- the benchmark ------------------------------------------------------------------------------
bench_args=(--out "$out/bench-report.md")
[ $quick -eq 0 ] || bench_args+=(--quick)
TAIL_LINES=8 step bench 240 "warpcrypt-gpu-bench ${bench_args[*]}" "$bundle/warpcrypt-gpu-bench" "${bench_args[@]}"
if [ -s "$out/bench-report.md" ]; then
  echo
  sed -n '/^## (g)/,$p' "$out/bench-report.md"
fi

# ---- a real file through the command ---------------------------------------------------------
rt_bytes=$((1024 * 1024 * 1024))
[ $quick -eq 0 ] || rt_bytes=$((64 * 1024 * 1024))
prepare_file() {
  echo "scratch: $work"
  "$bundle/warpcrypt" keygen -o "$work/key" &&
    head -c "$rt_bytes" /dev/urandom >"$work/plain" &&
    ls -l "$work/plain"
}
if [ -z "$blocked" ]; then
  # /dev/shm when it has room (the disk would time itself), else the system's temporary folder.
  shm_free=$(df -Pk /dev/shm 2>/dev/null | awk 'NR == 2 { print $4 }')
  if [ "${shm_free:-0}" -gt $((rt_bytes / 1024 * 3 + 1048576)) ]; then
    work=$(mktemp -d /dev/shm/gpu-check.XXXXXX)
  else
    work=$(mktemp -d)
  fi
fi
step rt-prepare 45 "a key and $rt_bytes random bytes in ${work:-?}" bash -c "bundle='$bundle' work='$work' rt_bytes=$rt_bytes; $(declare -f prepare_file); prepare_file"
timed() {  # prints the throughput of a command over the file
  local start end
  start=$(date +%s.%N)
  "$@" || return
  end=$(date +%s.%N)
  awk -v a="$start" -v b="$end" -v n="$rt_bytes" 'BEGIN { printf "%.3f s, %.0f MB/s\n", b - a, n / (b - a) / 1e6 }'
}
step rt-encrypt 60 "warpcrypt encrypt --backend cuda" bash -c "$(declare -f timed); rt_bytes=$rt_bytes; timed '$bundle/warpcrypt' encrypt --backend cuda -v -k '$work/key' -o '$work/sealed.warp' '$work/plain'"
step rt-decrypt 60 "warpcrypt decrypt --backend cuda" bash -c "$(declare -f timed); rt_bytes=$rt_bytes; timed '$bundle/warpcrypt' decrypt --backend cuda -v -k '$work/key' -o '$work/opened' '$work/sealed.warp'"
same_bytes() {  # cmp where diffutils is installed, else SHA-256 (coreutils) of both
  if command -v cmp >/dev/null; then cmp "$1" "$2" && echo "identical (cmp)"; return; fi
  local a b
  a=$(sha256sum <"$1") && b=$(sha256sum <"$2") || return 2
  [ "$a" = "$b" ] && echo "identical (sha256sum)" || { echo "$1 and $2 differ"; return 1; }
}
step rt-compare 30 "decrypted file == original" bash -c "$(declare -f same_bytes); same_bytes '$work/plain' '$work/opened'"
cleanup
work=""

# ---- summary --------------------------------------------------------------------------------
failed=0
for status in "${statuses[@]}"; do [ "$status" = 0 ] || failed=$((failed + 1)); done
{
  echo "# gpu-check summary ($(date -u '+%Y-%m-%d %H:%M UTC'))"
  echo
  echo "bundle: $bundle"
  echo "logs and reports: $out"
  echo
  echo "| step | exit | seconds | note |"
  echo "| --- | ---: | ---: | --- |"
  for i in "${!names[@]}"; do
    echo "| ${names[$i]} | ${statuses[$i]} | ${seconds[$i]} | ${notes[$i]} |"
  done
  echo
  if [ $failed -eq 0 ]; then
    echo "gpu-check: all ${#names[@]} steps passed"
  else
    echo "gpu-check: $failed of ${#names[@]} steps FAILED or were skipped"
  fi
} | tee "$out/summary.md"
[ $failed -eq 0 ]
