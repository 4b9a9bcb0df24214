"""Post-quantum tag recipients (ML-KEM-768 + P-256), age1tagpq1... (as pyrage.tagpq):
recipients only."""

from __future__ import annotations

from . import _keys
from ._native import lib

__all__ = ["Recipient"]


class Recipient(_keys.Recipient):
    """A post-quantum tag recipient, age1tagpq1..."""

    __slots__ = ()
    _KINDS = frozenset({lib.WARPCRYPT_KEY_MLKEM768P256TAG})
    _WHAT = "a post-quantum tag recipient (age1tagpq1...)"

    @classmethod
    def from_str(cls, v: str) -> Recipient:
        return cls._parse(v)


_keys.register(lib.WARPCRYPT_KEY_MLKEM768P256TAG, recipient=Recipient)
