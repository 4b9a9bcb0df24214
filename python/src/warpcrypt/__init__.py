"""warpcrypt: file encryption in the age and warp formats, over libwarpcrypt.

A drop-in for pyrage: `import warpcrypt as pyrage` runs a program written for pyrage 1.4
unchanged; encrypt* write age files by default, decrypt* read either format. Beyond pyrage:
`format="warp"`, post-quantum keys (pq), warp key files (keyfile), key files read whole,
decrypt_range and info.
"""

from __future__ import annotations

from . import keyfile, passphrase, plugin, pq, ssh, tag, tagpq, x25519
from ._async import (
    decrypt_async,
    decrypt_file_async,
    decrypt_io_async,
    encrypt_async,
    encrypt_file_async,
    encrypt_io_async,
)
from ._errors import DecryptError, EncryptError, Error, IdentityError, RecipientError
from ._info import Entry, Info, info
from ._keytext import identities_from_file_text, recipients_from_file_text
from ._memory import decrypt, decrypt_range, encrypt
from ._native import lib as _lib
from ._native import text as _text
from ._paths import decrypt_file, encrypt_file
from ._streaming import decrypt_io, encrypt_io

__version__: str = _text(_lib.warpcrypt_version())

__all__ = [
    # pyrage's names, in its order
    "x25519", "tag", "tagpq", "ssh", "passphrase", "plugin",
    "IdentityError", "RecipientError", "EncryptError",
    "encrypt", "encrypt_file", "encrypt_io",
    "encrypt_async", "encrypt_file_async", "encrypt_io_async",
    "DecryptError",
    "decrypt", "decrypt_file", "decrypt_io",
    "decrypt_async", "decrypt_file_async", "decrypt_io_async",
    # warpcrypt's own
    "pq", "keyfile", "Error",
    "identities_from_file_text", "recipients_from_file_text",
    "decrypt_range", "info", "Info", "Entry",
]
