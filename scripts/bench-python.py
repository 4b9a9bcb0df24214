#!/usr/bin/env python3
"""warpcrypt's Python package against pyrage, in memory, in the same run.

Encrypts and decrypts 1 KiB, 1 MiB and 64 MiB to one X25519 recipient (age format, as pyrage
writes) with `warpcrypt.encrypt` / `decrypt` and `pyrage.encrypt` / `decrypt`, the same call
written for both, and prints each one's median time and the ratio pyrage / warpcrypt (above 1:
warpcrypt is faster). The two alternate run by run, so that a noisy neighbour on a shared
machine slows both. Goals (issue 47): >= 3x at 64 MiB, >= 1.0x at 1 KiB.

Run it with a Python that has both packages (scripts/test-python.sh makes one):
    build/python-venv/bin/python scripts/bench-python.py [--quick]
Exit status: 0 when every goal is met, 1 otherwise.
"""
import argparse
import importlib.metadata
import os
import platform
import statistics
import sys
import time

import pyrage
import warpcrypt

KIB = 1024
MIB = 1024 * KIB

# (size, runs of each library per measurement, calls per run): small sizes are timed over many
# calls per run, so that the clock's resolution and one call's jitter do not decide the ratio.
SIZES = [(1 * KIB, 15, 400), (1 * MIB, 15, 10), (64 * MIB, 7, 1)]
GOALS = {1 * KIB: 1.0, 64 * MIB: 3.0}


def cpu_model():
    try:
        with open("/proc/cpuinfo", encoding="ascii", errors="replace") as info:
            for line in info:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def per_call(function, calls):
    started = time.perf_counter()
    for _ in range(calls):
        function()
    return (time.perf_counter() - started) / calls


def measure(ours, theirs, runs, calls):
    """Median seconds per call of each, the runs alternating between the two."""
    ours(), theirs()  # warm: first-call costs (page faults, lazy binding) out of the figures
    mine, reference = [], []
    for _ in range(runs):
        mine.append(per_call(ours, calls))
        reference.append(per_call(theirs, calls))
    return statistics.median(mine), statistics.median(reference)


def label(size):
    return f"{size // MIB} MiB" if size >= MIB else f"{size // KIB} KiB"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer runs (a smoke test)")
    args = parser.parse_args()

    print(f"cpu: {cpu_model()} ({os.cpu_count()} logical CPUs)")
    print(f"python {platform.python_version()}, warpcrypt {warpcrypt.__version__}, "
          f"pyrage {importlib.metadata.version('pyrage')}")
    print(f"{'size':>7} {'op':>8} {'warpcrypt':>12} {'pyrage':>12} {'ratio':>7}  goal")

    # One key pair for both: each library's own types, from the same text.
    identity_text = str(pyrage.x25519.Identity.generate())
    ours_id = warpcrypt.x25519.Identity.from_str(identity_text)
    theirs_id = pyrage.x25519.Identity.from_str(identity_text)
    ours_to, theirs_to = [ours_id.to_public()], [theirs_id.to_public()]

    met = True
    for size, runs, calls in SIZES:
        if args.quick:
            runs, calls = 3, max(1, calls // 10)
        plaintext = os.urandom(size)
        sealed = pyrage.encrypt(plaintext, theirs_to)
        assert warpcrypt.decrypt(sealed, [ours_id]) == plaintext
        assert pyrage.decrypt(warpcrypt.encrypt(plaintext, ours_to), [theirs_id]) == plaintext
        cases = [
            ("encrypt", lambda: warpcrypt.encrypt(plaintext, ours_to),
             lambda: pyrage.encrypt(plaintext, theirs_to)),
            ("decrypt", lambda: warpcrypt.decrypt(sealed, [ours_id]),
             lambda: pyrage.decrypt(sealed, [theirs_id])),
        ]
        for op, ours, theirs in cases:
            mine, reference = measure(ours, theirs, runs, calls)
            ratio = reference / mine
            goal = GOALS.get(size)
            verdict = ""
            if goal is not None:
                ok = ratio >= goal
                met = met and ok
                verdict = f">= {goal:.1f}x {'met' if ok else 'MISSED'}"
            print(f"{label(size):>7} {op:>8} {mine * 1e6:>10.1f}us {reference * 1e6:>10.1f}us "
                  f"{ratio:>6.2f}x  {verdict}")
        del plaintext, sealed
    print("goals: " + ("all met" if met else "missed"))
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
