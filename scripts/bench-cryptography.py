#!/usr/bin/env python3
"""ChaCha20-Poly1305 throughput of python `cryptography` (which bundles OpenSSL 4), one thread.

The second same-run kernel reference of scripts/bench-kernels.sh (the first is the system's
`openssl speed`). Prints a "# <OpenSSL version>" line, then one line per cell: "<suite> <encrypt|decrypt> <size> <MB/s>", MB/s being
10^6 bytes per second of this thread's CPU time, like `openssl speed` and `warpcrypt bench`.

Each call is one whole AEAD message (fresh output buffer, 16-byte tag), so at 64 KiB the Python
call and the allocation of the result add about 1 us (a few percent) to OpenSSL's time; at 1 MiB
they vanish. Usage: bench-cryptography.py SECONDS SIZE...
"""
import sys
import time

from cryptography.hazmat.backends.openssl import backend
from cryptography.hazmat.primitives.ciphers.aead import AESGCM, ChaCha20Poly1305

SUITES = {"chacha20-poly1305": ChaCha20Poly1305, "aes-256-gcm": AESGCM}


def rate(call, size, seconds):
    call()  # warm-up
    calls = 0
    start = time.thread_time()
    while True:
        for _ in range(8):
            call()
        calls += 8
        spent = time.thread_time() - start
        if spent >= seconds:
            return calls * size / spent / 1e6


def main():
    seconds = float(sys.argv[1])
    sizes = [int(s) for s in sys.argv[2:]]
    print(f"# {backend.openssl_version_text()} (python cryptography)", flush=True)
    key, nonce = bytes(range(32)), bytes(12)
    for suite, cls in SUITES.items():
        aead = cls(key)
        for size in sizes:
            data = bytes(size)
            sealed = aead.encrypt(nonce, data, None)
            print(suite, "encrypt", size, f"{rate(lambda: aead.encrypt(nonce, data, None), size, seconds):.1f}")
            print(suite, "decrypt", size, f"{rate(lambda: aead.decrypt(nonce, sealed, None), size, seconds):.1f}")


if __name__ == "__main__":
    main()
