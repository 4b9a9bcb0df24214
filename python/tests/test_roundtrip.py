"""Every key kind, both formats, with and without armor, through every entry point."""

from __future__ import annotations

import io

import pytest

import warpcrypt
from warpcrypt import passphrase

PLAINTEXTS = [b"", b"test", bytes(range(256)) * 1000]


@pytest.mark.parametrize("fmt", ["age", "warp"])
@pytest.mark.parametrize("armored", [False, True])
def test_memory(key_pair, fmt, armored):
    recipient, identity, formats = key_pair
    if fmt not in formats or (armored and fmt == "warp"):
        with pytest.raises(warpcrypt.EncryptError):
            warpcrypt.encrypt(b"x", [recipient], armored=armored, format=fmt)
        return
    for plaintext in PLAINTEXTS:
        encrypted = warpcrypt.encrypt(plaintext, [recipient], armored=armored, format=fmt)
        assert type(encrypted) is bytes
        assert encrypted.startswith(b"-----BEGIN AGE ENCRYPTED FILE-----") == armored
        assert warpcrypt.decrypt(encrypted, [identity]) == plaintext


def test_default_format_is_age(x25519_pair):
    recipient, _ = x25519_pair
    assert warpcrypt.encrypt(b"x", [recipient]).startswith(b"age-encryption.org/v1\n")
    assert warpcrypt.info(warpcrypt.encrypt(b"x", [recipient], format="warp")).format == "warp"


@pytest.mark.parametrize("fmt", ["age", "warp"])
def test_io_bytesio(key_pair, fmt):
    recipient, identity, formats = key_pair
    if fmt not in formats:
        pytest.skip(f"{fmt} files take no such key")
    plaintext = bytes(range(256)) * 5000  # over one 64 KiB chunk
    encrypted = io.BytesIO()
    warpcrypt.encrypt_io(io.BytesIO(plaintext), encrypted, [recipient], format=fmt)
    decrypted = io.BytesIO()
    warpcrypt.decrypt_io(io.BytesIO(encrypted.getvalue()), decrypted, [identity])
    assert decrypted.getvalue() == plaintext


@pytest.mark.parametrize("armored", [False, True])
def test_io_real_files(tmp_path, x25519_pair, armored):
    recipient, identity = x25519_pair
    plaintext = b"0123456789" * 100_000
    (tmp_path / "plain").write_bytes(plaintext)
    with open(tmp_path / "plain", "rb") as source, open(tmp_path / "enc", "wb") as sink:
        warpcrypt.encrypt_io(source, sink, [recipient], armored=armored)
    with open(tmp_path / "enc", "rb") as source, open(tmp_path / "dec", "wb") as sink:
        warpcrypt.decrypt_io(source, sink, [identity])
    assert (tmp_path / "dec").read_bytes() == plaintext


@pytest.mark.parametrize("fmt", ["age", "warp"])
@pytest.mark.parametrize("armored", [False, True])
def test_files(tmp_path, x25519_pair, fmt, armored):
    if armored and fmt == "warp":
        pytest.skip("warp files have no armor")
    recipient, identity = x25519_pair
    plaintext = b"file contents\n" * 10_000
    (tmp_path / "plain").write_bytes(plaintext)
    warpcrypt.encrypt_file(str(tmp_path / "plain"), str(tmp_path / "enc"), [recipient],
                           armored=armored, format=fmt)
    warpcrypt.decrypt_file(str(tmp_path / "enc"), str(tmp_path / "dec"), [identity])
    assert (tmp_path / "dec").read_bytes() == plaintext


def test_many_recipients_any_opens():
    identities = [warpcrypt.x25519.Identity.generate() for _ in range(3)]
    encrypted = warpcrypt.encrypt(b"shared", [i.to_public() for i in identities])
    for identity in identities:
        assert warpcrypt.decrypt(encrypted, [identity]) == b"shared"
    assert warpcrypt.decrypt(encrypted, [warpcrypt.x25519.Identity.generate(),
                                         identities[2]]) == b"shared"


def test_buffers_other_than_bytes(x25519_pair):
    recipient, identity = x25519_pair
    encrypted = warpcrypt.encrypt(bytearray(b"abc"), (recipient,))
    assert warpcrypt.decrypt(memoryview(encrypted), (identity,)) == b"abc"


@pytest.mark.parametrize("fmt", ["age", "warp"])
@pytest.mark.parametrize("armored", [False, True])
def test_passphrase(fmt, armored):
    if armored and fmt == "warp":
        pytest.skip("warp files have no armor")
    encrypted = passphrase.encrypt(b"junk", "some password", armored=armored, format=fmt,
                                   work_factor=13)
    assert passphrase.decrypt(encrypted, "some password") == b"junk"
    assert passphrase.decrypt(encrypted, b"some password") == b"junk"
    with pytest.raises(warpcrypt.DecryptError):
        passphrase.decrypt(encrypted, "wrong password")


def test_passphrase_file_needs_the_passphrase(x25519_pair):
    _, identity = x25519_pair
    encrypted = passphrase.encrypt(b"junk", "pw", work_factor=13)
    with pytest.raises(warpcrypt.DecryptError):
        warpcrypt.decrypt(encrypted, [identity])
    with pytest.raises(warpcrypt.DecryptError):
        passphrase.decrypt(warpcrypt.encrypt(b"junk", [identity.to_public()]), "pw")


def test_passphrase_work_factor_in_header():
    encrypted = passphrase.encrypt(b"junk", "pw", work_factor=14)
    (entry,) = warpcrypt.info(encrypted).entries
    assert entry.scrypt_log2_n == 14
    with pytest.raises(ValueError):
        passphrase.encrypt(b"junk", "pw", work_factor=0)


def test_tag_recipients_encrypt():
    from support import tag_recipient, tagpq_recipient

    encrypted = warpcrypt.encrypt(b"x", [warpcrypt.tag.Recipient.from_str(tag_recipient())])
    assert [e.type for e in warpcrypt.info(encrypted).entries] == ["p256tag"]
    encrypted = warpcrypt.encrypt(b"x", [warpcrypt.tagpq.Recipient.from_str(tagpq_recipient())])
    assert [e.type for e in warpcrypt.info(encrypted).entries] == ["mlkem768p256tag"]
