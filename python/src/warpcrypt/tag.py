"""P-256 tag recipients, age1tag1... (a hardware key's, as pyrage.tag): recipients only, since
the secret half stays in the token and a plugin opens the files."""

from __future__ import annotations

from . import _keys
from ._native import lib

__all__ = ["Recipient"]


class Recipient(_keys.Recipient):
    """A P-256 tag recipient, age1tag1..."""

    __slots__ = ()
    _KINDS = frozenset({lib.WARPCRYPT_KEY_P256TAG})
    _WHAT = "a tag recipient (age1tag1...)"

    @classmethod
    def from_str(cls, v: str) -> Recipient:
        return cls._parse(v)


_keys.register(lib.WARPCRYPT_KEY_P256TAG, recipient=Recipient)
