"""Post-quantum keys (ML-KEM-768 + X25519, age's mlkem768x25519): AGE-SECRET-KEY-PQ-1... and
age1pq1.... Not in pyrage; files to them open with age 1.3 and later, and with warpcrypt."""

from __future__ import annotations

from . import _keys
from ._native import lib

__all__ = ["Identity", "Recipient"]

_PQ = frozenset({lib.WARPCRYPT_KEY_MLKEM768X25519})


class Recipient(_keys.Recipient):
    """A post-quantum public key, age1pq1..."""

    __slots__ = ()
    _KINDS = _PQ
    _WHAT = "a post-quantum recipient (age1pq1...)"

    @classmethod
    def from_str(cls, v: str) -> Recipient:
        return cls._parse(v)


class Identity(_keys.Identity):
    """A post-quantum secret key; str() gives AGE-SECRET-KEY-PQ-1..."""

    __slots__ = ()
    _KINDS = _PQ
    _WHAT = "a post-quantum identity (AGE-SECRET-KEY-PQ-1...)"

    @classmethod
    def generate(cls) -> Identity:
        return cls._generate(lib.WARPCRYPT_KEY_MLKEM768X25519)

    @classmethod
    def from_str(cls, v: str) -> Identity:
        return cls._parse(v)

    def to_public(self) -> Recipient:
        return super().to_public()

    __str__ = _keys.Identity._secret_text


_keys.register(lib.WARPCRYPT_KEY_MLKEM768X25519, Identity, Recipient)
