"""Failures: the exception classes pyrage raises for the same mistakes."""

from __future__ import annotations

import io
import os
import stat

import pytest

import warpcrypt
from warpcrypt import x25519


@pytest.fixture
def encrypted(x25519_pair):
    recipient, identity = x25519_pair
    return warpcrypt.encrypt(b"secret" * 30_000, [recipient]), identity


def test_wrong_key(encrypted):
    ciphertext, _ = encrypted
    with pytest.raises(warpcrypt.DecryptError) as caught:
        warpcrypt.decrypt(ciphertext, [x25519.Identity.generate()])
    assert caught.value.status == 3  # WARPCRYPT_E_WRONG_KEY


def test_no_identities(encrypted):
    with pytest.raises(warpcrypt.DecryptError):
        warpcrypt.decrypt(encrypted[0], [])


def test_no_recipients():
    with pytest.raises(warpcrypt.EncryptError, match="Missing recipients"):
        warpcrypt.encrypt(b"test", [])


@pytest.mark.parametrize("cut", [1, 17, 100, 20_000])
def test_truncated(encrypted, cut):
    ciphertext, identity = encrypted
    with pytest.raises(warpcrypt.DecryptError):
        warpcrypt.decrypt(ciphertext[:-cut], [identity])
    with pytest.raises(warpcrypt.DecryptError):
        warpcrypt.decrypt_io(io.BytesIO(ciphertext[:-cut]), io.BytesIO(), [identity])


def test_tampered(encrypted):
    ciphertext, identity = encrypted
    damaged = bytearray(ciphertext)
    damaged[-100] ^= 1
    with pytest.raises(warpcrypt.DecryptError):
        warpcrypt.decrypt(bytes(damaged), [identity])


@pytest.mark.parametrize("data", [b"", b"garbage", b"age-encryption.org/v1\n"])
def test_not_a_file(x25519_pair, data):
    with pytest.raises(warpcrypt.DecryptError):
        warpcrypt.decrypt(data, [x25519_pair[1]])


def test_type_errors(x25519_pair):
    recipient, identity = x25519_pair
    bad_calls = [
        lambda: warpcrypt.encrypt("str", [recipient]),
        lambda: warpcrypt.encrypt(b"x", [identity]),
        lambda: warpcrypt.encrypt(b"x", recipient),
        lambda: warpcrypt.encrypt(b"x", "age1..."),
        lambda: warpcrypt.encrypt(b"x", (r for r in [recipient])),
        lambda: warpcrypt.encrypt(b"x", [recipient], armored=1),
        lambda: warpcrypt.encrypt(b"x", [recipient], armored=None),
        lambda: warpcrypt.decrypt("str", [identity]),
        lambda: warpcrypt.decrypt(b"x", [recipient]),
        lambda: warpcrypt.decrypt(b"x", identity),
        lambda: warpcrypt.decrypt(b"x", [object()]),
        lambda: warpcrypt.encrypt_io("test", io.BytesIO(), [recipient]),
        lambda: warpcrypt.encrypt_io(io.BytesIO(), "test", [recipient]),
        lambda: warpcrypt.decrypt_io("test", io.BytesIO(), [identity]),
        lambda: warpcrypt.decrypt_io(io.BytesIO(), "test", [identity]),
        lambda: warpcrypt.decrypt_io(io.BytesIO(), io.BytesIO(), [recipient]),
        lambda: warpcrypt.encrypt_file(5, "out", [recipient]),
        lambda: warpcrypt.passphrase.encrypt(b"x", 5),
        lambda: warpcrypt.decrypt_range(b"x", [identity], "0", 1),
    ]
    for call in bad_calls:
        with pytest.raises(TypeError):
            call()


def test_bad_format(x25519_pair):
    with pytest.raises(ValueError):
        warpcrypt.encrypt(b"x", [x25519_pair[0]], format="zip")
    with pytest.raises(ValueError):
        warpcrypt.encrypt(b"x", [x25519_pair[0]], format=["age"])


def test_missing_input_file(tmp_path, x25519_pair):
    recipient, identity = x25519_pair
    with pytest.raises(FileNotFoundError):
        warpcrypt.encrypt_file(str(tmp_path / "nope"), str(tmp_path / "out"), [recipient])
    with pytest.raises(FileNotFoundError):
        warpcrypt.decrypt_file(str(tmp_path / "nope"), str(tmp_path / "out"), [identity])
    with pytest.raises(FileNotFoundError):
        warpcrypt.encrypt_file(__file__, str(tmp_path / "no" / "out"), [recipient])
    assert not (tmp_path / "out").exists()


def test_decrypt_file_keeps_destination_on_failure(tmp_path, encrypted):
    ciphertext, identity = encrypted
    (tmp_path / "enc").write_bytes(ciphertext[:-10])
    (tmp_path / "out").write_bytes(b"previous")
    with pytest.raises(warpcrypt.DecryptError):
        warpcrypt.decrypt_file(str(tmp_path / "enc"), str(tmp_path / "out"), [identity])
    assert (tmp_path / "out").read_bytes() == b"previous"
    with pytest.raises(warpcrypt.DecryptError):
        warpcrypt.decrypt_file(str(tmp_path / "enc"), str(tmp_path / "new"), [identity])
    assert sorted(os.listdir(tmp_path)) == ["enc", "out"]  # no temporary file left


def test_decrypt_file_keeps_mode_and_links(tmp_path, encrypted):
    ciphertext, identity = encrypted
    (tmp_path / "enc").write_bytes(ciphertext)
    (tmp_path / "out").write_bytes(b"previous")
    (tmp_path / "out").chmod(0o600)
    (tmp_path / "link").symlink_to(tmp_path / "out")
    warpcrypt.decrypt_file(str(tmp_path / "enc"), str(tmp_path / "link"), [identity])
    assert (tmp_path / "link").is_symlink()
    assert (tmp_path / "out").read_bytes() == b"secret" * 30_000
    assert stat.S_IMODE((tmp_path / "out").stat().st_mode) == 0o600


class _FailingReader(io.RawIOBase):
    def readable(self):
        return True

    def readinto(self, buffer):
        raise ValueError("boom")


class _FailingWriter:
    def write(self, data):
        raise KeyError("full")


def test_stream_exceptions_come_through(encrypted, x25519_pair):
    ciphertext, identity = encrypted
    recipient = x25519_pair[0]
    with pytest.raises(ValueError, match="boom"):
        warpcrypt.encrypt_io(_FailingReader(), io.BytesIO(), [recipient])
    with pytest.raises(KeyError):
        warpcrypt.encrypt_io(io.BytesIO(b"x"), _FailingWriter(), [recipient])
    with pytest.raises(ValueError, match="boom"):
        warpcrypt.decrypt_io(_FailingReader(), io.BytesIO(), [identity])
    with pytest.raises(KeyError):
        warpcrypt.decrypt_io(io.BytesIO(ciphertext), _FailingWriter(), [identity])


def test_duck_typed_and_text_streams(x25519_pair):
    recipient, identity = x25519_pair

    class Reader:  # read() only, giving more than asked for at times
        def __init__(self, data):
            self.data = data

        def read(self, size=-1):
            size = size * 3 if size > 0 else len(self.data)
            chunk, self.data = self.data[:size], self.data[size:]
            return chunk

    class Writer:  # write() returning None
        def __init__(self):
            self.parts = []

        def write(self, data):
            self.parts.append(data)

    writer = Writer()
    warpcrypt.encrypt_io(Reader(b"duck" * 100_000), writer, [recipient])
    assert warpcrypt.decrypt(b"".join(writer.parts), [identity]) == b"duck" * 100_000
    class RawReadOnly(io.RawIOBase):  # read() without readinto(), which RawIOBase lacks
        def __init__(self, data):
            self.inner = io.BytesIO(data)

        def readable(self):
            return True

        def read(self, size=-1):
            return self.inner.read(size)

    writer = Writer()
    warpcrypt.encrypt_io(RawReadOnly(b"raw" * 50_000), writer, [recipient])
    assert warpcrypt.decrypt(b"".join(writer.parts), [identity]) == b"raw" * 50_000
    text = io.StringIO()
    warpcrypt.encrypt_io(io.StringIO("text in"), text, [recipient], armored=True)
    assert warpcrypt.decrypt(text.getvalue().encode(), [identity]) == b"text in"
    with pytest.raises(UnicodeDecodeError):
        warpcrypt.encrypt_io(io.BytesIO(b"x"), io.StringIO(), [recipient])
