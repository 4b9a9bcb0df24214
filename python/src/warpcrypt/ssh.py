"""SSH keys as age uses them, ssh-ed25519 and ssh-rsa (as pyrage.ssh); age files only."""

from __future__ import annotations

from typing import Optional, Union

from . import _keys
from ._errors import IdentityError, make_error
from ._keytext import parse_identities
from ._native import lib

__all__ = ["Identity", "Recipient"]

_SSH = frozenset({lib.WARPCRYPT_KEY_SSH_ED25519, lib.WARPCRYPT_KEY_SSH_RSA})


class Recipient(_keys.Recipient):
    """An SSH public key: one line of authorized_keys or of a .pub file."""

    __slots__ = ()
    _KINDS = _SSH
    _WHAT = "an SSH recipient (ssh-ed25519 or ssh-rsa)"

    @classmethod
    def from_str(cls, v: str) -> Recipient:
        return cls._parse(v)


class Identity(_keys.Identity):
    """An SSH private key (OpenSSH or PEM format). It has no text form here: str() is the
    default object text, as in pyrage."""

    __slots__ = ()
    _KINDS = _SSH
    _WHAT = "an SSH identity"

    @classmethod
    def from_buffer(cls, buf: bytes,
                    passphrase: Optional[Union[str, bytes]] = None) -> Identity:
        """The key in `buf`, a private key file's contents. pyrage refuses encrypted keys;
        here `passphrase` (not in pyrage) opens one."""
        if isinstance(buf, str):
            data = buf.encode("utf-8")
        elif isinstance(buf, (bytes, bytearray, memoryview)):
            data = bytes(buf)
        else:
            raise TypeError(f"argument 'buf': '{type(buf).__name__}' object cannot be "
                            "converted to 'PyBytes'")
        secret = None if passphrase is None else _keys.secret_argument(passphrase, "passphrase")
        identities = parse_identities(data, secret)
        # The parser takes any identity file; this class is for one SSH key.
        if len(identities) != 1 or identities[0]._kind not in _SSH:
            raise make_error(IdentityError, "invalid SSH identity")
        return identities[0]


_keys.register(lib.WARPCRYPT_KEY_SSH_ED25519, Identity, Recipient)
_keys.register(lib.WARPCRYPT_KEY_SSH_RSA, Identity, Recipient)
