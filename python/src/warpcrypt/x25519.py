"""X25519 keys, age's native kind: AGE-SECRET-KEY-1... and age1... (as pyrage.x25519)."""

from __future__ import annotations

from . import _keys
from ._native import lib

__all__ = ["Identity", "Recipient"]

_X25519 = frozenset({lib.WARPCRYPT_KEY_X25519})


class Recipient(_keys.Recipient):
    """An X25519 public key, age1..."""

    __slots__ = ()
    _KINDS = _X25519
    _WHAT = "an X25519 recipient (age1...)"

    @classmethod
    def from_str(cls, v: str) -> Recipient:
        """Parses age1...; RecipientError for anything else (a post-quantum age1pq1... too)."""
        return cls._parse(v)


class Identity(_keys.Identity):
    """An X25519 secret key; str() gives AGE-SECRET-KEY-1..."""

    __slots__ = ()
    _KINDS = _X25519
    _WHAT = "an X25519 identity (AGE-SECRET-KEY-1...)"

    @classmethod
    def generate(cls) -> Identity:
        return cls._generate(lib.WARPCRYPT_KEY_X25519)

    @classmethod
    def from_str(cls, v: str) -> Identity:
        """Parses AGE-SECRET-KEY-1...; IdentityError for anything else."""
        return cls._parse(v)

    def to_public(self) -> Recipient:
        return super().to_public()

    __str__ = _keys.Identity._secret_text


_keys.register(lib.WARPCRYPT_KEY_X25519, Identity, Recipient)
