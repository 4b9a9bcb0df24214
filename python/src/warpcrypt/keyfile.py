"""warp key files: a 256-bit secret, WARPCRYPT-KEY-..., for warp-format files only.

The key is symmetric: its "recipient" (to_public) is the same secret, and it has no public text
form. Not in pyrage.
"""

from __future__ import annotations

from . import _keys
from ._native import lib

__all__ = ["Identity", "Recipient"]

_KEY_FILE = frozenset({lib.WARPCRYPT_KEY_KEY_FILE})


class Recipient(_keys.Recipient):
    """A key file to encrypt to (format="warp"); made by Identity.to_public()."""

    __slots__ = ()
    _KINDS = _KEY_FILE
    _WHAT = "a key file"

    # The secret is its only text: neither str() nor repr() shows it.
    def __str__(self) -> str:
        return object.__repr__(self)

    __repr__ = __str__


class Identity(_keys.Identity):
    """A key file's secret; str() gives WARPCRYPT-KEY-..."""

    __slots__ = ()
    _KINDS = _KEY_FILE
    _WHAT = "a key file (WARPCRYPT-KEY-...)"

    @classmethod
    def generate(cls) -> Identity:
        return cls._generate(lib.WARPCRYPT_KEY_KEY_FILE)

    @classmethod
    def from_str(cls, v: str) -> Identity:
        return cls._parse(v)

    def to_public(self) -> Recipient:
        """The recipient to encrypt to with this key (the same secret)."""
        return super().to_public()

    __str__ = _keys.Identity._secret_text


_keys.register(lib.WARPCRYPT_KEY_KEY_FILE, Identity, Recipient)
