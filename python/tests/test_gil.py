"""The library works with the GIL released: another thread keeps running meanwhile (as
pyrage's test_gil.py checks it)."""

from __future__ import annotations

import os
import threading
import time

import warpcrypt

SIZE = 64 * 1024 * 1024


def assert_releases_gil(call):
    """Runs `call` on a thread while this one spins: were the GIL held, this thread would
    stall for the whole call."""
    done = threading.Event()

    def worker():
        try:
            call()
        finally:
            done.set()

    start = last = time.monotonic()  # before start(): a stall inside it counts
    longest = 0.0
    iterations = 0
    thread = threading.Thread(target=worker)
    thread.start()
    while not done.is_set():
        now = time.monotonic()
        longest = max(longest, now - last)
        last = now
        iterations += 1
    elapsed = time.monotonic() - start
    thread.join()
    assert iterations > 1000
    assert longest < elapsed / 2, (longest, elapsed)


def test_encrypt_and_decrypt():
    identity = warpcrypt.x25519.Identity.generate()
    plaintext = bytes(SIZE)
    encrypted = []
    assert_releases_gil(lambda: encrypted.append(warpcrypt.encrypt(plaintext,
                                                                   [identity.to_public()])))
    assert_releases_gil(lambda: warpcrypt.decrypt(encrypted[0], [identity]))


def test_files(tmp_path):
    identity = warpcrypt.x25519.Identity.generate()
    with open(tmp_path / "plain", "wb") as file:
        file.truncate(SIZE)
    plain, enc, dec = (str(tmp_path / n) for n in ("plain", "enc", "dec"))
    assert_releases_gil(lambda: warpcrypt.encrypt_file(plain, enc, [identity.to_public()]))
    assert_releases_gil(lambda: warpcrypt.decrypt_file(enc, dec, [identity]))
    assert os.path.getsize(dec) == SIZE
