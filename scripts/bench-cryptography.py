#!/usr/bin/env python3
"""ChaCha20-Poly1305 and AES-256-GCM throughput of python `cryptography` (which bundles OpenSSL
4), one thread.

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
    nonce = bytes(12)
    for suite, aead in (("chacha20-poly1305", ChaCha20Poly1305(bytes(range(32)))),
                        ("aes-256-gcm", AESGCM(bytes(range(32))))):
        for size in sizes:
            data = bytes(size)
            sealed = aead.encrypt(nonce, data, None)
            encrypt = rate(lambda: aead.encrypt(nonce, data, None), size, seconds)
            decrypt = rate(lambda: aead.decrypt(nonce, sealed, None), size, seconds)
            print(suite, "encrypt", size, f"{encrypt:.1f}", flush=True)
            print(suite, "decrypt", size, f"{decrypt:.1f}", flush=True)


if __name__ == "__main__":
    main()
