#!/usr/bin/env bash
# Where the time goes, by instruction: a kernel or a whole-file run under `perf record -e
# cpu-clock` (these VMs expose no hardware counters, but the timer interrupt still lands on the
# instruction that was running), with the hottest symbols and their hottest instructions
# annotated; and the steady loop of the hottest kernel symbol through `llvm-mca`, which
# predicts that loop's cycles per iteration and port pressure on each CPU named.
# docs/performance.md, "Profiling", says how to read the output.
#
# Usage:
#   scripts/profile.sh kernel CIPHER BACKEND SIZE   e.g. kernel aes-256-gcm x86-avx512 16K
#       `warpcrypt bench` on that one cell (seal and open, one thread) under perf
#   scripts/profile.sh file FORMAT DIRECTION SIZE [THREADS]   e.g. file warp encrypt 1G 2
#       one whole-file run (FORMAT warp|age, DIRECTION encrypt|decrypt) on tmpfs under perf,
#       every thread and the kernel's share (copies, page faults) included
#   scripts/profile.sh bin -- COMMAND...             any command under perf
# Environment:
#   WARPCRYPT_BIN    the binary to profile (default build/release/cli/warpcrypt, built when
#                    missing with scripts/build.sh release)
#   PROFILE_SECONDS  CPU seconds per kernel cell (default 2)
#   PROFILE_MCA_CPUS the CPUs llvm-mca models (default "sapphirerapids icelake-server znver3")
#   PROFILE_OUT      where perf.data and the full reports go (default a new directory under
#                    /tmp, printed at the end)
#   PROFILE_DIR      scratch directory for whole-file runs (default /dev/shm)
set -euo pipefail
cd "$(dirname "$0")/.."

die() { echo "profile: $*" >&2; exit 2; }
usage() { awk '/^# Usage:/ { on = 1 } on && /^#/ { sub(/^# ?/, ""); print; next } on { exit }' "$0"; }

[ $# -ge 1 ] || { usage >&2; exit 2; }
mode=$1; shift

scripts/deps.sh profile >&2
bin=${WARPCRYPT_BIN:-build/release/cli/warpcrypt}
if [ -z "${WARPCRYPT_BIN:-}" ] && [ "$mode" != bin ]; then
  scripts/build.sh release --target warpcrypt >&2
fi
out=${PROFILE_OUT:-$(mktemp -d /tmp/warpcrypt-profile.XXXXXX)}
mkdir -p "$out"
mca_cpus=${PROFILE_MCA_CPUS:-sapphirerapids icelake-server znver3}
# 4999 Hz rather than a round number, so sampling does not beat with periodic work.
record=(perf record -e cpu-clock -F 4999 -o "$out/perf.data" --)

echo "# profile: $mode $*"
echo
echo '```'
echo "date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
echo "cpu:  $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)"
echo "git:  $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
echo '```'
echo

case $mode in
kernel)
  [ $# -eq 3 ] || die "kernel needs CIPHER BACKEND SIZE"
  cipher=$1 backend=$2 size=$3
  "${record[@]}" "$bin" bench --cipher "$cipher" --backend "$backend" --sizes "$size" \
    --seconds "${PROFILE_SECONDS:-2}" >"$out/bench.txt" 2>"$out/perf-record.log"
  echo "warpcrypt bench (its own figures, slowed a little by sampling):"
  echo
  echo '```'
  cat "$out/bench.txt"
  echo '```'
  echo
  python3 scripts/profile_report.py --data "$out/perf.data" --binary "$bin" \
    --mca-cpus "$mca_cpus" --out "$out"
  ;;
file)
  [ $# -ge 3 ] || die "file needs FORMAT DIRECTION SIZE [THREADS]"
  format=$1 direction=$2 size=$3 threads=${4:-}
  dir=${PROFILE_DIR:-/dev/shm}/warpcrypt-profile.$$
  mkdir -p "$dir"
  trap 'rm -rf "$dir"' EXIT
  head -c "$(numfmt --from=iec "$size")" /dev/urandom >"$dir/plain"
  "$bin" keygen -o "$dir/key" >/dev/null 2>&1
  # age files take a recipient: an X25519 one, as age-keygen 1.1 makes (one X25519 exchange
  # per run: the payload is what is profiled).
  key_args=(--key-file "$dir/key")
  if [ "$format" = age ]; then
    "$bin" keygen --identity --x25519 -o "$dir/identity" >/dev/null 2>&1
    recipient=$("$bin" keygen -y "$dir/identity")
    enc_args=(--format age --no-pq-warning -r "$recipient")
    dec_args=(-i "$dir/identity")
  else
    enc_args=("${key_args[@]}")
    dec_args=("${key_args[@]}")
  fi
  thread_args=()
  [ -z "$threads" ] || thread_args=(--threads "$threads")
  "$bin" encrypt "${enc_args[@]}" "${thread_args[@]}" -o "$dir/sealed" "$dir/plain"
  if [ "$direction" = encrypt ]; then
    rm -f "$dir/sealed2"
    run=("$bin" encrypt "${enc_args[@]}" "${thread_args[@]}" -o "$dir/sealed2" "$dir/plain")
  else
    run=("$bin" decrypt "${dec_args[@]}" "${thread_args[@]}" -o "$dir/opened" "$dir/sealed")
  fi
  echo "command: ${run[*]}"
  echo
  # Once unrecorded first: a tmpfs file's first pages can cost reclaim elsewhere (a first run
  # here took 2.7 s of system time, the next 0.5), which is the machine's state, not warpcrypt.
  "${run[@]}"
  rm -f "$dir/sealed2" "$dir/opened"
  "${record[@]}" "${run[@]}" 2>"$out/perf-record.log"
  python3 scripts/profile_report.py --data "$out/perf.data" --binary "$bin" --whole-run \
    --mca-cpus "" --out "$out"
  ;;
bin)
  [ "${1:-}" = -- ] && shift
  [ $# -ge 1 ] || die "bin needs a command"
  "${record[@]}" "$@" 2>"$out/perf-record.log"
  python3 scripts/profile_report.py --data "$out/perf.data" --binary "$1" --whole-run \
    --mca-cpus "$mca_cpus" --out "$out"
  ;;
*)
  usage >&2
  exit 2
  ;;
esac
echo
echo "perf data and full reports: $out (perf annotate -i $out/perf.data for the rest)"
