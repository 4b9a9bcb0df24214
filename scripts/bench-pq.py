#!/usr/bin/env python3
"""ML-KEM-768 encapsulation and decapsulation, warpcrypt against OpenSSL (issue 48, item 4).

warpcrypt's side is tests/bench/warpcrypt-pq-bench (Google Benchmark, BM_MlKem768Encaps and
BM_MlKem768Decaps); OpenSSL's is the same two operations through python `cryptography`, timed
with timeit (the figure includes Python's call overhead, a fraction of a microsecond, which
favours warpcrypt slightly). The two sides alternate for --rounds rounds and each keeps its
best, so a busy moment on the machine costs both the same. Prints a Markdown table; the goal
is OpenSSL's time / warpcrypt's time >= 1.0.

Run it with the interop venv's python, which has `cryptography`:
    build/interop-venv/bin/python scripts/bench-pq.py [path/to/warpcrypt-pq-bench] [--rounds N]
"""

import argparse
import datetime
import json
import pathlib
import statistics
import subprocess
import sys
import timeit

ROOT = pathlib.Path(__file__).resolve().parent.parent
OPERATIONS = {"encapsulation": "BM_MlKem768Encaps", "decapsulation": "BM_MlKem768Decaps"}


def default_bench() -> pathlib.Path:
    for preset in ("release", "default"):
        path = ROOT / "build" / preset / "tests" / "bench" / "warpcrypt-pq-bench"
        if path.exists():
            return path
    sys.exit("no warpcrypt-pq-bench in build/release or build/default: build it, or name it")


def warpcrypt_us(bench: pathlib.Path, min_time: float) -> dict[str, float]:
    """Microseconds per operation, from one run of the benchmark program (CPU time)."""
    result = subprocess.run(
        [str(bench), "--benchmark_format=json", f"--benchmark_min_time={min_time}",
         "--benchmark_filter=" + "|".join(f"^{name}$" for name in OPERATIONS.values())],
        check=True, capture_output=True, text=True)
    by_name = {b["name"]: b for b in json.loads(result.stdout)["benchmarks"]}
    scale = {"ns": 1e-3, "us": 1.0, "ms": 1e3}
    return {op: by_name[name]["cpu_time"] * scale[by_name[name]["time_unit"]]
            for op, name in OPERATIONS.items()}


def openssl_us(repeats: int = 5, number: int = 2000) -> dict[str, float]:
    """Microseconds per operation through cryptography: the median of `repeats` timings."""
    from cryptography.hazmat.primitives.asymmetric import mlkem

    private_key = mlkem.MLKEM768PrivateKey.generate()
    public_key = private_key.public_key()
    _, ciphertext = public_key.encapsulate()
    timers = {"encapsulation": timeit.Timer(public_key.encapsulate),
              "decapsulation": timeit.Timer(lambda: private_key.decapsulate(ciphertext))}
    return {op: statistics.median(t.repeat(repeats, number)) / number * 1e6
            for op, t in timers.items()}


def cpu_model() -> str:
    try:
        for line in pathlib.Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown CPU"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("bench", nargs="?", type=pathlib.Path, default=None,
                        help="warpcrypt-pq-bench (default: build/release's, else build/default's)")
    parser.add_argument("--rounds", type=int, default=3, help="alternations of the two sides")
    parser.add_argument("--min-time", type=float, default=0.5,
                        help="Google Benchmark's --benchmark_min_time, seconds (a plain number)")
    args = parser.parse_args()
    bench = args.bench or default_bench()

    import cryptography
    from cryptography.hazmat.backends.openssl import backend

    best_warpcrypt = {op: float("inf") for op in OPERATIONS}
    best_openssl = {op: float("inf") for op in OPERATIONS}
    for _ in range(args.rounds):
        for op, us in warpcrypt_us(bench, args.min_time).items():
            best_warpcrypt[op] = min(best_warpcrypt[op], us)
        for op, us in openssl_us().items():
            best_openssl[op] = min(best_openssl[op], us)

    print(f"CPU: {cpu_model()}")
    print(f"Date: {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M UTC}")
    print(f"warpcrypt: {bench.relative_to(ROOT) if bench.is_relative_to(ROOT) else bench}")
    print(f"Best of {args.rounds} alternating rounds per side.")
    print()
    openssl = f"OpenSSL ({backend.openssl_version_text()}, cryptography {cryptography.__version__})"
    print(f"| ML-KEM-768 | warpcrypt us | {openssl} us | OpenSSL / warpcrypt | goal >= 1.0x |")
    print("|---|---:|---:|---:|---|")
    for op in OPERATIONS:
        ratio = best_openssl[op] / best_warpcrypt[op]
        verdict = "met" if ratio >= 1.0 else "not met"
        print(f"| {op} | {best_warpcrypt[op]:.1f} | {best_openssl[op]:.1f} | {ratio:.2f}x | {verdict} |")


if __name__ == "__main__":
    main()
