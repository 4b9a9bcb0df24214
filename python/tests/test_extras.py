"""What warpcrypt has beyond pyrage: ranges, headers, the version, the async functions."""

from __future__ import annotations

import asyncio
import concurrent.futures
import re

import pytest

import warpcrypt
from warpcrypt import passphrase, pq, x25519

PLAINTEXT = bytes(range(256)) * 2000  # 512000 bytes: several chunks


@pytest.mark.parametrize("fmt", ["age", "warp"])
def test_decrypt_range(x25519_pair, fmt):
    recipient, identity = x25519_pair
    ciphertext = warpcrypt.encrypt(PLAINTEXT, [recipient], format=fmt)
    for offset, length in [(0, 10), (65530, 20), (100_000, 200_000), (511_990, 100),
                           (0, len(PLAINTEXT)), (600_000, 5), (5, 0)]:
        expected = PLAINTEXT[offset:offset + length]
        assert warpcrypt.decrypt_range(ciphertext, [identity], offset, length) == expected
    with pytest.raises(warpcrypt.DecryptError):
        warpcrypt.decrypt_range(ciphertext, [x25519.Identity.generate()], 0, 1)
    with pytest.raises(ValueError):
        warpcrypt.decrypt_range(ciphertext, [identity], -1, 1)


def test_decrypt_range_refuses_armor(x25519_pair):
    recipient, identity = x25519_pair
    ciphertext = warpcrypt.encrypt(b"x", [recipient], armored=True)
    with pytest.raises(warpcrypt.DecryptError):
        warpcrypt.decrypt_range(ciphertext, [identity], 0, 1)


def test_info(x25519_pair):
    recipient, _ = x25519_pair
    ciphertext = warpcrypt.encrypt(PLAINTEXT, [recipient, recipient])
    header = warpcrypt.info(ciphertext)
    assert isinstance(header, warpcrypt.Info)
    assert (header.format, header.armored, header.version) == ("age", False, 1)
    assert header.cipher == "chacha20-poly1305"
    assert header.chunk_size == 65536
    assert header.plaintext_bytes == len(PLAINTEXT)
    assert 0 < header.header_bytes < len(ciphertext)
    assert [e.type for e in header.entries] == ["X25519", "X25519"]
    assert header.entries[0].known and header.entries[0].public_key
    assert header.entries[0].post_quantum is False

    armored = warpcrypt.info(warpcrypt.encrypt(b"x", [recipient], armored=True))
    assert armored.armored and armored.header_bytes is None

    warp = warpcrypt.info(warpcrypt.encrypt(PLAINTEXT, [pq.Identity.generate().to_public()],
                                            format="warp"))
    assert warp.format == "warp"
    assert warp.plaintext_bytes == len(PLAINTEXT)
    assert warp.entries[0].post_quantum is True

    (entry,) = warpcrypt.info(passphrase.encrypt(b"x", "pw", format="warp",
                                                 work_factor=10)).entries
    assert entry.argon2id_memory_kib == 1024 and entry.argon2id_passes > 0
    assert not entry.public_key

    with pytest.raises(warpcrypt.DecryptError):
        warpcrypt.info(b"not an encrypted file")


def test_version():
    assert re.fullmatch(r"\d+\.\d+\.\d+.*", warpcrypt.__version__)


def test_async(x25519_pair, tmp_path):
    recipient, identity = x25519_pair

    async def main():
        encrypted = await warpcrypt.encrypt_async(b"async", [recipient], armored=True)
        assert await warpcrypt.decrypt_async(encrypted, [identity]) == b"async"
        with concurrent.futures.ThreadPoolExecutor(2) as pool:
            both = await asyncio.gather(
                warpcrypt.encrypt_async(b"a", [recipient], executor=pool),
                warpcrypt.encrypt_async(b"b", [recipient], executor=pool, format="warp"))
        assert [warpcrypt.decrypt(c, [identity]) for c in both] == [b"a", b"b"]
        (tmp_path / "p").write_bytes(b"file")
        await warpcrypt.encrypt_file_async(str(tmp_path / "p"), str(tmp_path / "e"),
                                           [recipient])
        await warpcrypt.decrypt_file_async(str(tmp_path / "e"), str(tmp_path / "d"),
                                           [identity])
        assert (tmp_path / "d").read_bytes() == b"file"
        with pytest.raises(TypeError):  # at the call, not at the await
            warpcrypt.encrypt_async("str", [recipient])
        with pytest.raises(TypeError):
            warpcrypt.decrypt_async(encrypted, [recipient])
        with pytest.raises(warpcrypt.DecryptError):
            await warpcrypt.decrypt_async(encrypted, [x25519.Identity.generate()])
        with concurrent.futures.ProcessPoolExecutor(1) as pool:
            with pytest.raises(TypeError):
                warpcrypt.encrypt_async(b"x", [recipient], executor=pool)

    asyncio.run(main())


def test_shared_across_threads(x25519_pair):
    recipient, identity = x25519_pair
    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        results = list(pool.map(
            lambda n: warpcrypt.decrypt(warpcrypt.encrypt(bytes([n]) * 5000, [recipient]),
                                        [identity]),
            range(64)))
    assert results == [bytes([n]) * 5000 for n in range(64)]
