"""Against the real pyrage (skipped where it is not installed): files and keys both ways, and
the same exception class for the same mistake."""

from __future__ import annotations

import io

import pytest

import warpcrypt
from support import plugin_identity, ssh_keypair, tag_recipient, tagpq_recipient


@pytest.mark.parametrize("armored", [False, True])
def test_x25519_both_ways(pyrage, armored):
    ours = warpcrypt.x25519.Identity.generate()
    theirs = pyrage.x25519.Identity.from_str(str(ours))
    assert str(theirs.to_public()) == str(ours.to_public())
    plaintext = bytes(range(256)) * 1000
    from_us = warpcrypt.encrypt(plaintext, [ours.to_public()], armored=armored)
    assert pyrage.decrypt(from_us, [theirs]) == plaintext
    from_them = pyrage.encrypt(plaintext, [theirs.to_public()], armored=armored)
    assert warpcrypt.decrypt(from_them, [ours]) == plaintext

    generated = pyrage.x25519.Identity.generate()
    assert str(warpcrypt.x25519.Identity.from_str(str(generated))) == str(generated)
    assert (str(warpcrypt.x25519.Recipient.from_str(str(generated.to_public())))
            == str(generated.to_public()))


@pytest.mark.parametrize("kind", ["ed25519", "rsa"])
def test_ssh_both_ways(pyrage, tmp_path, kind):
    public, private = ssh_keypair(tmp_path, kind)
    from_us = warpcrypt.encrypt(b"ssh", [warpcrypt.ssh.Recipient.from_str(public)])
    assert pyrage.decrypt(from_us, [pyrage.ssh.Identity.from_buffer(private)]) == b"ssh"
    from_them = pyrage.encrypt(b"ssh", [pyrage.ssh.Recipient.from_str(public)])
    assert warpcrypt.decrypt(from_them, [warpcrypt.ssh.Identity.from_buffer(private)]) == b"ssh"


def test_passphrase_both_ways(pyrage):
    from_us = warpcrypt.passphrase.encrypt(b"pw", "correct horse", work_factor=13)
    assert pyrage.passphrase.decrypt(from_us, "correct horse") == b"pw"
    from_them = pyrage.passphrase.encrypt(b"pw", "correct horse", armored=True)
    assert warpcrypt.passphrase.decrypt(from_them, "correct horse") == b"pw"


def test_streams_both_ways(pyrage):
    ours = warpcrypt.x25519.Identity.generate()
    theirs = pyrage.x25519.Identity.from_str(str(ours))
    plaintext = b"stream" * 100_000
    sink = io.BytesIO()
    warpcrypt.encrypt_io(io.BytesIO(plaintext), sink, [ours.to_public()])
    out = io.BytesIO()
    pyrage.decrypt_io(io.BytesIO(sink.getvalue()), out, [theirs])
    assert out.getvalue() == plaintext
    sink = io.BytesIO()
    pyrage.encrypt_io(io.BytesIO(plaintext), sink, [theirs.to_public()], armored=True)
    out = io.BytesIO()
    warpcrypt.decrypt_io(io.BytesIO(sink.getvalue()), out, [ours])
    assert out.getvalue() == plaintext


def test_other_keys_parse_alike(pyrage):
    for module in ("tag", "tagpq"):
        text = tag_recipient() if module == "tag" else tagpq_recipient()
        assert str(getattr(pyrage, module).Recipient.from_str(text)) == text
        assert str(getattr(warpcrypt, module).Recipient.from_str(text)) == text
    theirs = pyrage.plugin.Identity.default_for_plugin("yubikey")
    assert str(warpcrypt.plugin.Identity.default_for_plugin("yubikey")) == str(theirs)
    ours = warpcrypt.plugin.Identity.from_str(plugin_identity("fake"))
    assert pyrage.plugin.Identity.from_str(str(ours)).plugin() == ours.plugin()


def _raised(call):
    try:
        call()
    except BaseException as error:  # the class is what is compared
        return type(error).__name__
    return None


def test_same_exception_classes(pyrage):
    def cases(lib):
        identity = lib.x25519.Identity.generate()
        recipient = identity.to_public()
        encrypted = lib.encrypt(b"x" * 1000, [recipient])
        return [
            lambda: lib.encrypt(b"x", []),
            lambda: lib.encrypt("x", [recipient]),
            lambda: lib.encrypt(b"x", [identity]),
            lambda: lib.encrypt(b"x", recipient),
            lambda: lib.encrypt(b"x", [recipient], armored=1),
            lambda: lib.decrypt(encrypted, [lib.x25519.Identity.generate()]),
            lambda: lib.decrypt(encrypted[:-5], [identity]),
            lambda: lib.decrypt(b"garbage", [identity]),
            lambda: lib.decrypt(encrypted, [recipient]),
            lambda: lib.x25519.Identity.from_str("AGE-SECRET-KEY-1XYZ"),
            lambda: lib.x25519.Recipient.from_str("age1xyz"),
            lambda: lib.x25519.Recipient.from_str(str(identity)),
            lambda: lib.x25519.Recipient.from_str(5),
            lambda: lib.ssh.Recipient.from_str("invalid ssh pubkey"),
            lambda: lib.ssh.Identity.from_buffer(b"garbage"),
            lambda: lib.tag.Recipient.from_str("badprefix"),
            lambda: lib.tagpq.Recipient.from_str("badprefix"),
            lambda: lib.plugin.Identity.from_str("invalid~~~"),
            lambda: lib.plugin.Identity.default_for_plugin("invalid~~~name"),
            lambda: lib.plugin.Recipient.from_str(str(recipient)),
            lambda: lib.passphrase.decrypt(encrypted, "pw"),
            lambda: lib.encrypt_io("test", io.BytesIO(), [recipient]),
            lambda: lib.decrypt_io(io.BytesIO(encrypted), io.BytesIO(),
                                   [lib.x25519.Identity.generate()]),
            lambda: lib.encrypt_file("/nonexistent/in", "/nonexistent/out", [recipient]),
            lambda: lib.x25519.Identity(),
        ]

    assert ([_raised(c) for c in cases(warpcrypt)] == [_raised(c) for c in cases(pyrage)])
