"""Shared fixtures: a key pair of every kind warpcrypt encrypts to and opens."""

from __future__ import annotations

import pytest

import warpcrypt
from support import ssh_keypair


@pytest.fixture(scope="session")
def ssh_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("ssh")


def _pair(kind, ssh_dir):
    """(recipient, identity, formats it can be used in) for one key kind."""
    if kind == "x25519":
        identity = warpcrypt.x25519.Identity.generate()
        return identity.to_public(), identity, ("age", "warp")
    if kind == "pq":
        identity = warpcrypt.pq.Identity.generate()
        return identity.to_public(), identity, ("age", "warp")
    if kind == "keyfile":
        identity = warpcrypt.keyfile.Identity.generate()
        return identity.to_public(), identity, ("warp",)
    public, private = ssh_keypair(ssh_dir, kind)
    return (warpcrypt.ssh.Recipient.from_str(public), warpcrypt.ssh.Identity.from_buffer(private),
            ("age",))


KINDS = ["x25519", "pq", "keyfile", "ed25519", "rsa"]


@pytest.fixture(scope="session", params=KINDS)
def key_pair(request, ssh_dir):
    return _pair(request.param, ssh_dir)


@pytest.fixture
def x25519_pair():
    identity = warpcrypt.x25519.Identity.generate()
    return identity.to_public(), identity


@pytest.fixture
def pyrage():
    """pyrage itself, for the interoperability tests; they are skipped where it is missing."""
    return pytest.importorskip("pyrage")
