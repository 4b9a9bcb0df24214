"""Helpers of the tests: key material made on the spot (Bech32 texts, SSH keys) and a fake age
plugin, so that the tests need no fixture files and no network."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

_CHARSET = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"


def _polymod(values):
    generator = [0x3B6A57B2, 0x26508E6D, 0x1EA119FA, 0x3D4233DD, 0x2A1462B3]
    check = 1
    for value in values:
        top = check >> 25
        check = (check & 0x1FFFFFF) << 5 ^ value
        for i in range(5):
            check ^= generator[i] if (top >> i) & 1 else 0
    return check


def bech32(hrp: str, data: bytes) -> str:
    """Bech32 (BIP 173) without its length limit, as age writes keys."""
    words, acc, bits = [], 0, 0
    for byte in data:
        acc, bits = acc << 8 | byte, bits + 8
        while bits >= 5:
            bits -= 5
            words.append(acc >> bits & 31)
    if bits:
        words.append(acc << (5 - bits) & 31)
    expanded = [ord(c) >> 5 for c in hrp] + [0] + [ord(c) & 31 for c in hrp]
    checksum = _polymod(expanded + words + [0] * 6) ^ 1
    words += [checksum >> 5 * (5 - i) & 31 for i in range(6)]
    return hrp + "1" + "".join(_CHARSET[w] for w in words)


# P-256's generator, a point on the curve as good as any for a public key.
_GX = bytes.fromhex("6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296")
_GY = bytes.fromhex("4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5")


def tag_recipient() -> str:
    """An age1tag1... recipient: the compressed point (Gy is odd: prefix 03)."""
    return bech32("age1tag", b"\x03" + _GX)


def tagpq_recipient() -> str:
    """An age1tagpq1... recipient: an ML-KEM-768 key of zero coefficients (every one below q,
    so FIPS 203's check passes) and any seed, then the uncompressed point."""
    ek = bytes(1152) + bytes(range(32))
    return bech32("age1tagpq", ek + b"\x04" + _GX + _GY)


def plugin_recipient(name: str, data: bytes = b"\x01\x02\x03") -> str:
    return bech32("age1" + name, data)


def plugin_identity(name: str, data: bytes = b"\x04\x05\x06") -> str:
    return bech32(f"age-plugin-{name}-", data).upper()


def ssh_keypair(directory: Path, kind: str, passphrase: str = "") -> tuple[str, bytes]:
    """(public key line, private key file bytes) of a new key made by ssh-keygen."""
    if shutil.which("ssh-keygen") is None:
        pytest.skip("ssh-keygen is not installed")
    path = directory / f"id_{kind}_{len(passphrase)}"
    args = ["ssh-keygen", "-q", "-t", kind, "-N", passphrase, "-C", "test", "-f", str(path)]
    if kind == "rsa":
        args[4:4] = ["-b", "2048"]
    subprocess.run(args, check=True, stdin=subprocess.DEVNULL)
    return path.with_suffix(".pub").read_text().strip(), path.read_bytes()


# A fake age plugin, "age-plugin-fake": it "wraps" the file key by storing it as the stanza
# body (no security at all). Unwrapping asks the three questions of phase 2 first (a message,
# a secret, a confirmation) and gives the file key only if the secret is "hunter2" and the
# answer is yes, so the tests see each callback's effect.
_PLUGIN = r'''
import base64, sys

def read_stanza(stream):
    line = stream.readline()
    if not line:
        return None
    args = line.rstrip("\n").split(" ")
    assert args[0] == "->", line
    body = ""
    while True:
        part = stream.readline().rstrip("\n")
        body += part
        if len(part) < 64:
            break
    return args[1:], base64.b64decode(body + "=" * (-len(body) % 4))

def send(args, body=b""):
    text = base64.b64encode(body).decode().rstrip("=")
    lines = [text[i:i + 64] for i in range(0, len(text), 64)]
    if not lines or len(lines[-1]) == 64:
        lines.append("")
    sys.stdout.write("-> " + " ".join(args) + "\n" + "\n".join(lines) + "\n")
    sys.stdout.flush()

def ask(args, body):
    send(args, body)
    reply, answer = read_stanza(sys.stdin)
    return reply, answer

state = sys.argv[1].split("=", 1)[1]
commands = []
while True:
    stanza = read_stanza(sys.stdin)
    if stanza is None or stanza[0][0] == "done":
        break
    commands.append(stanza)

if state == "recipient-v1":
    ask(["msg"], b"wrapping")
    for args, body in commands:
        if args[0] == "wrap-file-key":
            ask(["recipient-stanza", "0", "fake"], body)
else:
    ask(["msg"], b"unwrapping")
    reply, secret = ask(["request-secret"], b"the PIN?")
    reply2, _ = ask(["confirm", base64.b64encode(b"go").decode().rstrip("="),
                     base64.b64encode(b"stop").decode().rstrip("=")], b"proceed?")
    if reply == ["ok"] and secret == b"hunter2" and reply2 == ["ok", "yes"]:
        for args, body in commands:
            if args[0] == "recipient-stanza" and args[2] == "fake":
                ask(["file-key", args[1]], body)
send(["done"])
'''


def install_fake_plugin(directory: Path) -> None:
    """Writes age-plugin-fake into `directory`, to be put on the PATH."""
    path = directory / "age-plugin-fake"
    path.write_text(f"#!{sys.executable}\n" + textwrap.dedent(_PLUGIN))
    path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)


def with_path(directory: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", f"{directory}{os.pathsep}{os.environ.get('PATH', '')}")
